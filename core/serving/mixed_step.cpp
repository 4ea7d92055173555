// One mixed step of continuous batching: the decode of N sequences and a share of a prompt's
// prefill, joined row by row (serving.h).
#include "serving/serving.h"

#include "devices/interconnects.h"
#include "engine/calibration.h"
#include "engine/cost.h"
#include "engine/energy.h"
#include "engine/roofline_rows.h"
#include "llm/llm_analysis.h"
#include "onnx/onnx_model.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace rfx {

namespace {

/// The weights a row's runs read, byte (Layer::weightBytes where the phase set it: a quantized
/// file's blocks, the experts a batch's tokens touch; else its parameters at the weights' width).
double rowWeightBytes(const Layer& l, double elementBytes)
{
    const double once
        = l.weightBytes >= 0 ? l.weightBytes : double(layerParams(l)) * rowWidths(l, elementBytes, true).weight;
    return once * l.repeats;
}

LlmSettings phaseSettings(const LlmModel& model, const ServingSettings& settings)
{
    // An ONNX decoder's graph stores its cache and weights at its own widths (as analyzeLlm).
    LlmSettings s = settings.llm;
    if (model.onnx) {
        s.kvBits = model.onnx->decoder()->kvBits;
        s.weightBits = 0;
    }
    s.batch = std::max(1, settings.users);
    if (settings.speculation.draft) // a verification: the K drafted tokens and the next, each sequence
        s.decodeTokens = settings.speculation.lookahead + 1;
    return s;
}

std::optional<ServingPhase> analysePhase(
    const LlmModel& model, const LlmSettings& s, LlmPhase phase, int context, const Device& device, std::string* error)
{
    ServingPhase p { buildLlmPhase(model, s, phase, context), {} };
    if (!p.build.network) {
        if (error)
            *error = p.build.error;
        return std::nullopt;
    }
    p.report = analyze(*p.build.network, llmConfig(s), { device });
    return p;
}

} // namespace

std::optional<ServingPhase> servingDecode(
    const LlmModel& model, const ServingSettings& settings, const Device& device, std::string* error)
{
    const LlmSettings s = phaseSettings(model, settings);
    return analysePhase(model, s, LlmPhase::Decode, decodeContext(s), device, error);
}

std::optional<ServingPhase> servingPrefill(
    const LlmModel& model, const ServingSettings& settings, const Device& device, std::string* error, int prompts)
{
    LlmSettings s = phaseSettings(model, settings);
    s.batch = std::max(1, prompts);
    return analysePhase(model, s, LlmPhase::Prefill, s.prompt, device, error);
}

std::optional<MixedStep> mixedStep(
    const LlmModel& model, const ServingSettings& settings, const Device& device, double share, std::string* error)
{
    const std::optional<ServingPhase> decode = servingDecode(model, settings, device, error);
    if (!decode)
        return std::nullopt;
    std::optional<ServingPhase> prefill;
    if (share > 0 && !(prefill = servingPrefill(model, settings, device, error)))
        return std::nullopt;
    return joinStep(settings, device, *decode, prefill ? &*prefill : nullptr, share);
}

namespace {

/// Joins a decode row and `share` of the prefill row of its name into one row of the step: FLOPs
/// and activations add, the weights are read once, the engine's bound of the sum (or the calibration's
/// prediction on the device it is for).
struct RowJoiner {
    const ServingSettings& settings;
    const Device& device;
    const DeviceResult& result; ///< the decode's, for its ceilings, power model and cache-awareness
    rows::Ceilings ceil;
    double bytesPerElement = 2;
    double share = 0; ///< of a whole prompt's prefill
    MixedStep& step;

    void add(const LayerResult* d, const Layer* dl, const LayerResult* p, const Layer* pl) const
    {
        // A mixture's experts: the step's tokens touch at least those the decode touches, and at least
        // the share of a whole prompt's (the experts touched grow concavely with the tokens, from none).
        const double weightShare = std::min(1.0, share);
        const double wd = d ? rowWeightBytes(*dl, bytesPerElement) : 0,
                     wp = p ? rowWeightBytes(*pl, bytesPerElement) : 0;
        const double weights = std::max(wd, weightShare * wp);
        const double flops = (d ? d->flops : 0) + (p ? share * p->flops : 0);
        const double bytes = (d ? d->bytes - wd : 0) + (p ? share * (p->bytes - wp) : 0) + weights;
        const double l2 = (d ? d->l2Bytes : 0) + (p ? share * p->l2Bytes : 0);
        const double l1 = (d ? d->l1Bytes : 0) + (p ? share * p->l1Bytes : 0);
        const LayerResult& row = d ? *d : *p;
        const double working = result.cacheAware ? std::max(d ? d->workingSet : 0.0, p ? p->workingSet : 0.0) : -1;
        // The engine's bound of the joined row (rows::rowBound; a peak of 0 leaves its memory term).
        const double compute = row.peak > 0 ? flops / row.peak : 0;
        const double memory = rows::rowBound(flops, bytes, l2, l1, ceil, 0, working).time;
        step.flops += flops;
        step.bytes += bytes;
        step.weightBytes += weights;
        step.computeTime += compute;
        step.memoryTime += memory;
        LayerResult joined; // the joined row as the engine would give it
        joined.flops = flops;
        joined.bytes = bytes;
        joined.time = std::max(compute, memory) + row.kernels * device.launchOverhead; // one launch serves both parts
        joined.peak = row.peak;
        joined.opClass = row.opClass;
        joined.bound = compute > memory ? Bound::Compute : Bound::Memory;
        joined.repeats = row.repeats;
        if (settings.calibration
            && settings.calibration->deviceId == device.id) // M: the decode's and the share's tokens
            joined.time = calibratedRowTime(calibrationUse(*settings.calibration, joined), joined,
                (d ? matrixRowsOf(d->out) : 0) + (p ? share * matrixRowsOf(p->out) : 0));
        step.time += joined.time;
        step.energy += rowEnergy(joined, result, 100); // the engine's power model (core/engine/energy.h)
        step.rows.push_back({ row.name, flops, bytes, weights, joined.time });
    }
};

} // namespace

MixedStep joinStep(const ServingSettings& settings, const Device& device, const ServingPhase& decodePhase,
    const ServingPhase* prefillPhase, double share)
{
    LlmSettings s = settings.llm;
    s.batch = std::max(1, settings.users);
    const ServingPhase* decode = &decodePhase;
    const ServingPhase* prefill = share > 0 ? prefillPhase : nullptr;
    const Config config = llmConfig(s);
    DeviceResult result = decode->report.results.front(); // a copy: rowCeilings may set its ceilings
    MixedStep step;
    step.prefillTokens = share * s.prompt;
    const RowJoiner join { settings, device, result, rows::rowCeilings(result, config), elementBytes(config.bits),
        share, step };
    // The prefill's rows by name: each joins the decode row of that name.
    std::map<std::string, size_t> prefillRow;
    if (prefill)
        for (size_t i = 0; i < prefill->build.network->layers.size(); ++i)
            prefillRow.emplace(prefill->build.network->layers[i].name, i);
    const std::vector<Layer>& decodeLayers = decode->build.network->layers;
    std::vector<bool> joined(prefill ? prefill->build.network->layers.size() : 0, false);
    for (size_t i = 0; i < result.layers.size() && i < decodeLayers.size(); ++i) {
        const LayerResult* p = nullptr;
        const Layer* pl = nullptr;
        if (auto it = prefillRow.find(decodeLayers[i].name); it != prefillRow.end() && !joined[it->second]) {
            joined[it->second] = true;
            p = &prefill->report.results.front().layers[it->second];
            pl = &prefill->build.network->layers[it->second];
        }
        join.add(&result.layers[i], &decodeLayers[i], p, pl);
    }
    // The prefill's own rows (none in a model's phases; an ONNX graph's two phases may differ).
    for (size_t i = 0; i < joined.size(); ++i)
        if (!joined[i])
            join.add(nullptr, nullptr, &prefill->report.results.front().layers[i], &prefill->build.network->layers[i]);
    // Tensor parallel: both parts' all-reduces, their bytes added (one set of collectives a step).
    if (s.tensorParallel > 1)
        if (const Interconnect* link = findInterconnect(s.interconnect); link && link->bandwidth > 0)
            step.linkTime
                = (decode->build.linkBytes + (prefill ? share * prefill->build.linkBytes : 0)) / link->bandwidth;
    step.time += step.linkTime;
    step.energy += device.idleWatts * step.linkTime; // waiting on the link
    step.residentWeights = decode->build.weightBytes;
    step.activationBytes = decode->build.activationPeak + (prefill ? prefill->build.activationPeak : 0);
    step.kvShare = decode->build.kvShare;
    return step;
}

} // namespace rfx
