#include "widgets/steadyscrollarea.h"

#include <QEvent>

#include <algorithm>

namespace rfx {

namespace {
// The area's own resize of its widget may resize it once more (a scroll bar shown or hidden): two
// levels settle every case that can settle; a third is the back and forth.
constexpr int kMostNestedResizes = 3;
} // namespace

SteadyScrollArea::SteadyScrollArea(QWidget* parent)
    : QScrollArea(parent)
{
}

bool SteadyScrollArea::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() != QEvent::Resize || watched != widget())
        return QScrollArea::eventFilter(watched, event);
    if (m_depth >= kMostNestedResizes)
        return false;
    ++m_depth;
    m_deepest = std::max(m_deepest, m_depth);
    const bool handled = QScrollArea::eventFilter(watched, event);
    --m_depth;
    return handled;
}

} // namespace rfx
