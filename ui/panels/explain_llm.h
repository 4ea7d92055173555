#pragma once

#include "llm/llm_analysis.h"

#include <QString>
#include <QStringList>

namespace rfx {

/// Teaching text for a language model (issue 36 item 6), with the shown analysis' own numbers.

/// What a row of the phase is in the model and why it sits where it does: a weight matrix read once
/// per step for all B sequences (decode: 2 B FLOP per weight; prefill: 2 P B), the attention reading
/// the KV cache, or an elementwise row; `row` indexes the phase's rows on `device`. Appended to the
/// layer's own Explain text.
QString explainLlmRow(const LlmAnalysis& analysis, const LlmArch& arch, LlmPhase phase, int device, int row);

/// The tour's pages for the mode, after the roofline's four: why decode sits on the slope (TPOT =
/// weights / bandwidth), what batching does (the weights' reuse, the batch that meets the ridge, the
/// largest that fits), what the KV cache costs (bytes per token, at the settings' context and batch),
/// and why prefill is compute-bound.
QStringList llmTourPages(const LlmAnalysis& analysis, const LlmArch& arch, int device);

} // namespace rfx
