#pragma once
// One line of plain text as an image, composed from images of its glyphs, without Qt's text engine.
//
// A slider step rewrites dozens of numbers (the layer table's times, FLOPs and bytes): through Qt each
// new string is laid out by QTextEngine (QStaticText::prepare, 20,000 instructions) and blitted glyph
// by glyph through the raster engine's per-pixel path (QPainter::drawStaticText, 27,000), callgrind on
// `bench_ui`. Here a string is looked up in the font's character map (QRawFont), and each glyph is
// copied from an image of it drawn once by Qt per colour and sub-pixel position: a fifth of the cost,
// the same pixels (tst_repaint compares them with QPainter::drawStaticText's, bit for bit).
//
// It lays text out as Qt lays out unshaped text (QFont::PreferNoShaping: advances from the font, no
// kerning), so it takes only such fonts, and only text that needs no shaping: Latin, Greek, Cyrillic
// and common symbols, every glyph in the font itself. Anything else gets std::nullopt, and the caller
// draws it through Qt as before (a fallback font's glyph, Arabic, a combining accent, a tab).
#include <QColor>
#include <QFont>
#include <QGlyphRun>
#include <QImage>
#include <QList>
#include <QRawFont>
#include <QString>

class QTextDocument;

#include <array>
#include <memory>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

namespace rfx {

class GlyphStamp {
public:
    /// Sub-pixel positions in 64ths of a pixel: the font engine's fixed point (26.6), 6 bits of fraction.
    static constexpr int kFractionBits = 6;
    static constexpr int kFractions = 1 << kFractionBits; ///< 64
    static constexpr int kFractionMask = kFractions - 1; ///< 63

    struct Line {
        QList<quint32> glyphs;
        std::vector<double> x; ///< each glyph's pen position from the line's start, pixel
        double width = 0; ///< the advance of the whole line, as QStaticText::size().width()
    };

    /// `text` laid out in `font` on one line, or nullopt where only Qt's text engine can draw it.
    std::optional<Line> layout(const QString& text, const QFont& font);
    /// The height of a line in `font` as QStaticText::size() gives it (ascent + descent, rounded up).
    int lineHeight(const QFont& font);
    /// `line`'s glyphs in `color` on a transparent premultiplied image (pixel ratio 1) of lineHeight()
    /// rows and the line's width plus `margin` pixels each side; the pen starts at x = margin.
    QImage render(const Line& line, const QFont& font, const QColor& color, int margin);
    /// Blends `line`'s glyphs in `font` and `color` into `target` (premultiplied ARGB32), the line's
    /// pen starting at `pen` (x, baseline y).
    void compose(QImage& target, const Line& line, const QFont& font, QPointF pen, const QColor& color);
    /// Blends `run`'s glyphs (laid out by Qt: QTextLayout::glyphRuns) in `color` into `target`, a
    /// premultiplied ARGB32 image, at `origin`: the pixels QPainter::drawGlyphRun would give there.
    void compose(QImage& target, const QGlyphRun& run, QPointF origin, const QColor& color);
    /// Blends `document`'s text into `target` as QAbstractTextDocumentLayout::draw would paint it at
    /// `origin` with `textColor` for text of no colour of its own. False, with `target` partly drawn,
    /// where the document has what only Qt draws (underlines, backgrounds, outlines, links, frames
    /// with borders, lists, images): paint it through Qt instead.
    bool compose(QImage& target, const QTextDocument& document, QPointF origin, const QColor& textColor);

private:
    struct Glyph {
        QImage image; ///< the glyph in its colour, its pen at (left + fraction, baseline)
        const quint32* pixels = nullptr; ///< image's, row by row (stride: width)
        int width = 0, left = 0, baseline = 0;
        int x0 = 0, x1 = -1, y0 = 0, y1 = -1; ///< the box of its non-transparent pixels
    };
    /// One font's glyphs in one colour: (glyph << 6 | sub-pixel position in 64ths) -> its image, with
    /// a direct-mapped table of the last ones looked up in front of the map (nodes do not move).
    struct Glyphs {
        std::unordered_map<quint64, Glyph> map;
        std::array<std::pair<quint64, const Glyph*>, 256> recent {};
    };
    /// The image blended into, with what the inner loop needs at hand.
    struct Target {
        quint32* pixels;
        qsizetype stride; ///< in pixels
        int width, height;
    };
    struct Face {
        Face() = default;
        Face(Face&&) noexcept = default;
        Face& operator=(Face&&) noexcept = default;
        Face(const Face&) = delete;
        Face& operator=(const Face&) = delete;
        QRawFont raw;
        std::vector<QFont> fonts; ///< the fonts that resolved to it
        double ascent = 0;
        int height = 0;
        std::vector<std::pair<QRgb, std::unique_ptr<Glyphs>>> glyphs; ///< per colour
        /// Per sub-pixel position in 64ths, the first position the raster engine draws alike: it keeps a
        /// few images per glyph (QFontEngine::subPixelPositionFor), and so does the cache.
        std::array<quint8, kFractions> position {};
        bool positionsKnown = false;
    };
    /// Face::position, found by drawing one glyph at each of the 64 positions.
    static void findPositions(Face& face);
    Face* face(const QFont& font);
    Face* face(const QRawFont& raw);
    Glyphs& glyphsOf(Face& face, const QColor& color);
    const Glyph& glyph(Face& face, Glyphs& cache, quint32 index, int fraction, const QColor& color);
    /// Blends glyph `index` with its pen at (x, baseline y) of `target`.
    void blend(const Target& target, Face& face, Glyphs& cache, quint32 index, double x, double y, const QColor& color);
    static Target targetOf(QImage& image);

    std::vector<Face> m_faces; ///< the few fonts in use (a table's regular and bold), oldest first
    qsizetype m_cached = 0;
};

} // namespace rfx
