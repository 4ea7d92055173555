// A language model's settings and what they size: names of the phases and attention kinds, the decode
// context, the settings' checks, bytes per weight and per KV-cache token, tensor parallelism's split of
// the KV heads, the experts a batch touches, the (query, key) pairs causal attention scores. The
// phases' rows are llm_phase.cpp's.
#include "llm/llm_phase.h"

#include "base/format.h"
#include "devices/interconnects.h"

#include <algorithm>
#include <cmath>

namespace rfx {

std::string_view llmPhaseName(LlmPhase p) { return enumName(kLlmPhaseWords, p); }
std::string_view llmAttentionName(LlmAttention a) { return enumName(kLlmAttentionWords, a); }

int decodeContext(const LlmSettings& s) { return s.context > 0 ? s.context : s.prompt + s.generate / 2; }

std::optional<std::string> validateLlmSettings(const LlmSettings& s)
{
    auto range = [](const char* name, long long v, Range r) -> std::optional<std::string> {
        if (v < r.min || v > r.max)
            return std::string(name) + ": must be a whole number from " + std::to_string(r.min) + " to "
                + std::to_string(r.max) + ", got " + std::to_string(v);
        return std::nullopt;
    };
    if (auto e = range("--prompt", s.prompt, kPromptRange))
        return e;
    if (auto e = range("--generate", s.generate, kGenerateRange))
        return e;
    if (auto e = range("--batch", s.batch, kLlmBatchRange))
        return e;
    if (s.context != 0)
        if (auto e = range("--context", s.context, { 1, 1 << 22 }))
            return e;
    if (s.weightBits != 0 && s.weightBits != 4 && s.weightBits != kMxfp4Bits && s.weightBits != 8 && s.weightBits != 16
        && s.weightBits != 32)
        return "--weights-bits: must be 4, mxfp4, 8, 16, 32 or \"file\" (as the weight file stores them), got "
            + (s.weightBits == std::floor(s.weightBits) && std::abs(s.weightBits) < 1e9
                    ? std::to_string(std::int64_t(s.weightBits))
                    : formatNumber3(s.weightBits));
    if (s.kvBits != 4 && s.kvBits != 8 && s.kvBits != 16 && s.kvBits != 32)
        return "--kv-bits: must be 4, 8, 16 or 32, got " + std::to_string(s.kvBits);
    if (s.actBits != 8 && s.actBits != 16 && s.actBits != 32)
        return "--act-bits: must be 8, 16 or 32 (or int8, fp8, fp16, bf16, fp32), got " + std::to_string(s.actBits);
    if (s.actType != NumberType::Unset && numberBits(s.actType) != s.actBits)
        return "--act-bits: " + std::string(numberWord(s.actType)) + " is " + std::to_string(numberBits(s.actType))
            + " bits wide, not " + std::to_string(s.actBits);
    if (auto e = range("--tp", s.tensorParallel, kTensorParallelRange))
        return e;
    if (s.decodeTokens != 1)
        if (auto e = range("--lookahead + 1 (the tokens a verification takes)", s.decodeTokens, kDecodeTokensRange))
            return e;
    if (s.decodeTokens > 1 && s.context > 0 && s.context < s.decodeTokens)
        return "--context " + std::to_string(s.context) + ": a verification of " + std::to_string(s.decodeTokens)
            + " tokens needs at least that many in the cache";
    if (s.tensorParallel > 1)
        if (auto e = interconnectError(s.interconnect))
            return "--interconnect: " + *e;
    return std::nullopt;
}

double weightBytesPerParam(double bits) { return bits == 4 ? (4 + 16.0 / 128) / 8 : bits / 8; }

bool llmStoresTypes(const LlmModel& model) { return model.storage || model.onnx || model.arch.expertBits > 0; }

double kvCacheBytes(const LlmArch& a, std::int64_t tokens, int kvBits)
{
    double total = 0;
    const double perToken
        = a.kvElementsPerToken() * kvBits / 8.0; // keys and values, or latent attention's latent and rotary key
    for (int l = 0; l < a.layers; ++l)
        total += perToken * double(a.slides(l) ? std::min<std::int64_t>(tokens, a.slidingWindow) : tokens);
    return total;
}

int kvHeadsPerGpu(const LlmArch& a, int gpus)
{
    gpus = std::max(gpus, 1);
    return a.kvHeads % gpus == 0 ? a.kvHeads / gpus : 1;
}

std::optional<std::string> tensorParallelError(const LlmArch& a, int gpus)
{
    if (gpus <= 1)
        return std::nullopt;
    const std::string n = std::to_string(gpus);
    if (a.heads % gpus != 0)
        return "its " + std::to_string(a.heads) + " attention heads do not divide among " + n
            + " GPUs (--tp must divide the head count)";
    if (a.kvHeads % gpus != 0 && gpus % a.kvHeads != 0)
        return "its " + std::to_string(a.kvHeads) + " key/value heads neither divide among " + n
            + " GPUs nor are a divisor of it (--tp must divide the KV head count, or be a multiple of it)";
    if (a.experts == 0 && a.ffn % gpus != 0)
        return "its MLP's " + std::to_string(a.ffn) + " intermediate features do not divide among " + n + " GPUs";
    if (a.experts > 0 && a.expertWidth() % gpus != 0)
        return "its experts' " + std::to_string(a.expertWidth()) + " intermediate features do not divide among " + n
            + " GPUs";
    return std::nullopt;
}

std::optional<LlmSettingsFix> llmSettingsFix(const LlmArch& a, const LlmSettings& s)
{
    const std::string name = a.title.empty() ? a.id : a.title.substr(0, a.title.find(" ("));
    const std::int64_t tokens = std::int64_t(s.prompt) + s.generate;
    if (a.maxContext > 0 && tokens > a.maxContext) {
        LlmSettingsFix fix { "prompt",
            name + " reads at most " + formatCount(a.maxContext) + " tokens: a prompt of " + formatCount(s.prompt)
                + " and " + formatCount(s.generate) + " generated make " + formatCount(tokens) + ".",
            {} };
        if (a.maxContext - s.generate >= kPromptRange.min)
            fix.values.push_back(int(a.maxContext - s.generate));
        return fix;
    }
    if (auto e = tensorParallelError(a, s.tensorParallel)) {
        // The core's reason without its command-line advice: "its 32 attention heads do not divide among 3 GPUs".
        const std::string reason = e->substr(0, e->find(" (--tp"));
        LlmSettingsFix fix { "tp", name + ": " + reason + ".", {} };
        for (int below = s.tensorParallel - 1; below >= kTensorParallelRange.min; --below)
            if (!tensorParallelError(a, below)) {
                fix.values.push_back(below);
                break;
            }
        for (int above = s.tensorParallel + 1; above <= kTensorParallelRange.max; ++above)
            if (!tensorParallelError(a, above)) {
                fix.values.push_back(above);
                break;
            }
        return fix;
    }
    return std::nullopt;
}

double causalPairs(std::int64_t p, std::int64_t window)
{
    const double P = double(p);
    if (window <= 0 || window >= p)
        return P * (P + 1) / 2;
    const double W = double(window);
    return W * (W + 1) / 2 + (P - W) * W;
}

double decodePairs(std::int64_t t, std::int64_t context, std::int64_t window)
{
    double pairs = 0;
    for (std::int64_t j = 1; j <= t; ++j) {
        std::int64_t keys = std::max<std::int64_t>(1, context - t + j);
        if (window > 0)
            keys = std::min(keys, window);
        pairs += double(keys);
    }
    return pairs;
}

double chunkedPairs(std::int64_t p, std::int64_t chunk)
{
    if (chunk <= 0 || chunk >= p)
        return causalPairs(p, 0);
    const double whole = double(p / chunk), rest = double(p % chunk), C = double(chunk);
    return whole * C * (C + 1) / 2 + rest * (rest + 1) / 2;
}

double expectedExpertsTouched(int experts, int perToken, double tokens)
{
    if (experts <= 0)
        return 0;
    return experts * (1 - std::pow(1 - double(perToken) / experts, tokens));
}

} // namespace rfx
