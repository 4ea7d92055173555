#pragma once
// Disaggregated serving (DistServe, Splitwise, NVIDIA Dynamo): one pool of replicas prefills the
// prompts, another decodes; each prompt's KV cache crosses a link from the first to the second.
// The decode steps carry no prefill (a steady TPOT, no chunk stalls), and each pool takes its own
// tensor parallelism and batch; the price is the prefill GPUs beside the decode ones and the move.

#include "serving/serving.h"

#include <optional>
#include <string>

namespace rfx {

/// A prefill replica: TP GPUs prefilling `batch` prompts of P tokens together, one batch after another.
struct PrefillPoint {
    int tensorParallel = 1;
    int batch = 1; ///< prompts prefilled together
    double time = 0; ///< one batch: its rows' bounds and launches and its all-reduces, second
    double requestsPerSecond = 0; ///< batch / time
    double energyPerRequest = 0; ///< one batch's energy on all TP GPUs / batch, joule
    double kvBytes = 0; ///< one prompt's cache of P tokens, every GPU's share together, byte
    double memoryBytes = 0; ///< one GPU: its weights, the batch's caches, the largest activations, byte
    double usableBytes = 0; ///< the device's memory x the usable share, byte
    bool fits = false;
};

/// One prefill and one decode configuration, balanced (the rate matching of aiconfigurator's
/// disaggregated mode, in the mean: as many prefill GPUs as keep the decode replicas fed).
struct PoolBalance {
    PrefillPoint prefill;
    ServingPoint decode; ///< decodeOnly: TPOT is the decode step alone
    double linkBandwidth = 0; ///< the link the caches cross, byte/s per direction
    /// A batch's caches over the link, each of the min(TPp, TPd) GPU pairs moving its share:
    /// batch x kvBytes / (min(TPp, TPd) x bandwidth), second. Counted after the prefill (an engine that
    /// sends layer by layer while it prefills hides some of it).
    double transferTime = 0;
    double queueTime = 0; ///< a new prompt waits for the batch being prefilled: half of one, on average, second
    double ttft = 0; ///< queue + one batch's prefill + its move, second
    /// The prefill GPUs one decode replica keeps busy: TPp x its requests/s / a prefill replica's.
    double prefillGpusPerReplica = 0;
    double gpuTokensPerSecond = 0; ///< a decode replica's output tokens/s / (TPd + prefillGpusPerReplica)
    double energyPerToken = 0; ///< the decode step's per token + a request's prefill / G, joule
    int prefillReplicas = 0, decodeReplicas = 0, gpus = 0; ///< for a load (0 without one)
};

/// A prefill replica of P-token prompts, `settings.users` of them a batch, on `device` (TP, widths
/// and link from `settings.llm`); nothing, with `error` set, when the settings do not work.
std::optional<PrefillPoint> prefillPoint(
    const LlmModel& model, const ServingSettings& settings, const Device& device, std::string* error = nullptr);

/// The two pools balanced: TTFT, GPUs per output token, energy and, for a load of `users` at once
/// (decode replicas ceil(users / N), their requests users / (G TPOT)) or `rate` requests/s, the
/// replicas of each pool. `generate`: G.
PoolBalance balancePools(const PrefillPoint& prefill, const ServingPoint& decode, double linkBandwidth, int generate,
    int users, double rate);

} // namespace rfx
