#pragma once

#include "llm/llm_files.h"
#include "llm/llm_phase.h"

#include <string>

namespace rfx {

/// An ONNX decoder with past keys and values as a language model (the "ONNX Runtime GenAI style"
/// and Optimum's exports): its layers, KV heads and head size from the past inputs, the context it was
/// trained for from genai_config.json or config.json beside it (0 where neither says). A model without
/// past inputs, or with the cache's or the new tokens' extent fixed, is an error saying what to do.
LlmLoad readOnnxDecoder(const std::string& path);

/// One phase of an ONNX decoder: the file's graph at B sequences of P new tokens over nothing cached
/// (prefill) or one new token over C - 1 cached (a decode step at context C), every tensor at the width
/// the file stores it; the weights' bytes the file's (OnnxModel::weightBytes). One GPU only.
LlmPhaseBuild buildOnnxPhase(const LlmModel& model, const LlmSettings& settings, LlmPhase phase, int context);

bool isOnnxLanguageModel(const LlmModel& model);

} // namespace rfx
