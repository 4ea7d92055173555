#pragma once
// A language model served (continuous batching with chunked prefill, in steady state): what one
// replica of TP GPUs sustains with N sequences decoding, and what each user sees. Every time is the
// roofline's bound (the best case a real engine approaches from above).

#include "devices/device.h"
#include "engine/roofline.h"
#include "llm/llm_arch.h"
#include "llm/llm_phase.h"
#include "serving/speculative.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rfx {

struct Calibration;

/// One deployment's shape: the traffic (P prompt tokens in, G out per request) and the replica.
struct ServingSettings {
    /// P, G, the weights', cache's and activations' widths, attention, tensor parallelism and its link.
    /// `batch` and `context` are not read: the users set the batch, the steady state the context.
    LlmSettings llm;
    int users = 1; ///< N sequences decoding together in one replica
    double usableMemory
        = 0.9; ///< the share of each GPU's memory a serving engine may fill (the rest: its runtime, fragmentation)
    /// The most prompt tokens a step takes while a prompt waits (vLLM's max_num_batched_tokens for
    /// chunked prefill): a new prompt is prefilled in chunks of max(this, N P / G) tokens, at most P.
    int chunkTokens = 2048;
    /// The decode pool of disaggregated serving (disaggregated.h): the step decodes the N sequences
    /// and carries no prefill (another pool prefills; TTFT is that pool's), its memory every
    /// sequence's cache of P + G tokens.
    bool decodeOnly = false;
    /// Speculative decoding: each step a round of K draft steps and one verification of K + 1 tokens a
    /// sequence (speculative.h); no draft: plain decoding.
    Speculation speculation;
    /// On the device this calibration is for (engine/calibration.h: its deviceId), each joined row's time
    /// is the calibration's prediction instead of its bound (calibratedRowTime): the steady state a real
    /// engine's kernels, as measured, would give. Not owned; null: bounds.
    const Calibration* calibration = nullptr;
};

/// One row of a mixed step: a decode row and the prefill row of the same name, joined.
struct MixedRow {
    std::string name;
    double flops = 0; ///< FLOP
    double bytes = 0; ///< DRAM traffic, the weights once, byte
    double weightBytes = 0; ///< the weights read, byte
    double time = 0; ///< its bound and launches (calibrated: the calibration's prediction), second
};

/// One mixed step of the steady state, on one device: N decode tokens at the mean context
/// C = P + G / 2 and N P / G prompt tokens of prefill, one batch (each weight read once).
struct MixedStep {
    double prefillTokens = 0; ///< N P / G, the prompt tokens a step carries on average
    double flops = 0; ///< both parts' FLOPs, one GPU
    double bytes = 0; ///< both parts' DRAM traffic with the weights read once, one GPU, byte
    double weightBytes = 0; ///< the weights that traffic reads, byte
    double computeTime = 0, memoryTime = 0; ///< the rows' sums, second (their bound is the larger of each row's)
    double linkTime = 0; ///< tensor parallel: both parts' all-reduces over the link, second
    double time = 0; ///< t(N): the rows' bounds and launches plus the link, second
    double energy = 0; ///< one GPU's, the engine's power model over the joined rows (idle on the link), joule
    // what the step holds in one GPU's memory
    double residentWeights = 0; ///< every weight (all experts), this GPU's share, byte
    double activationBytes = 0; ///< the largest row's activations of the decode and of a prompt's prefill, byte
    double kvShare = 1; ///< the share of each sequence's cache this GPU holds
    std::vector<MixedRow> rows; ///< the decode's rows in order, then any prefill row without a decode row of its name
};

/// What a replica sustains, and what its users see, on one device.
struct ServingPoint {
    std::string device; ///< its id
    int users = 0; ///< N
    int tensorParallel = 1; ///< GPUs per replica
    MixedStep step;
    double tpot = 0; ///< under load: t(N), second
    double userTokensPerSecond = 0; ///< 1 / t(N)
    double replicaTokensPerSecond = 0; ///< output tokens, N / t(N)
    double gpuTokensPerSecond = 0; ///< N / t(N) / TP
    double chunk = 0; ///< a new prompt's tokens a step prefills: min(P, max(chunkTokens, N P / G))
    int prefillSteps = 0; ///< ceil(P / chunk): the steps a new prompt's prefill takes
    double chunkStepTime = 0; ///< one of those steps: N decode tokens and a chunk, second
    double queueTime = 0; ///< a new request's wait for the next step to begin: t(N) / 2 on average, second
    double ttft = 0; ///< under load: queueTime + prefillSteps x chunkStepTime, second
    double requestsPerSecond = 0; ///< a replica's completions: N / (G x t(N))
    double energyPerToken
        = 0; ///< the step's energy on all TP GPUs / N output tokens (its prefill share included), joule
    // speculative decoding (ServingSettings::speculation): `step` is the verification, a round adds K draft
    // steps and yields tokensPerRound tokens a sequence: TPOT = (step + K draft steps) / tokensPerRound
    double tokensPerRound = 1; ///< (1 - A^(K+1)) / (1 - A); 1 without a draft
    int lookahead = 0; ///< K; 0 without a draft
    double draftStepTime = 0; ///< one draft step of the N sequences, second
    int draftTensorParallel = 0; ///< the draft's split: the target's where its heads divide, else 1 (on each GPU)
    double draftBytes = 0; ///< the draft's weights and N caches of P + G tokens, one GPU, byte
    // memory, one GPU
    double weightsBytes = 0; ///< the weights' share, byte
    double kvBytes = 0; ///< N sequences of P + G tokens, this GPU's share, byte
    double activationBytes = 0; ///< the largest row's activations, decode and a prompt's prefill, byte
    double memoryBytes = 0; ///< their sum, byte
    double usableBytes = 0; ///< the device's memory x the usable share, byte
    bool fits = false;
};

/// One phase analysed on one device, for joining: its rows and the build they came from.
struct ServingPhase {
    LlmPhaseBuild build;
    Report report;
};

struct ServingOutcome {
    std::optional<ServingPoint> point;
    std::string error; ///< what the settings or the device do not allow, in the user's words
};

/// Settings no device can serve, in the user's words naming the option (users, lengths, the usable
/// share, the chunk, a tensor-parallel split the heads do not divide into); nothing when they work.
std::optional<std::string> servingSettingsError(const LlmModel& model, const ServingSettings& settings);

/// The steady state of `settings` on `device` (docs/language-models.md "Serving"). Each of the N sequences is, on
/// average, halfway through its G tokens: a step decodes N tokens at C = P + G / 2, and so that a
/// sequence ends and a new one begins every G / N steps, it carries N P / G prompt tokens of
/// prefill. The two parts are analysed as rows (the decode phase at batch N, the prefill of one
/// prompt scaled by N / G) and joined row by row: FLOPs and activations add, each row's weights are
/// read once (for a mixture's experts, at least those either part touches). At N = 1 without the
/// prefill share the step is `llm`'s TPOT exactly.
/// `prefill`, `decode`: servingPrefill's and servingDecode's for these settings, analysed once by the
/// caller (else here; `prefill` is not read with `decodeOnly`).
ServingOutcome servingPoint(const LlmModel& model, const ServingSettings& settings, const Device& device,
    const ServingPhase* prefill = nullptr, const ServingPhase* decode = nullptr);

/// The decode of `settings.users` sequences at C = P + G / 2, and the prefill of `prompts` prompts of
/// P tokens together (one, the same for every N, in a mixed step: the planner analyses it once per
/// configuration; a disaggregated prefill pool's batch).
std::optional<ServingPhase> servingDecode(
    const LlmModel& model, const ServingSettings& settings, const Device& device, std::string* error = nullptr);
std::optional<ServingPhase> servingPrefill(const LlmModel& model, const ServingSettings& settings, const Device& device,
    std::string* error = nullptr, int prompts = 1);

/// The draft's decode step of `settings.users` sequences beside the target's (settings.speculation's draft,
/// at the target's widths and context, split as ServingPoint::draftTensorParallel says).
struct DraftStep {
    double time = 0; ///< second
    double energy = 0; ///< one GPU's, joule
    double bytes = 0; ///< its weights and N caches of P + G tokens, one GPU, byte
    double activationBytes = 0;
    int tensorParallel = 1;
};
std::optional<DraftStep> draftStep(const ServingSettings& settings, const Device& device, std::string* error = nullptr);

/// `llm`'s decode step with speculative decoding, on one device: a round at the settings' batch (N) and
/// context, no prefill share (ServingPoint's tpot: the round / its expected tokens).
ServingOutcome speculativeDecode(
    const LlmModel& model, const LlmSettings& settings, const Speculation& speculation, const Device& device);

/// The decode and `share` x the prefill joined row by row into one step (`prefill` may be null when
/// `share` is 0).
MixedStep joinStep(const ServingSettings& settings, const Device& device, const ServingPhase& decode,
    const ServingPhase* prefill, double share);

/// The mixed step alone, `prefillShare` x a whole prompt's prefill beside the decode of `settings.users`
/// sequences (servingPoint passes N / G; 0 is the decode step alone).
std::optional<MixedStep> mixedStep(const LlmModel& model, const ServingSettings& settings, const Device& device,
    double prefillShare, std::string* error = nullptr);

} // namespace rfx
