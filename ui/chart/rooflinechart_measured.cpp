// Measured timings beside the model: diamonds joined to their modelled points.
#include "chart/rooflinechart_p.h"

#include "base/format.h"
#include "chart/chartnavigator.h"
#include "style/labelplacer.h"
#include "widgets/pointhover.h"

#include <QApplication>
#include <QChart>
#include <QFontMetricsF>
#include <QGraphicsLineItem>
#include <QGraphicsRectItem>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QMouseEvent>
#include <QPainter>
#include <QPen>
#include <QResizeEvent>
#include <QScatterSeries>
#include <QTextDocument>
#include <QToolTip>

#include <cmath>
#include <cstring>

namespace rfx {

using namespace chartdetail;

void RooflineChart::setMeasured(int device, const Comparison& comparison)
{
    m_measuredDevice = device;
    m_measured = comparison;
    rebuild();
}

void RooflineChart::clearMeasured()
{
    if (m_measuredDevice < 0)
        return;
    m_measuredDevice = -1;
    m_measured = {};
    rebuild();
}

void RooflineChart::drawMeasured(size_t slot, const DeviceResult& d)
{
    QList<QPointF> below, above;
    m_measuredRows[0].clear();
    m_measuredRows[1].clear();
    size_t used = 0;
    const QColor joinColor
        = m_devices.size() > 1 ? deviceColor(slot) : (dark() ? QColor(0xbb, 0xbb, 0xbb) : QColor(0x55, 0x55, 0x55));
    for (size_t row = 0; row < m_measured.layers.size(); ++row) {
        const LayerComparison& lc = m_measured.layers[row];
        if (lc.layer >= d.layers.size() || lc.measured <= 0)
            continue;
        const LayerResult& l = d.layers[lc.layer];
        const double f = lc.measuredFlops >= 0 ? lc.measuredFlops : l.flops;
        const double q = lc.measuredBytes > 0 ? lc.measuredBytes : l.bytes;
        if (!(f > 0 && q > 0) || l.intensity <= 0 || plottedRate(l) <= 0)
            continue; // a log axis cannot place it (zero-FLOP rows such as concat)
        const QPointF measured(f / q, f / lc.measured / m_scale);
        (lc.aboveRoof ? above : below).append(measured);
        m_measuredRows[lc.aboveRoof ? 1 : 0].push_back(row);
        if (used == m_joins.size()) {
            auto* j = new QLineSeries;
            m_chart->addSeries(j);
            j->attachAxis(m_x);
            j->attachAxis(m_y);
            m_chart->legend()->markers(j).first()->setVisible(false);
            m_joins.push_back(j);
        }
        QLineSeries* j = m_joins[used++];
        replaceIf(j, QList<QPointF> { QPointF(l.intensity, plottedRate(l) / m_scale), measured });
        const QPen pen(joinColor, 1.0, Qt::DotLine);
        if (j->pen() != pen)
            j->setPen(pen);
        setVisibleIf(j, true);
    }
    for (size_t k = used; k < m_joins.size(); ++k)
        setVisibleIf(m_joins[k], false);
    // Shown before their points are replaced: Qt Charts 6.4 places the markers of a series made
    // visible after its points changed a fraction of a pixel off (the chart oracle saw it).
    setVisibleIf(m_measuredPoints, true);
    setVisibleIf(m_measuredAbove, !above.isEmpty());
    replaceIf(m_measuredPoints, below);
    replaceIf(m_measuredAbove, above);
    m_chart->legend()->markers(m_measuredPoints).first()->setVisible(true);
    m_chart->legend()->markers(m_measuredAbove).first()->setVisible(!above.isEmpty());
}

std::vector<QPointF> RooflineChart::measuredPoints() const
{
    std::vector<QPointF> out;
    if (m_measuredDevice < 0)
        return out;
    for (QScatterSeries* s : { m_measuredPoints, m_measuredAbove })
        for (const QPointF& p : s->points())
            out.push_back(p);
    std::sort(out.begin(), out.end(), [](const QPointF& a, const QPointF& b) { return a.x() < b.x(); });
    return out;
}

} // namespace rfx
