#include "llm/llm_rows.h"

#include <string>

namespace rfx {

LlmRowKind llmRowKind(const Layer& row)
{
    const std::string& n = row.name;
    const size_t dot = n.rfind('.');
    const std::string_view last = dot == std::string::npos ? std::string_view(n) : std::string_view(n).substr(dot + 1);
    const bool expert = n.find("experts.") != std::string::npos; // routed (".experts.") or shared ("shared_experts.")
    if (last == "embedding")
        return LlmRowKind::Gather;
    if (last.ends_with("norm"))
        return LlmRowKind::Norm;
    // q_absorb, v_absorb: latent attention's decode step through kv_b_proj's two halves
    if (last.ends_with("_proj") || last.ends_with("_absorb") || last == "fc" || last == "proj" || last == "lm_head"
        || last == "router")
        return LlmRowKind::Matrix;
    if (last == "rope")
        return LlmRowKind::Rope;
    if (last == "kv_cache_write")
        return LlmRowKind::CacheWrite;
    if (last == "attention")
        return LlmRowKind::Attention;
    if (last == "attn_scores")
        return LlmRowKind::Scores;
    if (last == "attn_softmax")
        return LlmRowKind::Softmax;
    if (last == "attn_context")
        return LlmRowKind::Context;
    if (last.ends_with("residual") || last == "position_embedding")
        return LlmRowKind::Residual;
    if (last == "act_mul" || (expert && last == "act"))
        return LlmRowKind::GatedActivation;
    if (last == "gelu")
        return LlmRowKind::Activation;
    if (expert && last == "combine")
        return LlmRowKind::Combine;
    return LlmRowKind::Unknown;
}

} // namespace rfx
