// Figures: the print style, and what a figure needs to lay out its legend and check itself.
#include "chart/rooflinechart_p.h"

#include "base/format.h"
#include "chart/chartnavigator.h"
#include "style/cachedmirror.h"
#include "style/labelplacer.h"
#include "widgets/pointhover.h"

#include <QApplication>
#include <QChart>
#include <QFontMetricsF>
#include <QGraphicsLineItem>
#include <QGraphicsPathItem>
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

void RooflineChart::drawRoofsOverPoints()
{
    // In a figure each point has a white edge (squares along the roof would merge into one bar
    // without it), which cut the solid roof under a row of them into dashes: the dashed-roof
    // convention of a vector or cache ceiling. Each device's roof is drawn again over its points,
    // clipped to the plot, so that it reads as one line through them.
    if (!m_print)
        return;
    if (!m_roofClip) {
        m_roofClip = new QGraphicsRectItem(m_chart);
        m_roofClip->setPen(Qt::NoPen);
        m_roofClip->setBrush(Qt::NoBrush);
        m_roofClip->setFlag(QGraphicsItem::ItemClipsChildrenToShape);
        m_roofClip->setZValue(8); // over the series, under the labels
    }
    const QRectF plot = m_chart->plotArea();
    if (m_roofClip->rect() != plot)
        m_roofClip->setRect(plot);
    while (m_printRoofs.size() < m_series.size())
        m_printRoofs.push_back(new QGraphicsPathItem(m_roofClip));
    for (size_t slot = 0; slot < m_printRoofs.size(); ++slot) {
        QGraphicsPathItem* item = m_printRoofs[slot];
        const bool shown = slot < m_devices.size() && slot < m_series.size() && m_series[slot]->roof->isVisible();
        item->setVisible(shown);
        if (!shown)
            continue;
        QLineSeries* roof = m_series[slot]->roof;
        QPainterPath path;
        const QList<QPointF> pts = roof->points();
        for (qsizetype i = 0; i < pts.size(); ++i) {
            const QPointF at = m_chart->mapToPosition(pts[i], roof);
            if (i == 0)
                path.moveTo(at);
            else
                path.lineTo(at);
        }
        item->setPath(path);
        QPen pen = roof->pen();
        pen.setCapStyle(Qt::FlatCap);
        item->setPen(pen);
    }
}

void RooflineChart::setPrintStyle(double fontPx, bool transparent)
{
    m_print = true;
    if (m_titleItem)
        CachedMirror::remove(m_titleItem); // a figure's title stays text
    ++m_fontGeneration;
    setMinimumSize(1, 1); // a figure's cell decides the size; the screen's minimum would distort it
    m_chart->setTheme(QChart::ChartThemeLight);
    m_chart->setMargins(QMargins(2, 2, 2, 2));
    m_chart->setBackgroundRoundness(0);
    if (transparent) {
        m_chart->setBackgroundVisible(false);
        m_chart->setPlotAreaBackgroundVisible(false);
    } else {
        m_chart->setBackgroundBrush(Qt::white);
        m_chart->setBackgroundPen(Qt::NoPen);
        m_chart->setBackgroundVisible(true);
    }
    auto font = [](double px, bool bold = false) {
        QFont f;
        f.setPixelSize(std::max(6, int(std::lround(px))));
        f.setBold(bold);
        return f;
    };
    m_chart->setTitleFont(font(fontPx, true));
    m_chart->setTitleBrush(QColor(0x11, 0x11, 0x11));
    m_chart->legend()->setFont(font(fontPx * 0.9));
    m_chart->legend()->setLabelColor(QColor(0x11, 0x11, 0x11));
    for (QLogValueAxis* a : { m_x, m_y }) {
        a->setLabelsFont(font(fontPx * 0.9));
        a->setTitleFont(font(fontPx));
        a->setTitleBrush(QColor(0x11, 0x11, 0x11));
        a->setGridLineColor(QColor(0xcc, 0xcc, 0xcc));
        a->setMinorGridLineColor(QColor(0xea, 0xea, 0xea));
        a->setLinePenColor(QColor(0x44, 0x44, 0x44));
        setAxisLineWidth(a, 1); // the screen's hairlines would print one device pixel wide
    }
    m_labelsColor = QColor(0x11, 0x11, 0x11);
    m_selection->setVisible(false); // a figure shows the analysis, not the window's selection
    m_printFontPx = fontPx;
    // Markers follow the type size: a 3.5-inch column figure needs smaller points than the screen.
    m_markerScale = std::clamp((fontPx - 6) / 8, 0.6, 1.0);
    for (DeviceSeries* s : m_series) {
        s->ridge->setMarkerSize(kRidgeRingSize * m_markerScale);
        for (size_t b = 0; b < size_t(kMarks); ++b)
            for (size_t k = 0; k < size_t(kBuckets); ++k)
                s->points[b][k]->setMarkerSize(kMarkerSize[k] * m_markerScale);
    }
}

void RooflineChart::hideLegendForFigure()
{
    // Figures lay out their legend themselves, below the charts (FigureLayout, legendItems()).
    m_chart->legend()->setVisible(false);
}

std::vector<RooflineChart::LegendItem> RooflineChart::legendItems() const
{
    std::vector<LegendItem> items;
    const bool overlay = m_devices.size() > 1;
    QString vector;
    QColor vectorColor;
    for (size_t slot = 0; slot < m_devices.size() && slot < m_series.size(); ++slot) {
        const DeviceSeries* s = m_series[slot];
        if (overlay)
            items.push_back({ s->roof->pen().color(), s->roof->name(), Swatch::Line });
        if (s->vectorRoof->isVisible() && vector.isEmpty()) {
            vector = s->vectorRoof->name();
            vectorColor = s->vectorRoof->pen().color();
        }
    }
    // The other precisions' roofs (as in the file), each named once.
    QStringList precisions;
    for (size_t slot = 0; slot < m_devices.size() && slot < m_series.size(); ++slot)
        for (const QLineSeries* p : m_series[slot]->precisionRoofs)
            if (p->isVisible() && !precisions.contains(p->name())) {
                precisions << p->name();
                items.push_back({ p->pen().color(),
                    overlay ? shortDeviceName(m_report->results[size_t(m_devices[slot])].device.name)
                            + QStringLiteral(": ") + p->name()
                            : p->name(),
                    Swatch::Dotted });
            }
    if (!vector.isEmpty())
        items.push_back({ overlay ? QColor(0x44, 0x44, 0x44) : vectorColor,
            overlay ? tr("dashed: %1 roof, in each device's colour").arg(vector) : tr("%1 roof").arg(vector),
            Swatch::Dashed });
    if (overlay) { // one entry for every device's cache slopes, as for the vector roofs above
        QStringList levels;
        for (const size_t v : { size_t(1), size_t(0), size_t(2) })
            for (size_t slot = 0; slot < m_devices.size() && slot < m_series.size(); ++slot)
                if (m_series[slot]->levelRoofs[v]->isVisible()) {
                    levels << levelName(v);
                    break;
                }
        if (!levels.isEmpty())
            items.push_back({ QColor(0x44, 0x44, 0x44),
                tr("dotted and dash-dotted: %1 ceilings, in each device's colour")
                    .arg(levels.join(QStringLiteral(", "))),
                Swatch::DashDot });
    }
    if (!overlay && !m_series.empty() && !m_devices.empty()) {
        const DeviceSeries* s = m_series.front();
        for (const size_t v : { size_t(1), size_t(0), size_t(2) }) { // L1, L2, L3, as on screen
            if (!s->levelRoofs[v]->isVisible())
                continue;
            const Swatch swatch = v == 1 ? Swatch::Dotted : v == 0 ? Swatch::DashDot : Swatch::DashDotDot; // kLevelPen
            items.push_back({ s->levelRoofs[v]->pen().color(), s->levelRoofs[v]->name(), swatch });
            if (s->levelPoints[v]->count() > 0)
                items.push_back({ s->levelPoints[v]->color(), s->levelPoints[v]->name(),
                    v == 0 ? Swatch::Triangle : Swatch::Star });
        }
    }
    const QColor grey(0x66, 0x66, 0x66);
    items.push_back({ overlay ? grey : boundColor(Bound::Memory, dark()), tr("memory-bound layer"), Swatch::Circle });
    items.push_back({ overlay ? grey : boundColor(Bound::Compute, dark()), tr("compute-bound layer"), Swatch::Square });
    if (m_report->parts.size() >= 2) { // a language model's two phases: which marks are which
        items.push_back({ grey, tr("open: %1").arg(qs(m_report->parts[0].name)), Swatch::OpenCircle });
        items.push_back({ grey, tr("filled: %1").arg(qs(m_report->parts[1].name)), Swatch::Circle });
    }
    if (m_measuredPoints->isVisible())
        items.push_back({ QColor(0x11, 0x11, 0x11), m_measuredPoints->name(), Swatch::Diamond });
    if (m_measuredAbove->isVisible())
        items.push_back({ m_measuredAbove->color(), m_measuredAbove->name(), Swatch::Diamond });
    return items;
}

std::vector<QRectF> RooflineChart::markerRectsInChart() const
{
    std::vector<QRectF> out;
    for (QAbstractSeries* a : m_chart->series()) {
        auto* s = qobject_cast<QScatterSeries*>(a);
        if (!s || !s->isVisible() || s == m_selection)
            continue;
        const double r = s->markerSize() / 2;
        for (const QPointF& v : s->points()) {
            const QPointF c = m_chart->mapToPosition(v, s);
            out.emplace_back(c.x() - r, c.y() - r, 2 * r, 2 * r);
        }
    }
    return out;
}

std::vector<QRectF> RooflineChart::markerRects() const
{
    // The chart item sits in the scene untransformed, at its position: chart to viewport is a shift.
    const QPointF shift = mapFromScene(m_chart->mapToScene(QPointF(0, 0)));
    std::vector<QRectF> out = markerRectsInChart();
    for (QRectF& r : out)
        r.translate(shift);
    return out;
}

bool RooflineChart::legendVisible() const { return m_legend->isVisible() && !m_legend->entries().empty(); }

QRectF RooflineChart::legendRect() const
{
    return mapFromScene(m_legend->mapToScene(m_legend->boundingRect())).boundingRect();
}

std::vector<double> RooflineChart::pointLabelPixelSizes() const
{
    // The ridge labels are text items now, measured with the chart's other text.
    return {};
}

} // namespace rfx
