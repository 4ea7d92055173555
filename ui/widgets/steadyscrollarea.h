#pragma once

#include <QScrollArea>

namespace rfx {

/// A QScrollArea (widget resizable) that does not resize its widget back and forth without end. A
/// widget whose height depends on its width (the charts' summaries wrap) can need a vertical scroll
/// bar at one width and not at the width the bar leaves it: QScrollArea then resized it from its own
/// resize handler, over and over, until the stack ran out (a window in language-model mode with three
/// devices at 1440 x 810 and type 1.5x larger crashed so). A resize the area causes while handling
/// one it caused itself is left as it is: the widget keeps its last size, the bars their last state.
class SteadyScrollArea : public QScrollArea {
public:
    explicit SteadyScrollArea(QWidget* parent = nullptr);
    /// How deep the area's handling of its widget's resizes went (for tests): 1 when it settled at once.
    int deepestResize() const { return m_deepest; }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    int m_depth = 0;
    int m_deepest = 0;
};

} // namespace rfx
