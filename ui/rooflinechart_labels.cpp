// Text on the plot: roof values, the names of the layers that take the most time, the cursor read-out.
#include "rooflinechart_p.h"

#include "format.h"
#include "chartnavigator.h"
#include "labelplacer.h"
#include "pointhover.h"

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

#include <cmath>
#include <cstring>

namespace rfx {

using namespace chartdetail;

void RooflineChart::placeRoofLabels()
{
    // Each device's roof value, right-aligned at the plot's right end just above its roof, in the
    // roof's colour. Close roofs (an overlay) push their labels apart rather than overprint.
    const QRectF plot = m_chart->plotArea();
    struct Placed {
        QGraphicsSimpleTextItem* item;
        double y;
    };
    std::vector<Placed> placed;
    const QFont font = m_x->labelsFont();
    for (size_t slot = 0; slot < m_series.size(); ++slot) {
        QGraphicsSimpleTextItem* label = m_series[slot]->roofLabel;
        if (slot >= m_devices.size() || plot.width() <= 0) {
            setVisibleIf(label, false);
            continue;
        }
        const DeviceResult& d = m_report.results[size_t(m_devices[slot])];
        const QString text = qs(formatSI(d.ceiling.flops, rateUnit()));
        if (label->text() != text)
            label->setText(text);
        if (label->font() != font)
            label->setFont(font);
        const QColor color = m_devices.size() > 1 ? deviceColor(slot).darker(115) : m_series[slot]->roof->pen().color();
        if (label->brush().color() != color)
            label->setBrush(color);
        const QPointF end = m_chart->mapToPosition(QPointF(m_zoomed ? m_view.xhi : m_xhi, d.ceiling.flops / m_scale), m_series[slot]->roof);
        placed.push_back({ label, end.y() - label->boundingRect().height() - 1 });
        setVisibleIf(label, end.y() > plot.top() && end.y() < plot.bottom());
    }
    std::sort(placed.begin(), placed.end(), [](const Placed& a, const Placed& b) { return a.y < b.y; });
    double floor = -INFINITY;
    const std::vector<QRectF> markers = markerRectsInChart();
    for (Placed& p : placed) {
        p.y = std::max(p.y, floor);
        floor = p.y + p.item->boundingRect().height();
        const QPointF at(plot.right() - p.item->boundingRect().width() - 3, p.y);
        if (p.item->pos() != at)
            p.item->setPos(at);
        // A label over the points would hide them: then the legend alone gives the value.
        const QRectF box(at, p.item->boundingRect().size());
        if (std::any_of(markers.begin(), markers.end(), [&](const QRectF& m) { return m.intersects(box); }))
            setVisibleIf(p.item, false);
    }
    std::vector<QRectF> obstacles = markers;
    for (const Placed& p : placed)
        if (p.item->isVisible())
            obstacles.emplace_back(p.item->pos(), p.item->boundingRect().size());
    // The ridge labels, which Qt draws centred above the ring (a point label, not an item).
    for (size_t slot = 0; slot < m_devices.size() && slot < m_series.size(); ++slot) {
        const QScatterSeries* ridge = m_series[slot]->ridge;
        if (!ridge->isVisible() || !ridge->pointLabelsVisible() || ridge->count() == 0)
            continue;
        const QFontMetricsF fm(ridge->pointLabelsFont());
        const QPointF at = m_chart->mapToPosition(ridge->at(0), m_series[slot]->roof);
        const double w = fm.horizontalAdvance(ridge->pointLabelsFormat()) + 4, h = fm.height() + 2;
        obstacles.emplace_back(at.x() - w / 2, at.y() - ridge->markerSize() / 2 - h - 2, w, h + 2);
    }
    placeLayerLabels(obstacles);
    updateHighlight(); // the tour's mark moves with the plot
    placeTickLabels();
}

void RooflineChart::setPowerTicks(bool on)
{
    if (on == m_powerTicks)
        return;
    m_powerTicks = on;
    // Qt's labels keep their place in the layout (and the axis its size) but draw nothing; the
    // powers are drawn over them, at the same ticks.
    if (on)
        m_labelsColor = m_x->labelsColor();
    for (QLogValueAxis* a : { m_x, m_y })
        a->setLabelsColor(on ? QColor(Qt::transparent) : m_labelsColor);
    placeTickLabels();
}

namespace {
QString powerOfTen(int e)
{
    static const char16_t digits[] = u"\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079";
    QString s = QStringLiteral("10");
    if (e < 0)
        s += QChar(0x207b);
    const QString n = QString::number(std::abs(e));
    for (QChar c : n)
        s += QChar(digits[c.digitValue()]);
    return s;
}
} // namespace

void RooflineChart::placeTickLabels()
{
    const QRectF plot = m_chart->plotArea();
    size_t used = 0;
    if (m_powerTicks && plot.width() > 0 && !m_series.empty()) {
        const QFont font = m_x->labelsFont();
        const QColor color = m_labelsColor;
        for (QLogValueAxis* a : { m_x, m_y }) {
            const bool vertical = a == m_y;
            const double step = std::log10(a->base());
            const int first = int(std::ceil(std::log10(a->min()) / step - 1e-9)), last = int(std::floor(std::log10(a->max()) / step + 1e-9));
            for (int k = first; k <= last; ++k) {
                const int e = int(std::lround(k * step));
                if (std::abs(k * step - e) > 1e-9)
                    continue; // base 2 when zoomed: only the powers of ten get a label
                if (used == m_tickLabels.size()) {
                    auto* item = new QGraphicsSimpleTextItem(m_chart);
                    item->setZValue(17);
                    m_tickLabels.push_back(item);
                }
                QGraphicsSimpleTextItem* item = m_tickLabels[used++];
                const QString text = powerOfTen(e);
                if (item->text() != text)
                    item->setText(text);
                if (item->font() != font)
                    item->setFont(font);
                if (item->brush().color() != color)
                    item->setBrush(color);
                const double v = std::pow(10.0, e);
                const QPointF at = m_chart->mapToPosition(vertical ? QPointF(m_x->min(), v) : QPointF(v, m_y->min()), m_series.front()->roof);
                const QSizeF size = item->boundingRect().size();
                const QPointF pos = vertical ? QPointF(plot.left() - size.width() - 6, at.y() - size.height() / 2)
                                             : QPointF(at.x() - size.width() / 2, plot.bottom() + 4);
                if (item->pos() != pos)
                    item->setPos(pos);
                setVisibleIf(item, true);
            }
        }
    }
    for (size_t i = used; i < m_tickLabels.size(); ++i)
        setVisibleIf(m_tickLabels[i], false);
}

QStringList RooflineChart::powerTickLabels() const
{
    QStringList out;
    for (const QGraphicsSimpleTextItem* item : m_tickLabels)
        if (item->isVisible())
            out << item->text();
    return out;
}

void RooflineChart::setLayerLabels(double share)
{
    if (share == m_labelShare)
        return;
    m_labelShare = share;
    placeRoofLabels();
}

void RooflineChart::placeLayerLabels(const std::vector<QRectF>& obstacles)
{
    struct Wanted {
        QString text;
        QPointF at;
        QColor color;
        double share;
    };
    std::vector<Wanted> wanted;
    const QRectF plot = m_chart->plotArea();
    if (m_labelShare > 0 && plot.width() > 0) {
        for (size_t slot = 0; slot < m_devices.size() && slot < m_series.size(); ++slot) {
            const DeviceResult& d = m_report.results[size_t(m_devices[slot])];
            const auto visible = visibleLayers(d, m_filter);
            std::vector<size_t> top;
            for (size_t i = 0; i < d.layers.size(); ++i)
                if (visible[i] && d.layers[i].share >= m_labelShare && d.layers[i].intensity > 0 && plottedRate(d.layers[i]) > 0)
                    top.push_back(i);
            std::sort(top.begin(), top.end(), [&](size_t a, size_t b) { return d.layers[a].share > d.layers[b].share; });
            top.resize(std::min<size_t>(top.size(), 6));
            const QColor color = m_devices.size() > 1 ? deviceColor(slot).darker(140) : (dark() ? QColor(0xee, 0xee, 0xee) : QColor(0x22, 0x22, 0x22));
            for (size_t i : top) {
                const LayerResult& l = d.layers[i];
                const QPointF at = m_chart->mapToPosition(QPointF(l.intensity, plottedRate(l) / m_scale), m_series[slot]->roof);
                if (plot.contains(at))
                    wanted.push_back({ QStringLiteral("%1 %2").arg(qs(l.name), qs(formatPercent(l.share))), at, color, l.share });
            }
        }
    }
    std::stable_sort(wanted.begin(), wanted.end(), [](const Wanted& a, const Wanted& b) { return a.share > b.share; });
    while (m_layerLabels.size() < wanted.size()) {
        auto* item = new QGraphicsSimpleTextItem(m_chart);
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
    const auto spots = placeLabels(requests, obstacles, plot);
    for (size_t i = 0; i < m_layerLabels.size(); ++i) {
        QGraphicsSimpleTextItem* item = m_layerLabels[i];
        QGraphicsLineItem* leader = m_layerLeaders[i];
        const bool shown = i < spots.size() && spots[i].has_value();
        if (shown) {
            if (item->pos() != *spots[i])
                item->setPos(*spots[i]);
            // A hairline from the point to the nearest point of its label, so that a label among
            // many points says which one it names.
            const QRectF box(*spots[i], item->boundingRect().size());
            const QPointF a = wanted[i].at;
            const QPointF near(std::clamp(a.x(), box.left(), box.right()), std::clamp(a.y(), box.top(), box.bottom()));
            const QLineF line(a, near);
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

std::vector<std::pair<QString, QRectF>> RooflineChart::layerLabels() const
{
    std::vector<std::pair<QString, QRectF>> out;
    for (const QGraphicsSimpleTextItem* item : m_layerLabels)
        if (item->isVisible())
            out.emplace_back(item->text(), QRectF(item->pos(), item->boundingRect().size()));
    return out;
}

QString RooflineChart::readoutText(double intensity, double flops) const
{
    const QString where = tr("I %1 FLOP/B, P %2").arg(qs(formatNumber3(intensity)), qs(formatSI(flops, rateUnit())));
    if (m_devices.empty())
        return where;
    // The roof that bounds this point: the lowest attainable performance at this intensity that
    // is still above it.
    const DeviceResult* bounding = nullptr;
    double attainable = INFINITY;
    for (int idx : m_devices) {
        const DeviceResult& d = m_report.results[size_t(idx)];
        const double a = std::min(d.ceiling.flops, intensity * d.bandwidth);
        if (a >= flops && a < attainable)
            attainable = a, bounding = &d;
    }
    if (!bounding)
        return tr("%1: above %2 roof, not attainable").arg(where, m_devices.size() > 1 ? tr("every") : tr("the"));
    const QString roof = intensity < bounding->ridge ? tr("memory slope") : tr("compute roof");
    if (m_devices.size() > 1)
        return tr("%1: under %2's %3 (%4 there)")
            .arg(where, shortDeviceName(bounding->device.name), roof, qs(formatSI(attainable, rateUnit())));
    return tr("%1: under the %2 (%3 there)").arg(where, roof, qs(formatSI(attainable, rateUnit())));
}

QString RooflineChart::readoutShown() const { return m_readoutBack->isVisible() ? m_readout->text() : QString(); }

void RooflineChart::mouseMoveEvent(QMouseEvent* event)
{
    QChartView::mouseMoveEvent(event);
    const QPointF at = m_chart->mapFromScene(mapToScene(event->position().toPoint()));
    const QRectF plot = m_chart->plotArea();
    if (m_print || m_series.empty() || !plot.contains(at)) {
        setVisibleIf(m_readoutBack, false);
        return;
    }
    const QPointF v = m_chart->mapToValue(at, m_series.front()->roof);
    const QString text = readoutText(v.x(), v.y() * m_scale);
    if (m_readout->text() != text)
        m_readout->setText(text);
    if (m_readout->font() != m_x->labelsFont())
        m_readout->setFont(m_x->labelsFont());
    const QRectF box = m_readout->boundingRect().adjusted(-4, -2, 4, 2);
    m_readoutBack->setRect(QRectF(QPointF(0, 0), box.size()));
    m_readout->setPos(4, 2);
    // Top left of the plot: the unattainable corner above the memory slope, where no point lies.
    m_readoutBack->setPos(plot.left() + 4, plot.top() + 4);
    setVisibleIf(m_readoutBack, true);
}

void RooflineChart::leaveEvent(QEvent* event)
{
    setVisibleIf(m_readoutBack, false);
    QChartView::leaveEvent(event);
}

} // namespace rfx
