#include "io/options.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string_view>

namespace rfx {

std::optional<Assignment> splitAssignment(const std::string& text)
{
    const std::size_t eq = text.rfind('=');
    if (eq == std::string::npos || eq == 0)
        return std::nullopt;
    return Assignment { text.substr(0, eq), text.substr(eq + 1) };
}

SplitOption splitOption(const std::string& arg)
{
    if (auto eq = arg.find('='); arg.starts_with("--") && eq != std::string::npos)
        return { arg.substr(0, eq), arg.substr(eq + 1) };
    return { arg, std::nullopt };
}

std::optional<int> parseClockPercent(const std::string& text)
{
    std::string t = text;
    const bool percent = !t.empty() && t.back() == '%';
    if (percent)
        t.pop_back();
    if (t.empty() || t.size() > 32)
        return std::nullopt;
    char* end = nullptr;
    const double v = std::strtod(t.c_str(), &end);
    if (end != t.c_str() + t.size() || !std::isfinite(v))
        return std::nullopt;
    // A bare number is a fraction of boost: "5" is not 5 % (nor 500 %), so it is refused, not guessed.
    if (!percent && v > 1)
        return std::nullopt;
    const double p = percent ? v : v * 100;
    // Whole percent steps; out-of-range values are left to validate(), which names the range.
    if (p < -1e6 || p > 1e6 || std::abs(p - std::round(p)) > 1e-6)
        return std::nullopt;
    return int(std::lround(p));
}

std::vector<std::string> configToArgs(const Config& c)
{
    const UNetParams& u = c.unet;
    std::vector<std::string> a { "--model", c.model, "--height", std::to_string(u.height), "--width",
        std::to_string(u.width), "--in-channels", std::to_string(u.inChannels), "--classes", std::to_string(u.classes),
        "--filters", std::to_string(u.baseFilters), "--depth", std::to_string(u.depth), "--padding",
        std::string(paddingName(u.padding)), "--stride", std::to_string(u.stride), "--downsample",
        std::string(downsampleName(u.downsample)), "--conv", std::string(convTypeName(u.conv)), "--batch",
        std::to_string(c.batch), "--bits", c.bitsAsInFile ? std::string("file") : std::to_string(c.bits), "--mode",
        std::string(modeName(c.mode)), "--optimizer", std::string(optimizerName(c.optimizer)) };
    a.push_back(u.batchNorm ? "--batch-norm" : "--no-batch-norm");
    a.push_back(c.fusion ? "--fusion" : "--no-fusion");
    a.push_back(c.tensorCores ? "--tensor-cores" : "--no-tensor-cores");
    a.insert(a.end(),
        { "--algorithm", std::string(algorithmName(c.algorithm)), "--traffic", std::string(trafficName(c.traffic)),
            "--onchip-kib", std::to_string(c.onchipKiB), "--clock", std::to_string(c.clockPercent) + "%", "--gpus",
            std::to_string(c.gpus), "--interconnect", c.interconnect });
    a.push_back(c.overlap ? "--overlap" : "--no-overlap");
    if (c.cacheAware != CacheAware::Auto) // written only when chosen: files from before it read the same
        a.insert(a.end(), { "--cache-aware", std::string(cacheAwareName(c.cacheAware)) });
    for (const auto& [layer, algorithm] : c.layerAlgorithms)
        a.insert(a.end(), { "--layer-algorithm", layer + "=" + std::string(algorithmName(algorithm)) });
    for (const auto& [input, value] : c.inputValues) {
        char number[32];
        std::snprintf(number, sizeof number, "%.17g", value);
        a.insert(a.end(), { "--input-value", input + "=" + number });
    }
    for (const auto& [dim, extent] : c.dims)
        a.insert(a.end(), { "--dim", dim + "=" + std::to_string(extent) });
    for (const auto& [node, then] : c.branches)
        a.insert(a.end(), { "--branch", node + (then ? "=then" : "=else") });
    return a;
}

bool parseConfigArgs(const std::vector<std::string>& args, ConfigOptions& options, std::string& error)
{
    for (std::size_t i = 0; i < args.size(); ++i) {
        const OptionStatus s = applyConfigOption(args, i, options, error);
        if (s == OptionStatus::Error)
            return false;
        if (s == OptionStatus::NotConfigOption) {
            error = "unknown option '" + args[i] + "'";
            return false;
        }
    }
    return true;
}

std::optional<Config> configFromArgList(const std::vector<std::string>& args, std::string& error)
{
    ConfigOptions parsed;
    std::string why;
    if (!parseConfigArgs(args, parsed, why)) {
        error = "config_args: " + why;
        return std::nullopt;
    }
    if (auto bad = validate(parsed.config)) {
        error = "config_args: " + *bad;
        return std::nullopt;
    }
    return parsed.config;
}

std::optional<double> parseDecimal(std::string_view text)
{
    double v = 0;
    const auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (text.empty() || ec != std::errc() || p != text.data() + text.size() || !std::isfinite(v))
        return std::nullopt;
    return v;
}

std::optional<int> parseWholeNumber(std::string_view text)
{
    int v = 0;
    const auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || p != text.data() + text.size())
        return std::nullopt;
    return v;
}

} // namespace rfx
