// What a hovered or clicked point stands for (PointHover finds a hovered point; Qt Charts reports clicks).
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

std::vector<QXYSeries*> RooflineChart::hoverableSeries() const
{
    std::vector<QXYSeries*> out { m_measuredPoints, m_measuredAbove };
    for (size_t slot = 0; slot < m_devices.size() && slot < m_series.size(); ++slot) {
        const DeviceSeries* s = m_series[slot];
        for (const auto& row : s->points)
            out.insert(out.end(), row.begin(), row.end());
        out.insert(out.end(), s->levelPoints.begin(), s->levelPoints.end());
    }
    return out;
}

QString RooflineChart::tooltipFor(const PointHover::Hit& hit) const
{
    for (size_t m = 0; m < 2; ++m)
        if (hit.series == (m == 0 ? m_measuredPoints : m_measuredAbove) && size_t(hit.index) < m_measuredRows[m].size())
            return measuredTooltip(m_measuredRows[m][size_t(hit.index)]);
    for (size_t slot = 0; slot < m_devices.size() && slot < m_series.size(); ++slot) {
        const DeviceSeries* s = m_series[slot];
        for (size_t b = 0; b < size_t(kMarks); ++b)
            for (size_t k = 0; k < size_t(kBuckets); ++k)
                if (hit.series == s->points[b][k] && size_t(hit.index) < s->layers[b][k].size())
                    return layerTooltip(slot, s->layers[b][k][size_t(hit.index)]);
        for (size_t v = 0; v < size_t(kLevels); ++v)
            if (hit.series == s->levelPoints[v] && size_t(hit.index) < s->levelLayers[v].size())
                return levelTooltip(slot, s->levelLayers[v][size_t(hit.index)], int(v));
    }
    return {};
}

QString RooflineChart::layerTooltip(size_t slot, int layer) const
{
    const DeviceResult& d = m_report->results[size_t(m_devices[slot])];
    const LayerResult& l = d.layers[size_t(layer)];
    QString text = QStringLiteral("<b>%1</b> (%2) on %3<br>output %4<br>FLOPs %5<br>bytes %6<br>"
                                  "intensity %7 FLOP/B (ridge %8)<br>attainable %9<br>time %10 (%11), %12-bound")
                       .arg(qh(l.name), qh(std::string(opName(l.op))), qh(d.device.name), qh(shapeString(l.out)),
                           qh(formatSI(l.flops, "FLOP")), qh(formatBytes(l.bytes)), qh(formatNumber3(l.intensity)),
                           qh(formatNumber3(l.peak / d.bandwidth)), qh(formatSI(l.attainable, rateUnit())),
                           qh(formatTime(l.time, true)), qh(formatPercent(l.share)), qh(boundLabel(l)));
    if (l.boundTime >= 0) // a calibrated view: the time above is the calibration's
        text += QStringLiteral("<br>calibrated (%1): roofline bound %2, %3 of the roof")
                    .arg(qh(d.calibration), qh(formatTime(l.boundTime, true)),
                        qh(formatPercent(l.time > 0 ? l.boundTime / l.time : 0)));
    if (l.l2Bytes > 0 && l.flops > 0)
        text += QStringLiteral("<br>L2: %1, intensity %2 FLOP/B")
                    .arg(qh(formatBytes(l.l2Bytes)), qh(formatNumber3(l.flops / l.l2Bytes)));
    if (l.l1Bytes > 0 && l.flops > 0)
        text += QStringLiteral("<br>L1: %1, intensity %2 FLOP/B")
                    .arg(qh(formatBytes(l.l1Bytes)), qh(formatNumber3(l.flops / l.l1Bytes)));
    return text;
}

QString RooflineChart::levelTooltip(size_t slot, int layer, int level) const
{
    const DeviceResult& d = m_report->results[size_t(m_devices[slot])];
    const LayerResult& l = d.layers[size_t(layer)];
    const double q = level == 0 ? l.l2Bytes : l.l1Bytes; // level points are the tiled model's (L2, L1)
    const double bw = levelBandwidth(d, kLevelOf[size_t(level)]);
    return tr("<b>%1</b> at %2 on %3<br>output %4<br>FLOPs %5<br>traffic %6, intensity %7 FLOP/B<br>"
              "this level alone would allow %8; %9-bound, time %10")
        .arg(qh(l.name), levelName(size_t(level)), qh(d.device.name), qh(shapeString(l.out)),
            qh(formatSI(l.flops, "FLOP")), qh(formatBytes(q)), qh(formatNumber3(l.flops / q)),
            qh(formatSI(std::min(l.peak, l.flops / q * bw), rateUnit())), qh(boundLabel(l)),
            qh(formatTime(l.time, true)));
}

QString RooflineChart::measuredTooltip(size_t comparisonRow) const
{
    if (m_measuredDevice < 0 || comparisonRow >= m_measured.layers.size())
        return {};
    const DeviceResult& d = m_report->results[size_t(m_measuredDevice)];
    const LayerComparison& lc = m_measured.layers[comparisonRow];
    const LayerResult& l = d.layers[lc.layer];
    const double f = lc.measuredFlops >= 0 ? lc.measuredFlops : l.flops;
    const double q = lc.measuredBytes > 0 ? lc.measuredBytes : l.bytes;
    QString text = tr("<b>%1</b> measured on %2<br>output %3<br>FLOPs %4%5<br>bytes %6%7<br>intensity %8 FLOP/B<br>"
                      "achieved %9<br>measured %10, bound %11 (%12 of the bound reached)")
                       .arg(qh(l.name), qh(d.device.name), qh(shapeString(l.out)), qh(formatSI(f, "FLOP")),
                           lc.measuredFlops >= 0 ? tr(" (measured)") : tr(" (model)"), qh(formatBytes(q)),
                           lc.measuredBytes > 0 ? tr(" (measured)") : tr(" (model)"), qh(formatNumber3(f / q)),
                           qh(formatSI(f / lc.measured, rateUnit())), qh(formatTime(lc.measured, true)),
                           qh(formatTime(lc.bound, true)), qh(formatPercent(lc.efficiency)));
    if (lc.aboveRoof)
        text += tr("<br><b>faster than the roofline allows</b>: check the file's units, the FLOP convention "
                   "(an FMA counted once) or the row mapping");
    return text;
}

int RooflineChart::layerAt(const QPointF& point, int slot, int bucket) const
{
    const DeviceSeries* s = m_series[size_t(slot)];
    const size_t b = size_t(bucket / kBuckets), k = size_t(bucket % kBuckets);
    const auto pts = s->points[b][k]->points();
    for (int i = 0; i < pts.size(); ++i) {
        if (pts[i] == point)
            return s->layers[b][k][size_t(i)];
    }
    return -1;
}

void RooflineChart::onClicked(const QPointF& point, int slot, int bucket)
{
    const int layer = layerAt(point, slot, bucket);
    if (layer >= 0 && slot < int(m_devices.size()))
        emit layerClicked(layer, m_devices[size_t(slot)]);
}

} // namespace rfx
