#include "labelplacer.h"

#include "chartfit.h"

#include <algorithm>

namespace rfx {

std::vector<std::optional<QPointF>> placeLabels(const std::vector<LabelRequest>& requests, const std::vector<QRectF>& obstacles,
    const QRectF& bounds, const std::vector<QLineF>& lines)
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
        std::optional<QPointF> chosen;
        for (const QPointF& s : spots) {
            const QRectF box(s, r.size);
            if (!bounds.contains(box))
                continue;
            const QRectF clear = box.adjusted(-2, -2, 2, 2);
            auto near = [&](const QRectF& o) { return o.intersects(clear); };
            auto hits = [&](const QRectF& o) { return o.intersects(clear); }; // 2 px apart: "6.9 %dec4.conv1" ran together
            auto crossed = [&](const QLineF& l) { return crosses(l, box); };
            if (std::any_of(obstacles.begin(), obstacles.end(), near) || std::any_of(placed.begin(), placed.end(), hits)
                || std::any_of(lines.begin(), lines.end(), crossed))
                continue;
            chosen = s;
            placed.push_back(box);
            break;
        }
        out.push_back(chosen);
    }
    return out;
}

} // namespace rfx
