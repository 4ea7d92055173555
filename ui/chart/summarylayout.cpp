#include "chart/summarylayout.h"

#include <QTextBoundaryFinder>

#include <algorithm>
#include <cmath>

namespace rfx {

namespace {
constexpr char16_t kLineBreak = 0x2028; // <br>, as QTextDocument holds it
constexpr char16_t kWordJoiner = 0x2060;

/// A space a line may break at and hang (QTextLine: white space without a no-break decomposition).
bool breakableSpace(QChar c) { return c.isSpace() && c.decompositionTag() != QChar::NoBreak; }
} // namespace

bool SummaryLayout::read(const QString& html)
{
    m_text.clear();
    m_styleOf.clear();
    m_styles.clear();
    auto styleIndex = [this](const Style& s) {
        const auto it = std::find(m_styles.begin(), m_styles.end(), s);
        if (it != m_styles.end())
            return int(it - m_styles.begin());
        m_styles.push_back(s);
        return int(m_styles.size()) - 1;
    };
    std::vector<std::pair<Style, int>> stack { { Style {}, styleIndex(Style {}) } }; // the open elements' styles
    auto append = [&](QChar c) {
        // Spaces HTML would fold (two in a row, at a line's start or end) are QTextDocument's to fold.
        const bool space = c == QLatin1Char(' ');
        const QChar before = m_text.isEmpty() ? QChar(kLineBreak) : m_text.back();
        if ((space && (before == QLatin1Char(' ') || before == QChar(kLineBreak)))
            || (c == QChar(kLineBreak) && before == QLatin1Char(' ')))
            return false;
        if (c != QChar(kLineBreak) && (c.isSpace() && !space && c != QChar(QChar::Nbsp)))
            return false; // a tab or a newline: folded too
        m_text += c;
        m_styleOf.push_back(stack.back().second);
        return true;
    };
    static const QString colorSpan = QStringLiteral("span style=\"color:#");
    for (qsizetype i = 0; i < html.size(); ++i) {
        const QChar c = html[i];
        if (c == QLatin1Char('<')) {
            const qsizetype close = html.indexOf(QLatin1Char('>'), i);
            if (close < 0)
                return false;
            const QString tag = html.mid(i + 1, close - i - 1);
            i = close;
            Style s = stack.back().first;
            if (tag == QLatin1String("b") || tag == QLatin1String("i")) {
                (tag == QLatin1String("b") ? s.bold : s.italic) = true;
                stack.emplace_back(s, styleIndex(s));
            } else if (tag.startsWith(colorSpan) && tag.size() == colorSpan.size() + 7
                && tag.endsWith(QLatin1Char('"'))) {
                s.color = QColor(QLatin1Char('#') + tag.mid(colorSpan.size(), 6));
                if (!s.color.isValid())
                    return false;
                stack.emplace_back(s, styleIndex(s));
            } else if (tag == QLatin1String("/b") || tag == QLatin1String("/i") || tag == QLatin1String("/span")) {
                if (stack.size() < 2)
                    return false;
                stack.pop_back();
            } else if (tag == QLatin1String("br") || tag == QLatin1String("br/") || tag == QLatin1String("br /")) {
                if (!append(QChar(kLineBreak)))
                    return false;
            } else {
                return false;
            }
        } else if (c == QLatin1Char('&')) {
            const qsizetype close = html.indexOf(QLatin1Char(';'), i);
            const QString entity = close < 0 ? QString() : html.mid(i, close - i + 1);
            const QChar decoded = entity == QLatin1String("&amp;") ? QChar(u'&')
                : entity == QLatin1String("&lt;")                  ? QChar(u'<')
                : entity == QLatin1String("&gt;")                  ? QChar(u'>')
                : entity == QLatin1String("&quot;")                ? QChar(u'"')
                : entity == QLatin1String("&#39;")                 ? QChar(u'\'')
                                                                   : QChar();
            if (decoded.isNull() || !append(decoded))
                return false;
            i = close;
        } else if (!append(c)) {
            return false;
        }
    }
    return !m_text.isEmpty() && m_text.back() != QLatin1Char(' ') && stack.size() == 1;
}

int SummaryLayout::faceOf(const Style& style)
{
    QFont font = m_font;
    font.setBold(style.bold);
    font.setItalic(style.italic);
    for (size_t i = 0; i < m_faces.size(); ++i)
        if (m_faces[i].font == font)
            return int(i);
    const QRawFont raw = QRawFont::fromFont(font);
    m_faces.push_back({ font, raw, QFontMetricsF(font), raw.ascent(), raw.descent(), {} });
    return int(m_faces.size()) - 1;
}

bool SummaryLayout::setHtml(const QString& html, const QFont& font, GlyphStamp& stamp)
{
    if (font != m_font) {
        m_font = font;
        m_faces.clear();
    }
    m_lines.clear();
    if (!read(html))
        return false;
    m_faceOf.clear();
    for (const Style& s : m_styles)
        m_faceOf.push_back(faceOf(s));
    // Each run of one face laid out by the stamp, a glyph per character; word joiners and line
    // breaks take no room and draw nothing.
    const qsizetype n = m_text.size();
    m_glyph.assign(size_t(n), 0);
    m_advance.assign(size_t(n), 0.0);
    for (qsizetype i = 0; i < n;) {
        const int face = m_faceOf[size_t(m_styleOf[size_t(i)])];
        qsizetype j = i;
        QString run;
        std::vector<qsizetype> at;
        for (; j < n && m_faceOf[size_t(m_styleOf[size_t(j)])] == face; ++j)
            if (m_text[j] != QChar(kWordJoiner) && m_text[j] != QChar(kLineBreak)) {
                run += m_text[j];
                at.push_back(j);
            }
        if (!run.isEmpty()) {
            const auto line = stamp.layout(run, m_faces[size_t(face)].font);
            if (!line)
                return false;
            for (size_t k = 0; k < at.size(); ++k) {
                m_glyph[size_t(at[k])] = line->glyphs[qsizetype(k)];
                m_advance[size_t(at[k])] = (k + 1 < at.size() ? line->x[k + 1] : line->width) - line->x[k];
            }
        }
        i = j;
    }
    return true;
}

double SummaryLayout::overhang(int i) const
{
    // The part of a glyph's ink past its advance (a negative right bearing), which QTextLine counts
    // in a line's width.
    // in a line's width: the font engine's bearing (QFontEngine::getGlyphBearings, whole pixels where
    // hinted), not the outline's (QRawFont::boundingRect: 0.78 px where the layout counted 1 for 'f').
    if (i < 0 || !m_glyph[size_t(i)])
        return 0;
    const Face& face = m_faces[size_t(m_faceOf[size_t(m_styleOf[size_t(i)])])];
    const char16_t c = m_text[i].unicode();
    auto it = face.overhangs.find(c);
    if (it == face.overhangs.end())
        it = face.overhangs.emplace(c, std::max(0.0, -face.metrics.rightBearing(m_text[i]))).first;
    return it->second;
}

int SummaryLayout::fillLine(
    int start, double width, bool anywhere, const std::vector<bool>& breakBefore, double* textWidth) const
{
    // QTextLine::layout_helper's greedy fill: a word (up to the next break opportunity or breakable
    // space; a single character when breaking anywhere) joins the line if the line's text, the spaces
    // after it and the word, with the ink of the word's last glyph past its advance, fit. Spaces hang
    // at the line's end; a line break joins the line it ends. `textWidth`: the line's width as the
    // layout measures it (no trailing spaces, the last glyph's overhang).
    const int n = int(m_text.size());
    double committed = 0, spaces = 0;
    int length = 0, i = start;
    bool endsInSpace = false;
    *textWidth = -1;
    while (i < n) {
        const QChar c = m_text[i];
        if (c == QChar(kLineBreak)) {
            *textWidth = committed + overhang(i - 1);
            return i + 1;
        }
        if (breakableSpace(c)) {
            for (; i < n && breakableSpace(m_text[i]) && m_text[i] != QChar(kLineBreak); ++i, ++length)
                spaces += m_advance[size_t(i)];
            endsInSpace = true;
            continue;
        }
        int j = i;
        double word = 0;
        do
            word += m_advance[size_t(j++)];
        while (!anywhere && j < n && !breakableSpace(m_text[j]) && !breakBefore[size_t(j)]);
        if (length > 0 && committed + spaces + word + overhang(j - 1) > width) {
            *textWidth = committed + overhang(i - 1);
            return i;
        }
        committed += spaces + word;
        spaces = 0;
        length += j - i;
        i = j;
        endsInSpace = false;
    }
    *textWidth = committed + (endsInSpace ? 0 : overhang(n - 1));
    return n;
}

void SummaryLayout::wrap(double width)
{
    m_lines.clear();
    const int n = int(m_text.size());
    if (n == 0)
        return;
    std::vector<bool> breakBefore(size_t(n) + 1, false);
    QTextBoundaryFinder finder(QTextBoundaryFinder::Line, m_text);
    for (qsizetype p = finder.toNextBoundary(); p >= 0; p = finder.toNextBoundary())
        breakBefore[size_t(p)] = true;
    for (int start = 0; start < n;) {
        LineBox line;
        line.start = start;
        double textWidth = 0;
        line.end = fillLine(start, width, false, breakBefore, &textWidth);
        // QTextDocument wraps at word boundaries or anywhere: a line still too wide (a word longer than
        // the line) is laid out again, breaking anywhere.
        if (textWidth > width)
            line.end = fillLine(start, width, true, breakBefore, &textWidth);
        line.end = std::max(line.end, start + 1);
        finishLine(line);
        start = line.end;
    }
}

void SummaryLayout::finishLine(LineBox& line)
{
    // The line's height from the tallest face in it, rounded up (QTextLine::height), under the last.
    double ascent = 0, descent = 0;
    for (int i = line.start, style = -1; i < line.end; ++i) {
        if (m_styleOf[size_t(i)] == style)
            continue;
        style = m_styleOf[size_t(i)];
        const Face& face = m_faces[size_t(m_faceOf[size_t(style)])];
        ascent = std::max(ascent, face.ascent);
        descent = std::max(descent, face.descent);
    }
    line.ascent = ascent;
    line.height = int(std::ceil(ascent + descent));
    line.top = m_lines.empty() ? 0 : m_lines.back().top + m_lines.back().height;
    double x = 0;
    for (int i = line.start; i < line.end; ++i) {
        if (m_glyph[size_t(i)]) {
            const int style = m_styleOf[size_t(i)];
            if (line.spans.empty() || line.spans.back().style != style)
                line.spans.push_back({ style, x, {} });
            Span& span = line.spans.back();
            span.glyphs.glyphs.append(m_glyph[size_t(i)]);
            span.glyphs.x.push_back(x - span.x);
            span.glyphs.width = x + m_advance[size_t(i)] - span.x;
        }
        x += m_advance[size_t(i)];
    }
    m_lines.push_back(std::move(line));
}

void SummaryLayout::compose(QImage& target, QPointF origin, const QColor& text, GlyphStamp& stamp) const
{
    for (const LineBox& line : m_lines)
        for (const Span& span : line.spans) {
            const Style& style = m_styles[size_t(span.style)];
            stamp.compose(target, span.glyphs, m_faces[size_t(m_faceOf[size_t(span.style)])].font,
                origin + QPointF(span.x, line.top + line.ascent), style.color.isValid() ? style.color : text);
        }
}

std::vector<int> SummaryLayout::lineStarts() const
{
    std::vector<int> starts;
    for (const LineBox& line : m_lines)
        starts.push_back(line.start);
    return starts;
}

} // namespace rfx
