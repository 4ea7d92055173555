#pragma once

#include "engine/tuning.h"

#include <string>

namespace rfx {

/// One line per recommendation with its reasoning, e.g. "least energy: batch 256 x 1 GPU at 85 % clock:
/// 61.0 mJ per image, 8.3 ms per image; 32 % less energy than the fastest, 14 % slower".
std::string recommendationText(const TuneResult& result, Objective objective);

/// The tuning outcome for people: per device the recommendations and the Pareto front.
std::string tuneToTable(const TuneOutcome& outcome, const Config& config, Objective objective);
/// JSON (SI units): ranges, per device every point, the front (indices) and the recommendations.
std::string tuneToJson(const TuneOutcome& outcome, const Config& config, const TuneRanges& ranges, Objective objective);
/// CSV, one row per point: device,batch,gpus,clock,fits,memory_bytes,step_time_s,step_energy_j,
/// time_per_image_s,energy_per_image_j,images_per_joule,average_power_w,speedup,efficiency,edp,on_front.
std::string tuneToCsv(const TuneOutcome& outcome);

/// "batch 256 x 2 GPUs at 85 % clock"
std::string tunePointLabel(const TunePoint& p);

} // namespace rfx
