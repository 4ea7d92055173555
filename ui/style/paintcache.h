#pragma once
// An item's drawing kept as an image for the screen, drawn again only when the item says it changed.
//
// A chart repaints every item on every slider step, although most (tick labels, titles, roof labels,
// the legend) did not change; text is the dear part: QGraphicsSimpleTextItem lays out and shapes its
// text again on each paint (QTextLayout, HarfBuzz) and blits each glyph through the raster engine's
// per-pixel path (2,200 instructions a glyph, callgrind). The image is blended through its SIMD path.
// Anything but a raster device at a plain translation (a figure's 300-dpi PNG under a scale, SVG, PDF,
// a rotated axis title) is drawn directly, so that exported text stays text and sharp.
#include <QImage>
#include <QRectF>

#include <functional>

class QPainter;

namespace rfx {

class PaintCache {
public:
    /// The drawing changed: the next paint draws it again.
    void invalidate() { m_image = QImage(); }
    /// Paints what `draw` draws within `box` (item coordinates; glyphs may overhang it by a few pixels):
    /// from the image where `painter` is a raster device at a plain translation, drawing the image
    /// first when invalidated or at another pixel ratio; directly otherwise. True when from the image.
    bool paint(QPainter* painter, const QRectF& box, const std::function<void(QPainter*)>& draw);

private:
    static constexpr int kMargin = 2; ///< room for glyphs that overhang their advance ('j', italics)

    QImage m_image;
    QRectF m_box;
};

} // namespace rfx
