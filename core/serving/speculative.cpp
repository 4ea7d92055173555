// Speculative decoding's expected tokens a round, and its settings' checks (speculative.h).
#include "serving/speculative.h"

#include "base/format.h"
#include "llm/llm_phase.h"
#include "onnx/onnx_model.h"
#include "serving/serving.h"

#include <cmath>

namespace rfx {

double expectedTokensPerRound(double accept, int lookahead)
{
    if (accept >= 1)
        return lookahead + 1;
    return (1 - std::pow(accept, lookahead + 1)) / (1 - accept);
}

std::optional<std::string> speculationError(const Speculation& s)
{
    if (!s.draft)
        return std::nullopt;
    if (!(s.accept >= 0 && s.accept <= 1))
        return "--accept " + formatNumber3(s.accept)
            + ": give the share of drafted tokens the target accepts, from 0 to 1 (measure it for your draft and "
              "task: Leviathan et al. 2023 found 0.5 to 0.9 across their pairs)";
    if (s.lookahead < 1 || s.lookahead + 1 > kDecodeTokensRange.max)
        return "--lookahead " + std::to_string(s.lookahead) + ": give the tokens drafted a round, from 1 to "
            + std::to_string(kDecodeTokensRange.max - 1);
    return std::nullopt;
}

std::optional<DraftStep> draftStep(const ServingSettings& settings, const Device& device, std::string* error)
{
    const LlmModel& draft = *settings.speculation.draft;
    ServingSettings d = settings;
    d.speculation = {};
    d.decodeOnly = true;
    // Split as the target where the draft's heads divide that way; else whole on each GPU (vLLM's
    // draft_tensor_parallel_size = 1), its time the same and every GPU spending its energy.
    const int tp = std::max(1, settings.llm.tensorParallel);
    d.llm.tensorParallel = draft.onnx || tensorParallelError(draft.arch, tp) ? 1 : tp;
    const std::optional<ServingPhase> phase = servingDecode(draft, d, device, error);
    if (!phase) {
        if (error)
            *error = "--draft: " + *error;
        return std::nullopt;
    }
    const MixedStep step = joinStep(d, device, *phase, nullptr, 0);
    DraftStep out;
    out.time = step.time;
    out.energy = step.energy;
    out.tensorParallel = d.llm.tensorParallel;
    const int kvBits = draft.onnx ? draft.onnx->decoder()->kvBits : d.llm.kvBits;
    out.bytes = step.residentWeights
        + kvCacheBytes(draft.arch, std::int64_t(d.llm.prompt) + d.llm.generate, kvBits) * step.kvShare * d.users;
    out.activationBytes = step.activationBytes;
    return out;
}

ServingOutcome speculativeDecode(
    const LlmModel& model, const LlmSettings& settings, const Speculation& speculation, const Device& device)
{
    ServingSettings s;
    s.llm = settings;
    s.users = settings.batch;
    s.decodeOnly = true;
    s.speculation = speculation;
    s.usableMemory = 1;
    return servingPoint(model, s, device);
}

} // namespace rfx
