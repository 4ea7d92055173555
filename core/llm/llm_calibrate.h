#pragma once

// A calibration from measured throughputs alone (issue 50 item 3): what a benchmark tool prints for a
// model at a batch and context on a device (llama-bench's tg and pp, vLLM's output throughput), with
// no measurement of its rows. Two phases give two equations:
//
//     measured decode step  = M_d / e_m + C_d / e_c
//     measured prefill      = M_p / e_m + C_p / e_c
//
// M and C the phase's memory- and compute-bound rows' bounds on the device, e_m and e_c the shares of
// the memory and compute roofs reached: solved exactly. With the decode alone, one efficiency for both
// sides (the decode step's rows are almost all memory-bound; the prefill's prediction then is a
// guess, and the result says so). No overhead: one throughput cannot tell a kernel's fixed cost from
// its efficiency; a measurement of the rows (measure --llm) can.

#include "engine/calibration.h"
#include "llm/llm_analysis.h"

#include <optional>
#include <string>
#include <vector>

namespace rfx {

/// A throughput that many times the bound's (either side) is refused: a unit or a setting is wrong.
inline constexpr double kThroughputBeyondBound = 4;

struct ThroughputFit {
    std::optional<Calibration> calibration; ///< groups "all" per side; nothing when it cannot be fitted
    std::string error; ///< why not, in the user's words
    std::vector<std::string> notes; ///< what the fit means ("fitted on the decode alone: ...")
    double memoryEfficiency = 0, computeEfficiency = 0;
};

/// `analysis` at the model, settings and device (index `device`) the throughputs were measured at;
/// decodeTokensPerS: generated tokens a second over the whole batch (B / TPOT), > 0;
/// prefillTokensPerS: prompt tokens a second over the batch (P x B / TTFT), 0 when not measured.
ThroughputFit calibrationFromThroughput(
    const LlmAnalysis& analysis, size_t device, double decodeTokensPerS, double prefillTokensPerS);

} // namespace rfx
