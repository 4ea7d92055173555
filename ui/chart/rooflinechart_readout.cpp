// RooflineChart, the read-out: what the cursor's place on the plot means (intensity, performance,
// the roof over it), shown in the plot's top-left corner while the mouse moves over it.
#include "chart/rooflinechart_p.h"

#include "base/format.h"
#include "engine/roof_at.h"

#include <QChart>
#include <QFontMetricsF>
#include <QGraphicsRectItem>
#include <QGraphicsSimpleTextItem>
#include <QLogValueAxis>
#include <QMouseEvent>

#include <algorithm>
#include <cmath>

namespace rfx {

using namespace chartdetail;

QString RooflineChart::readoutText(double intensity, double flops) const
{
    const QString where = tr("I %1 FLOP/B, P %2").arg(qs(formatNumber3(intensity)), qs(formatSI(flops, rateUnit())));
    if (m_devices.empty())
        return where;
    // The roof over this point (core/engine/roof_at.h); within 3 pixels under a roof is on it (a
    // point drawn on its roof, under a cursor a pixel above the line, is not "not attainable").
    const QRectF plot = m_chart->plotArea();
    const double tolerance
        = plot.height() > 0 && m_y->max() > m_y->min() ? std::pow(m_y->max() / m_y->min(), 3.0 / plot.height()) : 1.0;
    std::vector<const DeviceResult*> drawn;
    for (int idx : m_devices)
        drawn.push_back(&m_report->results[size_t(idx)]);
    // The roofs the chart draws, the cache levels' slopes included, so that the read-out and a point's
    // tooltip ("L2-bound") agree; within the tolerance above a roof is "on" it, not "under" it.
    const RoofAt at = roofAt(drawn, intensity, flops, tolerance);
    if (at.device < 0)
        return tr("%1: above %2 roof, not attainable").arg(where, m_devices.size() > 1 ? tr("every") : tr("the"));
    const QString roof = qs(at.roof), value = qs(formatSI(at.attainable, rateUnit()));
    if (m_devices.size() > 1) {
        const QString device = shortDeviceName(drawn[size_t(at.device)]->device.name);
        return at.on ? tr("%1: on %2's %3 (%4)").arg(where, device, roof, value)
                     : tr("%1: under %2's %3 (%4 there)").arg(where, device, roof, value);
    }
    return at.on ? tr("%1: on the %2 (%3)").arg(where, roof, value)
                 : tr("%1: under the %2 (%3 there)").arg(where, roof, value);
}

QString RooflineChart::readoutShown() const { return m_readoutBack->isVisible() ? m_readout->text() : QString(); }

QRectF RooflineChart::readoutBox() const
{
    return m_readoutBack->isVisible() ? QRectF(m_readoutBack->pos(), m_readoutBack->rect().size()) : QRectF();
}

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
    QString text = readoutText(v.x(), v.y() * m_scale);
    if (m_readout->font() != m_x->labelsFont())
        m_readout->setFont(m_x->labelsFont());
    // Wider than the plot (presentation type, three devices' names): wrapped at spaces into lines that
    // fit, rather than running past the chart's edge.
    const QFontMetricsF fm(m_readout->font());
    const double room = plot.width() - 16;
    if (fm.horizontalAdvance(text) > room) {
        QString wrapped, line;
        for (const QString& word : text.split(QLatin1Char(' '))) {
            const QString longer = line.isEmpty() ? word : line + QLatin1Char(' ') + word;
            if (!line.isEmpty() && fm.horizontalAdvance(longer) > room) {
                wrapped += line + QLatin1Char('\n');
                line = word;
            } else {
                line = longer;
            }
        }
        text = wrapped + line;
    }
    if (m_readout->text() != text)
        m_readout->setText(text);
    const QRectF box = m_readout->boundingRect().adjusted(-4, -2, 4, 2);
    m_readoutBack->setRect(QRectF(QPointF(0, 0), box.size()));
    m_readout->setPos(4, 2);
    // Top left of the plot: the unattainable corner above the memory slope, where no point lies.
    // Where a label or a point is there (a zoomed plot, a layer named near the slope), the first
    // other corner that is clear: the read-out covered a layer's name.
    std::vector<QRectF> taken = markerRectsInChart();
    for (const auto& named : layerLabels())
        taken.push_back(named.second);
    for (const auto& series : m_series)
        for (const QGraphicsSimpleTextItem* label : { series->roofLabel, series->ridgeLabel })
            if (label && label->isVisible())
                taken.emplace_back(label->pos(), label->boundingRect().size());
    if (const QRectF more = moreLabelBox(); !more.isEmpty())
        taken.push_back(more);
    const QSizeF size = box.size();
    const QPointF corners[] = {
        { plot.left() + 4, plot.top() + 4 },
        { plot.right() - 4 - size.width(), plot.bottom() - 4 - size.height() },
        { plot.left() + 4, plot.bottom() - 4 - size.height() },
        { plot.right() - 4 - size.width(), plot.top() + 4 },
    };
    // None clear (three devices overlaid: points bottom left, roof values top right, the "+N more"
    // note bottom right): the corner that covers the fewest, the first of equals.
    QPointF corner = corners[0];
    auto covered = [&](const QPointF& c) {
        const QRectF r(c, size);
        return std::count_if(taken.begin(), taken.end(), [&](const QRectF& t) { return t.intersects(r); });
    };
    long fewest = covered(corner);
    for (const QPointF& c : corners) {
        if (fewest == 0)
            break;
        if (const long n = covered(c); n < fewest) {
            corner = c;
            fewest = n;
        }
    }
    m_readoutBack->setPos(corner);
    setVisibleIf(m_readoutBack, true);
}

void RooflineChart::leaveEvent(QEvent* event)
{
    setVisibleIf(m_readoutBack, false);
    QChartView::leaveEvent(event);
}

} // namespace rfx
