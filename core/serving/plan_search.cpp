// The planner's search space (plan_search.h): each device's widths, caches and splits, and one
// configuration's settings.
#include "serving/plan_search.h"

#include "base/format.h"

#include <cmath>

namespace rfx {

namespace planning {

std::vector<Widths> widthsFor(const LlmModel& model, const Device& d)
{
    if (model.onnx)
        return { { 0, 16, NumberType::Unset } }; // the graph's own widths
    const bool fp8 = d.peak.count("tensor_fp8") > 0;
    return { { 16, 16, NumberType::Fp16 }, { 8, 8, fp8 ? NumberType::Fp8 : NumberType::Int8 },
        { 4, 16, NumberType::Fp16 } };
}

Widths widthsOf(double weightBits, NumberType type) { return { weightBits, weightBits == 8 ? 8 : 16, type }; }

std::vector<int> kvBitsFor(const LlmModel& model)
{
    if (model.onnx)
        return { 16 }; // the graph's own cache width
    return { 16, 8 };
}

std::vector<int> parallelismsFor(const LlmModel& model, const PlanSettings& s, const Device& d)
{
    std::vector<int> out { 1 };
    if (model.onnx || d.scaleUpLink.empty())
        return out;
    for (int tp : { 2, 4, 8 })
        if (tp <= s.gpusPerNode && tp <= d.scaleUpGpus && !tensorParallelError(model.arch, tp))
            out.push_back(tp);
    return out;
}

std::string widthsText(double weightBits, NumberType arithmetic, int kvBits)
{
    if (weightBits == 0)
        return "the file's widths";
    const std::string bits
        = weightBits == std::floor(weightBits) ? std::to_string(int(weightBits)) : formatNumber3(weightBits);
    return bits + "-bit weights (" + std::string(numberWord(arithmetic)) + "), " + std::to_string(kvBits)
        + "-bit cache";
}

std::vector<bool> speculationsFor(const PlanSettings& settings)
{
    if (settings.speculation.draft)
        return { false, true };
    return { false };
}

std::string draftText(int lookahead)
{
    return lookahead > 0 ? ", draft K = " + std::to_string(lookahead) : std::string();
}

ServingSettings configFor(
    const PlanSettings& settings, const Device& device, int tp, const Widths& w, int kvBits, bool speculate)
{
    ServingSettings s;
    s.llm = settings.llm;
    s.llm.tensorParallel = tp;
    s.llm.interconnect = tp > 1 ? device.scaleUpLink : settings.llm.interconnect;
    s.llm.weightBits = w.weightBits;
    s.llm.actBits = w.actBits;
    s.llm.actType = w.type;
    s.llm.kvBits = kvBits;
    s.usableMemory = settings.usableMemory;
    s.chunkTokens = settings.chunkTokens;
    if (speculate)
        s.speculation = settings.speculation;
    s.calibration = settings.calibration;
    return s;
}

} // namespace planning

} // namespace rfx
