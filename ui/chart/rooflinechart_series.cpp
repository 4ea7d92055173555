// The series of one device: its roofs and ridge, its L2/L1 ceilings and points, its layer points
// and their legend entries. rebuild() (rooflinechart.cpp) calls these for every device shown.
#include "chart/rooflinechart_p.h"

#include "base/format.h"
#include "chart/chartnavigator.h"
#include "style/labelplacer.h"
#include "widgets/pointhover.h"

#include <QAbstractGraphicsShapeItem>
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

// A device's series, made once per slot and reused: its roofs, ridge and labels, its level ceilings
// and points, its layer points by bound and share; the selection ring kept above them all.
void RooflineChart::ensureSeries(size_t count)
{
    while (m_series.size() < count) {
        const int slot = int(m_series.size());
        auto* s = new DeviceSeries;
        s->roof = new QLineSeries;
        s->vectorRoof = new QLineSeries;
        s->ridge = new QScatterSeries;
        // A ring, not a layer's shape: layers are solid circles and squares.
        s->ridge->setMarkerShape(QScatterSeries::MarkerShapeCircle);
        s->ridge->setMarkerSize(kRidgeRingSize * m_markerScale);
        s->ridge->setPointLabelsVisible(false); // the chart's own label, placed clear of points and lines
        s->roofLabel = new TextItem(m_chart);
        s->roofLabel->setZValue(20);
        s->roofLabel->setVisible(false);
        s->ridgeLabel = new TextItem(m_chart);
        s->ridgeLabel->setZValue(20);
        s->ridgeLabel->setVisible(false);
        s->ridge->setName(tr("ridge point I* = peak / bandwidth"));
        QList<QAbstractSeries*> all { s->roof, s->vectorRoof };
        for (QLineSeries*& p : s->precisionRoofs) {
            p = new QLineSeries;
            p->setVisible(false);
            all.append(p);
        }
        for (const int v : { 1, 0, 2 }) { // the legend reads L1, L2, L3 (kLevelOf keeps the tiled model's slots)
            s->levelRoofs[size_t(v)] = new QLineSeries;
            auto* p = new QScatterSeries;
            p->setMarkerShape(v == 0 ? QScatterSeries::MarkerShapeTriangle : QScatterSeries::MarkerShapeStar);
            p->setMarkerSize(9 * m_markerScale);
            s->levelPoints[size_t(v)] = p;
            all.append(s->levelRoofs[size_t(v)]);
            all.append(p);
        }
        for (int b = 0; b < kMarks; ++b) {
            for (int k = 0; k < kBuckets; ++k) {
                auto* p = new QScatterSeries;
                p->setMarkerShape(b % 2 == int(Bound::Memory) ? QScatterSeries::MarkerShapeCircle
                                                              : QScatterSeries::MarkerShapeRectangle);
                p->setMarkerSize(kMarkerSize[size_t(k)] * m_markerScale);
                s->points[size_t(b)][size_t(k)] = p;
                all.append(p);
                connect(p, &QScatterSeries::clicked, this,
                    [this, slot, b, k](const QPointF& pt) { onClicked(pt, slot, b * kBuckets + k); });
            }
        }
        all.append(s->ridge); // after the points: the ring stays visible over them (it is hollow)
        for (QAbstractSeries* a : all) {
            m_chart->addSeries(a);
            a->attachAxis(m_x);
            a->attachAxis(m_y);
        }
        // Keep the selection ring on top.
        m_chart->removeSeries(m_selection);
        m_chart->addSeries(m_selection);
        m_selection->attachAxis(m_x);
        m_selection->attachAxis(m_y);
        m_chart->legend()->markers(m_selection).first()->setVisible(false);
        m_series.push_back(s);
        dropLineCaches(); // new series: walk the scene again
    }
}

// The roof, the vector roof and the ridge of one device; true when the vector roof is drawn.
bool RooflineChart::drawRoofs(size_t slot, const DeviceResult& d)
{
    DeviceSeries* s = m_series[slot];
    const bool overlay = m_devices.size() > 1;
    const QColor roofColor = dark() ? QColor(0xe0, 0xe0, 0xe0) : QColor(0x22, 0x22, 0x22);
    const double B = d.bandwidth / m_scale; // GFLOP/s (or TFLOP/s) per FLOP/byte
    const double P = d.ceiling.flops / m_scale;
    const double Pv = d.vectorCeiling.flops / m_scale;
    const QColor color = overlay ? deviceColor(slot) : roofColor;

    const double left = spanLeft(), right = spanRight();
    replaceIf(s->roof, QList<QPointF> { QPointF(left, left * B), QPointF(d.ridge, P), QPointF(right, P) });
    if (s->roof->pen() != QPen(color, 2.2))
        s->roof->setPen(QPen(color, 2.2));
    setNameIf(s->roof,
        QStringLiteral("%1: %2, ridge %3")
            .arg(
                shortDeviceName(d.device.name), qs(formatSI(d.ceiling.flops, rateUnit())), qs(formatNumber3(d.ridge))));
    const bool showVector = Pv > 0 && std::abs(Pv - P) > 1e-9 * P;
    setVisibleIf(s->vectorRoof, showVector);
    if (showVector) {
        replaceIf(s->vectorRoof, QList<QPointF> { QPointF(Pv / B, Pv), QPointF(spanRight(), Pv) });
        QPen dashed(color, 1.5, Qt::DashLine);
        if (s->vectorRoof->pen() != dashed)
            s->vectorRoof->setPen(dashed);
        setNameIf(s->vectorRoof, tr("%1 (elementwise)").arg(qs(precisionLabel(d.vectorCeiling.key))));
    }
    // Rows at another precision (as in the file) run under that precision's roofline: drawn dotted and
    // named, so that no point sits above the only roof drawn.
    for (size_t k = 0; k < s->precisionRoofs.size(); ++k) {
        QLineSeries* line = s->precisionRoofs[k];
        const bool shown = k < d.rowCeilings.size() && d.rowCeilings[k].flops > 0 && B > 0;
        setVisibleIf(line, shown);
        if (!shown)
            continue;
        const CeilingChoice& c = d.rowCeilings[k];
        const double Pk = c.flops / m_scale;
        replaceIf(line, QList<QPointF> { QPointF(left, left * B), QPointF(Pk / B, Pk), QPointF(right, Pk) });
        const QPen dotted(color, 1.5, Qt::DotLine);
        if (line->pen() != dotted)
            line->setPen(dotted);
        setNameIf(line,
            tr("%1 %2 (rows at their own precision)")
                .arg(qs(precisionLabel(c.key)), qs(formatSI(c.flops, rfx::rateUnit(c.key)))));
    }
    replaceIf(s->ridge, QList<QPointF> { QPointF(d.ridge, P) });
    setColorsIf(s->ridge, Qt::transparent, color);
    if (s->ridge->pen() != QPen(color, 2.0))
        s->ridge->setPen(QPen(color, 2.0));
    // Overlaid ridge labels collide with each other and the points: the legend gives each
    // device's ridge ("H100 (ridge 295)") and the ring marks where it is. placeRidgeLabels() places it.
    const QString ridgeLabel = overlay ? QString() : QStringLiteral("ridge %1 FLOP/B").arg(qs(formatNumber3(d.ridge)));
    if (s->ridgeLabel->text() != ridgeLabel)
        s->ridgeLabel->setText(ridgeLabel);
    return showVector;
}

// The hierarchical roofline (tiled traffic model, where the device gives L2 / L1 bandwidths).
void RooflineChart::drawLevels(size_t slot, const DeviceResult& d)
{
    DeviceSeries* s = m_series[slot];
    const bool overlay = m_devices.size() > 1;
    const QColor color = overlay ? deviceColor(slot) : (dark() ? QColor(0xe0, 0xe0, 0xe0) : QColor(0x22, 0x22, 0x22));
    const double P = d.ceiling.flops / m_scale;
    for (size_t v = 0; v < size_t(kLevels); ++v) {
        const double bw = levelBandwidth(d, kLevelOf[v]);
        s->levelLayers[v].clear();
        if (bw <= 0) {
            if (!s->levelPoints[v]->points().isEmpty())
                s->levelPoints[v]->clear();
            continue;
        }
        const QString level = levelName(v);
        QLineSeries* roof = s->levelRoofs[v];
        // Up its slope to the peak, then along the peak to the DRAM ridge, where the roof's own flat part
        // starts: each level's roofline is min(peak, I x its bandwidth), a roof too.
        const double levelRidge = d.ceiling.flops / bw;
        QList<QPointF> line { QPointF(spanLeft(), spanLeft() * bw / m_scale), QPointF(levelRidge, P) };
        if (d.ridge > levelRidge)
            line.append(QPointF(d.ridge, P));
        replaceIf(roof, line);
        const QPen pen(color, 1.4, kLevelPen[v]);
        if (roof->pen() != pen)
            roof->setPen(pen);
        setNameIf(roof, tr("%1 ceiling %2").arg(level, qs(formatSI(bw, "B/s"))));
        QList<QPointF> lp;
        const auto visibleRows = visibleLayers(d, m_filter);
        for (size_t i = 0; i < d.layers.size(); ++i) {
            const LayerResult& l = d.layers[i];
            // The tiled model's traffic at this level (the cache-aware model moves a row's own bytes).
            const double q = v == 0 ? l.l2Bytes : v == 1 ? l.l1Bytes : 0;
            // Streaming rows move the same bytes at every level: their points would sit on the DRAM one.
            if (!visibleRows[i] || q <= 0 || l.flops <= 0 || plottedRate(l) <= 0 || q == l.bytes)
                continue;
            lp.append(QPointF(l.flops / q, plottedRate(l) / m_scale));
            s->levelLayers[v].push_back(int(i));
        }
        QScatterSeries* p = s->levelPoints[v];
        replaceIf(p, lp);
        const QColor c = overlay ? deviceColor(slot) : (v == 0 ? QColor(0x8e, 0x44, 0xad) : QColor(0x16, 0xa0, 0x85));
        setColorsIf(p, c.lighter(dark() ? 100 : 130), c.darker(140));
        setNameIf(p, tr("%1 intensity").arg(level));
    }
}

// The layer points of one device, by bound and size bucket; returns the rows a log axis cannot show.
int RooflineChart::drawPoints(size_t slot, const DeviceResult& d)
{
    DeviceSeries* s = m_series[slot];
    const bool overlay = m_devices.size() > 1;
    int hidden = 0;
    std::array<std::array<QList<QPointF>, kBuckets>, kMarks> pts;
    // a report in parts: the first part's rows in the open marks (the second's in the filled)
    const std::vector<ReportPart>& parts = m_report->parts;
    const size_t secondPart = parts.size() >= 2 ? size_t(std::max(0, parts[1].first)) : 0;
    for (auto& row : s->layers)
        for (auto& v : row)
            v.clear();
    const auto visible = visibleLayers(d, m_filter);
    for (size_t i = 0; i < d.layers.size(); ++i) {
        const LayerResult& l = d.layers[i];
        if (!visible[i])
            continue;
        if (l.intensity <= 0 || plottedRate(l) <= 0) {
            ++hidden; // a log axis cannot show zero; the table lists these rows
            continue;
        }
        const size_t b = size_t(l.bound) + (i >= secondPart ? 2 : 0), k = size_t(bucketOf(l.share));
        pts[b][k].append(QPointF(l.intensity, plottedRate(l) / m_scale));
        s->layers[b][k].push_back(int(i));
    }
    for (size_t b = 0; b < size_t(kMarks); ++b) {
        const Bound bound = Bound(b % 2);
        const bool open = b < 2;
        for (size_t k = 0; k < size_t(kBuckets); ++k) {
            QScatterSeries* p = s->points[b][k];
            replaceIf(p, pts[b][k]);
            const QColor c = overlay ? deviceColor(slot) : boundColor(bound, dark());
            // In a figure, a white edge: at 3.5 in the compute-bound squares along the roof touched and
            // merged into one bar; each stays a square.
            // An open mark is its colour's ring or frame, transparent inside.
            const QColor border = open ? c
                : m_print              ? QColor(Qt::white)
                : overlay              ? c.darker(bound == Bound::Memory ? 160 : 130)
                                       : c.darker(130);
            const QColor fill = open ? QColor(Qt::transparent) : c;
            setColorsIf(p, fill, border);
            setLightMarkerIf(p, fill, border);
            const QString name = bound == Bound::Memory ? tr("memory-bound") : tr("compute-bound");
            setNameIf(p,
                open && parts.size() >= 2        ? QStringLiteral("%1, %2").arg(qs(parts[0].name), name)
                    : !open && parts.size() >= 2 ? QStringLiteral("%1, %2").arg(qs(parts[1].name), name)
                                                 : name);
        }
    }
    return hidden;
}

void RooflineChart::setLightMarkerIf(QScatterSeries* series, const QColor& fill, const QColor& border)
{
    if (m_print) {
        if (!series->lightMarker().isNull())
            series->setLightMarker(QImage());
        return;
    }
    // What the image was drawn for, compared as numbers (a formatted key was 1 % of a slider step).
    const MarkerKey key { int(series->markerShape()), series->markerSize(), fill.rgba(), border.rgba() };
    auto [it, added] = m_markerKeys.try_emplace(series, key);
    if (!added && it->second == key && !series->lightMarker().isNull())
        return;
    it->second = key;
    series->setLightMarker(markerImage(series->markerShape(), series->markerSize(), fill, border));
}

void RooflineChart::skipInvisibleMarkers()
{
    // Under a light marker Qt keeps an item per point, for clicks and hovers, and strokes it on every
    // paint with a transparent pen and no brush: nothing to see, 5 % of a slider step (callgrind). An
    // item that draws nothing is marked so: the scene passes over its paint, clicks still reach it.
    // (The chart's items, their groups, the groups' items: where a series keeps its markers.) Qt makes
    // and styles those items when a series' point count, colours or marker change: walked only then.
    std::vector<quint64> signature;
    for (QAbstractSeries* a : m_chart->series())
        if (const auto* p = qobject_cast<const QScatterSeries*>(a))
            signature.insert(signature.end(),
                { quint64(p->count()), quint64(p->lightMarker().cacheKey()), quint64(p->color().rgba()),
                    quint64(p->borderColor().rgba()), quint64(p->pen().color().rgba()) });
    if (signature == m_markerSignature)
        return;
    m_markerSignature = std::move(signature);
    for (QGraphicsItem* item : m_chart->childItems())
        for (QGraphicsItem* group : item->childItems())
            for (QGraphicsItem* marker : group->childItems())
                if (auto* shape = dynamic_cast<QAbstractGraphicsShapeItem*>(marker)) {
                    const QPen pen = shape->pen();
                    const QBrush brush = shape->brush();
                    const bool nothing = (pen.style() == Qt::NoPen || pen.color().alpha() == 0)
                        && (brush.style() == Qt::NoBrush || brush.color().alpha() == 0);
                    if (shape->flags().testFlag(QGraphicsItem::ItemHasNoContents) != nothing)
                        shape->setFlag(QGraphicsItem::ItemHasNoContents, nothing);
                }
}

std::vector<QPointF> RooflineChart::layerPoints() const
{
    std::vector<std::pair<int, QPointF>> found;
    if (m_devices.empty())
        return {};
    const DeviceSeries* s = m_series.front();
    for (size_t b = 0; b < size_t(kMarks); ++b)
        for (size_t k = 0; k < size_t(kBuckets); ++k) {
            const auto pts = s->points[b][k]->points();
            for (int i = 0; i < pts.size(); ++i)
                found.emplace_back(s->layers[b][k][size_t(i)], pts[i]);
        }
    std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<QPointF> out;
    for (auto& [i, p] : found)
        out.push_back(p);
    return out;
}

std::vector<QPointF> RooflineChart::levelPoints(int level) const
{
    if (m_devices.empty() || level < 0 || level >= kLevels)
        return {};
    const auto pts = m_series.front()->levelPoints[size_t(level)]->points();
    return { pts.begin(), pts.end() };
}

} // namespace rfx
