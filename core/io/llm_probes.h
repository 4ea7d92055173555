#pragma once

// measure --llm's batch probes (README "Calibration"): the decode step's weight products run again at
// other batches, so that a calibration learns how this machine's matrix kernels stream the same weights
// at each batch (CalibrationGroup::byRows). oneDNN's matmul on a Zen 4 streamed them 40 % faster at
// batch 4 than at batch 2 and slower again at 8 (issue 50): one efficiency fitted at one batch, with or
// without the arithmetic on top, missed the others by up to 63 %.

#include "devices/device.h"
#include "engine/calibration.h"
#include "io/measurements.h"
#include "llm/llm_arch.h"
#include "llm/llm_phase.h"

#include <string>
#include <string_view>
#include <vector>

namespace rfx {

/// The batches probed (each but the measurement's own: its decode rows are that point): up to 16, past
/// where a decode step's fp32 products turn compute-bound on a CPU (M / 2 FLOP a byte).
inline constexpr int kLlmProbeBatches[] = { 1, 2, 4, 8, 16 };

/// "probe.b4.": the start of a probe row's name ("probe.b4.blk0-15.q_proj").
std::string llmProbePrefix(int batch);
/// The batch a probe row's name says, or 0 where it is not a probe row.
int llmProbeBatch(std::string_view name);
/// The set without its probe rows (what is held against the two phases' rows).
MeasurementSet withoutLlmProbes(const MeasurementSet& set);
/// The probe rows as calibration samples: each probed batch's decode step analysed on `device` at that
/// batch (the file's other settings), its rows matched by name. Empty where the file has none.
std::vector<CalibrationSample> llmProbeSamples(
    const MeasurementSet& set, const LlmModel& model, const LlmSettings& settings, const Device& device);

/// A measure --llm file parted as a calibration takes it (the CLI's calibrate and compare, the
/// window's Calibrate): its two phases' rows, and its probes as samples on `device`.
struct LlmProbeSplit {
    MeasurementSet rows; ///< withoutLlmProbes
    std::vector<CalibrationSample> probes; ///< llmProbeSamples
};
LlmProbeSplit splitLlmProbes(
    const MeasurementSet& set, const LlmModel& model, const LlmSettings& settings, const Device& device);

} // namespace rfx
