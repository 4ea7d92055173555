#pragma once

#include "io/llm_measure_header.h"
#include "io/measurements.h"
#include "llm/llm_analysis.h"
#include "llm/llm_arch.h"
#include "measure/layer_bench.h"

#include <algorithm>
#include <string>
#include <vector>

namespace rfx {

/// A phase's network as measureNetwork runs it: the rows whose kernel their Op does not say carry it
/// as their origin's operator (norms: SimplifiedLayerNormalization, or LayerNormalization with a
/// bias; the softmax; the rotary embedding; the residual adds; SiLU or GELU times up).
Network measurableLlmPhase(Network phase, const LlmArch& arch);

/// Both phases' rows run alone on this CPU with oneDNN (measureNetwork), named after their phase
/// ("prefill.blk0-15.q_proj", as bothPhases names the analysis' rows). A block's row stands for all
/// its blocks: one block's run times the blocks (each runs the same kernel on the same shapes).
NetworkMeasurement measureLlm(const LlmModel& model, const LlmSettings& settings, const LayerBenchOptions& options,
    const LayerBenchProgress& progress = {});

/// Where a measured language model's time goes, by phase and kind of row: the matrix products, the
/// attention's products (scores and context, or FlashAttention's one kernel), and the rest (norms,
/// RoPE, the softmax, residuals, the activation, the cache write, the embedding): their measured
/// time against their bound, and their kernels (a block's row runs once per block). The classes a
/// calibration fits, seen before it is fitted.
struct LlmMeasuredGroup {
    LlmPhase phase = LlmPhase::Prefill; ///< prefill or decode
    std::string group; ///< "matrix", "attention", "elementwise and data"
    int rows = 0;
    double kernels = 0; ///< runs in one pass of the phase
    double measured = 0; ///< second
    double bound = 0; ///< second
    double calibrated = -1; ///< the calibrated prediction of the same rows, second; negative: not calibrated
    /// What the kernels took beyond the bound, per kernel, second: for rows far under their bound
    /// (a decode step's small rows), about each kernel's fixed cost.
    double beyondPerKernel() const { return kernels > 0 ? std::max(0.0, measured - bound) / kernels : 0; }
};
/// The groups of a comparison against bothPhases' rows (`rows`, `prefillRows` of them the prefill's),
/// in the order prefill then decode, matrix, attention, the rest; groups with no measured row left out.
std::vector<LlmMeasuredGroup> measuredByGroup(
    const Comparison& comparison, const std::vector<LayerResult>& rows, size_t prefillRows);
/// A measure --llm file's rows of one phase (decode), named as that phase's own report names them
/// ("decode.blk0-15.q_proj" -> "blk0-15.q_proj"); the other phase's rows left out.
MeasurementSet measurementsOfPhase(const MeasurementSet& set, LlmPhase phase);
/// The same per phase (group "all"): the measured prefill and decode step against TTFT's and TPOT's
/// bounds (over the rows measured) and, where the comparison was calibrated, their prediction.
std::vector<LlmMeasuredGroup> measuredByPhase(
    const Comparison& comparison, const std::vector<LayerResult>& rows, size_t prefillRows);

} // namespace rfx
