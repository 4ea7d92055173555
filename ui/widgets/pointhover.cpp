#include "widgets/pointhover.h"

#include <QChart>
#include <QChartView>
#include <QEvent>
#include <QHelpEvent>
#include <QLineSeries>
#include <QMouseEvent>
#include <QScatterSeries>
#include <QToolTip>

#include <cmath>

namespace rfx {

PointHover::SeriesFn PointHover::allSeries(QChartView* view)
{
    return [view] {
        std::vector<QXYSeries*> out;
        for (QAbstractSeries* s : view->chart()->series())
            if (auto* xy = qobject_cast<QXYSeries*>(s))
                out.push_back(xy);
        return out;
    };
}

PointHover::PointHover(QChartView* view, SeriesFn series, TextFn text)
    : QObject(view)
    , m_view(view)
    , m_series(std::move(series))
    , m_text(std::move(text))
{
    view->viewport()->setMouseTracking(true);
    view->viewport()->installEventFilter(this);
}

PointHover::Hit PointHover::pointAt(QPoint viewportPos) const
{
    QChart* chart = m_view->chart();
    Hit best;
    double bestDistance = INFINITY;
    const QPointF at = chart->mapFromScene(m_view->mapToScene(viewportPos));
    if (!chart->plotArea().adjusted(-12, -12, 12, 12).contains(at))
        return best;
    for (QXYSeries* s : m_series()) {
        if (!s || !s->isVisible() || s->count() == 0)
            continue;
        if (s->type() != QAbstractSeries::SeriesTypeScatter && !s->pointsVisible())
            continue; // a line without point markers has nothing to point at
        // A marker's radius plus a little slack: small points must stay easy to hit.
        const double reach = s->markerSize() / 2 + 3;
        const QList<QPointF> pts = s->points();
        for (int i = 0; i < pts.size(); ++i) {
            const QPointF p = chart->mapToPosition(pts[i], s);
            const double d = std::hypot(p.x() - at.x(), p.y() - at.y());
            if (d <= reach && d < bestDistance) {
                bestDistance = d;
                best = { s, i };
            }
        }
    }
    return best;
}

bool PointHover::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() == QEvent::MouseMove) {
        auto* e = static_cast<QMouseEvent*>(event);
        const Hit hit = pointAt(e->position().toPoint());
        const QString text = hit ? m_text(hit) : QString();
        if (text.isEmpty()) {
            if (!m_shown.isEmpty())
                QToolTip::hideText();
            m_shown.clear();
        } else if (text != m_shown || !QToolTip::isVisible()) {
            m_shown = text;
            QToolTip::showText(e->globalPosition().toPoint(), text, m_view->viewport());
        }
    } else if (event->type() == QEvent::ToolTip) {
        // Qt's own tooltip event comes a moment after the mouse rests; QGraphicsScene answers it by
        // hiding every tooltip when no item has one of its own, which took ours away. Answer it
        // here instead: the point's tooltip again, or nothing.
        auto* e = static_cast<QHelpEvent*>(event);
        const Hit hit = pointAt(e->pos());
        const QString text = hit ? m_text(hit) : QString();
        if (!text.isEmpty()) {
            m_shown = text;
            QToolTip::showText(e->globalPos(), text, m_view->viewport());
            return true;
        }
    } else if (event->type() == QEvent::Leave) {
        if (!m_shown.isEmpty())
            QToolTip::hideText();
        m_shown.clear();
    }
    return QObject::eventFilter(watched, event);
}

} // namespace rfx
