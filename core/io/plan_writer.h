#pragma once

#include "serving/plan.h"

#include <string>

namespace rfx {

/// The serving plan (core/serving/plan.h) for people and scripts: a table (per device its best
/// configuration, the GPUs for the load and its Pareto front, then the configurations meeting the
/// targets, ranked), JSON (every point), CSV (a line per point) and Markdown (the ranking).
std::string planToTable(const Plan& plan, const PlanSettings& settings);
std::string planToJson(const Plan& plan, const PlanSettings& settings, int indent = 2);
std::string planToCsv(const Plan& plan);
std::string planToMarkdown(const Plan& plan, const PlanSettings& settings);

/// "Llama-3.1 70B, P = 2,000 in, G = 300 out; targets TTFT <= 1 s, TPOT <= 50 ms; 200 users"
std::string planHeadline(const Plan& plan, const PlanSettings& settings);

} // namespace rfx
