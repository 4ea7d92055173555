#include "io/llm_json.h"

#include "io/llm_options.h"

#include <nlohmann/json.hpp>

namespace rfx {

nlohmann::json llmWorkToJson(const LlmWork& w)
{
    return { { "model", w.model }, { "phase", llmPhaseName(w.phase) }, { "llm_args", llmSettingsToArgs(w.settings) } };
}

std::optional<LlmWork> llmWorkFromJson(const nlohmann::json& v, std::string& error)
{
    using json = nlohmann::json;
    if (!v.is_object()) {
        error = "language_model: must be an object with \"model\", \"phase\" and \"llm_args\"";
        return std::nullopt;
    }
    for (const char* key : { "model", "phase", "llm_args" })
        if (!v.contains(key)) {
            error = std::string("language_model.") + key + ": missing";
            return std::nullopt;
        }
    const json& model = v.at("model");
    const json& phase = v.at("phase");
    const json& args = v.at("llm_args");
    LlmWork w;
    if (!model.is_string() || model.get<std::string>().empty()) {
        error = "language_model.model: must be a built-in language model's id or the path of a model file";
        return std::nullopt;
    }
    w.model = model.get<std::string>();
    const auto p = phase.is_string() ? parseLlmPhase(phase.get<std::string>()) : std::nullopt;
    if (!p) {
        error = "language_model.phase: must be \"prefill\", \"decode\" or \"both\"";
        return std::nullopt;
    }
    w.phase = *p;
    if (!args.is_array()) {
        error = "language_model.llm_args: must be a list of roofline-cli llm's options";
        return std::nullopt;
    }
    std::vector<std::string> list;
    for (const json& a : args) {
        if (!a.is_string()) {
            error = "language_model.llm_args: every entry must be text (an option or its value)";
            return std::nullopt;
        }
        list.push_back(a.get<std::string>());
    }
    const auto settings = llmSettingsFromArgList(list, error);
    if (!settings) {
        error = "language_model." + error;
        return std::nullopt;
    }
    w.settings = *settings;
    return w;
}

} // namespace rfx
