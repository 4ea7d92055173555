#pragma once

#include "io/options.h"
#include "llm/llm_phase.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace rfx {

/// The language-model options shared by `roofline-cli llm`, sessions and figures: --prompt, --generate,
/// --context, --batch, --weights-bits, --kv-bits, --act-bits, --attention, --all-logits, --tp,
/// --interconnect ("--name value" and "--name=value", as the configuration's options).
struct LlmOptions {
    LlmSettings settings;
    bool weightsGiven = false; ///< --weights-bits was given (a weight file's own types otherwise)
    /// The options given that an ONNX decoder's own graph overrides (--weights-bits, --kv-bits, --attention).
    std::vector<std::string> widthOptions;
};

/// Applies args[i] (and its value) to `options`, as applyConfigOption does.
OptionStatus applyLlmOption(
    const std::vector<std::string>& args, std::size_t& i, LlmOptions& options, std::string& error);

/// The arguments that give `settings` back through applyLlmOption (every option, defaults included).
std::vector<std::string> llmSettingsToArgs(const LlmSettings& settings);

/// Settings stored as their argument list (sessions, figure sidecars): parsed and checked, or nothing
/// and `error` prefixed with "llm_args: ".
std::optional<LlmSettings> llmSettingsFromArgList(const std::vector<std::string>& args, std::string& error);

/// A latency: "1s", "500ms", "250us" or seconds ("0.05") -> seconds; nothing for anything else or a
/// time not above 0 (plan's --ttft and --tpot, a serving figure's targets).
std::optional<double> parseDuration(const std::string& text);

/// "prefill" or "decode" -> the phase; nothing for any other word.
std::optional<LlmPhase> parseLlmPhase(const std::string& word);

} // namespace rfx
