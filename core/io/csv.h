#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

/// Reading comma-separated text as profilers and spreadsheets write it (RFC 4180): the measurement
/// importers' tokenizer.
namespace rfx::csv {

/// `s` without leading and trailing white space.
std::string trim(std::string_view s);
/// ASCII lower case.
std::string lower(std::string s);
/// One RFC 4180 record from one line: quoted fields may hold commas and doubled quotes; unquoted
/// fields are trimmed. False for an unterminated quoted field.
bool splitCsvLine(std::string_view line, std::vector<std::string>& out);
/// The text's lines, "\r\n" or "\n" ended; views into `text`.
std::vector<std::string_view> lines(std::string_view text);
/// `s` as one CSV field: quoted, quotes doubled, when it holds a comma, quote or line break.
std::string field(const std::string& s);
/// `v` as a CSV field, six significant digits ("1.23457e+11"): the language-model writers' numbers.
std::string numberField(double v);
/// `v` with 17 significant digits ("%.17g"), which read back as the same double: the network writers' numbers.
std::string exactField(double v);
/// A finite number, "1,234.5" thousands separators allowed when `thousands` (ncu prints them).
std::optional<double> number(std::string s, bool thousands);

} // namespace rfx::csv
