#include "llm/llm_analysis.h"

#include "base/format.h"
#include "devices/interconnects.h"
#include "engine/energy.h"
#include "onnx/onnx_model.h"

#include <algorithm>
#include <cmath>

namespace rfx {

Config llmConfig(const LlmSettings& s)
{
    Config c;
    c.model = "llm";
    c.batch = s.batch;
    c.bits = s.actBits;
    c.bitsAsInFile = true;
    c.tensorCores = true;
    return c;
}

namespace {

/// The most sequences (or tokens) `fits(n)` accepts, n in [1, limit]; 0 when 1 does not fit.
template <class F> std::int64_t largest(std::int64_t limit, F fits)
{
    if (!fits(1))
        return 0;
    std::int64_t lo = 1, hi = limit;
    while (lo < hi) {
        const std::int64_t mid = lo + (hi - lo + 1) / 2;
        if (fits(mid))
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

} // namespace

LlmOutcome analyzeLlm(
    const LlmModel& model, const LlmSettings& asked, const std::vector<Device>& devices, bool generation)
{
    LlmOutcome out;
    // An ONNX decoder's graph stores its cache and weights at its own widths: the figures use those.
    LlmSettings settings = asked;
    if (model.onnx) {
        settings.kvBits = model.onnx->decoder()->kvBits;
        settings.weightBits = 0;
    }
    const int context = decodeContext(settings);
    // Past max_position_embeddings the model was never trained: its figures would be a cost without a model.
    const std::int64_t maxContext = model.arch.maxContext;
    const std::string name = model.arch.title.empty() ? model.arch.id : model.arch.title;
    const std::string limit = name + " reads at most " + formatCount(maxContext) + " tokens (max_position_embeddings)";
    if (maxContext > 0 && settings.context > maxContext) {
        out.error = "--context " + formatCount(settings.context) + ": longer than " + limit + "; give at most "
            + formatCount(maxContext);
        return out;
    }
    if (maxContext > 0 && std::int64_t(settings.prompt) + settings.generate > maxContext) {
        out.error = "--prompt " + formatCount(settings.prompt) + " and --generate " + formatCount(settings.generate)
            + ": " + formatCount(std::int64_t(settings.prompt) + settings.generate) + " tokens in all, longer than "
            + limit + "; ask for fewer tokens in all";
        return out;
    }
    const LlmPhaseBuild prefill = buildLlmPhase(model, settings, LlmPhase::Prefill, settings.prompt);
    if (!prefill.network) {
        out.error = prefill.error;
        return out;
    }
    const LlmPhaseBuild decode = buildLlmPhase(model, settings, LlmPhase::Decode, context);
    if (!decode.network) {
        out.error = decode.error;
        return out;
    }
    const Config config = llmConfig(settings);
    LlmAnalysis a;
    a.settings = settings;
    a.context = context;
    a.graph = model.onnx != nullptr;
    a.published = settings.weightBits == 0 && !model.storage && !model.onnx && model.arch.expertBits > 0;
    a.model = model.arch.title.empty() ? model.arch.id : model.arch.title;
    a.prefill = analyze(*prefill.network, config, devices);
    a.decode = analyze(*decode.network, config, devices);
    const int N = std::max(1, settings.tensorParallel);
    if (model.onnx)
        a.parameters = model.onnx->parameters();
    else if (N == 1)
        for (const Layer& l : prefill.network->layers)
            a.parameters += l.storedParams;
    else { // the rows are one GPU's; the model's count is that of the unsplit rows
        LlmSettings one = settings;
        one.tensorParallel = 1;
        one.prompt = 1;
        const LlmPhaseBuild whole = buildLlmPhase(model, one, LlmPhase::Prefill, 1);
        for (const Layer& l : whole.network->layers)
            a.parameters += l.storedParams;
    }
    // The experts a token does not use, as the model's shape counts them (a file's count is its tensors').
    a.activeParameters = model.onnx
        ? a.parameters
        : a.parameters - (llmParameterCount(model.arch) - llmActiveParameterCount(model.arch));
    if (!model.onnx) {
        a.experts = model.arch.experts;
        a.expertsPerToken = model.arch.expertsPerToken;
    }
    const Interconnect* link = N > 1 ? findInterconnect(settings.interconnect) : nullptr;
    const double linkBandwidth = link ? link->bandwidth : 0;
    auto linkTime = [&](double bytes) { return linkBandwidth > 0 ? bytes / linkBandwidth : 0.0; };
    if (link)
        a.linkName = linkDescription(*link);
    a.notes = model.diagnostics;
    // A ceiling a device lacks (fp8 rows on an A100: its tensor FP16) is said once, from either phase.
    for (const Report* r : { &a.prefill, &a.decode })
        for (const Diagnostic& d : r->diagnostics)
            if (d.field == "peak" && std::none_of(a.notes.begin(), a.notes.end(), [&](const Diagnostic& n) {
                    return n.message == d.message;
                }))
                a.notes.push_back(d);

    // the generation's decode steps at contexts P+1 .. P+G
    const int G = settings.generate;
    const int samples = generation ? std::min(G, 17) : 0;
    std::vector<int> at;
    for (int i = 0; i < samples; ++i)
        at.push_back(settings.prompt + 1 + (samples == 1 ? 0 : int(std::lround(double(G - 1) * i / (samples - 1)))));
    std::vector<std::vector<double>> stepTimes(devices.size());
    for (int c : at) {
        const LlmPhaseBuild step = buildLlmPhase(model, settings, LlmPhase::Decode, c);
        const Report r = analyze(*step.network, config, devices);
        for (size_t d = 0; d < r.results.size(); ++d)
            stepTimes[d].push_back(r.results[d].totals.time + linkTime(step.linkBytes));
    }

    const LlmArch& arch = model.arch;
    const double kvShare = prefill.kvShare;
    const double perSequence = kvCacheBytes(arch, std::int64_t(settings.prompt) + G, settings.kvBits) * kvShare;
    for (size_t d = 0; d < devices.size(); ++d) {
        LlmDeviceFigures f;
        f.device = devices[d].id;
        f.prefillLinkTime = linkTime(prefill.linkBytes);
        f.decodeLinkTime = linkTime(decode.linkBytes);
        f.ttft = a.prefill.results[d].totals.time + f.prefillLinkTime;
        f.tpot = a.decode.results[d].totals.time + f.decodeLinkTime;
        f.tokensPerSecond = f.tpot > 0 ? 1 / f.tpot : 0;
        f.batchTokensPerSecond = f.tokensPerSecond * settings.batch;
        double decodeTotal = 0;
        const std::vector<double>& t = stepTimes[d];
        if (generation && samples == G)
            for (double x : t)
                decodeTotal += x;
        else if (generation)
            for (size_t i = 0; i + 1 < t.size(); ++i)
                decodeTotal += (t[i] + t[i + 1]) / 2 * double(at[i + 1] - at[i]);
        if (generation && samples != G) // the trapezoids cover G - 1 steps between the first and last context; one more
            decodeTotal += (t.front() + t.back()) / 2;
        f.generationTime = generation ? f.ttft + decodeTotal : 0;
        f.weightsBytes = prefill.weightBytes;
        f.kvBytes = perSequence * settings.batch;
        f.kvBytesPerToken = arch.kvElementsPerToken() * settings.kvBits / 8.0 * arch.layers * kvShare;
        f.activationBytes = prefill.activationPeak;
        f.memoryBytes = f.weightsBytes + f.kvBytes + f.activationBytes;
        f.capacity = devices[d].memoryBytes;
        f.fits = f.capacity > 0 && f.memoryBytes <= f.capacity;
        const double actPerSequence = f.activationBytes / settings.batch;
        f.largestBatch = largest(kLlmBatchRange.max,
            [&](std::int64_t b) { return f.weightsBytes + double(b) * (perSequence + actPerSequence) <= f.capacity; });
        // a file that does not say what the model was trained for: the longest prompt the tool takes
        const std::int64_t contextLimit = arch.maxContext > 0 ? arch.maxContext : kPromptRange.max;
        f.largestContext = largest(contextLimit, [&](std::int64_t c) {
            return f.weightsBytes + settings.batch * kvCacheBytes(arch, c, settings.kvBits) * kvShare
                + f.activationBytes
                <= f.capacity;
        });
        f.contextLimitedByModel = arch.maxContext > 0 && f.largestContext == contextLimit;
        double energy = 0;
        for (const LayerResult& row : a.decode.results[d].layers)
            energy += rowEnergy(row, a.decode.results[d], config.clockPercent);
        f.energyPerToken = energy * N / settings.batch;
        a.figures.push_back(f);
    }
    out.analysis = std::move(a);
    return out;
}

} // namespace rfx
