// Text on the plot: roof values, the names of the layers that take the most time, the cursor read-out.
#include "chart/rooflinechart_p.h"

#include "base/format.h"
#include "chart/chartnavigator.h"
#include "style/chartfit.h"
#include "style/labelplacer.h"
#include "widgets/pointhover.h"

#include <QApplication>
#include <QChart>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPen>
#include <QFontMetricsF>
#include <QGraphicsLineItem>
#include <QGraphicsRectItem>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QMouseEvent>
#include <QResizeEvent>
#include <QPainter>
#include <QScatterSeries>
#include <QTextDocument>
#include <QToolTip>

#include <algorithm>
#include <cmath>
#include <optional>
#include <cstring>

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
        const QPointF end = m_chart->mapToPosition(QPointF(m_zoomed ? m_view.xhi : shownXhi(), d.ceiling.flops / m_scale), m_series[slot]->roof);
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
            if (std::any_of(markers.begin(), markers.end(), hits) || std::any_of(placedBoxes.begin(), placedBoxes.end(), hits)
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

QSizeF RooflineChart::layerLabelSize(const QString& text, const QFont& font)
{
    if (!m_labelProbe)
        m_labelProbe = std::make_unique<QGraphicsSimpleTextItem>();
    if (m_labelProbe->font() != font || m_labelSizes.size() > 512) { // another font, or a long session's worth
        m_labelSizes.clear();
        m_labelProbe->setFont(font);
    }
    auto [it, added] = m_labelSizes.try_emplace(text);
    if (added) {
        m_labelProbe->setText(text);
        it->second = m_labelProbe->boundingRect().size();
    }
    return it->second;
}

void RooflineChart::placeLayerLabels(const std::vector<QRectF>& obstacles, const std::vector<QLineF>& lines)
{
    struct Wanted {
        QString text;
        QPointF at;
        QColor color;
        double share;
        QString device; ///< the short name, in an overlay
    };
    std::vector<Wanted> wanted;
    const QRectF plot = m_chart->plotArea();
    if (m_labelShare > 0 && plot.width() > 0) {
        for (size_t slot = 0; slot < m_devices.size() && slot < m_series.size(); ++slot) {
            const DeviceResult& d = m_report->results[size_t(m_devices[slot])];
            const auto visible = visibleLayers(d, m_filter);
            std::vector<size_t> top;
            for (size_t i = 0; i < d.layers.size(); ++i)
                if (visible[i] && d.layers[i].share >= m_labelShare && d.layers[i].intensity > 0 && plottedRate(d.layers[i]) > 0)
                    top.push_back(i);
            std::sort(top.begin(), top.end(), [&](size_t a, size_t b) { return d.layers[a].share > d.layers[b].share; });
            const QColor color = m_devices.size() > 1 ? deviceColor(slot).darker(140) : (dark() ? QColor(0xee, 0xee, 0xee) : QColor(0x22, 0x22, 0x22));
            for (size_t i : top) {
                const LayerResult& l = d.layers[i];
                const QPointF at = m_chart->mapToPosition(QPointF(l.intensity, plottedRate(l) / m_scale), m_series[slot]->roof);
                if (plot.contains(at))
                    wanted.push_back({ QStringLiteral("%1 %2").arg(qs(l.name), qs(formatPercent(l.share))), at, color, l.share,
                        m_devices.size() > 1 ? shortDeviceName(d.device.name) : QString() });
            }
        }
    }
    std::stable_sort(wanted.begin(), wanted.end(), [](const Wanted& a, const Wanted& b) { return a.share > b.share; });
    while (m_layerLabels.size() < wanted.size()) {
        auto* item = new TextItem(m_chart);
        item->setZValue(19);
        m_layerLabels.push_back(item);
        auto* leader = new QGraphicsLineItem(m_chart);
        leader->setZValue(18);
        m_layerLeaders.push_back(leader);
    }
    std::vector<LabelRequest> requests;
    const QFont font = m_x->labelsFont();
    for (size_t i = 0; i < wanted.size(); ++i) {
        QGraphicsSimpleTextItem* item = m_layerLabels[i];
        if (item->text() != wanted[i].text)
            item->setText(wanted[i].text);
        if (item->font() != font)
            item->setFont(font);
        if (item->brush().color() != wanted[i].color)
            item->setBrush(wanted[i].color);
        requests.push_back({ wanted[i].at, item->boundingRect().size(), 3, kMarkerSize.back() * m_markerScale / 2 });
    }
    auto spots = placeLabels(requests, obstacles, plot, lines);
    // A label with no free spot in one line (a narrow plot: a figure's grid cell) tries again in two,
    // the name over its share, then with the name broken after each dot ("decode." / "blk0-31." /
    // "gate_proj 25 %": both phases' rows on one chart named nothing at 7 inches), around the labels
    // already placed.
    std::vector<QRectF> taken = obstacles;
    for (size_t i = 0; i < spots.size(); ++i)
        if (spots[i])
            taken.emplace_back(*spots[i], requests[i].size);
    std::vector<QString> stackedText(spots.size());
    for (size_t i = 0; i < spots.size(); ++i) {
        if (spots[i])
            continue;
        const QString& text = wanted[i].text;
        const qsizetype space = text.lastIndexOf(QLatin1Char(' '), text.size() - 3);
        const QString twoLines = QString(text).replace(space, 1, QLatin1Char('\n'));
        QString byDots = text.left(space);
        byDots.replace(QLatin1Char('.'), QStringLiteral(".\n"));
        byDots += text.mid(space);
        for (const QString& form : { twoLines, byDots }) {
            if (form == text) // a name without a dot breaks no further
                continue;
            LabelRequest stacked = requests[i];
            stacked.size = layerLabelSize(form, font);
            spots[i] = placeLabels({ stacked }, taken, plot, lines).front();
            if (spots[i]) {
                m_layerLabels[i]->setText(form);
                taken.emplace_back(*spots[i], stacked.size);
                break;
            }
        }
        if (!spots[i] && byDots != text)
            stackedText[i] = byDots;
    }
    // Still none: further out, ring by ring, with the hairline to its point (a row of squares along
    // the roof left no spot beside each; the 7-inch figure named 2 of 8 with the plot below empty).
    // A hairline crosses no label, and no label sits on a hairline.
    std::vector<QRectF> labelBoxes;
    std::vector<QLineF> leaders;
    for (size_t i = 0; i < spots.size(); ++i)
        if (spots[i]) {
            labelBoxes.emplace_back(*spots[i], m_layerLabels[i]->boundingRect().size());
            leaders.push_back(leaderLine(wanted[i].at, labelBoxes.back()));
        }
    // Nor does a hairline cross another hairline, come within 1 px of a text (ridge, roof and layer
    // labels) or cross a marker away from its own point: leaders ran through "ridge 295 FLOP/B" and
    // the ridge's ring (issue 73 item 8). Where it starts, among its own point's marker and those
    // overlapping it, hairlines may meet (the markers are drawn over them).
    const double own = kMarkerSize.back() * m_markerScale / 2 + 2;
    auto clearOfHairlines = [&](const QRectF& box, const QPointF& anchor) {
        const QLineF mine = leaderLine(anchor, box);
        const QRectF start(anchor - QPointF(own, own), QSizeF(2 * own, 2 * own));
        auto meets = [&](const QLineF& l) {
            QPointF at;
            return mine.intersects(l, &at) == QLineF::BoundedIntersection && QLineF(at, anchor).length() > own && QLineF(at, l.p1()).length() > own;
        };
        auto aroundItsPoint = [&](const QRectF& o) { return o.width() <= 2 * own && o.height() <= 2 * own && overlaps(o, start); };
        // Only what lies within the hairline's own box can meet it: the plot's other markers are passed
        // over by one rectangle test each (this runs for every spot tried, on every slider step).
        const QRectF reach = QRectF(mine.p1(), mine.p2()).normalized().adjusted(-2, -2, 2, 2);
        auto near = [&](const QRectF& r) { return r.intersects(reach); };
        return std::none_of(labelBoxes.begin(), labelBoxes.end(), [&](const QRectF& b) { return near(b) && crosses(mine, b.adjusted(-1, -1, 1, 1)); })
            && std::none_of(leaders.begin(), leaders.end(), [&](const QLineF& l) { return crosses(l, box.adjusted(-1, -1, 1, 1)) || meets(l); })
            && std::none_of(obstacles.begin(), obstacles.end(),
                [&](const QRectF& o) { return near(o) && !aroundItsPoint(o) && crosses(mine, o.adjusted(-1, -1, 1, 1)); });
    };
    for (size_t i = 0; i < spots.size(); ++i) {
        if (spots[i])
            continue;
        const std::vector<double> rings { 12, 24, 40, 60, 85, 115, 150 };
        LabelRequest far = requests[i];
        spots[i] = placeFarLabel(far, taken, plot, lines, rings, clearOfHairlines);
        if (!spots[i] && !stackedText[i].isEmpty()) {
            far.size = layerLabelSize(stackedText[i], font); // the name broken after each dot, further out
            spots[i] = placeFarLabel(far, taken, plot, lines, rings, clearOfHairlines);
            if (spots[i])
                m_layerLabels[i]->setText(stackedText[i]);
        }
        if (spots[i]) {
            taken.emplace_back(*spots[i], far.size);
            labelBoxes.emplace_back(*spots[i], far.size);
            leaders.push_back(leaderLine(wanted[i].at, labelBoxes.back()));
        }
    }
    std::vector<QRectF> boxes;
    std::vector<QString> names;
    for (size_t i = 0; i < wanted.size(); ++i) {
        boxes.emplace_back(spots[i].value_or(QPointF()), m_layerLabels[i]->boundingRect().size());
        names.push_back(wanted[i].device.isEmpty() ? wanted[i].text : wanted[i].device + QStringLiteral(": ") + wanted[i].text);
    }
    placeMoreNote(spots, boxes, names, obstacles, lines);
    for (size_t i = 0; i < m_layerLabels.size(); ++i) {
        QGraphicsSimpleTextItem* item = m_layerLabels[i];
        QGraphicsLineItem* leader = m_layerLeaders[i];
        const bool shown = i < spots.size() && spots[i].has_value();
        if (shown) {
            if (item->pos() != *spots[i])
                item->setPos(*spots[i]);
            // A hairline from the point to the nearest point of its label, so that a label among
            // many points says which one it names.
            const QLineF line = leaderLine(wanted[i].at, QRectF(*spots[i], item->boundingRect().size()));
            if (leader->line() != line)
                leader->setLine(line);
            const QPen pen(wanted[i].color, 0.8);
            if (leader->pen() != pen)
                leader->setPen(pen);
        }
        setVisibleIf(item, shown);
        setVisibleIf(leader, shown);
    }
}

void RooflineChart::placeMoreNote(std::vector<std::optional<QPointF>>& spots, const std::vector<QRectF>& boxes,
    const std::vector<QString>& names, const std::vector<QRectF>& obstacles, const std::vector<QLineF>& lines)
{
    // What was left out for lack of room is said, not dropped (issue 52 item 5): "+2 more over 5 %"
    // in the first corner of the plot free of points, lines and labels (bottom right first, where
    // no point lies under the roof's far end), the layers in its tooltip. Where every corner holds
    // a label, the labels of the least time under the note give way to it and are counted too.
    auto unnamed = [&] {
        QStringList out;
        for (size_t i = 0; i < spots.size(); ++i)
            if (!spots[i])
                out << names[i];
        return out;
    };
    m_unnamed = unnamed();
    if (m_unnamed.isEmpty()) {
        if (m_moreLabel)
            setVisibleIf(m_moreLabel, false);
        return;
    }
    if (!m_moreLabel) {
        m_moreLabel = new TextItem(m_chart);
        m_moreLabel->setZValue(19);
    }
    if (m_moreLabel->font() != m_x->labelsFont())
        m_moreLabel->setFont(m_x->labelsFont());
    const QColor color = dark() ? QColor(0xcc, 0xcc, 0xcc) : QColor(0x44, 0x44, 0x44);
    if (m_moreLabel->brush().color() != color)
        m_moreLabel->setBrush(color);
    const QString share = QString::number(m_labelShare * 100, 'g', 3);
    const QRectF plot = m_chart->plotArea();
    auto clearOf = [](const QRectF& box, const std::vector<QRectF>& rects) {
        const QRectF clear = box.adjusted(-2, -2, 2, 2);
        return std::none_of(rects.begin(), rects.end(), [&](const QRectF& r) { return overlaps(r, clear); });
    };
    QPointF chosen;
    for (int round = 0; round < 3; ++round) {
        const QString note = tr("+%1 more over %2 %").arg(m_unnamed.size()).arg(share);
        if (m_moreLabel->text() != note)
            m_moreLabel->setText(note);
        const QSizeF size = m_moreLabel->boundingRect().size();
        const QPointF corners[] = {
            { plot.right() - 4 - size.width(), plot.bottom() - 4 - size.height() },
            { plot.left() + 4, plot.top() + 4 },
            { plot.right() - 4 - size.width(), plot.top() + 4 },
            { plot.left() + 4, plot.bottom() - 4 - size.height() },
        };
        std::vector<QRectF> labels;
        for (size_t i = 0; i < spots.size(); ++i)
            if (spots[i])
                labels.push_back(boxes[i]);
        auto freeOfPoints = [&](const QPointF& c) {
            const QRectF box(c, size);
            return clearOf(box, obstacles) && std::none_of(lines.begin(), lines.end(), [&](const QLineF& l) { return crosses(l, box); });
        };
        std::optional<QPointF> spot;
        for (const QPointF& c : corners)
            if (freeOfPoints(c) && clearOf(QRectF(c, size), labels)) {
                spot = c;
                break;
            }
        if (spot) {
            chosen = *spot;
            break;
        }
        // No corner free: the first one free of points, its labels giving way (least time first in
        // `spots`' order, which is by share: the later ones).
        chosen = corners[0];
        for (const QPointF& c : corners)
            if (freeOfPoints(c)) {
                chosen = c;
                break;
            }
        const QRectF clear = QRectF(chosen, size).adjusted(-2, -2, 2, 2);
        for (size_t i = 0; i < spots.size(); ++i)
            if (spots[i] && overlaps(boxes[i], clear))
                spots[i].reset();
        m_unnamed = unnamed();
    }
    m_moreLabel->setToolTip(tr("Over %1 % of the time, not named on the plot for lack of room:\n%2").arg(share, m_unnamed.join(QLatin1Char('\n'))));
    if (m_moreLabel->pos() != chosen)
        m_moreLabel->setPos(chosen);
    setVisibleIf(m_moreLabel, plot.contains(QRectF(chosen, m_moreLabel->boundingRect().size())));
}

QRectF RooflineChart::moreLabelBox() const
{
    return m_moreLabel && m_moreLabel->isVisible() ? QRectF(m_moreLabel->pos(), m_moreLabel->boundingRect().size()) : QRectF();
}

} // namespace rfx
