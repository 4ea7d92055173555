#pragma once

#include "devices/device.h"
#include "engine/roofline.h"
#include "llm/llm_phase.h"

#include <optional>
#include <string>
#include <vector>

namespace rfx {

/// One device's figures for a language model (DESIGN.md "Language models"). Every time is the
/// roofline's bound (the best case) unless the analysis is calibrated.
struct LlmDeviceFigures {
    std::string device; ///< its id
    double ttft = 0; ///< prefill of P tokens for B sequences (with its collectives over the link), second
    double tpot = 0; ///< one decode step at context C (with its collectives over the link), second
    double prefillLinkTime = 0; ///< tensor parallel: the prefill's all-reduces over the link, second
    double decodeLinkTime = 0; ///< tensor parallel: one decode step's all-reduces over the link, second
    double tokensPerSecond = 0; ///< per sequence: 1 / TPOT
    double batchTokensPerSecond = 0; ///< B / TPOT
    double generationTime = 0; ///< TTFT + the G decode steps over the growing context P+1 .. P+G, second
    // memory is one GPU's (all of it on one GPU; its share under tensor parallelism)
    double weightsBytes = 0; ///< byte
    double kvBytes = 0; ///< the cache of B sequences of P + G tokens, byte
    double kvBytesPerToken = 0; ///< one token of one sequence, all layers, on one GPU, byte
    double activationBytes = 0; ///< the largest row's activations in prefill, byte
    double memoryBytes = 0; ///< weights + KV cache + activations, byte
    double capacity = 0; ///< the device's memory, byte
    bool fits = false;
    std::int64_t largestBatch = 0; ///< the most sequences of P + G tokens that fit (0: not one)
    std::int64_t largestContext = 0; ///< the most tokens per sequence that fit at batch B (0: not one)
    bool contextLimitedByModel = false; ///< largestContext is the model's max_position_embeddings
    double energyPerToken = 0; ///< one decode step's energy on all GPUs / B, joule
};

struct LlmAnalysis {
    LlmSettings settings;
    int context = 0; ///< the decode context TPOT is quoted at
    std::string model; ///< the model's title
    std::int64_t parameters = 0; ///< the model's parameters (every expert, a tied head once), all GPUs
    /// Those one token computes with: k of a mixture's E experts (Qwen3-30B-A3B: 3.3 B of 30.5 B); the
    /// count above for a dense model or a graph.
    std::int64_t activeParameters = 0;
    int experts = 0, expertsPerToken = 0; ///< the mixture's (0: dense)
    /// The phases are an ONNX decoder's own graph (its operators, its tensors' widths), not the model's rows.
    bool graph = false;
    /// A built-in model's weights as its publisher's checkpoint stores them (gpt-oss's MXFP4 experts),
    /// where the settings say "as in the file".
    bool published = false;
    std::string linkName; ///< tensor parallel: the interconnect's name and bandwidth, else empty
    Report prefill;
    Report decode;
    std::vector<LlmDeviceFigures> figures; ///< in device order
    std::vector<Diagnostic> notes;
};

struct LlmOutcome {
    std::optional<LlmAnalysis> analysis;
    std::string error;
};

/// Builds both phases and holds them against each device: TTFT = the prefill's time, TPOT = a decode
/// step's time at context C; the generation's decode time is integrated over the growing context by
/// the trapezoid rule over at most 17 contexts (every step where G <= 17).
/// Memory: weights + B x KV cache(P + G) + the largest activation; the largest batch and context that
/// fit solve that sum against the device's memory (the KV cache is linear in the batch and, per layer,
/// in min(context, window)).
/// `generation` false: generationTime is left 0 and its decode steps not analysed (the window, which
/// shows TTFT, TPOT and tokens per second, saves the 17 decode analyses of a slider step).
LlmOutcome analyzeLlm(
    const LlmModel& model, const LlmSettings& settings, const std::vector<Device>& devices, bool generation = true);

/// The configuration an LLM phase is analysed under: the activations' bits, each row's own width
/// (Config::bitsAsInFile), tensor cores where the device has them.
Config llmConfig(const LlmSettings& settings);

} // namespace rfx
