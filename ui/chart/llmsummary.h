#pragma once

#include "llm/llm_analysis.h"

#include <QString>

#include <vector>

namespace rfx {

struct LlmMeasuredGroup; // measure/llm_measure.h

/// A device's figures for a language model as the summary under its chart (issue 36): TTFT and TPOT
/// (at the decode context), tokens per second per sequence and for the batch, memory against the
/// device's (weights, KV cache, activations) with "does not fit" and the largest batch and context
/// that fit, and the verdict of the phase shown. The summaries' few tags (SummaryLayout reads them).
/// Where the analysis is calibrated (its phases' calibrated totals), a line of the calibrated TTFT and
/// TPOT; where `measured` gives this device's measured phases (measuredByPhase), a line of them
/// beside the calibrated prediction and its error, or the share of the bound reached.
QString llmSummaryHtml(const LlmAnalysis& analysis, size_t device, LlmPhase shown,
    const std::vector<LlmMeasuredGroup>* measured = nullptr);
/// The same in one line, for a window short of height: TTFT, TPOT, tokens per second, does it fit.
QString llmSummaryHeadline(const LlmAnalysis& analysis, size_t device);

} // namespace rfx
