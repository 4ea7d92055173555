#pragma once

#include <QLineF>
#include <QPointF>
#include <QRectF>
#include <QSizeF>

#include <functional>
#include <optional>
#include <vector>

namespace rfx {

/// A label to place beside the point it names.
struct LabelRequest {
    QPointF anchor; ///< the point, in the same coordinates as the obstacles
    QSizeF size; ///< the label's box
    double gap = 3; ///< between the point's marker edge and the label
    double radius = 4; ///< the marker's half size
};

/// Greedy placement, most important request first: each label goes to the first of eight spots
/// around its point (right, left, above, below, then the diagonals) whose box lies inside `bounds`
/// and overlaps no obstacle (markers, kept 2 px away so that a label never reads as a neighbour's),
/// is crossed by none of `lines` (roofs, slopes) and keeps 2 px from every label placed before it. A label with no free
/// spot is left out (nullopt) rather than drawn over something: labels never overlap each other or the points. Returns
/// each label's top-left corner. `accept`, when given, may refuse a spot that is otherwise free (the label's box, its
/// anchor).
std::vector<std::optional<QPointF>> placeLabels(const std::vector<LabelRequest>& requests,
    const std::vector<QRectF>& obstacles, const QRectF& bounds, const std::vector<QLineF>& lines = {},
    const std::function<bool(const QRectF& box, const QPointF& anchor)>& accept = {});

/// The hairline from a label's point to the nearest point of its box: which point it names.
QLineF leaderLine(const QPointF& anchor, const QRectF& box);

/// A label with no free spot beside its point, further out (drawn with a hairline to it): the
/// nearest free box on rings of growing distance (`rings`, pixels between the marker's edge and
/// the box) in 24 directions, below and to the right first, under the same rules as placeLabels
/// (inside `bounds`, 2 px off every obstacle, crossed by no line, `accept`ed).
std::optional<QPointF> placeFarLabel(const LabelRequest& request, const std::vector<QRectF>& obstacles,
    const QRectF& bounds, const std::vector<QLineF>& lines, const std::vector<double>& rings,
    const std::function<bool(const QRectF& box, const QPointF& anchor)>& accept = {});

} // namespace rfx
