// The guided tour's highlight: the memory slope, the compute roof, the ridge or a layer, marked on
// the chart itself with a broad translucent stroke, so that a class sees what each page explains.
#include "chart/rooflinechart.h"
#include "chart/rooflinechart_p.h"

#include <QGraphicsPathItem>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPainterPathStroker>
#include <QPen>

#include <algorithm>
#include <cmath>

namespace rfx {

void RooflineChart::setHighlight(Highlight what, int layer)
{
    m_highlightWhat = what;
    m_highlightLayer = layer;
    updateHighlight();
}

void RooflineChart::updateHighlight()
{
    if (m_highlightWhat == Highlight::None || m_devices.empty() || m_series.empty() || m_report->results.empty()) {
        if (m_highlight)
            m_highlight->setVisible(false);
        return;
    }
    if (!m_highlight) {
        m_highlight = new QGraphicsPathItem(m_chart);
        m_highlight->setZValue(50); // above the series, below tooltips and the read-out
        m_highlight->setBrush(Qt::NoBrush);
    }
    const DeviceResult& d = m_report->results[size_t(m_devices.front())];
    QLineSeries* roof = m_series.front()->roof;
    const double B = d.bandwidth / m_scale, P = d.ceiling.flops / m_scale;
    const double xmin = m_x->min(), xmax = m_x->max(), ymin = m_y->min();
    auto at = [&](double x, double y) { return m_chart->mapToPosition(QPointF(x, y), roof); };
    QPainterPath path;
    double width = 14;
    switch (m_highlightWhat) {
    case Highlight::Slope: {
        const double start = std::max(xmin, ymin / B);
        path.moveTo(at(start, start * B));
        path.lineTo(at(d.ridge, P));
        break;
    }
    case Highlight::Roof:
        path.moveTo(at(d.ridge, P));
        path.lineTo(at(xmax, P));
        break;
    case Highlight::Ridge: {
        const QPointF c = at(d.ridge, P);
        path.addEllipse(c, 16, 16);
        width = 6;
        break;
    }
    case Highlight::Layer: {
        if (m_highlightLayer < 0 || m_highlightLayer >= int(d.layers.size())) {
            m_highlight->setVisible(false);
            return;
        }
        const LayerResult& l = d.layers[size_t(m_highlightLayer)];
        const QPointF c = at(l.intensity, plottedRate(l) / m_scale);
        path.addEllipse(c, 18, 18);
        width = 6;
        break;
    }
    case Highlight::None:
        break;
    }
    // The broad stroke as an area, clipped to the plot: a ring at the plot's edge was drawn over the
    // axis's tick labels.
    QPainterPathStroker stroke;
    stroke.setWidth(width * m_fontScale);
    stroke.setCapStyle(Qt::RoundCap);
    stroke.setJoinStyle(Qt::RoundJoin);
    QPainterPath plot;
    plot.addRect(m_chart->plotArea());
    m_highlightBounds = path.boundingRect();
    m_highlight->setPen(Qt::NoPen);
    m_highlight->setBrush(QColor(255, 170, 0, 140)); // amber, translucent: the line stays visible through it
    m_highlight->setPath(stroke.createStroke(path).simplified().intersected(plot));
    m_highlight->setVisible(true);
}

QRectF RooflineChart::highlightRect() const
{
    return m_highlight && m_highlight->isVisible() ? m_highlightBounds : QRectF();
}

QRectF RooflineChart::highlightDrawnRect() const
{
    return m_highlight && m_highlight->isVisible() ? m_highlight->path().boundingRect() : QRectF();
}

} // namespace rfx
