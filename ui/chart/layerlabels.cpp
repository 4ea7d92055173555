#include "chart/layerlabels.h"

#include "chart/rooflinechart_p.h"
#include "style/chartfit.h"
#include "style/labelplacer.h"

#include <QCoreApplication>
#include <QGraphicsLineItem>
#include <QGraphicsSimpleTextItem>
#include <QPen>

#include <algorithm>

namespace rfx {

using namespace chartdetail;

namespace {

QString translated(const char* text) { return QCoreApplication::translate("rfx::RooflineChart", text); }

} // namespace

LayerLabels::LayerLabels(QGraphicsItem* chart)
    : m_chart(chart)
{
}

LayerLabels::~LayerLabels() = default; // the items are the chart's children

void LayerLabels::place(std::vector<Wanted> wanted, const Room& room)
{
    std::stable_sort(wanted.begin(), wanted.end(), [](const Wanted& a, const Wanted& b) { return a.share > b.share; });
    ensureItems(wanted.size());
    const std::vector<LabelRequest> requests = styleItems(wanted, room);
    Spots spots = placeLabels(requests, room.obstacles, room.plot, room.lines);
    m_taken = room.obstacles;
    for (size_t i = 0; i < spots.size(); ++i)
        if (spots[i])
            m_taken.emplace_back(*spots[i], requests[i].size);
    const std::vector<QString> byDots = tryTwoLines(wanted, requests, room, spots);
    tryFurtherOut(wanted, requests, byDots, room, spots);
    std::vector<QRectF> boxes;
    std::vector<QString> names;
    for (size_t i = 0; i < wanted.size(); ++i) {
        boxes.emplace_back(spots[i].value_or(QPointF()), m_items[i]->boundingRect().size());
        names.push_back(
            wanted[i].device.isEmpty() ? wanted[i].text : wanted[i].device + QStringLiteral(": ") + wanted[i].text);
    }
    placeMoreNote(spots, boxes, names, room);
    show(wanted, spots);
    m_taken.clear();
}

void LayerLabels::ensureItems(std::size_t count)
{
    while (m_items.size() < count) {
        auto* item = new TextItem(m_chart);
        item->setZValue(19);
        m_items.push_back(item);
        auto* leader = new QGraphicsLineItem(m_chart);
        leader->setZValue(18);
        m_leaders.push_back(leader);
    }
}

// Each label's text, font and colour set where they changed; what placeLabels is asked for.
std::vector<LabelRequest> LayerLabels::styleItems(const std::vector<Wanted>& wanted, const Room& room)
{
    std::vector<LabelRequest> requests;
    for (size_t i = 0; i < wanted.size(); ++i) {
        QGraphicsSimpleTextItem* item = m_items[i];
        if (item->text() != wanted[i].text)
            item->setText(wanted[i].text);
        if (item->font() != room.font)
            item->setFont(room.font);
        if (item->brush().color() != wanted[i].color)
            item->setBrush(wanted[i].color);
        requests.push_back({ wanted[i].at, item->boundingRect().size(), 3, room.markerRadius });
    }
    return requests;
}

// A label with no free spot in one line (a narrow plot: a figure's grid cell) tries again in two, the
// name over its share, then with the name broken after each dot ("decode." / "blk0-31." / "gate_proj
// 25 %": both phases' rows on one chart named nothing at 7 inches), around the labels already placed.
// Returns, for each label still without a spot, its name broken after each dot (empty where that
// breaks nothing), for the further-out rings to try.
std::vector<QString> LayerLabels::tryTwoLines(
    const std::vector<Wanted>& wanted, const std::vector<LabelRequest>& requests, const Room& room, Spots& spots)
{
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
            stacked.size = sizeOf(form, room.font);
            spots[i] = placeLabels({ stacked }, m_taken, room.plot, room.lines).front();
            if (spots[i]) {
                m_items[i]->setText(form);
                m_taken.emplace_back(*spots[i], stacked.size);
                break;
            }
        }
        if (!spots[i] && byDots != text)
            stackedText[i] = byDots;
    }
    return stackedText;
}

// Still none: further out, ring by ring, with the hairline to its point (a row of squares along the
// roof left no spot beside each; the 7-inch figure named 2 of 8 with the plot below empty). A
// hairline crosses no label, and no label sits on a hairline.
void LayerLabels::tryFurtherOut(const std::vector<Wanted>& wanted, const std::vector<LabelRequest>& requests,
    const std::vector<QString>& byDots, const Room& room, Spots& spots)
{
    std::vector<QRectF> labelBoxes;
    std::vector<QLineF> leaders;
    for (size_t i = 0; i < spots.size(); ++i)
        if (spots[i]) {
            labelBoxes.emplace_back(*spots[i], m_items[i]->boundingRect().size());
            leaders.push_back(leaderLine(wanted[i].at, labelBoxes.back()));
        }
    // Nor does a hairline cross another hairline, come within 1 px of a text (ridge, roof and layer
    // labels) or cross a marker away from its own point: leaders ran through "ridge 295 FLOP/B" and
    // the ridge's ring (issue 73 item 8). Where it starts, among its own point's marker and those
    // overlapping it, hairlines may meet (the markers are drawn over them).
    const double own = room.markerRadius + 2;
    const std::vector<QRectF>& obstacles = room.obstacles;
    auto clearOfHairlines = [&](const QRectF& box, const QPointF& anchor) {
        const QLineF mine = leaderLine(anchor, box);
        const QRectF start(anchor - QPointF(own, own), QSizeF(2 * own, 2 * own));
        auto meets = [&](const QLineF& l) {
            QPointF at;
            return mine.intersects(l, &at) == QLineF::BoundedIntersection && QLineF(at, anchor).length() > own
                && QLineF(at, l.p1()).length() > own;
        };
        auto aroundItsPoint
            = [&](const QRectF& o) { return o.width() <= 2 * own && o.height() <= 2 * own && overlaps(o, start); };
        // Only what lies within the hairline's own box can meet it: the plot's other markers are passed
        // over by one rectangle test each (this runs for every spot tried, on every slider step).
        const QRectF reach = QRectF(mine.p1(), mine.p2()).normalized().adjusted(-2, -2, 2, 2);
        auto near = [&](const QRectF& r) { return r.intersects(reach); };
        return std::none_of(labelBoxes.begin(), labelBoxes.end(), [&](const QRectF& b) {
            return near(b) && crosses(mine, b.adjusted(-1, -1, 1, 1));
        }) && std::none_of(leaders.begin(), leaders.end(), [&](const QLineF& l) {
            return crosses(l, box.adjusted(-1, -1, 1, 1)) || meets(l);
        }) && std::none_of(obstacles.begin(), obstacles.end(), [&](const QRectF& o) {
            return near(o) && !aroundItsPoint(o) && crosses(mine, o.adjusted(-1, -1, 1, 1));
        });
    };
    const std::vector<double> rings { 12, 24, 40, 60, 85, 115, 150 };
    for (size_t i = 0; i < spots.size(); ++i) {
        if (spots[i])
            continue;
        LabelRequest far = requests[i];
        spots[i] = placeFarLabel(far, m_taken, room.plot, room.lines, rings, clearOfHairlines);
        if (!spots[i] && !byDots[i].isEmpty()) {
            far.size = sizeOf(byDots[i], room.font); // the name broken after each dot, further out
            spots[i] = placeFarLabel(far, m_taken, room.plot, room.lines, rings, clearOfHairlines);
            if (spots[i])
                m_items[i]->setText(byDots[i]);
        }
        if (spots[i]) {
            m_taken.emplace_back(*spots[i], far.size);
            labelBoxes.emplace_back(*spots[i], far.size);
            leaders.push_back(leaderLine(wanted[i].at, labelBoxes.back()));
        }
    }
}

// What was left out for lack of room is said, not dropped (issue 52 item 5): "+2 more over 5 %" in the
// first corner of the plot free of points, lines and labels (bottom right first, where no point lies
// under the roof's far end), the layers in its tooltip. Where every corner holds a label, the labels of
// the least time under the note give way to it and are counted too.
void LayerLabels::placeMoreNote(
    Spots& spots, const std::vector<QRectF>& boxes, const std::vector<QString>& names, const Room& room)
{
    auto unnamed = [&] {
        QStringList out;
        for (size_t i = 0; i < spots.size(); ++i)
            if (!spots[i])
                out << names[i];
        return out;
    };
    m_unnamed = unnamed();
    if (m_unnamed.isEmpty()) {
        if (m_more)
            setVisibleIf(m_more, false);
        return;
    }
    if (!m_more) {
        m_more = new TextItem(m_chart);
        m_more->setZValue(19);
    }
    if (m_more->font() != room.font)
        m_more->setFont(room.font);
    if (m_more->brush().color() != room.noteColor)
        m_more->setBrush(room.noteColor);
    const QString share = QString::number(room.share * 100, 'g', 3);
    const QRectF plot = room.plot;
    auto clearOf = [](const QRectF& box, const std::vector<QRectF>& rects) {
        const QRectF clear = box.adjusted(-2, -2, 2, 2);
        return std::none_of(rects.begin(), rects.end(), [&](const QRectF& r) { return overlaps(r, clear); });
    };
    QPointF chosen;
    for (int round = 0; round < 3; ++round) {
        const QString note = translated("+%1 more over %2 %").arg(m_unnamed.size()).arg(share);
        if (m_more->text() != note)
            m_more->setText(note);
        const QSizeF size = m_more->boundingRect().size();
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
            return clearOf(box, room.obstacles)
                && std::none_of(room.lines.begin(), room.lines.end(), [&](const QLineF& l) { return crosses(l, box); });
        };
        const auto spot = std::find_if(std::begin(corners), std::end(corners),
            [&](const QPointF& c) { return freeOfPoints(c) && clearOf(QRectF(c, size), labels); });
        if (spot != std::end(corners)) {
            chosen = *spot;
            break;
        }
        // No corner free: the first one free of points, its labels giving way (least time first in
        // `spots`' order, which is by share: the later ones).
        const auto free = std::find_if(std::begin(corners), std::end(corners), freeOfPoints);
        chosen = free != std::end(corners) ? *free : corners[0];
        const QRectF clear = QRectF(chosen, size).adjusted(-2, -2, 2, 2);
        for (size_t i = 0; i < spots.size(); ++i)
            if (spots[i] && overlaps(boxes[i], clear))
                spots[i].reset();
        m_unnamed = unnamed();
    }
    m_more->setToolTip(translated("Over %1 % of the time, not named on the plot for lack of room:\n%2")
                           .arg(share, m_unnamed.join(QLatin1Char('\n'))));
    if (m_more->pos() != chosen)
        m_more->setPos(chosen);
    setVisibleIf(m_more, plot.contains(QRectF(chosen, m_more->boundingRect().size())));
}

// Each label placed at its spot with a hairline from its point to the label's nearest edge, so that a
// label among many points says which one it names; the others hidden.
void LayerLabels::show(const std::vector<Wanted>& wanted, const Spots& spots)
{
    for (size_t i = 0; i < m_items.size(); ++i) {
        QGraphicsSimpleTextItem* item = m_items[i];
        QGraphicsLineItem* leader = m_leaders[i];
        const bool shown = i < spots.size() && spots[i].has_value();
        if (shown) {
            if (item->pos() != *spots[i])
                item->setPos(*spots[i]);
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

QSizeF LayerLabels::sizeOf(const QString& text, const QFont& font)
{
    if (!m_probe)
        m_probe = std::make_unique<QGraphicsSimpleTextItem>();
    if (m_probe->font() != font || m_sizes.size() > 512) { // another font, or a long session's worth
        m_sizes.clear();
        m_probe->setFont(font);
    }
    auto [it, added] = m_sizes.try_emplace(text);
    if (added) {
        m_probe->setText(text);
        it->second = m_probe->boundingRect().size();
    }
    return it->second;
}

std::vector<std::pair<QString, QRectF>> LayerLabels::labels() const
{
    std::vector<std::pair<QString, QRectF>> out;
    for (const QGraphicsSimpleTextItem* item : m_items)
        if (item->isVisible())
            out.emplace_back(item->text(), QRectF(item->pos(), item->boundingRect().size()));
    return out;
}

std::vector<QLineF> LayerLabels::leaders() const
{
    std::vector<QLineF> out;
    for (const QGraphicsLineItem* leader : m_leaders)
        if (leader->isVisible() && leader->line().length() > 0)
            out.push_back(leader->line());
    return out;
}

bool LayerLabels::isLeader(const QGraphicsItem* item) const
{
    return std::find(m_leaders.begin(), m_leaders.end(), item) != m_leaders.end();
}

QRectF LayerLabels::moreBox() const
{
    return m_more && m_more->isVisible() ? QRectF(m_more->pos(), m_more->boundingRect().size()) : QRectF();
}

} // namespace rfx
