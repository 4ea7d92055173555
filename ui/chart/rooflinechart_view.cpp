// The view: zoom and pan (the range shown, set by ChartNavigator, reset by Home), and where a value
// sits on the plot and in the viewport.
#include "chart/rooflinechart_p.h"

#include "chart/chartnavigator.h"

#include <QChart>
#include <QGraphicsRectItem>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>

#include <algorithm>

namespace rfx {

using namespace chartdetail;

double RooflineChart::spanLeft() const { return m_zoomed ? std::min(shownXlo(), m_view.xlo) : shownXlo(); }

double RooflineChart::spanRight() const { return m_zoomed ? std::max(shownXhi(), m_view.xhi) : shownXhi(); }

void RooflineChart::setView(const ChartNavigator::Range& view)
{
    // Refuse a view no log axis can show (a zoom far past a float's range): keep the last one.
    for (double v : { view.xlo, view.xhi, view.ylo, view.yhi })
        if (!(v > 1e-30 && v < 1e30))
            return;
    // Never closer than a factor of 4 on an axis: the powers of two must still label it.
    if (!(view.xhi >= view.xlo * 3.99 && view.yhi >= view.ylo * 3.99))
        return;
    m_zoomed = true;
    m_view = view;
    setVisibleIf(m_readoutBack, false); // it described the old view; the next mouse move brings it back
    rebuild();
}

ChartNavigator::Range RooflineChart::viewRange() const
{
    return m_zoomed ? m_view : ChartNavigator::Range { m_x->min(), m_x->max(), m_y->min(), m_y->max() };
}

void RooflineChart::resetView()
{
    m_zoomed = false;
    setVisibleIf(m_readoutBack, false);
    fitAxes();
}

QRectF RooflineChart::plotArea() const { return m_chart->plotArea(); }

QPoint RooflineChart::viewportPosition(QPointF value) const
{
    const QAbstractSeries* any = m_series.empty() ? static_cast<QAbstractSeries*>(m_selection) : m_series.front()->roof;
    return mapFromScene(m_chart->mapToScene(m_chart->mapToPosition(value, const_cast<QAbstractSeries*>(any))));
}

QPointF RooflineChart::xRange() const { return { shownXlo(), shownXhi() }; }

QPointF RooflineChart::yRange() const { return { shownYlo(), shownYhi() }; }

} // namespace rfx
