// A language model's decode step swept over the context or the batch, per device, each line ending
// where the device's memory runs out (issue 36 item 5: the context sweep and the batch sweep).
#include "llm/llm_sweep.h"

#include "devices/interconnects.h"

#include <algorithm>

namespace rfx {

LlmSweep sweepLlm(const LlmModel& model, const LlmAnalysis& a, const std::vector<Device>& devices, LlmSweepAxis axis)
{
    LlmSweep out;
    out.axis = axis;
    const LlmSettings& settings = a.settings;
    const bool byContext = axis == LlmSweepAxis::Context;
    out.current = byContext ? a.context : settings.batch;
    out.batch = settings.batch;
    out.context = a.context;
    if (a.figures.size() != devices.size()) {
        out.error = "the analysis is of other devices";
        return out;
    }
    // The values: powers of two from the start, the settings' own, each device's largest.
    std::vector<std::int64_t> xs { out.current };
    std::int64_t top = 0;
    for (const LlmDeviceFigures& f : a.figures) {
        const std::int64_t limit = byContext ? f.largestContext : f.largestBatch;
        top = std::max(top, limit);
        if (limit > 0)
            xs.push_back(limit);
    }
    for (std::int64_t x = byContext ? 128 : 1; x <= top; x *= 2)
        xs.push_back(x);
    std::sort(xs.begin(), xs.end());
    xs.erase(std::unique(xs.begin(), xs.end()), xs.end());

    const Interconnect* link = settings.tensorParallel > 1 ? findInterconnect(settings.interconnect) : nullptr;
    const LlmArch& arch = model.arch;
    for (size_t d = 0; d < devices.size(); ++d) {
        LlmSweepLine line;
        line.device = devices[d].id;
        line.limit = byContext ? a.figures[d].largestContext : a.figures[d].largestBatch;
        line.limitedByModel = byContext && a.figures[d].contextLimitedByModel;
        line.capacity = a.figures[d].capacity;
        out.lines.push_back(line);
    }
    for (std::int64_t x : xs) {
        if (std::none_of(out.lines.begin(), out.lines.end(), [&](const LlmSweepLine& l) { return x <= l.limit; }))
            continue; // the settings' own value where no device holds it: no point
        LlmSettings s = settings;
        if (!byContext)
            s.batch = int(x);
        const int context = byContext ? int(x) : a.context;
        const LlmPhaseBuild step = buildLlmPhase(model, s, LlmPhase::Decode, context);
        if (!step.network) {
            out.error = step.error;
            for (LlmSweepLine& l : out.lines)
                l.points.clear();
            return out;
        }
        const Report r = analyze(*step.network, llmConfig(s), devices);
        const double linkTime = link && link->bandwidth > 0 ? step.linkBytes / link->bandwidth : 0;
        for (size_t d = 0; d < devices.size(); ++d) {
            LlmSweepLine& line = out.lines[d];
            if (x > line.limit)
                continue;
            const LlmDeviceFigures& f = a.figures[d];
            LlmSweepPoint p;
            p.x = x;
            p.tpot = r.results[d].totals.time + linkTime;
            p.tokensPerSecond = p.tpot > 0 ? 1 / p.tpot : 0;
            p.batchTokensPerSecond = p.tokensPerSecond * s.batch;
            // The memory as analyzeLlm's largest batch and context count it.
            const double perSequence
                = kvCacheBytes(arch, std::int64_t(settings.prompt) + settings.generate, settings.kvBits) * step.kvShare;
            p.memoryBytes = byContext ? f.weightsBytes
                    + settings.batch * kvCacheBytes(arch, x, settings.kvBits) * step.kvShare + f.activationBytes
                                      : f.weightsBytes + double(x) * (perSequence + f.activationBytes / settings.batch);
            line.points.push_back(p);
        }
    }
    return out;
}

} // namespace rfx
