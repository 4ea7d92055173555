#include "style/labelplacer.h"

#include "style/chartfit.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>

namespace rfx {

namespace {
// The obstacles that can touch a box whose edge lies at most `reach` from `anchor` (a box of w x h kept
// 2 px clear): every box tried around one anchor lies inside that square, so the others are passed
// over once here rather than once per spot tried (a chart's every marker, for every label).
std::vector<QRectF> obstaclesNear(
    const std::vector<QRectF>& obstacles, const QPointF& anchor, double reach, const QSizeF& size)
{
    const double far = reach + size.width() + size.height() + 4;
    const QRectF square(anchor - QPointF(far, far), QSizeF(2 * far, 2 * far));
    std::vector<QRectF> near;
    for (const QRectF& o : obstacles)
        if (overlaps(o, square))
            near.push_back(o);
    return near;
}

// Straight down first, then alternately either side of it round to straight up: under the roof is
// where no point lies. Unit vectors, 15 degrees apart.
const std::array<QPointF, 24> kDirections = [] {
    std::array<QPointF, 24> out;
    for (int k = 0; k < 24; ++k) {
        const int step = (k + 1) / 2 * (k % 2 ? 1 : -1);
        const double angle = std::numbers::pi / 2 - step * std::numbers::pi / 12;
        out[size_t(k)] = QPointF(std::cos(angle), std::sin(angle));
    }
    return out;
}();
} // namespace

std::vector<std::optional<QPointF>> placeLabels(const std::vector<LabelRequest>& requests,
    const std::vector<QRectF>& obstacles, const QRectF& bounds, const std::vector<QLineF>& lines,
    const std::function<bool(const QRectF& box, const QPointF& anchor)>& accept)
{
    std::vector<std::optional<QPointF>> out;
    std::vector<QRectF> placed;
    for (const LabelRequest& r : requests) {
        const double w = r.size.width(), h = r.size.height(), d = r.radius + r.gap;
        const QPointF a = r.anchor;
        const QPointF spots[] = {
            { a.x() + d, a.y() - h / 2 }, // right
            { a.x() - d - w, a.y() - h / 2 }, // left
            { a.x() - w / 2, a.y() - d - h }, // above
            { a.x() - w / 2, a.y() + d }, // below
            { a.x() + d, a.y() - d - h }, // above right
            { a.x() - d - w, a.y() - d - h }, // above left
            { a.x() + d, a.y() + d }, // below right
            { a.x() - d - w, a.y() + d }, // below left
        };
        const std::vector<QRectF> nearby = obstaclesNear(obstacles, a, d, r.size);
        std::optional<QPointF> chosen;
        for (const QPointF& s : spots) {
            const QRectF box(s, r.size);
            if (!encloses(bounds, box))
                continue;
            const QRectF clear = box.adjusted(-2, -2, 2, 2);
            auto hits
                = [&](const QRectF& o) { return overlaps(o, clear); }; // 2 px apart: "6.9 %dec4.conv1" ran together
            auto crossed = [&](const QLineF& l) { return crosses(l, box); };
            if (std::any_of(nearby.begin(), nearby.end(), hits) || std::any_of(placed.begin(), placed.end(), hits)
                || std::any_of(lines.begin(), lines.end(), crossed) || (accept && !accept(box, a)))
                continue;
            chosen = s;
            placed.push_back(box);
            break;
        }
        out.push_back(chosen);
    }
    return out;
}

QLineF leaderLine(const QPointF& a, const QRectF& box)
{
    return QLineF(a, QPointF(std::clamp(a.x(), box.left(), box.right()), std::clamp(a.y(), box.top(), box.bottom())));
}

std::optional<QPointF> placeFarLabel(const LabelRequest& r, const std::vector<QRectF>& obstacles, const QRectF& bounds,
    const std::vector<QLineF>& lines, const std::vector<double>& rings,
    const std::function<bool(const QRectF& box, const QPointF& anchor)>& accept)
{
    const double w = r.size.width(), h = r.size.height();
    const double farthest = rings.empty() ? 0 : *std::max_element(rings.begin(), rings.end());
    const std::vector<QRectF> nearby = obstaclesNear(obstacles, r.anchor, r.radius + farthest, r.size);
    for (double ring : rings) {
        const double d = r.radius + ring;
        for (const QPointF& u : kDirections) {
            // The box's centre along u, so that its edge (not its centre) is d from the anchor.
            const double reach = d + std::abs(u.x()) * w / 2 + std::abs(u.y()) * h / 2;
            const QRectF box(r.anchor + u * reach - QPointF(w / 2, h / 2), r.size);
            if (!encloses(bounds, box))
                continue;
            const QRectF clear = box.adjusted(-2, -2, 2, 2);
            if (std::any_of(nearby.begin(), nearby.end(), [&](const QRectF& o) { return overlaps(o, clear); })
                || std::any_of(lines.begin(), lines.end(), [&](const QLineF& l) { return crosses(l, box); })
                || (accept && !accept(box, r.anchor)))
                continue;
            return box.topLeft();
        }
    }
    return std::nullopt;
}

} // namespace rfx
