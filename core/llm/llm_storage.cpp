#include "llm/llm_storage.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <vector>

namespace rfx {

namespace {

struct Suffix {
    std::string_view name;
    LlmTensor role;
};

// Hugging Face (llama-style, Phi-3, Gemma-2, Mixtral, GPT-2) and GGUF (llama.cpp) names of a block's tensors.
constexpr Suffix kSuffixes[] = {
    { "input_layernorm", LlmTensor::AttnNorm },
    { "self_attn.q_proj", LlmTensor::Q },
    { "self_attn.k_proj", LlmTensor::K },
    { "self_attn.v_proj", LlmTensor::V },
    { "self_attn.qkv_proj", LlmTensor::Qkv },
    { "self_attn.o_proj", LlmTensor::O },
    { "pre_feedforward_layernorm", LlmTensor::MlpNorm },
    { "post_feedforward_layernorm", LlmTensor::PostMlpNorm },
    { "mlp.gate_proj", LlmTensor::Gate },
    { "mlp.up_proj", LlmTensor::Up },
    { "mlp.gate_up_proj", LlmTensor::GateUp },
    { "mlp.down_proj", LlmTensor::Down },
    { "block_sparse_moe.gate", LlmTensor::Router },
    { "self_attn.q_norm", LlmTensor::QNorm },
    { "self_attn.k_norm", LlmTensor::KNorm },
    { "mlp.gate", LlmTensor::Router },
    { "self_attn.sinks", LlmTensor::Sinks },
    { "mlp.router", LlmTensor::Router },
    { "attn_sinks", LlmTensor::Sinks },
    { "ln_1", LlmTensor::AttnNorm },
    { "attn.c_attn", LlmTensor::Qkv },
    { "attn.c_proj", LlmTensor::O },
    { "ln_2", LlmTensor::MlpNorm },
    { "mlp.c_fc", LlmTensor::Up },
    { "mlp.c_proj", LlmTensor::Down },
    // GGUF
    { "attn_norm", LlmTensor::AttnNorm },
    { "attn_q", LlmTensor::Q },
    { "attn_k", LlmTensor::K },
    { "attn_v", LlmTensor::V },
    { "attn_qkv", LlmTensor::Qkv },
    { "attn_output", LlmTensor::O },
    { "post_attention_norm", LlmTensor::PostAttnNorm },
    { "attn_post_norm", LlmTensor::PostAttnNorm },
    { "ffn_norm", LlmTensor::MlpNorm },
    { "post_ffw_norm", LlmTensor::PostMlpNorm },
    { "ffn_gate", LlmTensor::Gate },
    { "ffn_up", LlmTensor::Up },
    { "ffn_down", LlmTensor::Down },
    { "ffn_gate_inp", LlmTensor::Router },
    { "ffn_gate_exps", LlmTensor::ExpertGate },
    { "ffn_up_exps", LlmTensor::ExpertUp },
    { "ffn_down_exps", LlmTensor::ExpertDown },
    { "attn_q_norm", LlmTensor::QNorm },
    { "attn_k_norm", LlmTensor::KNorm },
    // DeepSeek's latent attention and shared experts: Hugging Face's names, then llama.cpp's (deepseek2,
    // whose newer conversions split kv_b into its key and value halves)
    { "self_attn.q_a_proj", LlmTensor::QA },
    { "self_attn.q_a_layernorm", LlmTensor::QANorm },
    { "self_attn.q_b_proj", LlmTensor::QB },
    { "self_attn.kv_a_proj_with_mqa", LlmTensor::KvA },
    { "self_attn.kv_a_layernorm", LlmTensor::KvANorm },
    { "self_attn.kv_b_proj", LlmTensor::KvB },
    { "mlp.shared_experts.gate_proj", LlmTensor::SharedGate },
    { "mlp.shared_experts.up_proj", LlmTensor::SharedUp },
    { "mlp.shared_experts.down_proj", LlmTensor::SharedDown },
    { "mlp.gate.e_score_correction_bias", LlmTensor::Router },
    { "attn_q_a", LlmTensor::QA },
    { "attn_q_a_norm", LlmTensor::QANorm },
    { "attn_q_b", LlmTensor::QB },
    { "attn_kv_a_mqa", LlmTensor::KvA },
    { "attn_kv_a_norm", LlmTensor::KvANorm },
    { "attn_kv_b", LlmTensor::KvB },
    { "attn_k_b", LlmTensor::KvB },
    { "attn_v_b", LlmTensor::KvB },
    { "ffn_gate_shexp", LlmTensor::SharedGate },
    { "ffn_up_shexp", LlmTensor::SharedUp },
    { "ffn_down_shexp", LlmTensor::SharedDown },
    { "exp_probs_b", LlmTensor::Router },
};

void add(LlmTensorBytes& t, double bytes, const std::string& type)
{
    t.bytes = std::max(0.0, t.bytes) + bytes;
    if (t.type.empty())
        t.type = type;
}

/// "model.layers.12.mlp.up_proj.weight" -> 12 and "mlp.up_proj"; -1 when the name has no block number.
int blockOf(std::string_view name, std::string_view& rest)
{
    for (std::string_view lead : { "model.layers.", "transformer.h.", "h.", "blk.", "layers." }) {
        if (!name.starts_with(lead))
            continue;
        name.remove_prefix(lead.size());
        int n = 0;
        size_t i = 0;
        while (i < name.size() && i < 6 && name[i] >= '0' && name[i] <= '9')
            n = n * 10 + (name[i++] - '0');
        if (i == 0 || i >= name.size() || name[i] != '.')
            return -1;
        rest = name.substr(i + 1);
        return n;
    }
    return -1;
}

} // namespace

void addStoredTensor(
    LlmStorage& s, std::string_view name, double bytes, std::int64_t elements, const std::string& type, int layers)
{
    // Gemma 3's multimodal checkpoints: the text decoder under language_model. (transformers 4.50) or
    // model.language_model. (4.52 on), the vision encoder and its projector beside it, not the decoder's
    std::string renamed;
    for (std::string_view lead : { "language_model.model.", "model.language_model." })
        if (name.starts_with(lead)) {
            renamed = "model." + std::string(name.substr(lead.size()));
            name = renamed;
        }
    if (name.starts_with("language_model.lm_head"))
        name.remove_prefix(std::string_view("language_model.").size());
    if (name.starts_with("vision_tower.") || name.starts_with("multi_modal_projector."))
        return;
    s.totalBytes += bytes;
    s.totalParams += elements;
    for (std::string_view tail : { ".weight", ".bias" })
        if (name.ends_with(tail)) {
            name.remove_suffix(tail.size());
            break;
        }
    std::string_view rest;
    const int block = blockOf(name, rest);
    if (block >= 0) {
        if (block >= layers || block > 4095)
            return;
        if (s.blocks.size() < size_t(layers))
            s.blocks.resize(size_t(layers));
        // gpt-oss's experts, all of a layer in one tensor: gate and up fused (mlp.experts.gate_up_proj, in
        // MXFP4 as _blocks and _scales, its _bias), half each; down_proj
        if (rest.starts_with("mlp.experts.gate_up_proj")) {
            add(s.blocks[size_t(block)][size_t(int(LlmTensor::ExpertGate))], bytes / 2, type);
            add(s.blocks[size_t(block)][size_t(int(LlmTensor::ExpertUp))], bytes / 2, type);
            return;
        }
        if (rest.starts_with("mlp.experts.down_proj")) {
            add(s.blocks[size_t(block)][size_t(int(LlmTensor::ExpertDown))], bytes, type);
            return;
        }
        // Mixtral's experts: block_sparse_moe.experts.E.w1 (gate), w3 (up), w2 (down); Qwen3-MoE's:
        // mlp.experts.E.gate_proj, up_proj, down_proj
        if (rest.starts_with("block_sparse_moe.experts.") || rest.starts_with("mlp.experts.")) {
            const LlmTensor role = rest.ends_with(".w1") || rest.ends_with(".gate_proj") ? LlmTensor::ExpertGate
                : rest.ends_with(".w3") || rest.ends_with(".up_proj")                    ? LlmTensor::ExpertUp
                : rest.ends_with(".w2") || rest.ends_with(".down_proj")                  ? LlmTensor::ExpertDown
                                                                                         : LlmTensor::Count;
            if (role != LlmTensor::Count)
                add(s.blocks[size_t(block)][size_t(int(role))], bytes, type);
            return;
        }
        // Llama's post_attention_layernorm is its MLP norm; Gemma-2's (which has pre_feedforward_layernorm) follows
        // attention
        if (rest == "post_attention_layernorm") {
            auto& b = s.blocks[size_t(block)];
            add(b[size_t(int(LlmTensor::MlpNorm))], bytes, type);
            return;
        }
        for (const Suffix& x : kSuffixes)
            if (rest == x.name) {
                add(s.blocks[size_t(block)][size_t(int(x.role))], bytes, type);
                return;
            }
        return;
    }
    if (name == "model.embed_tokens" || name == "transformer.wte" || name == "wte" || name == "token_embd")
        add(s.embedding, bytes, type);
    else if (name == "transformer.wpe" || name == "wpe" || name == "position_embd")
        add(s.positions, bytes, type);
    else if (name == "model.norm" || name == "transformer.ln_f" || name == "ln_f" || name == "output_norm")
        add(s.finalNorm, bytes, type);
    else if (name == "lm_head" || name == "output")
        add(s.head, bytes, type);
}

std::string storageSummary(const std::map<std::string, double>& byType, double total)
{
    std::vector<std::pair<double, std::string>> v;
    for (const auto& [t, b] : byType)
        v.emplace_back(b, t);
    std::sort(v.rbegin(), v.rend());
    std::string s;
    for (const auto& [b, t] : v) {
        if (!s.empty())
            s += ", ";
        char pct[32];
        const double p = total > 0 ? 100 * b / total : 0;
        std::snprintf(pct, sizeof pct, p < 1 ? "%.1f %%" : "%.0f %%", p);
        s += t + " " + pct;
    }
    return s;
}

} // namespace rfx
