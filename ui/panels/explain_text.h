#pragma once
// Internal to Explain (explain.cpp, explain_formulas.cpp): figures as rich text, and a row's FLOP
// formula worked with its own extents.

#include "base/format.h"
#include "model/network.h"
#include "style/unbroken.h"

#include <QString>

#include <cmath>
#include <string>

namespace rfx::explaintext {

// Into rich text: "<0.1 %" would open a tag and swallow the rest of the sentence.
// Into rich text, escaped, with each figure and its unit on one line (issue 38: "448 GB/ s").
inline QString qs(const std::string& s) { return unbroken(QString::fromStdString(s).toHtmlEscaped()); }
inline QString count(double v) { return qs(formatCount(std::int64_t(std::llround(v)))); }
inline QString dot() { return QStringLiteral("\u00b7"); }

/// The row's FLOP count as a formula of its own extents, with the numbers put in (rich text), as
/// core/engine/cost.cpp counts it; "not counted" for an unknown operator, empty for the optimizer row.
QString flopFormula(const Layer& l);

} // namespace rfx::explaintext
