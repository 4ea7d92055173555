#include "io/llm_measure_header.h"

#include <algorithm>
#include <cstdint>

namespace rfx {

LlmSettings cpuLlmSettings(int prompt, int context, int batch, int bits)
{
    LlmSettings s;
    s.prompt = prompt;
    s.context = context;
    // the cache sized for the generation's end, within the settings' range
    s.generate = int(std::clamp<std::int64_t>(2 * (std::int64_t(context) - prompt), 1, kGenerateRange.max));
    s.batch = batch;
    s.weightBits = bits;
    s.kvBits = bits;
    s.actBits = bits;
    s.actType = bits == 16 ? NumberType::Bf16 : NumberType::Unset;
    s.attention = LlmAttention::Naive;
    return s;
}

std::vector<std::string> llmMeasureArgs(const std::string& model, const LlmSettings& s)
{
    return { "--llm", "--model", model, "--prompt", std::to_string(s.prompt), "--context",
        std::to_string(decodeContext(s)), "--batch", std::to_string(s.batch), "--bits", std::to_string(s.actBits) };
}

std::optional<LlmMeasureHeader> llmMeasureHeader(const std::vector<std::string>& args, std::string& error)
{
    if (args.empty() || args.front() != "--llm") {
        error = "not a language model's measurement (its configuration does not start with --llm)";
        return std::nullopt;
    }
    LlmMeasureHeader h;
    int prompt = 0, context = 0, batch = 0, bits = 0;
    for (size_t i = 1; i + 1 < args.size(); i += 2) {
        const std::string& name = args[i];
        const std::string& value = args[i + 1];
        if (name == "--model") {
            h.model = value;
            continue;
        }
        int* to = name == "--prompt" ? &prompt
            : name == "--context"    ? &context
            : name == "--batch"      ? &batch
            : name == "--bits"       ? &bits
                                     : nullptr;
        std::size_t used = 0;
        int v = 0;
        try {
            v = std::stoi(value, &used);
        } catch (...) {
            used = 0;
        }
        if (!to || used != value.size() || v < 1) {
            error = "'" + name + " " + value
                + "' is not an option measure --llm writes (--model, --prompt, --context, --batch, --bits)";
            return std::nullopt;
        }
        *to = v;
    }
    if (h.model.empty() || prompt < 1 || context <= prompt || context > kPromptRange.max || batch < 1
        || batch > kLlmBatchRange.max || (bits != 32 && bits != 16)) {
        error = "its configuration lacks the model, the prompt, a context past the prompt (at most "
            + std::to_string(kPromptRange.max) + " tokens), the batch or the bits (32 or 16)";
        return std::nullopt;
    }
    h.settings = cpuLlmSettings(prompt, context, batch, bits);
    return h;
}

} // namespace rfx
