#pragma once
// A device's summary laid out and drawn without QTextDocument.
//
// The summaries under the charts are rewritten on every slider step; as a QTextDocument each one was
// parsed from HTML, laid out and cut into glyph runs again (8 M instructions of a 43 M step,
// callgrind, bench_ui). The summary's HTML is a handful of tags (summaryHtml: bold, italic, a
// coloured span, line breaks), so it is read here into characters with a style each, broken into
// lines where QTextDocument breaks them (QTextBoundaryFinder's opportunities, greedy, spaces hanging at
// a line's end, a word's overhang counted, as QTextLine::layout does) and drawn by GlyphStamp: the
// same lines and the same pixels (tst_glyphstamp holds it to QTextDocument's, at many widths).
//
// Anything else (another tag or entity, spaces HTML would fold, text GlyphStamp leaves to Qt's
// engine) is refused, and SummaryText hands it to QTextDocument as before.
#include "widgets/glyphstamp.h"

#include <QFont>
#include <QFontMetricsF>
#include <QImage>
#include <QRawFont>
#include <QString>

#include <unordered_map>
#include <vector>

namespace rfx {

class SummaryLayout {
public:
    /// Reads `html` in `font` (its bold and italic forms for <b> and <i>); false where it has what
    /// this does not do: QTextDocument lays it out then.
    bool setHtml(const QString& html, const QFont& font, GlyphStamp& stamp);
    /// Breaks the text into lines `width` pixels wide.
    void wrap(double width);
    /// The lines' height, as QTextDocument::size().height() with no document margin.
    int height() const { return m_lines.empty() ? 0 : m_lines.back().top + m_lines.back().height; }
    /// Draws the lines into `target` with their top-left at `origin`; text without a colour of its
    /// own in `text`.
    void compose(QImage& target, QPointF origin, const QColor& text, GlyphStamp& stamp) const;
    /// Where each line starts, as indexes into the text (no-break spaces and word joiners kept; a line
    /// break as U+2028), for comparing with QTextLayout's lines.
    std::vector<int> lineStarts() const;

private:
    struct Style {
        bool bold = false;
        bool italic = false;
        QColor color; ///< invalid: the text colour
        bool operator==(const Style&) const = default;
    };
    struct Face {
        QFont font;
        QRawFont raw;
        QFontMetricsF metrics;
        double ascent = 0, descent = 0;
        mutable std::unordered_map<char16_t, double> overhangs; ///< per character, overhang()
    };
    struct Span { ///< a line's characters of one style, laid out for GlyphStamp
        int style = 0;
        double x = 0;
        GlyphStamp::Line glyphs;
    };
    struct LineBox {
        int start = 0, end = 0; ///< characters [start, end)
        int top = 0, height = 0;
        double ascent = 0;
        std::vector<Span> spans;
    };
    bool read(const QString& html);
    /// The end of the line that starts at `start` (wrap()).
    int fillLine(int start, double width, bool anywhere, const std::vector<bool>& breakBefore, double* textWidth) const;
    double overhang(int i) const;
    int faceOf(const Style& style);
    void finishLine(LineBox& line);

    QString m_text;
    std::vector<int> m_styleOf; ///< per character, index into m_styles
    std::vector<Style> m_styles;
    std::vector<int> m_faceOf; ///< per style, index into m_faces
    std::vector<Face> m_faces;
    std::vector<quint32> m_glyph; ///< per character; 0 for a word joiner or a line break (no glyph)
    std::vector<double> m_advance; ///< per character, pixel
    std::vector<LineBox> m_lines;
    QFont m_font;
};

} // namespace rfx
