#pragma once
// What the planner's two searches share (plan.cpp: aggregated; plan_disaggregated.cpp: prefill and
// decode pools): the space of one device, and a configuration's settings. Internal to core/serving.

#include "serving/plan.h"

#include <string>
#include <vector>

namespace rfx::planning {

struct Widths {
    double weightBits;
    int actBits;
    NumberType type;
};

/// 16-bit weights and arithmetic; 8-bit weights with fp8 arithmetic where the device has tensor FP8,
/// else int8 (W8A8); 4-bit weights with fp16 arithmetic (W4A16, as AWQ and GPTQ kernels run). An ONNX
/// decoder: its own widths.
std::vector<Widths> widthsFor(const LlmModel& model, const Device& device);
/// The cache widths searched: 16 and 8 bits (an ONNX decoder: its own).
std::vector<int> kvBitsFor(const LlmModel& model);
/// TP 1, and 2, 4, 8 over the device's scale-up link up to --gpus-per-node and the link's GPUs.
std::vector<int> parallelismsFor(const LlmModel& model, const PlanSettings& settings, const Device& device);
/// Speculative decoding off, and on where the settings give a draft.
std::vector<bool> speculationsFor(const PlanSettings& settings);
ServingSettings configFor(
    const PlanSettings& settings, const Device& device, int tp, const Widths& w, int kvBits, bool speculate = false);
/// ", draft K = 4", or nothing for plain decoding.
std::string draftText(int lookahead);
/// "8-bit weights (fp8), 8-bit cache" ("the file's widths" for an ONNX decoder).
std::string widthsText(double weightBits, NumberType arithmetic, int kvBits);
/// A point's widths as widthsFor gave them.
Widths widthsOf(double weightBits, NumberType type);

/// The disaggregated half of device `d`'s plan (d.split, d.splitFront, d.splitBest, d.splitNone,
/// d.kvLink) from the decode-only steady states the aggregated search computed beside its own.
void planSplit(const LlmModel& model, const PlanSettings& settings, const Device& device,
    const std::vector<PlanPoint>& decodeOnly, double price, DevicePlan& d, const std::string& modelTitle);

} // namespace rfx::planning
