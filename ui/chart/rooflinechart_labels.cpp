// Text on the plot: roof values, the names of the layers that take the most time, the cursor read-out.
#include "chart/rooflinechart_p.h"

#include "chart/layerlabels.h"

#include "base/format.h"
#include "chart/chartnavigator.h"
#include "style/chartfit.h"
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

#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>

namespace rfx {

using namespace chartdetail;

void RooflineChart::placeRoofLabels()
{
    // Each device's roof value in the roof's colour, just above its roof at the plot's right end; where
    // points sit there, further left along the roof, or just below it. Close roofs (an overlay) push
    // their labels apart rather than overprint.
    const QRectF plot = m_chart->plotArea();
    const std::vector<QRectF> markers = markerRectsInChart();
    const std::vector<QLineF> lines = roofLinesInChart();
    std::vector<QRectF> placedBoxes;
    const QFont font = m_x->labelsFont();
    for (size_t slot = 0; slot < m_series.size(); ++slot) {
        QGraphicsSimpleTextItem* label = m_series[slot]->roofLabel;
        if (slot >= m_devices.size() || plot.width() <= 0) {
            setVisibleIf(label, false);
            continue;
        }
        const DeviceResult& d = m_report->results[size_t(m_devices[slot])];
        const QString text = qs(formatSI(d.ceiling.flops, rateUnit()));
        if (label->text() != text)
            label->setText(text);
        if (label->font() != font)
            label->setFont(font);
        const QColor color = m_devices.size() > 1 ? deviceColor(slot).darker(115) : m_series[slot]->roof->pen().color();
        if (label->brush().color() != color)
            label->setBrush(color);
        const QSizeF size = label->boundingRect().size();
        const QPointF end = m_chart->mapToPosition(
            QPointF(m_zoomed ? m_view.xhi : shownXhi(), d.ceiling.flops / m_scale), m_series[slot]->roof);
        const QPointF ridge = m_chart->mapToPosition(QPointF(d.ridge, d.ceiling.flops / m_scale), m_series[slot]->roof);
        // Candidates: above the roof from its right end leftwards to the ridge, then below it.
        std::vector<QPointF> spots;
        const double rightX = plot.right() - size.width() - 3, leftX = std::max(ridge.x() + 14, plot.left() + 3);
        for (double above : { 1.0, 0.0 }) {
            const double y = above > 0 ? end.y() - size.height() - 2 : end.y() + 3;
            for (int k = 0; k <= 6; ++k)
                spots.emplace_back(rightX - (rightX - leftX) * k / 6, y);
        }
        std::optional<QPointF> chosen;
        for (const QPointF& at : spots) {
            const QRectF box(at, size);
            if (!plot.contains(box) || at.x() < leftX - 0.5)
                continue;
            auto hits = [&](const QRectF& r) { return overlaps(r, box.adjusted(-2, -2, 2, 2)); };
            if (std::any_of(markers.begin(), markers.end(), hits)
                || std::any_of(placedBoxes.begin(), placedBoxes.end(), hits)
                || std::any_of(lines.begin(), lines.end(), [&](const QLineF& l) { return crosses(l, box); }))
                continue;
            chosen = at;
            break;
        }
        // A label with no free place is left out: the legend (overlay) or the title gives the value.
        setVisibleIf(label, chosen.has_value());
        if (chosen) {
            if (label->pos() != *chosen)
                label->setPos(*chosen);
            placedBoxes.emplace_back(*chosen, size);
        }
    }
    std::vector<QRectF> obstacles = markers;
    obstacles.insert(obstacles.end(), placedBoxes.begin(), placedBoxes.end());
    // The selection ring too: it was drawn over the text of a label placed beside its point.
    if (m_selection->isVisible() && m_selection->count() > 0) {
        const QPointF c = m_chart->mapToPosition(m_selection->at(0), m_selection);
        const double r = m_selection->markerSize() / 2;
        obstacles.emplace_back(c.x() - r, c.y() - r, 2 * r, 2 * r);
    }
    placeRidgeLabels(obstacles, lines);
    placeLayerLabels(obstacles, lines);
    drawRoofsOverPoints();
    updateHighlight(); // the tour's mark moves with the plot
    placeTickLabels();
}

void RooflineChart::setLayerLabels(double share)
{
    if (share == m_labelShare)
        return;
    m_labelShare = share;
    placeRoofLabels();
}

void RooflineChart::placeLayerLabels(const std::vector<QRectF>& obstacles, const std::vector<QLineF>& lines)
{
    std::vector<LayerLabels::Wanted> wanted;
    const QRectF plot = m_chart->plotArea();
    if (m_labelShare > 0 && plot.width() > 0) {
        for (size_t slot = 0; slot < m_devices.size() && slot < m_series.size(); ++slot) {
            const DeviceResult& d = m_report->results[size_t(m_devices[slot])];
            const auto visible = visibleLayers(d, m_filter);
            std::vector<size_t> top;
            for (size_t i = 0; i < d.layers.size(); ++i)
                if (visible[i] && d.layers[i].share >= m_labelShare && d.layers[i].intensity > 0
                    && plottedRate(d.layers[i]) > 0)
                    top.push_back(i);
            std::sort(
                top.begin(), top.end(), [&](size_t a, size_t b) { return d.layers[a].share > d.layers[b].share; });
            const QColor color = m_devices.size() > 1 ? deviceColor(slot).darker(140)
                                                      : (dark() ? QColor(0xee, 0xee, 0xee) : QColor(0x22, 0x22, 0x22));
            for (size_t i : top) {
                const LayerResult& l = d.layers[i];
                const QPointF at
                    = m_chart->mapToPosition(QPointF(l.intensity, plottedRate(l) / m_scale), m_series[slot]->roof);
                if (plot.contains(at))
                    wanted.push_back({ QStringLiteral("%1 %2").arg(qs(l.name), qs(formatPercent(l.share))), at, color,
                        l.share, m_devices.size() > 1 ? shortDeviceName(d.device.name) : QString() });
            }
        }
    }
    const QColor noteColor = dark() ? QColor(0xcc, 0xcc, 0xcc) : QColor(0x44, 0x44, 0x44);
    m_layerLabels->place(std::move(wanted),
        { plot, obstacles, lines, m_x->labelsFont(), kMarkerSize.back() * m_markerScale / 2, m_labelShare, noteColor });
}

QStringList RooflineChart::unnamedLayers() const { return m_layerLabels->unnamed(); }

QRectF RooflineChart::moreLabelBox() const { return m_layerLabels->moreBox(); }

} // namespace rfx
