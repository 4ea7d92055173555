#pragma once

#include "base/diagnostic.h"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rfx {

/// The feed-forward block of a decoder: SwiGLU (gate, up, SiLU(gate) x up, down: Llama, Mistral,
/// Qwen2, Phi-3), GeGLU (the same with GELU: Gemma) or a plain GELU MLP (fc, GELU, proj: GPT-2).
enum class LlmMlp { SwiGlu, GeGlu, Gelu };
/// RMSNorm (a weight per feature) or LayerNorm (a weight and a bias per feature: GPT-2).
enum class LlmNorm { Rms, Layer };

/// A decoder-only transformer's shape: what its cost depends on, nothing of its weights' values.
/// Names follow Hugging Face's config.json (hidden_size, num_key_value_heads, ...).
struct LlmArch {
    std::string id; ///< "llama-2-7b"; a file's: its file name
    std::string title; ///< "Llama-2 7B (Meta, 2023)"
    std::string family; ///< Hugging Face model_type: llama, mistral, mixtral, qwen2, qwen3, qwen3_moe, phi3, gemma2,
                        ///< gemma3, gpt_oss, gpt2
    std::string source; ///< where the figures come from (a config.json on the Hub, a paper)
    std::int64_t publishedParams = 0; ///< the parameter count its publisher gives (0: none)
    int layers = 0; ///< num_hidden_layers
    int hidden = 0; ///< hidden_size
    int heads = 0; ///< num_attention_heads
    int kvHeads = 0; ///< num_key_value_heads: heads (multi-head), 1 (multi-query) or between (grouped-query)
    int headDim = 0; ///< head_dim (hidden / heads unless the config says)
    int ffn = 0; ///< intermediate_size (per expert for a mixture of experts)
    int vocab = 0; ///< vocab_size
    int maxContext = 0; ///< max_position_embeddings
    bool tiedEmbeddings = false; ///< the output head reuses the embedding table (no weights of its own)
    bool qkvBias = false; ///< q/k/v projections carry a bias (Qwen2, GPT-2)
    bool allBiases = false; ///< every linear layer and norm carries a bias (GPT-2)
    bool fusedQkv = false; ///< one q/k/v projection (Phi-3's qkv_proj, GPT-2's c_attn)
    bool fusedGateUp = false; ///< one gate/up projection (Phi-3's gate_up_proj)
    bool oBias = false; ///< the attention's output projection carries a bias (attention_bias: gpt-oss)
    bool learnedPositions = false; ///< a position embedding table (GPT-2) instead of rotary embeddings
    LlmMlp mlp = LlmMlp::SwiGlu;
    LlmNorm norm = LlmNorm::Rms;
    int normsPerBlock = 2; ///< 2 (before attention and MLP); Gemma-2 also normalizes after each (4)
    bool qkNorm
        = false; ///< an RMSNorm over each head's query and key before the rotary embedding (Qwen3's q_norm, k_norm)
    int experts = 0; ///< num_local_experts (num_experts: Qwen3-MoE; 0: a dense MLP)
    int expertsPerToken = 0; ///< num_experts_per_tok (top-k)
    int expertFfn = 0; ///< moe_intermediate_size: one expert's intermediate features (0: intermediate_size, Mixtral)
    int sharedExperts = 0; ///< n_shared_experts: experts every token goes through besides its top k (DeepSeek), each
                           ///< expertWidth() wide
    int denseLayers
        = 0; ///< first_k_dense_replace: the first layers keep a dense MLP of `ffn` features (DeepSeek-V3: 3)
    bool routerBias = false; ///< a bias per expert added to the router's scores (DeepSeek-V3's e_score_correction_bias,
                             ///< gpt-oss's router)
    bool expertBiases = false; ///< each expert's projections carry biases (gpt-oss)
    /// A learned logit per head that each query's softmax also normalizes against, attending to nothing
    /// (gpt-oss's sinks): one parameter per head and layer.
    bool attentionSinks = false;
    /// The publisher's checkpoint stores the routed experts at this width and the rest at 16 bits
    /// (gpt-oss: MXFP4, kMxfp4Bits): a built-in model's weights "as published". 0: none said.
    double expertBits = 0;
    /// The publisher's active count leaves the input embedding table out (a token reads one row of it;
    /// OpenAI's gpt-oss card); others count it (Qwen3, DeepSeek-V3). An untied head stays in.
    bool activeWithoutEmbedding = false;
    /// Multi-head latent attention (DeepSeek-V2, V3; arXiv:2405.04434 section 2.1): keys and values come
    /// from a latent of kvLora features per token, which is what the cache holds, with one rotary key of
    /// qkRope features shared by the heads; queries through a latent of qLora features (0: directly).
    /// Such a model has kvHeads 1 (the latent serves every head, as one key/value head would) and
    /// headDim = qkNope + qkRope, the query's and key's width per head.
    int qLora = 0; ///< q_lora_rank
    int kvLora = 0; ///< kv_lora_rank; 0: the usual attention
    int qkNope = 0; ///< qk_nope_head_dim: each head's query/key features without position
    int qkRope = 0; ///< qk_rope_head_dim: each head's rotary query features, and the shared rotary key's
    int vHeadDim = 0; ///< v_head_dim
    int slidingWindow = 0; ///< tokens a sliding-window layer attends to (0: none)
    /// Which layers slide: 1 = every layer (Mistral-7B v0.1); P > 1 = all but every P-th, counting from 1
    /// (Gemma-2: 2, local and global attention alternate, layer 0 local; Gemma-3: 6, five local layers
    /// then a global one, transformers' sliding_window_pattern).
    int slidingPeriod = 1;

    /// The local layers attend within chunks of slidingWindow tokens (Llama 4's attention_chunk_size: a
    /// token sees those of its own chunk before it) rather than over the last slidingWindow tokens.
    bool chunkedAttention = false;
    /// Every moeStep-th layer, counting from 1, is a mixture of experts, the others a dense MLP of ffn
    /// features (Llama 4 Maverick: interleave_moe_layer_step 2; 1: every layer past denseLayers).
    int moeStep = 1;

    bool slides(int layer) const
    {
        return slidingWindow > 0 && (slidingPeriod <= 1 || (layer + 1) % slidingPeriod != 0);
    }
    /// One expert's intermediate features.
    int expertWidth() const { return expertFfn > 0 ? expertFfn : ffn; }
    /// Layer `layer` routes its tokens to experts (a mixture past the first denseLayers layers).
    bool moe(int layer) const { return experts > 0 && layer >= denseLayers && (layer + 1) % std::max(1, moeStep) == 0; }
    bool latent() const { return kvLora > 0; }
    /// What one token adds to one layer's KV cache, elements: a key and a value per KV head, or the
    /// latent and the rotary key (DeepSeek-V3: 512 + 64 = 576, against 2 x 128 x 192 for its heads).
    double kvElementsPerToken() const { return latent() ? double(kvLora + qkRope) : 2.0 * kvHeads * headDim; }
};

/// The weight tensors of one block a file may store at its own width, and the model's outside them.
enum class LlmTensor {
    AttnNorm,
    Q,
    K,
    V,
    Qkv,
    O,
    PostAttnNorm,
    MlpNorm,
    Gate,
    Up,
    GateUp,
    Down,
    PostMlpNorm,
    Router,
    ExpertGate,
    ExpertUp,
    ExpertDown,
    QNorm,
    KNorm,
    QA,
    QANorm,
    QB,
    KvA,
    KvANorm,
    KvB,
    SharedGate,
    SharedUp,
    SharedDown,
    Sinks,
    Count
};
inline constexpr int kLlmTensorCount = int(LlmTensor::Count);
std::string_view llmTensorName(LlmTensor t); ///< "attn_norm", "q_proj", ...

/// What a weight file says of how its tensors are stored: each tensor's bytes and type, -1 where not given.
struct LlmTensorBytes {
    double bytes = -1;
    std::string type; ///< "Q4_K", "BF16"
};
struct LlmStorage {
    std::vector<std::array<LlmTensorBytes, kLlmTensorCount>> blocks; ///< per layer
    LlmTensorBytes embedding, positions, finalNorm, head;
    double totalBytes = 0; ///< every tensor of the file, byte
    std::int64_t totalParams = 0; ///< every tensor's elements
    std::string summary; ///< "Q4_K 62 %, Q6_K 24 %, F32 ..." of the weights' bytes
    std::string kvType; ///< unused by files today: the KV cache's precision comes from the settings
};

/// A language model to analyse: its shape, and where a file gave them, its tensors' storage.
class OnnxModel;

struct LlmModel {
    LlmArch arch;
    std::optional<LlmStorage> storage; ///< from a GGUF or safetensors file; none for a config alone
    /// An ONNX decoder (core/llm/llm_onnx.h): its phases are the file's graph, not the rows of `arch`,
    /// which then holds what the file says of the cache (layers, KV heads, head size) and the context.
    std::shared_ptr<const OnnxModel> onnx;
    std::string file; ///< the file or directory it was read from (empty for a built-in)
    std::vector<Diagnostic> diagnostics; ///< warnings from reading it
};

/// The parameter count of a model as the formula of DESIGN.md "Language models" gives it:
/// embedding V h (+ positions max_ctx h) + L x block + final norm (+ head V h unless tied);
/// block = q h (H d) + k, v h (Hkv d) each + o (H d) h (+ biases) + MLP + norms (h, or 2 h with biases);
/// MLP: SwiGLU/GeGLU 3 h f, GELU 2 h f (+ f + h biases); mixture of experts: E x 3 h f_e + router h E;
/// query and key norms (qkNorm): 2 d.
std::int64_t llmParameterCount(const LlmArch& arch);
/// The parameters one token computes with: the count above with k of a mixture's E experts
/// (Qwen3-30B-A3B: 3.3 B of 30.5 B). The same as llmParameterCount for a dense model.
std::int64_t llmActiveParameterCount(const LlmArch& arch);

/// Checks the shape: positive sizes within limits, heads dividing into the KV heads, top-k <= experts.
/// Returns a message naming the field (Hugging Face's key), or nothing.
std::optional<std::string> validateArch(const LlmArch& arch);

/// The built-in decoder-only models, each with its source and published parameter count:
/// gpt2, llama-2-7b, llama-2-13b, llama-2-70b, llama-3.1-8b, llama-3.1-70b, llama-3.1-405b,
/// mistral-7b, mixtral-8x7b, qwen2.5-7b, qwen2.5-72b, qwen3-8b, qwen3-30b-a3b, qwen3-235b-a22b, deepseek-v3,
/// phi-3-mini, gemma-2-9b.
const std::vector<LlmArch>& builtinLanguageModels();
/// The family a model belongs to as a reader names it, by Hugging Face's model_type: "Llama (Meta)",
/// "Mistral (Mistral AI)" for mistral and mixtral, "Qwen (Alibaba)", "DeepSeek", ...; the
/// model_type itself where unknown. The window's Network list groups the built-ins under these.
std::string llmFamilyName(std::string_view family);
const LlmArch* findLanguageModel(std::string_view id);

} // namespace rfx
