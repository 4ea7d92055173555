#include "llm/llm_arch.h"

#include "llm/llm_phase.h"

#include <algorithm>

namespace rfx {

std::string_view llmTensorName(LlmTensor t)
{
    static constexpr std::string_view names[]
        = { "attn_norm", "q_proj", "k_proj", "v_proj", "qkv_proj", "o_proj", "post_attn_norm", "mlp_norm", "gate_proj",
              "up_proj", "gate_up_proj", "down_proj", "post_mlp_norm", "router", "experts.gate_proj", "experts.up_proj",
              "experts.down_proj", "q_norm", "k_norm", "q_a_proj", "q_a_norm", "q_b_proj", "kv_a_proj", "kv_a_norm",
              "kv_b_proj", "shared_experts.gate_proj", "shared_experts.up_proj", "shared_experts.down_proj", "sinks" };
    static_assert(std::size(names) == kLlmTensorCount);
    return names[int(t)];
}

namespace {

std::int64_t parameters(const LlmArch& a, int expertsCounted)
{
    using I = std::int64_t;
    const I h = a.hidden, q = I(a.heads) * a.headDim, kv = I(a.kvHeads) * a.headDim, f = a.ffn;
    const I norm = a.norm == LlmNorm::Layer || a.allBiases ? 2 * h : h;
    I attn = h * q + 2 * h * kv + q * h;
    if (a.latent()) {
        // queries: h -> qLora, its norm, qLora -> H (nope + rope); or h -> H (nope + rope). Keys and
        // values: h -> kvLora + rope, the latent's norm, kvLora -> H (nope + v); output H v -> h.
        const I H = a.heads, qk = I(a.qkNope) + a.qkRope;
        attn = (a.qLora > 0 ? h * a.qLora + a.qLora + I(a.qLora) * H * qk : h * H * qk) + h * (I(a.kvLora) + a.qkRope)
            + a.kvLora + I(a.kvLora) * H * (I(a.qkNope) + a.vHeadDim) + H * a.vHeadDim * h;
    }
    if (a.qkvBias || a.allBiases)
        attn += q + 2 * kv;
    if (a.allBiases || a.oBias)
        attn += h;
    if (a.attentionSinks)
        attn += a.heads;
    if (a.qkNorm)
        attn += 2 * I(a.headDim);
    const I matrices = a.mlp == LlmMlp::Gelu ? 2 : 3;
    const I dense = matrices * h * f + (a.allBiases ? f + h : 0);
    // a mixture: the experts counted, the shared ones, the router (and its bias per expert)
    const I fe = a.expertWidth(), expertBias = a.expertBiases ? (matrices - 1) * fe + h : 0; // gate, up: f_e; down: h
    const I moe = (matrices * h * fe) * (I(expertsCounted) + a.sharedExperts) + expertBias * expertsCounted
        + h * a.experts + (a.routerBias ? a.experts : 0);
    I moeLayers = 0;
    for (int l = 0; l < a.layers; ++l)
        moeLayers += a.moe(l) ? 1 : 0;
    const I common = attn + a.normsPerBlock * norm;
    I total = I(a.vocab) * h + I(a.layers) * common + (I(a.layers) - moeLayers) * dense + moeLayers * moe + norm;
    if (a.learnedPositions)
        total += I(a.maxContext) * h;
    if (!a.tiedEmbeddings)
        total += I(a.vocab) * h;
    return total;
}

} // namespace

std::int64_t llmParameterCount(const LlmArch& a) { return parameters(a, a.experts); }

std::int64_t llmActiveParameterCount(const LlmArch& a)
{
    const std::int64_t active = parameters(a, a.expertsPerToken);
    return a.activeWithoutEmbedding && !a.tiedEmbeddings ? active - std::int64_t(a.vocab) * a.hidden : active;
}

std::optional<std::string> validateArch(const LlmArch& a)
{
    struct Field {
        const char* key;
        int value;
        int max;
    };
    const Field fields[] = { { "num_hidden_layers", a.layers, 1024 }, { "hidden_size", a.hidden, 1 << 20 },
        { "num_attention_heads", a.heads, 4096 }, { "num_key_value_heads", a.kvHeads, 4096 },
        { "head_dim", a.headDim, 65536 }, { "intermediate_size", a.ffn, 1 << 22 }, { "vocab_size", a.vocab, 1 << 24 },
        { "max_position_embeddings", a.maxContext, 1 << 26 } };
    for (const Field& f : fields)
        if (f.value < 1 || f.value > f.max)
            return std::string(f.key) + ": must be a whole number from 1 to " + std::to_string(f.max) + ", got "
                + std::to_string(f.value);
    if (a.heads % a.kvHeads != 0)
        return "num_key_value_heads: " + std::to_string(a.kvHeads) + " does not divide num_attention_heads ("
            + std::to_string(a.heads) + "); each key/value head serves a whole group of query heads";
    if (a.experts < 0 || a.experts > 4096)
        return "num_local_experts: must be a whole number from 0 to 4096, got " + std::to_string(a.experts);
    if (a.experts > 0 && (a.expertsPerToken < 1 || a.expertsPerToken > a.experts))
        return "num_experts_per_tok: must be from 1 to the number of experts (num_local_experts or num_experts: "
            + std::to_string(a.experts) + "), got " + std::to_string(a.expertsPerToken);
    if (a.experts > 0 && (a.expertFfn < 0 || a.expertFfn > (1 << 22)))
        return "moe_intermediate_size: must be a whole number from 1 to " + std::to_string(1 << 22) + ", got "
            + std::to_string(a.expertFfn);
    if (a.slidingWindow < 0)
        return "sliding_window: must be 0 or more tokens, got " + std::to_string(a.slidingWindow);
    if (a.sharedExperts < 0 || a.sharedExperts > 64)
        return "n_shared_experts: must be a whole number from 0 to 64, got " + std::to_string(a.sharedExperts);
    if (a.moeStep < 1 || a.moeStep > a.layers)
        return "interleave_moe_layer_step: must be from 1 to num_hidden_layers (" + std::to_string(a.layers) + "), got "
            + std::to_string(a.moeStep);
    if (a.denseLayers < 0 || a.denseLayers > a.layers)
        return "first_k_dense_replace: must be from 0 to num_hidden_layers (" + std::to_string(a.layers) + "), got "
            + std::to_string(a.denseLayers);
    if (a.latent()) {
        const Field latent[] = { { "kv_lora_rank", a.kvLora, 1 << 16 }, { "qk_nope_head_dim", a.qkNope, 4096 },
            { "qk_rope_head_dim", a.qkRope, 4096 }, { "v_head_dim", a.vHeadDim, 4096 } };
        for (const Field& f : latent)
            if (f.value < 1 || f.value > f.max)
                return std::string(f.key) + ": must be a whole number from 1 to " + std::to_string(f.max)
                    + " for latent attention, got " + std::to_string(f.value);
        if (a.qLora < 0 || a.qLora > (1 << 16))
            return "q_lora_rank: must be 0 (none) or a whole number up to " + std::to_string(1 << 16) + ", got "
                + std::to_string(a.qLora);
    }
    return std::nullopt;
}

std::string llmFamilyName(std::string_view family)
{
    struct Name {
        std::string_view prefix, name;
    };
    static constexpr Name names[]
        = { { "llama", "Llama (Meta)" }, { "mistral", "Mistral (Mistral AI)" }, { "mixtral", "Mistral (Mistral AI)" },
              { "qwen", "Qwen (Alibaba)" }, { "deepseek", "DeepSeek" }, { "phi", "Phi (Microsoft)" },
              { "gemma", "Gemma (Google)" }, { "gpt_oss", "gpt-oss (OpenAI)" }, { "gpt2", "GPT-2 (OpenAI)" } };
    for (const Name& n : names)
        if (family.starts_with(n.prefix))
            return std::string(n.name);
    return std::string(family);
}

const LlmArch* findLanguageModel(std::string_view id)
{
    for (const LlmArch& a : builtinLanguageModels())
        if (a.id == id)
            return &a;
    return nullptr;
}

} // namespace rfx
