// Axes: decade bounds that stay put, figure labelling, shared axes across charts, and the cached grid
// and tick lines (zoom and pan: rooflinechart_view.cpp).
#include "chart/rooflinechart_p.h"

#include "chart/layerlabels.h"

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
#include <QLegend>
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

bool RooflineChart::fitTickLabels()
{
    const QRectF plot = m_chart->plotArea();
    if (!m_print || plot.width() <= 0 || plot.height() <= 0)
        return false;
    bool changed = false;
    // A figure is laid out once: the decades grown for its markers become its bounds, which the
    // labelling below may widen to even decades.
    m_xlo = shownXlo(), m_xhi = shownXhi(), m_ylo = shownYlo(), m_yhi = shownYhi();
    m_grown = {};
    for (QLogValueAxis* a : { m_x, m_y }) {
        const bool vertical = a == m_y;
        double& lo = vertical ? m_ylo : m_xlo;
        double& hi = vertical ? m_yhi : m_xhi;
        const QFontMetricsF fm(a->labelsFont());
        // The widest of this axis's decade labels on x, one line of text on y, plus the text item's
        // margins (Qt Charts truncates a label that does not fit between its neighbours).
        double widest = 0;
        for (int e = int(std::lround(std::log10(lo))); e <= int(std::lround(std::log10(hi))); ++e)
            widest = std::max(widest, fm.horizontalAdvance(tickText(std::pow(10.0, e))));
        const double need = vertical ? fm.height() + 10 : widest + 6;
        const double per = (vertical ? plot.height() : plot.width()) / std::max(std::log10(hi / lo), 1.0);
        if (per >= need || a->base() == 100)
            continue;
        // Every other decade, from an even one to an even one, so that both ends keep their labels.
        a->setBase(100);
        a->setMinorTickCount(0);
        lo = std::pow(100.0, std::floor(std::log10(lo) / 2 + 1e-9));
        hi = std::pow(100.0, std::ceil(std::log10(hi) / 2 - 1e-9));
        changed = true;
    }
    if (changed)
        rebuild(); // the roofs span the new range
    return changed;
}

void RooflineChart::setAxisRange(QPointF x, QPointF y)
{
    // Shared axes call this for every chart on every slider step: usually nothing changes.
    if (m_sticky && x == xRange() && y == yRange())
        return;
    m_xlo = x.x(), m_xhi = x.y(), m_ylo = y.x(), m_yhi = y.y();
    m_grown = {}; // looked at again for these bounds (rebuild)
    m_sticky = true;
    rebuild();
}

void RooflineChart::shareAxes(const std::vector<RooflineChart*>& charts)
{
    if (charts.size() < 2)
        return;
    double scale = 0, xlo = INFINITY, xhi = 0, ylo = INFINITY, yhi = 0; // y in FLOP/s
    for (const RooflineChart* c : charts) {
        scale = std::max(scale, c->m_scale);
        xlo = std::min(xlo, c->shownXlo()), xhi = std::max(xhi, c->shownXhi());
        ylo = std::min(ylo, c->shownYlo() * c->m_scale), yhi = std::max(yhi, c->shownYhi() * c->m_scale);
    }
    for (RooflineChart* c : charts) {
        c->setYUnit(scale);
        c->setAxisRange({ xlo, xhi }, { ylo / scale, yhi / scale });
    }
}

void RooflineChart::shareXAxis(const std::vector<RooflineChart*>& charts)
{
    if (charts.size() < 2)
        return;
    double xlo = INFINITY, xhi = 0;
    for (const RooflineChart* c : charts)
        xlo = std::min(xlo, c->shownXlo()), xhi = std::max(xhi, c->shownXhi());
    for (RooflineChart* c : charts)
        c->setAxisRange({ xlo, xhi }, { c->shownYlo(), c->shownYhi() });
}

void RooflineChart::setYUnit(double flopsPerUnit)
{
    m_forcedScale = flopsPerUnit;
    if (flopsPerUnit > 0 && m_scale != flopsPerUnit) {
        // Set here rather than in rebuild(), which would take a new unit as a reason to refit.
        m_scale = flopsPerUnit;
        m_sticky = false; // the points are in the old unit: the next setAxisRange must rebuild
        updateYTitle();
    }
}

void RooflineChart::unshareAxes()
{
    if (m_forcedScale == 0)
        return;
    m_forcedScale = 0;
    fitAxes();
}

void RooflineChart::fitAxes()
{
    m_sticky = false;
    m_zoomed = false;
    rebuild();
}

// The data's range (roofs, ridges, every visible point, measured points), held in decade bounds.
void RooflineChart::fitToData()
{
    const size_t n = m_devices.size();
    double xmin = INFINITY, xmax = 0, ymin = INFINITY, ymax = 0;
    m_marks.clear();
    const double largest = kMarkerSize.back() * m_markerScale / 2;
    for (int idx : m_devices) {
        const DeviceResult& d = m_report->results[size_t(idx)];
        xmin = std::min(xmin, d.ridge / 10);
        xmax = std::max(xmax, d.ridge * 10);
        if (n == 1 && d.ridge > 0) { // its ring, and room above it for "ridge 16.0 FLOP/B" (placeRidgeLabels)
            const double ring = kRidgeRingSize * m_markerScale / 2;
            m_marks.push_back(
                { d.ridge, d.ceiling.flops / m_scale, ring, ring + 4 + QFontMetricsF(m_x->labelsFont()).height() + 1 });
        }
        for (double b : { d.l2Bandwidth, d.l1Bandwidth, d.l3Bandwidth })
            if (b > 0)
                xmin = std::min(xmin, d.ceiling.flops / b / 10);
        ymax = std::max(ymax, d.ceiling.flops / m_scale);
        for (const CeilingChoice& c : d.rowCeilings) // rows at another precision: their roofs are drawn too
            ymax = std::max(ymax, c.flops / m_scale);
        ymin = std::min(ymin, std::min(d.ceiling.flops, d.vectorCeiling.flops) / m_scale / 100);
        const auto visible = visibleLayers(d, m_filter);
        for (size_t i = 0; i < d.layers.size(); ++i) {
            const LayerResult& l = d.layers[i];
            if (!visible[i] || l.intensity <= 0 || plottedRate(l) <= 0)
                continue;
            xmin = std::min(xmin, l.intensity);
            xmax = std::max(xmax, l.intensity);
            ymin = std::min(ymin, plottedRate(l) / m_scale);
            m_marks.push_back(
                { l.intensity, plottedRate(l) / m_scale, kMarkerSize[size_t(bucketOf(l.share))] * m_markerScale / 2 });
            for (double q : { l.l2Bytes, l.l1Bytes })
                if (q > 0) {
                    xmax = std::max(xmax, l.flops / q);
                    m_marks.push_back({ l.flops / q, plottedRate(l) / m_scale, largest });
                }
        }
    }
    for (int idx : m_devices) {
        if (idx != m_measuredDevice)
            continue;
        const DeviceResult& d = m_report->results[size_t(idx)];
        for (const LayerComparison& lc : m_measured.layers) {
            if (lc.layer >= d.layers.size() || lc.measured <= 0)
                continue;
            const LayerResult& l = d.layers[lc.layer];
            const double f = lc.measuredFlops >= 0 ? lc.measuredFlops : l.flops;
            const double q = lc.measuredBytes > 0 ? lc.measuredBytes : l.bytes;
            if (f > 0 && q > 0) {
                xmin = std::min(xmin, f / q), xmax = std::max(xmax, f / q);
                ymin = std::min(ymin, f / lc.measured / m_scale), ymax = std::max(ymax, f / lc.measured / m_scale);
                m_marks.push_back({ f / q, f / lc.measured / m_scale, largest });
            }
        }
    }
    if (n == 0 || !(xmin > 0) || !(ymin > 0)) {
        xmin = 0.01, xmax = 1e4, ymin = 1, ymax = 1e5;
    }
    updateAxes(xmin, xmax, ymin, ymax);
}

void RooflineChart::updateAxes(double xmin, double xmax, double ymin, double ymax)
{
    // Decade bounds, with room above the roof for the ridge label.
    const double xlo = decadeFloor(xmin), xhi = decadeCeil(xmax * 1.001);
    const double ylo = decadeFloor(ymin), yhi = decadeCeil(ymax * 2);
    if (!m_sticky) {
        m_xlo = xlo, m_xhi = xhi, m_ylo = ylo, m_yhi = yhi;
        m_sticky = true;
    } else {
        // Stable while the points stay inside; grow (never jitter) when they leave.
        m_xlo = std::min(m_xlo, xlo);
        m_xhi = std::max(m_xhi, xhi);
        m_ylo = std::min(m_ylo, ylo);
        m_yhi = std::max(m_yhi, yhi);
    }
    // Before the first layout there is no plot: plotAreaChanged looks then. Growing there, it has
    // just decided for this plot.
    if (!m_growing)
        growForMarkers(m_chart->plotArea());
    applyAxisRanges();
}

void RooflineChart::applyAxisRanges()
{
    // Zoomed: exactly the user's view. Else a hair beyond the decades, so that the end ticks (and
    // their labels) are not lost to rounding.
    const double pad = 1.0001;
    const double xlo = m_zoomed ? m_view.xlo : shownXlo() / pad, xhi = m_zoomed ? m_view.xhi : shownXhi() * pad;
    const double ylo = m_zoomed ? m_view.ylo : shownYlo() / pad, yhi = m_zoomed ? m_view.yhi : shownYhi() * pad;
    if (m_x->min() != xlo || m_x->max() != xhi || m_y->min() != ylo || m_y->max() != yhi)
        dropLineCaches(); // new ticks and grid lines
    if (m_x->min() != xlo || m_x->max() != xhi)
        m_x->setRange(xlo, xhi);
    if (m_y->min() != ylo || m_y->max() != yhi)
        m_y->setRange(ylo, yhi);
    if (m_print)
        return; // figures choose their labelling in fitTickLabels()
    // Zoomed into less than two decades, a base-10 axis would show one label or none: label the
    // powers of two instead.
    for (QLogValueAxis* a : { m_x, m_y }) {
        const double base = std::log10(a->max() / a->min()) >= 2 ? 10 : 2;
        if (a->base() != base) {
            dropLineCaches();
            a->setBase(base);
            a->setMinorTickCount(base == 10 && m_minorGrid ? -1 : 0);
        }
    }
}

void RooflineChart::dropLineCaches()
{
    m_linesMoving = true; // Qt places the lines at its next layout: cache them after that
    if (m_cachedItemCount < 0 || !scene())
        return;
    for (QGraphicsItem* item : scene()->items())
        if (item->cacheMode() != QGraphicsItem::NoCache)
            item->setCacheMode(QGraphicsItem::NoCache);
    m_cachedItemCount = -1;
}

void RooflineChart::setAxisLineWidth(QLogValueAxis* axis, qreal width)
{
    // On screen the grid, tick and axis lines are hairlines (width 0, one pixel at any scale): for any
    // other width QGraphicsLineItem::boundingRect() strokes the line's outline, and the view asks for
    // every line's rectangle on every repaint (callgrind: 4.1 M instructions a slider step with four
    // charts, 6 %). A one-pixel line looks the same on screen; figures set width 1 (setPrintStyle).
    QPen pen = axis->gridLinePen();
    pen.setWidthF(width);
    axis->setGridLinePen(pen);
    pen = axis->minorGridLinePen();
    pen.setWidthF(width);
    axis->setMinorGridLinePen(pen);
    pen = axis->linePen();
    pen.setWidthF(width);
    axis->setLinePen(pen);
}

void RooflineChart::cacheGridLines()
{
    // Grid and tick lines do not move while a slider moves, yet drawing them antialiased each step
    // was a quarter of a live repaint (callgrind: 21 M of 85 M instructions with four charts).
    // Only lines are cached: Qt 6.4 kept stale or empty caches of text items (tick labels and
    // titles vanished), so text is always drawn afresh. Qt also moves tick lines without
    // refreshing their caches, so every cache is dropped whenever what places a line changes:
    // an axis range, base or minor ticks (applyAxisRanges), the plot area (plotAreaChanged), the
    // view's size (resizeEvent). The chart oracle compares every monkey step with a fresh chart,
    // pixel for pixel, and caught the tick lines that Qt moved. Screen only: a figure stays vector.
    if (!scene() || !isVisible())
        return;
    if (m_linesMoving) {
        // Lines were moved (or are about to be, at Qt's next layout): caching them now would keep
        // them where they were. The next rebuild, after the layout, caches them.
        m_linesMoving = false;
        return;
    }
    if (m_cachedItemCount >= 0)
        return; // cached since the last drop: whatever adds or moves lines drops the caches first
    m_cachedItemCount = int(scene()->items().size());
    // The axes' grid and tick lines only: the legend's line swatches move when its entries change,
    // and the layer labels' leaders move with their points.
    // (Caching the axes' text items as well, with the same invalidation, failed the oracle within
    // a hundred monkey steps: Qt 6.4 changes their text without refreshing the cache.)
    QLegend* legend = m_chart->legend();
    for (QGraphicsItem* item : scene()->items())
        if (item->type() == QGraphicsLineItem::Type && item->cacheMode() == QGraphicsItem::NoCache
            && !legend->isAncestorOf(item) && !m_layerLabels->isLeader(item))
            item->setCacheMode(QGraphicsItem::DeviceCoordinateCache);
}

void RooflineChart::chooseUnit()
{
    // GFLOP/s up to 100 TFLOP/s roofs, TFLOP/s above, so that tick labels stay plain numbers.
    double maxPeak = 0;
    for (int idx : m_devices)
        maxPeak = std::max(maxPeak, m_report->results[size_t(idx)].ceiling.flops);
    const double scale = m_forcedScale > 0 ? m_forcedScale : (maxPeak > 50e12 ? 1e12 : 1e9);
    if (scale != m_scale) {
        m_scale = scale;
        m_sticky = false;
    }
    updateYTitle(); // the scale, or the kind of operation (8 bits: integer), may have changed
}

QString RooflineChart::axisUnit() const
{
    return QString::fromLatin1(m_scale == 1e12 ? "T" : "G") + QString::fromLatin1(rateUnit());
}

void RooflineChart::updateYTitle() { fitAxisTitles(); }

} // namespace rfx
