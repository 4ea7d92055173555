#pragma once
// What roofline-cli measure --llm runs a language model at and writes in its file's header, read
// back by calibrate and compare (issue 50).

#include "llm/llm_phase.h"

#include <optional>
#include <string>
#include <vector>

namespace rfx {

/// The settings CPU inference runs a language model at (roofline-cli measure --llm, issue 50): every
/// tensor `bits` wide (32: fp32; 16: bf16, the CPU's 16-bit arithmetic), attention as two matrix
/// products and a softmax (oneDNN 2.6 has no fused attention kernel), one device; P prompt tokens,
/// decode at context C, B sequences.
LlmSettings cpuLlmSettings(int prompt, int context, int batch, int bits);
/// The batches measure --llm runs (the CLI's --batch, the window's Tools > Measure): a batch's
/// activations and cache beside the weights stay within a desktop's memory.
inline constexpr Range kMeasureLlmBatchRange { 1, 64 };

/// What `roofline-cli measure --llm` writes after "# configuration:": the options that redo it.
std::vector<std::string> llmMeasureArgs(const std::string& model, const LlmSettings& settings);

/// What a measure --llm file's "# configuration:" line says (llmMeasureArgs written back): the model
/// and the settings it was measured at; nothing, with `error` set, when the line is not one.
struct LlmMeasureHeader {
    std::string model;
    LlmSettings settings;
};
std::optional<LlmMeasureHeader> llmMeasureHeader(const std::vector<std::string>& args, std::string& error);

} // namespace rfx
