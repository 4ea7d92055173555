#pragma once

#include "llm/llm_phase.h"

#include <nlohmann/json_fwd.hpp>

#include <optional>
#include <string>

namespace rfx {

/// A language model's work in a session or a figure sidecar: {"model", "phase", "llm_args"} (the
/// options of roofline-cli llm, io/llm_options.h).
nlohmann::json llmWorkToJson(const LlmWork& work);
/// Reads it back; nothing and `error` ("language_model.FIELD: reason") when it is not one.
std::optional<LlmWork> llmWorkFromJson(const nlohmann::json& value, std::string& error);

} // namespace rfx
