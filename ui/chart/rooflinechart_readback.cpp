// What the chart draws, read back: every text with its box and every roof and slope as a line, in
// the viewport's pixels. The label placement avoids the lines; the legibility checks read both.
#include "chart/rooflinechart_p.h"

#include "chart/layerlabels.h"

#include "chart/legendflow.h"

#include <QChart>
#include <QGraphicsLineItem>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QLineSeries>
#include <QTextDocument>

namespace rfx {

using namespace chartdetail;

std::vector<QLineF> RooflineChart::roofLinesInChart() const
{
    std::vector<QLineF> out;
    for (size_t slot = 0; slot < m_devices.size() && slot < m_series.size(); ++slot) {
        const DeviceSeries* s = m_series[slot];
        for (QLineSeries* line : { s->roof, s->vectorRoof, s->levelRoofs[0], s->levelRoofs[1], s->levelRoofs[2],
                 s->precisionRoofs[0], s->precisionRoofs[1], s->precisionRoofs[2] }) {
            if (!line->isVisible())
                continue;
            const QList<QPointF> pts = line->points();
            for (qsizetype i = 1; i < pts.size(); ++i)
                out.emplace_back(m_chart->mapToPosition(pts[i - 1], line), m_chart->mapToPosition(pts[i], line));
        }
    }
    return out;
}

QRectF RooflineChart::selectionRect() const
{
    if (!m_selection->isVisible() || m_selection->count() == 0)
        return {};
    const QPointF c = mapFromScene(m_chart->mapToScene(m_chart->mapToPosition(m_selection->at(0), m_selection)));
    const double r = m_selection->markerSize() / 2;
    return QRectF(c.x() - r, c.y() - r, 2 * r, 2 * r);
}

std::vector<QLineF> RooflineChart::roofLines() const
{
    const QPointF shift = mapFromScene(m_chart->mapToScene(QPointF(0, 0)));
    std::vector<QLineF> out = roofLinesInChart();
    for (QLineF& l : out)
        l.translate(shift);
    return out;
}

std::vector<std::pair<QString, QRectF>> RooflineChart::textBoxes() const
{
    // Every visible text item of the scene that draws (Qt's transparent tick labels draw nothing),
    // and the legend's entries, in the viewport's pixels.
    std::vector<std::pair<QString, QRectF>> out;
    if (!scene())
        return out;
    auto toView = [this](const QGraphicsItem* item, const QRectF& r) {
        return mapFromScene(item->mapToScene(r)).boundingRect();
    };
    for (QGraphicsItem* item : scene()->items()) {
        bool shown = item->isVisible();
        for (QGraphicsItem* p = item->parentItem(); p && shown; p = p->parentItem())
            shown = p->isVisible();
        if (!shown)
            continue;
        if (auto* t = dynamic_cast<QGraphicsTextItem*>(item)) {
            const QString text = t->toPlainText();
            if (text.isEmpty() || t->defaultTextColor().alpha() == 0)
                continue;
            // The document's laid-out text, not the item's margins.
            QRectF r = t->boundingRect();
            const double m = t->document()->documentMargin();
            r.adjust(m, m, -m, -m);
            out.emplace_back(text, toView(t, r));
        } else if (auto* st = dynamic_cast<QGraphicsSimpleTextItem*>(item)) {
            if (st->text().isEmpty() || st->brush().color().alpha() == 0)
                continue;
            if (st == m_readout)
                continue; // the cursor read-out sits over the plot on purpose, while the mouse is there
            out.emplace_back(st->text(), toView(st, st->boundingRect()));
        }
    }
    const std::vector<LegendEntry>& entries = m_legend->entries();
    const std::vector<QRectF> rects = m_legend->textRects();
    for (size_t i = 0; i < rects.size() && i < entries.size(); ++i)
        out.emplace_back(entries[i].text, toView(m_chart, rects[i]));
    return out;
}

std::vector<QLineF> RooflineChart::leaderLines() const
{
    const QPointF shift = mapFromScene(m_chart->mapToScene(QPointF(0, 0)));
    std::vector<QLineF> out;
    for (const QLineF& leader : m_layerLabels->leaders())
        out.push_back(leader.translated(shift));
    return out;
}

std::vector<std::pair<QString, QRectF>> RooflineChart::layerLabels() const { return m_layerLabels->labels(); }

} // namespace rfx
