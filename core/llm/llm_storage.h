#pragma once
// Internal to core/llm: how the weight files' tensor names map to a block's tensors.
#include "llm/llm_arch.h"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

namespace rfx {

/// Adds one tensor of a file to the storage: `bytes` as stored, `elements` its parameters, `type`
/// the file's word for its type. Hugging Face names (model.layers.N.self_attn.q_proj.weight,
/// transformer.h.N.attn.c_attn.weight, ...) and GGUF names (blk.N.attn_q.weight, token_embd.weight,
/// ...) both map; a bias adds to its weight's tensor. Names of neither form count in the totals only.
void addStoredTensor(LlmStorage& storage, std::string_view name, double bytes, std::int64_t elements,
    const std::string& type, int layers);

/// "Q4_K 62 %, Q6_K 24 %, F32 1 %" of the file's bytes, the largest first (the summary line).
std::string storageSummary(const std::map<std::string, double>& bytesByType, double total);

} // namespace rfx
