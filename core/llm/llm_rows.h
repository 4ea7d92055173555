#pragma once

#include "model/network.h"

#include <string_view>

namespace rfx {

/// What a language model's row is (core/llm/llm_phase.cpp names each row by its part of the block):
/// the kernel a CPU or GPU runs it with, and the class a calibration fits it in.
enum class LlmRowKind {
    Gather, ///< the embedding's rows for the tokens
    Norm, ///< RMS or layer norm (attn_norm, mlp_norm, final_norm, Gemma's post norms)
    Matrix, ///< a weight matrix times the tokens (projections, the MLP, the head, the router, experts)
    Rope, ///< the rotary embedding of q and k
    CacheWrite, ///< the new keys and values into the cache
    Attention, ///< FlashAttention: one fused kernel
    Scores, ///< naive attention: Q K^T
    Softmax, ///< naive attention: the scores' softmax
    Context, ///< naive attention: the probabilities times V
    Residual, ///< an add of two tensors (the residuals, a learned position's row)
    GatedActivation, ///< SiLU(gate) x up, or GELU(gate) x up
    Activation, ///< GELU alone (GPT-2's MLP)
    Combine, ///< a mixture of experts' weighted sum of its experts' outputs
    Unknown, ///< not a row the builder makes (an ONNX decoder's own rows)
};
inline constexpr EnumWord<LlmRowKind> kLlmRowKindWords[] = { { LlmRowKind::Gather, "gather" },
    { LlmRowKind::Norm, "norm" }, { LlmRowKind::Matrix, "matrix" }, { LlmRowKind::Rope, "rope" },
    { LlmRowKind::CacheWrite, "cache_write" }, { LlmRowKind::Attention, "attention" }, { LlmRowKind::Scores, "scores" },
    { LlmRowKind::Softmax, "softmax" }, { LlmRowKind::Context, "context" }, { LlmRowKind::Residual, "residual" },
    { LlmRowKind::GatedActivation, "gated_activation" }, { LlmRowKind::Activation, "activation" },
    { LlmRowKind::Combine, "combine" }, { LlmRowKind::Unknown, "unknown" } };

/// The kind of a row of buildLlmPhase's, from its name's last part ("blk0-31.q_proj": q_proj).
LlmRowKind llmRowKind(const Layer& row);

} // namespace rfx
