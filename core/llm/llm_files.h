#pragma once

#include "llm/llm_arch.h"

#include <cstdint>
#include <istream>
#include <optional>
#include <string>
#include <string_view>

namespace rfx {

/// A language model read from what the user has, without loading its weights: a built-in id, a
/// Hugging Face config.json (or a directory holding one, with the model.safetensors headers or the
/// sharded model's model.safetensors.index.json beside it for each tensor's dtype), a GGUF file
/// (its metadata and each tensor's type) or a safetensors file beside its config.json.
struct LlmLoad {
    std::optional<LlmModel> model;
    std::string error; ///< "FILE: FIELD: why; what to do"
};
LlmLoad loadLanguageModel(const std::string& spec);

/// Whether `spec` names a language model: a built-in id, a .gguf or .safetensors file, a config.json,
/// or a directory holding a config.json.
bool isLanguageModelSpec(std::string_view spec);

/// The Hugging Face model_type values the reader knows.
inline constexpr std::string_view kHfFamilies[] = { "llama", "mistral", "mixtral", "qwen2", "qwen3", "qwen3_moe",
    "phi3", "gemma2", "gemma3", "gpt_oss", "llama4", "gpt2" };

/// A GGUF stream of `size` bytes as a model (what loadLanguageModel does with a .gguf file).
LlmLoad readGgufModel(std::istream& in, std::uint64_t size, const std::string& file);

/// config.json's text as an architecture; `file` names it in messages.
LlmLoad parseHfConfig(std::string_view text, const std::string& file);

} // namespace rfx
