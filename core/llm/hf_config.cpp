// Hugging Face config.json: the keys of the llama, mistral, mixtral, qwen2, qwen3, qwen3_moe, deepseek_v2, deepseek_v3,
// phi3, gemma2, gemma3, gpt_oss, llama4 and gpt2 families (transformers' configuration classes name them; their
// defaults are transformers').
#include "llm/llm_files.h"
#include "llm/llm_phase.h"

#include "base/json_error.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>

namespace rfx {

namespace {

using json = nlohmann::json;

struct Reader {
    const json& j;
    const std::string& file;
    std::string error;

    /// A whole-number field; `fallback` when absent or null (-1: required).
    int integer(const char* key, long long fallback = -1)
    {
        if (!error.empty())
            return 0;
        const auto it = j.find(key);
        if (it == j.end() || it->is_null()) {
            if (fallback < 0)
                error = file + ": " + key + ": missing; a " + family()
                    + " config.json gives it (copy the model's config.json from its Hub page)";
            return int(std::max(0LL, fallback));
        }
        if (!it->is_number_integer()
            && !(it->is_number_float() && it->get<double>() == std::floor(it->get<double>()))) {
            error = file + ": " + key + ": must be a whole number, got " + it->dump();
            return 0;
        }
        const double v = it->get<double>();
        if (v < 0 || v > 2e9) {
            error = file + ": " + key + ": must be a whole number from 0 to 2,000,000,000, got " + it->dump();
            return 0;
        }
        return int(v);
    }
    bool boolean(const char* key, bool fallback)
    {
        const auto it = j.find(key);
        if (it == j.end() || it->is_null())
            return fallback;
        if (!it->is_boolean()) {
            if (error.empty())
                error = file + ": " + key + ": must be true or false, got " + it->dump();
            return fallback;
        }
        return it->get<bool>();
    }
    std::string family() const
    {
        const auto it = j.find("model_type");
        return it != j.end() && it->is_string() ? it->get<std::string>() : "model";
    }
};

/// Gemma 3's, gpt-oss's and Llama 4's local and global layers: every sliding_window_pattern-th layer global
/// (`pattern` when the file says neither: Gemma 3's 6, gpt-oss's 2, Llama 4's 4), or as layer_types lists
/// them ("sliding_attention" or "chunked_attention", "full_attention"; newer transformers), which must then
/// repeat with one period, the full layer last. 0: no layer is local.
int slidingPeriod(Reader& r, const json& j, int pattern)
{
    const auto types = j.find("layer_types");
    if (types == j.end() || !types->is_array())
        return r.integer("sliding_window_pattern", pattern);
    const int n = int(types->size());
    int period = n + 1; // no full layer: every layer slides
    for (int i = n - 1; i >= 0; --i)
        if ((*types)[size_t(i)] == "full_attention")
            period = i + 1;
    const auto local = [](const json& t) { return t == "sliding_attention" || t == "chunked_attention"; };
    if (std::none_of(types->begin(), types->end(), local))
        return 0;
    for (int i = 0; i < n; ++i) {
        const bool full = (i + 1) % period == 0;
        if (full != ((*types)[size_t(i)] == "full_attention") || (!full && !local((*types)[size_t(i)]))) {
            if (r.error.empty())
                r.error = r.file + ": layer_types: layer " + std::to_string(i) + " is " + (*types)[size_t(i)].dump()
                    + ", out of the pattern the first full layer sets (" + std::to_string(period - 1)
                    + " sliding layers, then a full one, repeating); the tool models such a pattern only (Gemma 3's: 5 "
                      "sliding, 1 full)";
            return 1;
        }
    }
    return period > n ? 1 : period;
}

// Gemma 3's and Llama 4's multimodal config.json nest the text decoder's keys in text_config; the text-only
// models' (gemma3_text, llama4_text) keep them at the top. Both give only what differs from transformers'
// Gemma3TextConfig and Llama4TextConfig defaults, which fill the rest. False, with `error`, when
// text_config is missing.
bool unnestTextDecoder(json& j, std::string& family, const std::string& file, std::string& error)
{
    struct Nested {
        const char *multimodal, *textOnly, *name;
        json defaults;
    };
    static const Nested nested[] = {
        { "gemma3", "gemma3_text", "Gemma 3",
            { { "vocab_size", 262208 }, { "hidden_size", 2304 }, { "intermediate_size", 9216 },
                { "num_hidden_layers", 26 }, { "num_attention_heads", 8 }, { "num_key_value_heads", 4 },
                { "head_dim", 256 }, { "max_position_embeddings", 131072 }, { "sliding_window", 4096 },
                { "sliding_window_pattern", 6 }, { "tie_word_embeddings", true } } },
        { "llama4", "llama4_text", "Llama 4",
            { { "vocab_size", 202048 }, { "hidden_size", 5120 }, { "intermediate_size", 8192 },
                { "intermediate_size_mlp", 16384 }, { "num_hidden_layers", 48 }, { "num_attention_heads", 40 },
                { "num_key_value_heads", 8 }, { "head_dim", 128 }, { "max_position_embeddings", 131072 },
                { "num_experts_per_tok", 1 }, { "num_local_experts", 16 }, { "interleave_moe_layer_step", 1 },
                { "attention_chunk_size", 8192 }, { "tie_word_embeddings", false } } },
    };
    for (const Nested& n : nested) {
        if (family != n.multimodal && family != n.textOnly)
            continue;
        json text = j;
        if (family == n.multimodal) {
            const auto t = j.find("text_config");
            if (t == j.end() || !t->is_object()) {
                error = file + ": text_config: "
                    + (t == j.end() ? std::string("missing") : "must be an object, got " + t->dump().substr(0, 40))
                    + "; a " + n.name
                    + " config.json holds the text decoder's keys there (copy the model's config.json from its Hub "
                      "page)";
                return false;
            }
            text = *t;
        }
        j = n.defaults;
        j.update(text);
        j["model_type"] = family = n.multimodal;
    }
    return true;
}

} // namespace

namespace {

/// GPT-2's own keys (n_embd, n_layer, n_head, ...).
void readGpt2(Reader& r, LlmArch& a)
{
    a.hidden = r.integer("n_embd");
    a.layers = r.integer("n_layer");
    a.heads = r.integer("n_head");
    a.kvHeads = a.heads;
    a.maxContext = r.integer("n_positions", r.integer("n_ctx", 1024));
    a.ffn = r.integer("n_inner", 4LL * a.hidden);
    if (a.ffn == 0)
        a.ffn = 4 * a.hidden;
    a.vocab = r.integer("vocab_size");
    a.tiedEmbeddings = r.boolean("tie_word_embeddings", true);
    a.allBiases = a.fusedQkv = a.learnedPositions = true;
    a.mlp = LlmMlp::Gelu;
    a.norm = LlmNorm::Layer;
}

/// The keys every other family shares, and its attention's biases.
void readCommon(Reader& r, LlmArch& a, const std::string& family)
{
    a.hidden = r.integer("hidden_size");
    a.layers = r.integer("num_hidden_layers");
    a.heads = r.integer("num_attention_heads");
    a.kvHeads = r.integer("num_key_value_heads", a.heads);
    a.ffn = r.integer("intermediate_size");
    a.vocab = r.integer("vocab_size");
    a.maxContext = r.integer("max_position_embeddings", 2048);
    a.tiedEmbeddings = r.boolean("tie_word_embeddings", family == "gemma2" || family == "gemma3");
    // attention_bias: q, k, v and o carry biases (Qwen2: q, k and v always, o never)
    const bool attentionBias = r.boolean("attention_bias", family == "gpt_oss");
    a.qkvBias = family == "qwen2" || attentionBias;
    a.oBias = family != "qwen2" && attentionBias;
    a.fusedQkv = a.fusedGateUp = family == "phi3";
}

/// Gemma 2 and 3: GeGLU, four norms a block, local layers to global ones.
void readGemma(Reader& r, const json& j, LlmArch& a, const std::string& family)
{
    a.mlp = LlmMlp::GeGlu;
    a.normsPerBlock = 4;
    a.slidingPeriod = family == "gemma2" ? 2 : slidingPeriod(r, j, 6);
    a.qkNorm = family == "gemma3";
}

void readGptOss(Reader& r, const json& j, LlmArch& a)
{
    // transformers' GptOssConfig: experts of intermediate_size with biases, a router with a bias, a
    // sink per head, sliding windows on every other layer from layer 0; the Hub's checkpoints keep
    // the experts in MXFP4 (quantization_config), the rest in bf16
    a.experts = r.integer("num_local_experts");
    a.expertsPerToken = r.integer("num_experts_per_tok", r.integer("experts_per_token", 4));
    a.expertFfn = a.ffn;
    a.expertBiases = a.routerBias = a.attentionSinks = a.activeWithoutEmbedding = true;
    a.slidingPeriod = slidingPeriod(r, j, 2);
    const auto q = j.find("quantization_config");
    if (q != j.end() && q->is_object() && q->contains("quant_method") && (*q)["quant_method"] == "mxfp4")
        a.expertBits = kMxfp4Bits;
}

void readLlama4(Reader& r, const json& j, LlmArch& a, const std::string& file)
{
    // mixtures of one routed expert of intermediate_size beside a shared one, every
    // interleave_moe_layer_step-th layer (the others dense of intermediate_size_mlp); local layers
    // attend within chunks of attention_chunk_size, every fourth layer to the whole context
    a.ffn = r.integer("intermediate_size_mlp");
    a.expertFfn = r.integer("intermediate_size");
    a.experts = r.integer("num_local_experts");
    a.expertsPerToken = r.integer("num_experts_per_tok");
    a.sharedExperts = 1;
    a.moeStep = r.integer("interleave_moe_layer_step");
    const auto listed = j.find("moe_layers");
    if (listed != j.end() && listed->is_array() && !listed->empty() && r.error.empty()) {
        json expected = json::array();
        for (int l = a.moeStep - 1; l < a.layers; l += std::max(1, a.moeStep))
            expected.push_back(l);
        if (*listed != expected)
            r.error = file + ": moe_layers: " + listed->dump() + " is not every interleave_moe_layer_step-th layer ("
                + expected.dump() + "); the tool models mixtures at one interval only";
    }
    a.chunkedAttention = true;
    a.slidingPeriod = slidingPeriod(r, j, 4);
    a.slidingWindow = a.slidingPeriod > 0 ? r.integer("attention_chunk_size") : 0;
}

/// Mixtral's and Qwen3-MoE's experts, Qwen3's query and key norms.
void readExperts(Reader& r, const json& j, LlmArch& a, const std::string& family, const std::string& file)
{
    if (family == "mixtral") {
        a.experts = r.integer("num_local_experts", 8);
        a.expertsPerToken = r.integer("num_experts_per_tok", 2);
    }
    a.qkNorm = a.qkNorm || family == "qwen3" || family == "qwen3_moe";
    if (family == "qwen3_moe") {
        a.experts = r.integer("num_experts");
        a.expertsPerToken = r.integer("num_experts_per_tok");
        a.expertFfn = r.integer("moe_intermediate_size");
        // Dense layers among the experts (mlp_only_layers, decoder_sparse_step > 1) are not modelled:
        // said, not guessed (every published Qwen3-MoE has neither).
        const auto dense = j.find("mlp_only_layers");
        if (dense != j.end() && dense->is_array() && !dense->empty() && r.error.empty())
            r.error = file + ": mlp_only_layers: " + dense->dump()
                + " names dense layers among the experts, which the tool does not model yet; with the key removed "
                  "it reads every layer as a mixture of experts (counting those layers' MLPs as experts)";
        if (r.integer("decoder_sparse_step", 1) != 1 && r.error.empty())
            r.error = file + ": decoder_sparse_step: only 1 (every layer a mixture of experts) is modelled yet";
    }
}

/// DeepSeek's latent attention and its experts.
void readLatent(Reader& r, const json& j, LlmArch& a)
{
    // transformers' DeepseekV3Config: keys and values through kv_lora_rank, queries through
    // q_lora_rank (null: none), n_routed_experts (null: a dense model), the first
    // first_k_dense_replace layers dense, n_shared_experts beside the routed ones; "noaux_tc"
    // routing adds a bias per expert (e_score_correction_bias)
    a.kvLora = r.integer("kv_lora_rank");
    a.qLora = r.integer("q_lora_rank", 0);
    a.qkNope = r.integer("qk_nope_head_dim");
    a.qkRope = r.integer("qk_rope_head_dim");
    a.vHeadDim = r.integer("v_head_dim");
    a.kvHeads = 1; // the latent serves every head (num_key_value_heads is the heads' count)
    a.experts = r.integer("n_routed_experts", 0);
    if (a.experts > 0) {
        a.expertsPerToken = r.integer("num_experts_per_tok");
        a.expertFfn = r.integer("moe_intermediate_size");
        a.sharedExperts = r.integer("n_shared_experts", 0);
        a.denseLayers = r.integer("first_k_dense_replace", 0);
        const auto method = j.find("topk_method");
        a.routerBias = method != j.end() && method->is_string() && method->get<std::string>() == "noaux_tc";
        if (r.integer("moe_layer_freq", 1) != 1 && r.error.empty())
            r.error = r.file
                + ": moe_layer_freq: only 1 (every layer past first_k_dense_replace a mixture of experts) is modelled "
                  "yet";
    }
}

/// The config.json as one object naming a known architecture (its text decoder where nested), or
/// `error`; the family it names.
std::optional<json> readDocument(
    std::string_view text, const std::string& file, std::string& family, std::string& error)
{
    json j;
    try {
        j = json::parse(text);
    } catch (const json::exception& e) {
        error = file + ": not valid JSON (" + describeJsonError(e) + "); a Hugging Face config.json is one JSON object";
        return std::nullopt;
    }
    if (!j.is_object()) {
        error = file + ": a Hugging Face config.json is one JSON object, this file holds " + std::string(j.type_name());
        return std::nullopt;
    }
    const auto mt = j.find("model_type");
    if (mt == j.end() || !mt->is_string()) {
        error = file
            + ": model_type: missing; it names the architecture (llama, llama4, mistral, mixtral, qwen2, qwen3, "
              "qwen3_moe, deepseek_v3, phi3, gemma2, gemma3, gpt_oss, gpt2)";
        return std::nullopt;
    }
    family = mt->get<std::string>();
    if (!unnestTextDecoder(j, family, file, error))
        return std::nullopt;
    if (family == "llama4") { // its no_rope_layers (1: a rotary, chunked layer; 0: a global one) read as layer_types
        const auto noRope = j.find("no_rope_layers");
        if (!j.contains("layer_types") && noRope != j.end() && noRope->is_array() && !noRope->empty()) {
            json types = json::array();
            for (const json& v : *noRope)
                types.push_back(v == 0 ? "full_attention" : "chunked_attention");
            j["layer_types"] = types;
        }
    }
    // DeepSeek's latent attention: read from config.json only (llama.cpp's GGUF names them otherwise)
    bool known = family == "deepseek_v2" || family == "deepseek_v3";
    for (std::string_view f : kHfFamilies)
        known = known || f == family;
    if (!known) {
        error = file + ": model_type: \"" + family
            + "\" is not an architecture the tool knows; it reads llama, mistral, mixtral, qwen2, qwen3, qwen3_moe, "
              "deepseek_v2, "
              "deepseek_v3, phi3, gemma2, gemma3, gpt_oss, llama4 and gpt2 "
              "(a fine-tune of one of these keeps its model_type)";
        return std::nullopt;
    }
    return j;
}

} // namespace

LlmLoad parseHfConfig(std::string_view text, const std::string& file)
{
    LlmLoad out;
    std::string family;
    const std::optional<json> doc = readDocument(text, file, family, out.error);
    if (!doc)
        return out;
    const json& j = *doc;
    const bool latent = family == "deepseek_v2" || family == "deepseek_v3";
    Reader r { j, file, {} };
    LlmArch a;
    a.family = family;
    a.id = std::filesystem::path(file).parent_path().filename().string();
    if (a.id.empty())
        a.id = family;
    a.source = file;
    if (family == "gpt2")
        readGpt2(r, a);
    else {
        readCommon(r, a, family);
        if (family == "gemma2" || family == "gemma3")
            readGemma(r, j, a, family);
        if (family == "gpt_oss")
            readGptOss(r, j, a);
        if (family == "llama4")
            readLlama4(r, j, a, file);
        readExperts(r, j, a, family, file);
        if (latent)
            readLatent(r, j, a);
        const bool slides
            = (family != "qwen2" && family != "qwen3" && family != "qwen3_moe" && family != "llama4" && !latent)
            || r.boolean("use_sliding_window", false);
        if (slides && a.slidingPeriod > 0)
            a.slidingWindow = r.integer("sliding_window", 0);
        a.slidingPeriod = std::max(1, a.slidingPeriod);
    }
    if (a.heads > 0) {
        const auto hd = j.find("head_dim");
        a.headDim = hd != j.end() && !hd->is_null() ? r.integer("head_dim") : a.hidden / a.heads;
        if (latent) // a head's query and key: the part without position and the rotary part
            a.headDim = a.qkNope + a.qkRope;
    }
    if (!r.error.empty()) {
        out.error = r.error;
        return out;
    }
    if (auto e = validateArch(a)) {
        out.error = file + ": " + *e;
        return out;
    }
    a.title = a.id + " (" + family + ", config.json)";
    LlmModel m;
    m.arch = a;
    m.file = file;
    out.model = std::move(m);
    return out;
}

} // namespace rfx
