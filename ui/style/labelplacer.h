#pragma once

#include <QLineF>
#include <QPointF>
#include <QRectF>
#include <QSizeF>

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
/// is crossed by none of `lines` (roofs, slopes) and keeps 2 px from every label placed before it. A label with no free spot is
/// left out (nullopt) rather than drawn over something: labels never overlap each other or the
/// points. Returns each label's top-left corner.
std::vector<std::optional<QPointF>> placeLabels(const std::vector<LabelRequest>& requests, const std::vector<QRectF>& obstacles,
    const QRectF& bounds, const std::vector<QLineF>& lines = {});

} // namespace rfx
