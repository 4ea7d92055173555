// The steady state of a replica serving N users: its step, what each user sees, its memory
// (serving.h).
#include "serving/serving.h"

#include "base/format.h"
#include "onnx/onnx_model.h"

#include <algorithm>
#include <cmath>

namespace rfx {

std::optional<std::string> servingSettingsError(const LlmModel& model, const ServingSettings& s)
{
    if (auto e = validateLlmSettings(s.llm))
        return e;
    if (s.users < kLlmBatchRange.min || s.users > kLlmBatchRange.max)
        return "--users " + std::to_string(s.users) + ": give from " + formatCount(kLlmBatchRange.min) + " to "
            + formatCount(kLlmBatchRange.max) + " sequences decoding together";
    if (!(s.usableMemory > 0 && s.usableMemory <= 1))
        return "--usable-memory " + formatNumber3(s.usableMemory)
            + ": give the share of each GPU's memory the engine may fill, above 0 and at most 1";
    if (s.chunkTokens < 1)
        return "--chunk " + std::to_string(s.chunkTokens) + ": give the most prompt tokens a step takes, at least 1";
    if (auto e = tensorParallelError(model.arch, std::max(1, s.llm.tensorParallel)))
        return e;
    if (auto e = speculationError(s.speculation))
        return e;
    const std::int64_t total = std::int64_t(s.llm.prompt) + s.llm.generate;
    if (model.arch.maxContext > 0 && total > model.arch.maxContext)
        return "--prompt " + formatCount(s.llm.prompt) + " and --generate " + formatCount(s.llm.generate) + ": "
            + formatCount(total) + " tokens in all, longer than "
            + (model.arch.title.empty() ? model.arch.id : model.arch.title) + " reads ("
            + formatCount(model.arch.maxContext) + ", max_position_embeddings); ask for fewer tokens in all";
    return std::nullopt;
}

ServingOutcome servingPoint(const LlmModel& model, const ServingSettings& settings, const Device& device,
    const ServingPhase* prefill, const ServingPhase* decode)
{
    ServingOutcome out;
    if (auto e = servingSettingsError(model, settings)) {
        out.error = *e;
        return out;
    }
    const int N = settings.users, P = settings.llm.prompt, G = settings.llm.generate;
    std::optional<ServingPhase> ownDecode, ownPrefill;
    if (!decode) {
        if (!(ownDecode = servingDecode(model, settings, device, &out.error)))
            return out;
        decode = &*ownDecode;
    }
    if (settings.decodeOnly)
        prefill = nullptr;
    else if (!prefill) {
        if (!(ownPrefill = servingPrefill(model, settings, device, &out.error)))
            return out;
        prefill = &*ownPrefill;
    }
    // Speculative decoding: a round of K draft steps and the verification yields E tokens a sequence.
    const Speculation& spec = settings.speculation;
    std::optional<DraftStep> draft;
    if (spec.draft && !(draft = draftStep(settings, device, &out.error)))
        return out;
    const double E = draft ? expectedTokensPerRound(spec.accept, spec.lookahead) : 1;
    const int K = draft ? spec.lookahead : 0;
    const double drafting = draft ? K * draft->time : 0;
    // So that a sequence ends and a new one begins every G / (N E) rounds, a round carries N E P / G
    // prompt tokens.
    const double steady = double(N) * E * P / G;
    const MixedStep step = joinStep(settings, device, *decode, prefill, settings.decodeOnly ? 0 : steady / P);
    ServingPoint p;
    p.device = device.id;
    p.users = N;
    p.tensorParallel = std::max(1, settings.llm.tensorParallel);
    p.step = step;
    const double round = step.time + drafting;
    p.tpot = round / E;
    p.userTokensPerSecond = round > 0 ? E / round : 0;
    p.replicaTokensPerSecond = N * p.userTokensPerSecond;
    p.gpuTokensPerSecond = p.replicaTokensPerSecond / p.tensorParallel;
    p.requestsPerSecond = p.replicaTokensPerSecond / G;
    p.energyPerToken = (step.energy + (draft ? K * draft->energy : 0)) * p.tensorParallel / (N * E);
    if (draft) {
        p.tokensPerRound = E;
        p.lookahead = K;
        p.draftStepTime = draft->time;
        p.draftTensorParallel = draft->tensorParallel;
        p.draftBytes = draft->bytes;
    }
    if (!settings.decodeOnly) {
        // A new prompt: prefilled in chunks of the step's token budget (or the steady share, where larger).
        p.chunk = std::min(double(P), std::max(double(settings.chunkTokens), steady));
        p.prefillSteps = int(std::ceil(P / p.chunk - 1e-9));
        if (p.chunk == steady)
            p.chunkStepTime = round;
        else {
            p.chunkStepTime = joinStep(settings, device, *decode, prefill, p.chunk / P).time + drafting;
        }
        // Requests arrive at random moments of a step that is already running: on average half of it
        // passes before the next step can take the new prompt (the mean residual of a fixed period).
        p.queueTime = round / 2;
        p.ttft = p.queueTime + p.prefillSteps * p.chunkStepTime;
    }
    // One GPU's memory: its weights, N sequences' caches of P + G tokens, the largest activations.
    const int kvBits = model.onnx ? model.onnx->decoder()->kvBits : settings.llm.kvBits; // a graph's own width
    p.weightsBytes = step.residentWeights;
    p.kvBytes = kvCacheBytes(model.arch, std::int64_t(P) + G, kvBits) * step.kvShare * N;
    p.activationBytes = std::max(step.activationBytes, draft ? draft->activationBytes : 0.0);
    p.memoryBytes = p.weightsBytes + p.kvBytes + p.activationBytes + p.draftBytes;
    p.usableBytes = device.memoryBytes * settings.usableMemory;
    p.fits = p.usableBytes > 0 && p.memoryBytes <= p.usableBytes;
    out.point = p;
    return out;
}

} // namespace rfx
