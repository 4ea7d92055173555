#include "base/format.h"

#include <cmath>
#include <cstdio>

namespace rfx {

namespace {

std::string mantissa3(double m)
{
    char buf[64];
    const double a = std::fabs(m);
    // Round first so that 999.6 prints as "1000" rather than "1000." with a wrong digit count.
    const int decimals = a >= 99.95 ? 0 : (a >= 9.995 ? 1 : 2);
    std::snprintf(buf, sizeof buf, "%.*f", decimals, m);
    return buf;
}

std::string scaled(double value, const std::string& unit, double base, const char* const* prefixes, int count)
{
    if (!std::isfinite(value))
        return "n/a";
    if (value == 0)
        return "0 " + unit;
    int i = 0;
    double v = value;
    while (std::fabs(v) >= base * 0.9995 && i < count - 1) {
        v /= base;
        ++i;
    }
    return mantissa3(v) + " " + prefixes[i] + unit;
}

} // namespace

std::string fitName(const std::string& name, size_t width)
{
    return name.size() <= width || width == 0 ? name : "~" + name.substr(name.size() - (width - 1));
}

std::string formatSI(double value, const std::string& unit)
{
    static const char* const prefixes[] = { "", "k", "M", "G", "T", "P", "E" };
    if (std::isfinite(value) && value != 0 && std::fabs(value) < 1) {
        static const char* const small[] = { "m", "u", "n", "p" };
        double v = value;
        for (const char* p : small) {
            v *= 1000;
            if (std::fabs(v) >= 0.9995)
                return mantissa3(v) + " " + p + unit;
        }
        return mantissa3(v) + " p" + unit;
    }
    return scaled(value, unit, 1000, prefixes, 7);
}

std::string formatBytes(double bytes)
{
    static const char* const prefixes[] = { "", "k", "M", "G", "T", "P", "E" };
    if (std::isfinite(bytes) && bytes > 0 && bytes < 1)
        return "<1 B";
    return scaled(bytes, "B", 1000, prefixes, 7);
}

std::string formatMemory(double bytes)
{
    static const char* const prefixes[] = { "", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei" };
    if (std::isfinite(bytes) && bytes > 0 && bytes < 1)
        return "<1 B";
    return scaled(bytes, "B", 1024, prefixes, 7);
}

std::string formatTime(double s, bool micro)
{
    if (!std::isfinite(s))
        return "n/a";
    if (s == 0)
        return "0 s";
    const double a = std::fabs(s);
    // Minutes from 100 s, hours from 100 min, days from 1,000 h: "81368 s" was a TTFT no reader takes
    // in at a glance (issue 73 item 9); 22.6 h is.
    if (a >= 999.5 * 3600)
        return mantissa3(s / 86400) + " d";
    if (a >= 99.95 * 60)
        return mantissa3(s / 3600) + " h";
    if (a >= 99.95)
        return mantissa3(s / 60) + " min";
    if (a >= 0.9995)
        return mantissa3(s) + " s";
    if (a >= 0.9995e-3)
        return mantissa3(s * 1e3) + " ms";
    if (a >= 0.9995e-6)
        return mantissa3(s * 1e6) + (micro ? " \u00b5s" : " us");
    return mantissa3(s * 1e9) + " ns";
}

std::string formatCount(std::int64_t value)
{
    std::string digits = std::to_string(value < 0 ? -value : value);
    std::string out;
    const int n = static_cast<int>(digits.size());
    for (int i = 0; i < n; ++i) {
        out += digits[static_cast<size_t>(i)];
        if ((n - i - 1) % 3 == 0 && i != n - 1)
            out += ',';
    }
    return value < 0 ? "-" + out : out;
}

std::string formatSignedPercent(double change, bool unicodeMinus)
{
    if (!std::isfinite(change))
        return "n/a";
    if (std::fabs(change) * 100 < 0.05)
        return "0 %";
    return (change > 0 ? "+" : unicodeMinus ? "\u2212" : "-") + formatPercent(std::fabs(change));
}

std::string formatPercent(double share)
{
    if (!std::isfinite(share))
        return "n/a";
    char buf[32];
    const double p = share * 100;
    if (p > 0 && p < 0.05)
        return "<0.1 %";
    if (p != 0 && std::fabs(p) < 9.95)
        std::snprintf(buf, sizeof buf, "%.1f %%", p);
    else
        std::snprintf(buf, sizeof buf, "%.0f %%", p);
    return buf;
}

std::string formatNumber3(double value)
{
    if (!std::isfinite(value))
        return "n/a";
    if (value == 0)
        return "0";
    // Whole numbers from 1000 up with thousands separators ("1,372,179 images/s"), as counts are shown.
    if (std::fabs(value) >= 1000 && std::fabs(value) < 9e18)
        return formatCount(std::llround(value));
    if (std::fabs(value) >= 1000) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.3g", value);
        return buf;
    }
    if (std::fabs(value) < 0.01) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.2g", value);
        return buf;
    }
    return mantissa3(value);
}

} // namespace rfx
