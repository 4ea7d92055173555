#pragma once

#include "llm/llm_analysis.h"
#include "llm/llm_arch.h"
#include "measure/layer_bench.h"

#include <string>
#include <vector>

namespace rfx {

/// The settings CPU inference runs a language model at (roofline-cli measure --llm, issue 50): every
/// tensor `bits` wide (32: fp32; 16: bf16, the CPU's 16-bit arithmetic), attention as two matrix
/// products and a softmax (oneDNN 2.6 has no fused attention kernel), one device; P prompt tokens,
/// decode at context C, B sequences.
LlmSettings cpuLlmSettings(int prompt, int context, int batch, int bits);

/// A phase's network as measureNetwork runs it: the rows whose kernel their Op does not say carry it
/// as their origin's operator (norms: SimplifiedLayerNormalization, or LayerNormalization with a
/// bias; the softmax; the rotary embedding; the residual adds; SiLU or GELU times up).
Network measurableLlmPhase(Network phase, const LlmArch& arch);

/// Both phases' rows run alone on this CPU with oneDNN (measureNetwork), named after their phase
/// ("prefill.blk0-15.q_proj", as bothPhases names the analysis' rows). A block's row stands for all
/// its blocks: one block's run times the blocks (each runs the same kernel on the same shapes).
NetworkMeasurement measureLlm(const LlmModel& model, const LlmSettings& settings, const LayerBenchOptions& options,
    const LayerBenchProgress& progress = {});

/// What `roofline-cli measure --llm` writes after "# configuration:": the options that redo it.
std::vector<std::string> llmMeasureArgs(const std::string& model, const LlmSettings& settings);

} // namespace rfx
