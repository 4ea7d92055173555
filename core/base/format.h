#pragma once

#include <cstdint>
#include <string>

namespace rfx {

/// Unit formatting for people, in one place (the engine itself works in SI base units).
/// Three significant digits with an SI prefix: formatSI(3.74e8, "FLOP") == "374 MFLOP",
/// formatSI(7.181e12, "FLOP/s") == "7.18 TFLOP/s", formatSI(0, "B") == "0 B".
std::string formatSI(double value, const std::string& unit);

/// Decimal bytes (traffic, bandwidth-compatible): formatBytes(8.4e7) == "84.0 MB".
std::string formatBytes(double bytes);

/// Binary bytes (memory capacity and footprint): formatMemory(8589934592) == "8.00 GiB".
std::string formatMemory(double bytes);

/// Seconds with a fitting unit: "187 us", "12.3 ms", "1.20 s", "24.2 min" (from 100 s), "22.6 h" (from
/// 100 min), "41.7 d" (from 1,000 h); ASCII "us", `micro` gives "µs".
std::string formatTime(double seconds, bool micro = false);

/// Thousands separators: formatCount(31030658) == "31,030,658".
std::string formatCount(std::int64_t value);

/// A share 0..1 as a percentage: "78 %", "4.5 %", "0 %".
std::string formatPercent(double share);
/// An error or change as a signed percent: "+4.2 %", "-13 %" ("\u2212" with `unicodeMinus`); "0 %" without a
/// sign when it rounds to nothing.
std::string formatSignedPercent(double change, bool unicodeMinus = false);

/// A name cut to `width` characters from the start, keeping its distinctive end: "~conv1.pw+bias+relu".
std::string fitName(const std::string& name, size_t width);

/// Three significant digits without a prefix: "4.50", "16.0", "1230".
std::string formatNumber3(double value);

} // namespace rfx
