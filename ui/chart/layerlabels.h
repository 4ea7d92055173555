#pragma once
// The names of the layers that take the most time, beside their points on a roofline chart
// (RooflineChart owns one and says which layers and where their points are): each label clear of
// the markers, the roofs and the other labels; where a line has no room, in two lines, then further
// out with a hairline to its point; "+N more over 5 %" for those still left out, named in its tooltip.

#include <QColor>
#include <QFont>
#include <QLineF>
#include <QPointF>
#include <QRectF>
#include <QSizeF>
#include <QString>
#include <QStringList>

#include <map>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

class QGraphicsItem;
class QGraphicsLineItem;
class QGraphicsSimpleTextItem;

namespace rfx {

struct LabelRequest;

class LayerLabels {
public:
    /// A label asked for: its text ("enc4.conv1 12 %"), its point (chart coordinates), its colour, the
    /// layer's share of the time (the larger are placed first) and, in an overlay, the device's short name.
    struct Wanted {
        QString text;
        QPointF at;
        QColor color;
        double share = 0;
        QString device;
    };
    /// What the labels are placed in and around: the plot, the boxes and lines they keep clear of,
    /// their font, the markers' radius, the share they name (for the note) and the note's colour.
    struct Room {
        QRectF plot;
        const std::vector<QRectF>& obstacles;
        const std::vector<QLineF>& lines;
        QFont font;
        double markerRadius = 0;
        double share = 0;
        QColor noteColor;
    };

    /// The labels are drawn as children of `chart` (the chart's item).
    explicit LayerLabels(QGraphicsItem* chart);
    ~LayerLabels();
    LayerLabels(const LayerLabels&) = delete;
    LayerLabels& operator=(const LayerLabels&) = delete;

    void place(std::vector<Wanted> wanted, const Room& room);

    /// The labels drawn and their boxes (chart coordinates).
    std::vector<std::pair<QString, QRectF>> labels() const;
    /// The hairlines drawn, from a point to its label's edge (chart coordinates).
    std::vector<QLineF> leaders() const;
    bool isLeader(const QGraphicsItem* item) const;
    /// The layers asked for that no label names for lack of room, as the note's tooltip lists them.
    const QStringList& unnamed() const { return m_unnamed; }
    /// The "+N more" note's box (chart coordinates), empty when every layer is named.
    QRectF moreBox() const;

private:
    using Spots = std::vector<std::optional<QPointF>>;
    void ensureItems(std::size_t count);
    std::vector<LabelRequest> styleItems(const std::vector<Wanted>& wanted, const Room& room);
    std::vector<QString> tryTwoLines(
        const std::vector<Wanted>& wanted, const std::vector<LabelRequest>& requests, const Room& room, Spots& spots);
    void tryFurtherOut(const std::vector<Wanted>& wanted, const std::vector<LabelRequest>& requests,
        const std::vector<QString>& byDots, const Room& room, Spots& spots);
    void placeMoreNote(
        Spots& spots, const std::vector<QRectF>& boxes, const std::vector<QString>& names, const Room& room);
    void show(const std::vector<Wanted>& wanted, const Spots& spots);
    /// The box `text` takes in `font`, measured by a probe item (the labels' own class) once per text
    /// and font: a label tried in two lines is laid out only if it goes there.
    QSizeF sizeOf(const QString& text, const QFont& font);

    QGraphicsItem* m_chart;
    std::vector<QGraphicsSimpleTextItem*> m_items; ///< reused, children of m_chart
    std::vector<QGraphicsLineItem*> m_leaders; ///< from each label to its point
    std::vector<QRectF> m_taken; ///< during place(): the obstacles and the labels placed so far
    std::unique_ptr<QGraphicsSimpleTextItem> m_probe; ///< sizeOf()'s, in no scene
    std::map<QString, QSizeF> m_sizes; ///< sizeOf()'s, in the probe's font
    QStringList m_unnamed;
    QGraphicsSimpleTextItem* m_more = nullptr; ///< "+N more over 5 %", made when first needed
};

} // namespace rfx
