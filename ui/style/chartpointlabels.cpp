#include "style/chartpointlabels.h"

#include "style/labelplacer.h"
#include "style/textitem.h"

#include <QChart>
#include <QGraphicsLineItem>
#include <QGraphicsSimpleTextItem>
#include <QLineSeries>
#include <QPen>
#include <QScatterSeries>

#include <algorithm>

namespace rfx {

ChartPointLabels* ChartPointLabels::of(QChart* chart)
{
    if (auto* existing = chart->findChild<ChartPointLabels*>(QString(), Qt::FindDirectChildrenOnly))
        return existing;
    return new ChartPointLabels(chart);
}

ChartPointLabels::ChartPointLabels(QChart* chart)
    : QObject(chart)
    , m_chart(chart)
{
    QLineSeries probe;
    m_font = probe.pointLabelsFont();
    connect(chart, &QChart::plotAreaChanged, this, &ChartPointLabels::place);
}

void ChartPointLabels::setLabels(std::vector<Label> labels)
{
    m_labels = std::move(labels);
    place();
}

void ChartPointLabels::setFont(const QFont& font)
{
    if (font == m_font)
        return;
    m_font = font;
    place();
}

void ChartPointLabels::place()
{
    const QRectF plot = m_chart->plotArea();
    // What the labels must keep clear of: every point the chart draws (its marker's box), and the
    // lines that join points (a Pareto front), as far as they can.
    std::vector<QRectF> points;
    std::vector<QLineF> lines;
    for (QAbstractSeries* s : m_chart->series()) {
        auto* xy = qobject_cast<QXYSeries*>(s);
        if (!xy || !xy->isVisible() || xy->attachedAxes().size() < 2)
            continue;
        const bool scatter = xy->type() == QAbstractSeries::SeriesTypeScatter;
        const bool drawsPoints = scatter || xy->pointsVisible();
        const double r = std::max(2.0, xy->markerSize() / 2);
        QPointF previous;
        bool first = true;
        for (const QPointF& v : xy->points()) {
            const QPointF at = m_chart->mapToPosition(v, xy);
            if (drawsPoints && plot.adjusted(-r, -r, r, r).contains(at))
                points.emplace_back(at.x() - r, at.y() - r, 2 * r, 2 * r);
            if (!scatter && !first)
                lines.emplace_back(previous, at);
            previous = at;
            first = false;
        }
    }

    while (m_items.size() < m_labels.size()) {
        auto* item = new TextItem(m_chart);
        item->setZValue(20);
        m_items.push_back(item);
        auto* leader = new QGraphicsLineItem(m_chart);
        leader->setZValue(19);
        m_leaders.push_back(leader);
    }
    std::vector<LabelRequest> requests;
    std::vector<QPointF> anchors;
    for (size_t i = 0; i < m_labels.size(); ++i) {
        QGraphicsSimpleTextItem* item = m_items[i];
        item->setFont(m_font);
        item->setText(m_labels[i].text);
        item->setBrush(m_labels[i].color);
        const QPointF at
            = m_labels[i].series ? m_chart->mapToPosition(m_labels[i].value, m_labels[i].series) : QPointF();
        anchors.push_back(at);
        double radius = 4;
        if (auto* xy = qobject_cast<QXYSeries*>(m_labels[i].series))
            radius = xy->markerSize() / 2;
        requests.push_back({ at, item->boundingRect().size(), 3, radius });
    }

    // Beside the point, off the lines; then beside it across a line; then further out (placeFarLabel;
    // a hairline says which point it names). Each round places around what the rounds before placed.
    std::vector<std::optional<QPointF>> spots(requests.size());
    std::vector<double> gaps(requests.size(), 3);
    std::vector<QRectF> taken = points;
    struct Round {
        double gap;
        bool avoidLines;
    };
    for (const Round round : { Round { 3, true }, Round { 3, false } }) {
        std::vector<size_t> open;
        std::vector<LabelRequest> asked;
        for (size_t i = 0; i < requests.size(); ++i)
            if (!spots[i] && plot.contains(anchors[i])) {
                open.push_back(i);
                LabelRequest r = requests[i];
                r.gap = round.gap;
                asked.push_back(r);
            }
        if (open.empty())
            break;
        const auto found = placeLabels(asked, taken, plot, round.avoidLines ? lines : std::vector<QLineF> {});
        for (size_t k = 0; k < open.size(); ++k)
            if (found[k]) {
                spots[open[k]] = found[k];
                gaps[open[k]] = round.gap;
                taken.emplace_back(*found[k], asked[k].size);
            }
    }

    for (size_t i = 0; i < requests.size(); ++i)
        if (!spots[i] && plot.contains(anchors[i])) {
            spots[i] = placeFarLabel(requests[i], taken, plot, {}, { 10, 22, 40, 60 });
            if (spots[i]) {
                gaps[i] = 10;
                taken.emplace_back(*spots[i], requests[i].size);
            }
        }
    m_leftOut = 0;
    for (size_t i = 0; i < m_items.size(); ++i) {
        const bool shown = i < spots.size() && spots[i].has_value();
        if (i < m_labels.size() && !shown)
            ++m_leftOut;
        m_items[i]->setVisible(shown);
        const bool lead = shown && gaps[i] > 3;
        m_leaders[i]->setVisible(lead);
        if (!shown)
            continue;
        m_items[i]->setPos(*spots[i]);
        if (lead) {
            m_leaders[i]->setLine(leaderLine(anchors[i], QRectF(*spots[i], requests[i].size)));
            m_leaders[i]->setPen(QPen(m_labels[i].color, 0.8));
        }
    }
}

std::vector<std::pair<QString, QRectF>> ChartPointLabels::shown() const
{
    std::vector<std::pair<QString, QRectF>> out;
    for (const QGraphicsSimpleTextItem* item : m_items)
        if (item->isVisible())
            out.emplace_back(item->text(), QRectF(item->pos(), item->boundingRect().size()));
    return out;
}

} // namespace rfx
