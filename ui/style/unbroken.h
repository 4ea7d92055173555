#pragma once

#include <QString>

namespace rfx {

/// A figure with its unit stays on one line: "66.9 TFLOP/s" wrapped as "66.9 TFLOP/" and "s", or
/// "448 GB/" and "s", when a panel was narrow. No break after a digit's space (no-break space) or at a
/// slash (word joiner). For plain text and for the text of an HTML element, never for markup.
inline QString unbroken(const QString& text)
{
    // One pass, no regular expression: this runs for every summary on every slider step.
    QString out;
    out.reserve(text.size() + 8);
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (c == QLatin1Char(' ') && i > 0 && text[i - 1].isDigit())
            out += QChar(0x00a0);
        else
            out += c;
        if (c == QLatin1Char('/'))
            out += QChar(0x2060);
    }
    return out;
}

} // namespace rfx
