#pragma once

#include "llm/llm_analysis.h"

#include <string>

namespace rfx {

/// A language model's analysis (core/llm) for scripts and people: JSON (per device ttft_s, tpot_s,
/// tokens_per_s, batch_tokens_per_s, memory_bytes, weights_bytes, kv_bytes, kv_bytes_per_token, fits,
/// largest_batch, energy_per_token_j, and phases.prefill.layers[] / phases.decode.layers[] with the
/// members of analyze's rows), a table, CSV (one line per device, phase and row), Markdown and LaTeX.
std::string llmToJson(const LlmAnalysis& analysis, int indent = 2);
std::string llmToTable(const LlmAnalysis& analysis);
std::string llmToCsv(const LlmAnalysis& analysis);
std::string llmToMarkdown(const LlmAnalysis& analysis);
/// LaTeX booktabs: the devices' figures, then each phase's rows per device, captions stating the settings.
std::string llmToLatex(const LlmAnalysis& analysis);

/// "prompt 512, generate 128 (decode at context 576), batch 1; weights fp16, KV cache fp16,
/// activations fp16; FlashAttention"
std::string llmSettingsLine(const LlmAnalysis& analysis);
/// The same from the settings alone (a figure's caption): `graph` for an ONNX decoder's own graph.
std::string llmSettingsText(const LlmSettings& settings, bool graph);
/// Each tensor's precision: "weights fp16, KV cache fp16, activations fp16" (a model file's weights
/// at their own widths: "weights as in the file").
std::string llmPrecisionText(const LlmSettings& settings);

} // namespace rfx
