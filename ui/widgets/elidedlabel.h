#pragma once

#include <QLabel>

namespace rfx {

/// A one-line plain-text label that, short of room, ends its text with "…" rather than cutting it
/// mid-word (the status bar's analysis line beside the measurements' line at 1280 px read
/// "... 385 GFLOP = 19"). text() stays the whole text.
class ElidedLabel : public QLabel {
    Q_OBJECT
public:
    using QLabel::QLabel;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
};

} // namespace rfx
