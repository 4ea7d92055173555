#pragma once

#include "llm/llm_arch.h"
#include "llm/llm_phase.h"
#include "measure/layer_bench.h"

#include <QString>

#include <optional>
#include <string>

class QWidget;

namespace rfx {

/// Tools > Measure this language model on this machine (issue 50 item 1), as roofline-cli measure
/// --llm runs it: both phases' rows of the model shown, at the window's prompt, decode context and
/// batch, run alone on this CPU with oneDNN on a worker thread behind a progress dialog that can
/// cancel, written atomically to the user's measurement folder. Returns the file written, or empty
/// (refused, cancelled: nothing written, or failed; `summary` then says why); on success `summary`
/// says how many rows ran, at which settings, and which did not run, and why.
QString measureThisLanguageModel(QWidget* parent, const LlmModel& model, const std::string& spec,
    const LlmSettings& shown, const LayerBenchOptions& options, QString* summary = nullptr);

/// The settings a CPU runs the window's at (cpuLlmSettings): its prompt, decode context and batch,
/// bf16 where its activations are 16 bits wide and this CPU has bf16 arithmetic, fp32 otherwise;
/// attention as two products and a softmax.
LlmSettings measurableLlmSettings(const LlmSettings& shown);

/// Why the window's language model cannot be measured on this CPU in words a user reads (an ONNX
/// decoder: its rows are its graph's operators; a batch past 64), or nothing.
std::optional<QString> languageModelMeasurementRefusal(const LlmModel& model, const LlmSettings& shown);

} // namespace rfx
