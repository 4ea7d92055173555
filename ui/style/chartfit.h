#pragma once
// The rules by which a chart stays legible at any size, as pure functions: which tick labels to
// draw when the axis is short, which of a text's forms fits, whether a line runs through a label.

#include <QFontMetricsF>
#include <QLineF>
#include <QRectF>
#include <QStringList>

#include <vector>

namespace rfx {

/// Tick labels along one axis: the labels' centres and extents along the axis (pixels). Returns
/// the smallest stride n such that labelling every n-th tick (the ticks whose `index` is a multiple
/// of n) leaves at least `gap` pixels between neighbouring labels. Every tick is labelled (1) when
/// they fit; never more than the tick count.
int labelStride(
    const std::vector<double>& centres, const std::vector<double>& extents, const std::vector<int>& index, double gap);

/// The first of `forms` (longest first) whose width in `fm` is at most `room`; the last form when
/// none fits and `allowNone` is false, else an empty string.
QString firstThatFits(const QStringList& forms, const QFontMetricsF& fm, double room, bool allowNone = false);

/// A rich-text title as lines, each given in forms from the longest to the shortest: each line takes
/// its first form whose laid-out width in `font` is at most `width` (else its last), joined by <br>.
QString fitHtmlLines(const std::vector<QStringList>& lines, const QFont& font, double width);

/// Whether the segment passes through the rectangle (touching its edge counts).
bool crosses(const QLineF& segment, const QRectF& rect);

/// QRectF::intersects for boxes of positive size, inline: placing a chart's labels asks it some
/// 20,000 times a slider step, and the library call with its normalising was 4 % of the step.
inline bool overlaps(const QRectF& a, const QRectF& b)
{
    return a.left() < b.right() && b.left() < a.right() && a.top() < b.bottom() && b.top() < a.bottom();
}

/// QRectF::contains(QRectF) for boxes of positive size, inline (the same hot loop).
inline bool encloses(const QRectF& outer, const QRectF& inner)
{
    return outer.left() <= inner.left() && inner.right() <= outer.right() && outer.top() <= inner.top()
        && inner.bottom() <= outer.bottom();
}

} // namespace rfx
