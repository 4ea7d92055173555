#pragma once

#include "base/enum_words.h"
#include "llm/llm_analysis.h"

#include <cstdint>
#include <string>
#include <vector>

namespace rfx {

/// What a sweep varies: the decode context (tokens per sequence in the KV cache) at the settings'
/// batch, or the batch at the settings' decode context.
enum class LlmSweepAxis { Context, Batch };
inline constexpr EnumWord<LlmSweepAxis> kLlmSweepAxisWords[]
    = { { LlmSweepAxis::Context, "context" }, { LlmSweepAxis::Batch, "batch" } };

/// One decode step at one value of the swept setting, on one device (bounds, as the analysis').
struct LlmSweepPoint {
    std::int64_t x = 0; ///< the context (tokens) or the batch (sequences)
    double tpot = 0; ///< the decode step, with its collectives over the link, second
    double tokensPerSecond = 0; ///< per sequence: 1 / TPOT
    double batchTokensPerSecond = 0; ///< batch / TPOT
    double memoryBytes = 0; ///< weights + KV cache + activations at this value, one GPU's, byte
};

/// A device's line: the points that fit in its memory, in order, the last at `limit`.
struct LlmSweepLine {
    std::string device; ///< its id
    std::vector<LlmSweepPoint> points;
    std::int64_t limit = 0; ///< the largest value that fits (0: not even 1; the line is empty)
    bool limitedByModel = false; ///< the context sweep ends at the model's max_position_embeddings, not the memory
    double capacity = 0; ///< the device's memory, byte
};

struct LlmSweep {
    LlmSweepAxis axis = LlmSweepAxis::Context;
    std::int64_t current = 0; ///< the settings' own value (decode context or batch)
    int batch = 1; ///< the settings' batch
    int context = 0; ///< the settings' decode context
    std::vector<LlmSweepLine> lines; ///< in device order
    std::string error; ///< why the sweep could not be made (its lines are then empty)
};

/// Tokens per second against the decode context or the batch, per device, from the analysis of
/// `model` on `devices` (its settings, its memory figures): powers of two from 128 tokens (1 sequence)
/// up to the largest value any device holds, with the settings' own value and each device's largest
/// one; each line ends where its device's memory runs out (the analysis' largestContext or
/// largestBatch). Each point is a decode step built and analysed as analyzeLlm's TPOT is.
LlmSweep sweepLlm(
    const LlmModel& model, const LlmAnalysis& analysis, const std::vector<Device>& devices, LlmSweepAxis axis);

} // namespace rfx
