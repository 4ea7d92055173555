// Disaggregated serving: a prefill replica, and the two pools balanced (disaggregated.h).
#include "serving/disaggregated.h"

#include "llm/llm_phase.h"
#include "onnx/onnx_model.h"

#include <algorithm>
#include <cmath>

namespace rfx {

std::optional<PrefillPoint> prefillPoint(
    const LlmModel& model, const ServingSettings& settings, const Device& device, std::string* error)
{
    if (auto e = servingSettingsError(model, settings)) {
        if (error)
            *error = *e;
        return std::nullopt;
    }
    // The prefill of `batch` prompts is a phase of its own: joined with no share of another, its step
    // is its rows' bounds and launches and its all-reduces, as `llm`'s TTFT.
    const std::optional<ServingPhase> phase = servingPrefill(model, settings, device, error, settings.users);
    if (!phase)
        return std::nullopt;
    const MixedStep step = joinStep(settings, device, *phase, nullptr, 0);
    PrefillPoint p;
    p.tensorParallel = std::max(1, settings.llm.tensorParallel);
    p.batch = settings.users;
    p.time = step.time;
    p.requestsPerSecond = step.time > 0 ? p.batch / step.time : 0;
    p.energyPerRequest = step.energy * p.tensorParallel / p.batch;
    const int kvBits = model.onnx ? model.onnx->decoder()->kvBits : settings.llm.kvBits;
    p.kvBytes = kvCacheBytes(model.arch, settings.llm.prompt, kvBits);
    p.memoryBytes = step.residentWeights + p.kvBytes * step.kvShare * p.batch + step.activationBytes;
    p.usableBytes = device.memoryBytes * settings.usableMemory;
    p.fits = p.usableBytes > 0 && p.memoryBytes <= p.usableBytes;
    return p;
}

PoolBalance balancePools(
    const PrefillPoint& prefill, const ServingPoint& decode, double linkBandwidth, int generate, int users, double rate)
{
    PoolBalance b;
    b.prefill = prefill;
    b.decode = decode;
    b.linkBandwidth = linkBandwidth;
    const int pairs = std::min(prefill.tensorParallel, decode.tensorParallel);
    b.transferTime = linkBandwidth > 0 ? prefill.batch * prefill.kvBytes / (pairs * linkBandwidth) : 0;
    b.queueTime = prefill.time / 2;
    b.ttft = b.queueTime + prefill.time + b.transferTime;
    const double decodeRequests = decode.requestsPerSecond; // N / (G t(N))
    b.prefillGpusPerReplica
        = prefill.requestsPerSecond > 0 ? prefill.tensorParallel * decodeRequests / prefill.requestsPerSecond : 0;
    b.gpuTokensPerSecond = decode.replicaTokensPerSecond / (decode.tensorParallel + b.prefillGpusPerReplica);
    b.energyPerToken = decode.energyPerToken + (generate > 0 ? prefill.energyPerRequest / generate : 0);
    double requests = 0;
    if (users > 0) {
        b.decodeReplicas = (users + decode.users - 1) / decode.users;
        requests = decode.tpot > 0 && generate > 0 ? users / (generate * decode.tpot) : 0;
    } else if (rate > 0 && decodeRequests > 0) {
        b.decodeReplicas = int(std::ceil(rate / decodeRequests - 1e-9));
        requests = rate;
    }
    if (requests > 0 && prefill.requestsPerSecond > 0)
        b.prefillReplicas = std::max(1, int(std::ceil(requests / prefill.requestsPerSecond - 1e-9)));
    b.gpus = b.decodeReplicas * decode.tensorParallel + b.prefillReplicas * prefill.tensorParallel;
    return b;
}

} // namespace rfx
