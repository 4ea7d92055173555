#pragma once

#include <QStatusBar>

namespace rfx {

/// A QStatusBar whose messages end with "…" where they do not fit, the whole message in the tooltip.
/// QStatusBar cuts a message at the first permanent widget mid-letter: at 1024 x 640 in presentation
/// type "... draws every device o" ran into "⚠ 1 note" (issue 73 item 4). currentMessage() stays the
/// whole message.
class ElidingStatusBar : public QStatusBar {
    Q_OBJECT
public:
    explicit ElidingStatusBar(QWidget* parent = nullptr);
    /// The message as drawn now: the whole of it where it fits, else its start and "…" (for tests).
    QString shownMessage() const;

protected:
    void paintEvent(QPaintEvent* event) override;
    bool event(QEvent* event) override;

private:
    /// Where a message goes: from the left edge to the first permanent widget or the size grip.
    QRect messageRect() const;
};

} // namespace rfx
