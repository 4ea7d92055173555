#pragma once

#include "engine/tuning.h"
#include "io/options.h"

#include <cstddef>
#include <string>
#include <vector>

namespace rfx {

/// The tuning options of `roofline-cli tune`: --objective time|energy|edp, --batch A..B, --gpus A..B,
/// --clock A..B (fractions or percents of the boost clock), --clock-step F; "--name=value" works too.
/// A single value A means A..A. Ranges are checked by tune(), which says what it accepts.
OptionStatus applyTuneOption(
    const std::vector<std::string>& args, std::size_t& i, TuneRanges& ranges, Objective& objective, std::string& error);

} // namespace rfx
