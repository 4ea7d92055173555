#pragma once

#include "style/unbroken.h"

#include <QString>

#include <string>

namespace rfx {

/// The engine's UTF-8 std::string as a QString: the one conversion every view makes.
inline QString qs(const std::string& s) { return QString::fromStdString(s); }
/// The same, escaped for rich text: "<0.1 %" would open a tag and swallow the rest of the sentence.
inline QString qsEscaped(const std::string& s) { return QString::fromStdString(s).toHtmlEscaped(); }
/// Escaped for rich text, with each figure and its unit on one line (issue 38: "448 GB/ s").
inline QString qsRich(const std::string& s) { return unbroken(qsEscaped(s)); }

} // namespace rfx
