#include "io/tune_options.h"

#include <charconv>

namespace rfx {

namespace {

// "A..B" or "A" -> {A, B}; false if malformed.
template <typename T, typename Parse> bool parseRange(const std::string& text, T& lo, T& hi, Parse parse)
{
    const size_t dots = text.find("..");
    const auto a = parse(dots == std::string::npos ? text : text.substr(0, dots));
    const auto b = dots == std::string::npos ? a : parse(text.substr(dots + 2));
    if (!a || !b)
        return false;
    lo = *a;
    hi = *b;
    return true;
}

} // namespace

OptionStatus applyTuneOption(
    const std::vector<std::string>& args, std::size_t& i, TuneRanges& ranges, Objective& objective, std::string& error)
{
    const SplitOption split = splitOption(args[i]);
    const std::string& name = split.name;
    if (name != "--objective" && name != "--batch" && name != "--gpus" && name != "--clock" && name != "--clock-step")
        return OptionStatus::NotConfigOption;
    std::string value;
    if (split.value) {
        value = *split.value;
    } else if (i + 1 < args.size()) {
        value = args[++i];
    } else {
        error = name + ": missing value";
        return OptionStatus::Error;
    }
    if (name == "--objective") {
        if (const auto o = parseObjective(value)) {
            objective = *o;
            return OptionStatus::Consumed;
        }
        error = "--objective: expected time, energy or edp, got '" + value + "'";
    } else if (name == "--batch" || name == "--gpus") {
        if (name == "--batch" ? parseRange(value, ranges.batchMin, ranges.batchMax, parseWholeNumber)
                              : parseRange(value, ranges.gpusMin, ranges.gpusMax, parseWholeNumber))
            return OptionStatus::Consumed;
        error = name + ": expected whole numbers A..B, got '" + value + "'";
    } else if (name == "--clock") {
        if (parseRange(value, ranges.clockMin, ranges.clockMax, parseClockPercent))
            return OptionStatus::Consumed;
        error = "--clock: expected fractions of the boost clock A..B (e.g. 0.5..1), got '" + value + "'";
    } else {
        if (const auto step = parseClockPercent(value); step && *step >= 1) {
            ranges.clockStep = *step;
            return OptionStatus::Consumed;
        }
        error = "--clock-step: expected a fraction such as 0.05, got '" + value + "'";
    }
    return OptionStatus::Error;
}

} // namespace rfx
