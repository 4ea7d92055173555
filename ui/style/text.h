#pragma once

#include <QString>

#include <string>

namespace rfx {

/// The engine's UTF-8 std::string as a QString: the one conversion every view makes.
inline QString qs(const std::string& s) { return QString::fromStdString(s); }

} // namespace rfx
