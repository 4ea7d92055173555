#pragma once

#include "widgets/glyphstamp.h"

#include <QImage>
#include <QLabel>

namespace rfx {

/// A one-line plain-text label that, short of room, ends its text with "…" rather than cutting it
/// mid-word (the status bar's analysis line beside the measurements' line at 1280 px read
/// "... 385 GFLOP = 19"). text() stays the whole text.
///
/// Rewritten on every slider step (the analysis line's totals): a text that fits is composed by
/// GlyphStamp, unshaped as the layer table's cells, and kept as an image until it changes; one that
/// does not fit, or that needs Qt's text engine, is elided and drawn by the style.
class ElidedLabel : public QLabel {
    Q_OBJECT
public:
    using QLabel::QLabel;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    /// Draws the whole text from a GlyphStamp image where it fits and the stamp takes it.
    bool paintStamped(QPainter& painter, const QRect& room);
    GlyphStamp m_stamp;
    QImage m_image;
    QString m_imageText;
    QFont m_imageFont;
    QRgb m_imageColor = 0;
    double m_imageWidth = 0;
};

} // namespace rfx
