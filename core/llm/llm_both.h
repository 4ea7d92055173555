#pragma once

#include "llm/llm_analysis.h"

namespace rfx {

/// Both phases' rows as one report, for one chart and one table (the window's and figures' "both"):
/// the prefill's rows, then one decode step's, each named after its phase ("prefill.blk0-31.q_proj",
/// its block "prefill.blk0-31"); Report::parts {prefill, decode} tells the chart which marks. Each row
/// keeps its share of its own phase's time; a device's totals are one prefill and one decode step
/// together; the other ceilings rows run at are both phases'.
Report bothPhases(const LlmAnalysis& analysis);

/// The report a phase shows: the analysis' prefill or decode, or `both` (bothPhases, kept by the caller).
const Report& shownPhase(const LlmAnalysis& analysis, LlmPhase phase, const Report& both);

/// Which phase, and which of its rows, row `row` of the report `shown` shows is (both: the prefill's
/// rows first); row -1 stays -1.
struct PhaseRow {
    LlmPhase phase = LlmPhase::Decode;
    int row = -1;
};
PhaseRow phaseRow(const LlmAnalysis& analysis, LlmPhase shown, int row);

} // namespace rfx
