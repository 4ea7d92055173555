#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace rfx {

/// A JSON syntax error in words, with its place: "line 3, column 14: ',' where a quoted field name
/// should be". nlohmann_json's own text ("[json.exception.parse_error.101] parse error at line 3,
/// column 14: syntax error while parsing object key - unexpected ','; expected string literal") is
/// for the library's developers; users of a file need the place and what to fix.
std::string describeJsonError(const nlohmann::json::exception& error);

} // namespace rfx
