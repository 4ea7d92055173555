#include "widgets/glyphstamp.h"

#include <QAbstractTextDocumentLayout>
#include <QGlyphRun>
#include <QPainter>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextFrame>
#include <QTextLayout>
#include <QtMath>

#include <algorithm>
#include <cmath>

namespace rfx {

namespace {

/// Characters that Qt draws one glyph each, at the advances, with no shaping: no combining marks, no
/// invisible format characters (a word joiner, a soft hyphen), no tabs or line breaks, no script that
/// needs OpenType (QFontEngine::scriptRequiresOpenType), no surrogate pairs.
bool needsNoShaping(const QString& text)
{
    for (const QChar c : text) {
        if (c.isSurrogate() || c.isMark() || c.category() == QChar::Other_Control || c.category() == QChar::Other_Format
            || c == QChar::SoftHyphen || c == QChar::LineSeparator || c == QChar::ParagraphSeparator)
            return false;
        const QChar::Script script = c.script();
        if (script != QChar::Script_Common && script != QChar::Script_Latin && script != QChar::Script_Greek
            && script != QChar::Script_Cyrillic)
            return false;
    }
    return true;
}

/// A font Qt lays out by plain advances: no shaping (so no kerning), no spacing or decoration of its own.
bool plainFont(const QFont& font)
{
    const bool defaultLetterSpacing = font.letterSpacing() == 0
        || (font.letterSpacingType() == QFont::PercentageSpacing && font.letterSpacing() == 100);
    return (font.styleStrategy() & QFont::PreferNoShaping) && defaultLetterSpacing && font.wordSpacing() == 0
        && font.capitalization() == QFont::MixedCase && !font.underline() && !font.strikeOut() && !font.overline();
}

/// x * a / 255 per 8-bit channel, rounded, two channels at a time: the raster engine's BYTE_MUL.
inline quint32 byteMul(quint32 x, quint32 a)
{
    quint32 t = (x & 0xff00ff) * a;
    t = ((t + ((t >> 8) & 0xff00ff) + 0x800080) >> 8) & 0xff00ff;
    x = ((x >> 8) & 0xff00ff) * a;
    x = (x + ((x >> 8) & 0xff00ff) + 0x800080) & 0xff00ff00;
    return x | t;
}

constexpr qsizetype kMaxGlyphs = 8192; ///< glyph images kept, all fonts and colours (about 8 MB)
constexpr size_t kMaxFaces = 6;

} // namespace

GlyphStamp::Face* GlyphStamp::face(const QRawFont& raw)
{
    for (Face& f : m_faces)
        if (f.raw == raw)
            return &f;
    if (!raw.isValid())
        return nullptr;
    if (m_faces.size() >= kMaxFaces) {
        for (const auto& [rgb, glyphs] : m_faces.front().glyphs)
            m_cached -= qsizetype(glyphs->map.size());
        m_faces.erase(m_faces.begin());
    }
    Face f;
    f.raw = raw;
    f.ascent = raw.ascent();
    f.height = int(std::ceil(raw.ascent() + raw.descent()));
    m_faces.push_back(std::move(f));
    return &m_faces.back();
}

GlyphStamp::Face* GlyphStamp::face(const QFont& font)
{
    for (Face& f : m_faces)
        if (std::find(f.fonts.begin(), f.fonts.end(), font) != f.fonts.end())
            return &f;
    Face* f = face(QRawFont::fromFont(font));
    if (f && f->fonts.size() < 4)
        f->fonts.push_back(font);
    return f;
}

std::optional<GlyphStamp::Line> GlyphStamp::layout(const QString& text, const QFont& font)
{
    if (text.isEmpty() || !plainFont(font) || !needsNoShaping(text))
        return std::nullopt;
    Face* f = face(font);
    if (!f)
        return std::nullopt;
    Line line;
    line.glyphs = f->raw.glyphIndexesForString(text);
    if (line.glyphs.size() != text.size() || std::find(line.glyphs.begin(), line.glyphs.end(), 0u) != line.glyphs.end())
        return std::nullopt; // a character the font lacks: Qt would take it from a fallback font
    const QList<QPointF> advances = f->raw.advancesForGlyphIndexes(line.glyphs, QRawFont::SeparateAdvances);
    line.x.reserve(size_t(advances.size()));
    for (const QPointF& a : advances) {
        line.x.push_back(line.width);
        line.width += a.x(); // multiples of 1/64 (the font engine's fixed point): exact in a double
    }
    return line;
}

int GlyphStamp::lineHeight(const QFont& font)
{
    const Face* f = face(font);
    return f ? f->height : 0;
}

GlyphStamp::Glyphs& GlyphStamp::glyphsOf(Face& f, const QColor& color)
{
    if (m_cached > kMaxGlyphs) {
        for (Face& each : m_faces)
            each.glyphs.clear();
        m_cached = 0;
    }
    const QRgb rgba = color.rgba();
    for (auto& [rgb, glyphs] : f.glyphs)
        if (rgb == rgba)
            return *glyphs;
    f.glyphs.emplace_back(rgba, std::make_unique<Glyphs>());
    return *f.glyphs.back().second;
}

void GlyphStamp::findPositions(Face& f)
{
    f.positionsKnown = true;
    for (int i = 0; i < kFractions; ++i)
        f.position[size_t(i)] = quint8(i);
    const QList<quint32> probe = f.raw.glyphIndexesForString(QStringLiteral("o"));
    if (probe.size() != 1 || probe.front() == 0)
        return; // every position drawn on its own: right, at more cost
    // A round glyph differs at every position the engine tells apart; the same image is the same position.
    std::vector<std::pair<int, QImage>> seen;
    for (int fraction = 0; fraction < kFractions; ++fraction) {
        QImage image(QSize(24, f.height + 8), QImage::Format_ARGB32_Premultiplied);
        image.fill(0);
        QGlyphRun run;
        run.setRawFont(f.raw);
        run.setGlyphIndexes(probe);
        run.setPositions({ QPointF(4 + fraction / double(kFractions), std::ceil(f.ascent) + 4) });
        QPainter painter(&image);
        painter.setPen(Qt::black);
        painter.drawGlyphRun(QPointF(0, 0), run);
        painter.end();
        auto same = std::find_if(seen.begin(), seen.end(), [&](const auto& s) { return s.second == image; });
        if (same == seen.end())
            seen.emplace_back(fraction, std::move(image));
        else
            f.position[size_t(fraction)] = quint8(same->first);
    }
}

const GlyphStamp::Glyph& GlyphStamp::glyph(Face& f, Glyphs& cache, quint32 index, int fraction, const QColor& color)
{
    if (!f.positionsKnown)
        findPositions(f);
    fraction = f.position[size_t(fraction)];
    const quint64 key = (quint64(index) << kFractionBits) | quint64(fraction);
    auto& recent = cache.recent[size_t((index * 4 + quint32(fraction)) & 255)];
    if (recent.second && recent.first == key)
        return *recent.second;
    if (auto it = cache.map.find(key); it != cache.map.end()) {
        recent = { key, &it->second };
        return it->second;
    }
    // Drawn by Qt at the same sub-pixel position as in the text: the raster engine picks its glyph
    // image by the pen's fraction and blits it at the pen's whole pixel, so a copy at that pixel is
    // what it would have drawn there.
    const QRectF box = f.raw.boundingRect(index);
    Glyph g;
    g.left = int(std::ceil(std::max(0.0, -box.left()))) + 2;
    g.baseline = int(std::ceil(std::max(f.ascent, -box.top()))) + 2;
    g.width = g.left + int(std::ceil(std::max(0.0, box.right()))) + 3;
    const int height = g.baseline + int(std::ceil(std::max(f.height - f.ascent, box.bottom()))) + 2;
    QImage image(QSize(g.width, height), QImage::Format_ARGB32_Premultiplied);
    image.fill(0);
    QGlyphRun run;
    run.setRawFont(f.raw);
    run.setGlyphIndexes({ index });
    run.setPositions({ QPointF(g.left + fraction / double(kFractions), g.baseline) });
    QPainter painter(&image);
    painter.setPen(color);
    painter.drawGlyphRun(QPointF(0, 0), run);
    painter.end();
    if (image.bytesPerLine() != qsizetype(g.width) * 4) // 32-bit rows are never padded; kept honest
        image = image.copy();
    g.x0 = g.width;
    g.y0 = height;
    for (int y = 0; y < height; ++y) {
        const auto* row = reinterpret_cast<const quint32*>(image.constScanLine(y));
        for (int x = 0; x < g.width; ++x)
            if (row[x] >> 24) {
                g.x0 = std::min(g.x0, x);
                g.x1 = std::max(g.x1, x);
                g.y0 = std::min(g.y0, y);
                g.y1 = std::max(g.y1, y);
            }
    }
    g.image = std::move(image);
    g.pixels = reinterpret_cast<const quint32*>(g.image.constBits());
    ++m_cached;
    const Glyph& stored = cache.map.emplace(key, std::move(g)).first->second;
    recent = { key, &stored };
    return stored;
}

GlyphStamp::Target GlyphStamp::targetOf(QImage& image)
{
    return { reinterpret_cast<quint32*>(image.bits()), image.bytesPerLine() / 4, image.width(), image.height() };
}

void GlyphStamp::blend(
    const Target& target, Face& f, Glyphs& cache, quint32 index, double x, double y, const QColor& color)
{
    // The raster engine's placement (QRasterPaintEngine::drawCachedGlyphs): the glyph image of the
    // pen's sub-pixel fraction at the pen's whole pixel, the baseline rounded. Positions are whole
    // 64ths (the font engine's fixed point).
    const int fixed = qRound(x * kFractions);
    const Glyph& g = glyph(f, cache, index, fixed & kFractionMask, color);
    const int dx = (fixed >> kFractionBits) - g.left, dy = qRound(y) - g.baseline;
    const int x0 = std::max(g.x0, -dx), x1 = std::min(g.x1, target.width - 1 - dx);
    const int y0 = std::max(g.y0, -dy), y1 = std::min(g.y1, target.height - 1 - dy);
    for (int row = y0; row <= y1; ++row) {
        const quint32* s = g.pixels + qsizetype(row) * g.width;
        quint32* d = target.pixels + qsizetype(row + dy) * target.stride; // the row; column + dx >= 0
        for (int column = x0; column <= x1; ++column) {
            // Source over, premultiplied: the raster engine's blend of a glyph onto what is there
            // (mostly nothing: glyphs seldom overlap).
            const quint32 p = s[column], q = d[column + dx];
            d[column + dx] = q ? p + byteMul(q, 255 - (p >> 24)) : p;
        }
    }
}

QImage GlyphStamp::render(const Line& line, const QFont& font, const QColor& color, int margin)
{
    Face* f = face(font);
    if (!f)
        return {};
    Glyphs& cache = glyphsOf(*f, color);
    QImage image(QSize(int(std::ceil(line.width + 2 * margin)), f->height), QImage::Format_ARGB32_Premultiplied);
    image.fill(0);
    const Target target = targetOf(image);
    for (qsizetype i = 0; i < line.glyphs.size(); ++i)
        blend(target, *f, cache, line.glyphs[i], margin + line.x[size_t(i)], f->ascent, color);
    return image;
}

void GlyphStamp::compose(QImage& target, const Line& line, const QFont& font, QPointF pen, const QColor& color)
{
    Face* f = face(font);
    if (!f || target.format() != QImage::Format_ARGB32_Premultiplied)
        return;
    Glyphs& cache = glyphsOf(*f, color);
    const Target into = targetOf(target);
    for (qsizetype i = 0; i < line.glyphs.size(); ++i)
        blend(into, *f, cache, line.glyphs[i], pen.x() + line.x[size_t(i)], pen.y(), color);
}

void GlyphStamp::compose(QImage& target, const QGlyphRun& run, QPointF origin, const QColor& color)
{
    Face* f = face(run.rawFont());
    if (!f || target.format() != QImage::Format_ARGB32_Premultiplied)
        return;
    Glyphs& cache = glyphsOf(*f, color);
    const QList<quint32> indexes = run.glyphIndexes();
    const QList<QPointF> positions = run.positions();
    const Target into = targetOf(target);
    for (qsizetype i = 0; i < indexes.size() && i < positions.size(); ++i)
        blend(into, *f, cache, indexes[i], origin.x() + positions[i].x(), origin.y() + positions[i].y(), color);
}

bool GlyphStamp::compose(QImage& target, const QTextDocument& document, QPointF origin, const QColor& textColor)
{
    const QTextFrame* root = document.rootFrame();
    if (!root->childFrames().isEmpty() || root->frameFormat().border() > 0)
        return false;
    for (QTextBlock block = document.begin(); block.isValid(); block = block.next()) {
        const QTextLayout* layout = block.layout();
        if (!block.isVisible())
            continue;
        if (!layout || block.textList() || block.blockFormat().background().style() != Qt::NoBrush)
            return false;
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            const QTextFragment fragment = it.fragment();
            const QTextCharFormat format = fragment.charFormat();
            const QBrush brush = format.foreground();
            if (format.fontUnderline() || format.fontStrikeOut() || format.fontOverline() || format.isAnchor()
                || format.isImageFormat() || format.background().style() != Qt::NoBrush
                || format.textOutline().style() != Qt::NoPen
                || (brush.style() != Qt::NoBrush && brush.style() != Qt::SolidPattern))
                return false;
            const QColor color = brush.style() == Qt::SolidPattern ? brush.color() : textColor;
            // A fragment's glyph runs are in its block's layout coordinates; the layout sits at its
            // position in the document (QTextLayout::draw adds it too).
            for (const QGlyphRun& run : fragment.glyphRuns())
                compose(target, run, origin + layout->position(), color);
        }
    }
    return true;
}

} // namespace rfx
