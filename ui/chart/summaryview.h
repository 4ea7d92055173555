#pragma once

#include "engine/roofline.h"

#include <QString>

namespace rfx {

/// The summary of one device's result as rich text: time, throughput, attained against peak,
/// memory against capacity (with the largest batch that fits) and the verdict.
QString summaryHtml(const DeviceResult& result, const Config& config);
/// The same in one line, for a window short of height: time, throughput, attained share of the peak,
/// and whether it fits in memory (the whole summary is the tooltip).
QString summaryHeadline(const DeviceResult& result, const Config& config);

} // namespace rfx

#include "chart/summarylayout.h"
#include "widgets/glyphstamp.h"

#include <QImage>
#include <QTextDocument>
#include <QWidget>

namespace rfx {

/// Shows a summary under a chart. Its HTML is laid out once per change and only drawn when painted
/// (a rich-text QLabel parsed and laid its text out again on every paint and size query, a fifth of
/// a live slider step, callgrind): by SummaryLayout and GlyphStamp where they read it (summaryHtml's
/// few tags), else by a QTextDocument. Its height is "sticky": fitted to the text
/// when the width changes, only ever grown when the text changes (as it does on every step of a
/// drag), so that the chart above is not resized, and laid out again, on every step.
/// Right-click offers "Copy summary" (plain text).
class SummaryText : public QWidget {
    Q_OBJECT
public:
    explicit SummaryText(QWidget* parent = nullptr);
    /// `mayShrink`: fit the height to the new text even when it is shorter (a change of form, not a
    /// slider step).
    void setHtml(const QString& html, bool mayShrink = false);
    QString html() const { return m_html; }
    /// The text as a user would type it: ordinary spaces, no word joiners (they only keep units whole).
    QString plainText() const
    {
        return document()->toPlainText().replace(QChar(0x00a0), QLatin1Char(' ')).remove(QChar(0x2060));
    }
    /// The text as a QTextDocument at the current width (made from the HTML when asked for).
    const QTextDocument* document() const;
    /// The height `html` would take at the current width (whatever is shown now).
    int heightFor(const QString& html) const;

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void fit(bool mayShrink);
    QFont documentFont() const;
    int contentHeight() const;
    /// Paints the document from an image composed by GlyphStamp (redrawn when the text, width or colour
    /// changes) where the painter is a raster one at pixel ratio 1; false: draw it through Qt.
    bool paintStamped(QPainter& painter, const QColor& text);
    mutable QTextDocument m_doc; ///< the HTML laid out by Qt, made when asked for (document())
    mutable QString m_docHtml; ///< the HTML m_doc holds
    QString m_html;
    SummaryLayout m_layout; ///< the HTML laid out for GlyphStamp, when it reads it (m_laidOut)
    bool m_laidOut = false;
    int m_wrappedAt = -1; ///< the width m_layout was wrapped at
    mutable GlyphStamp m_stamp;
    QImage m_image; ///< the document as last composed; null when it changed since
    QRgb m_imageColor = 0;
    bool m_stampRefused = false; ///< the document has what only Qt draws (until it changes)
};

} // namespace rfx
