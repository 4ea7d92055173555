// Which file the user named, and a model from it: built-in ids, config.json (+ safetensors headers), GGUF.
#include "llm/llm_files.h"

#include "llm/llm_onnx.h"

#include "base/json_error.h"
#include "llm/llm_storage.h"
#include "llm/weight_files.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace rfx {

namespace fs = std::filesystem;

namespace {

bool endsWith(std::string_view s, std::string_view tail)
{
    if (s.size() < tail.size())
        return false;
    for (size_t i = 0; i < tail.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(s[s.size() - tail.size() + i])) != tail[i])
            return false;
    return true;
}

std::uint64_t sizeOf(const fs::path& p)
{
    std::error_code ec;
    const auto n = fs::file_size(p, ec);
    return ec ? 0 : n;
}

void finishStorage(LlmStorage& s, const std::map<std::string, double>& byType)
{
    s.summary = storageSummary(byType, s.totalBytes);
}

/// The safetensors headers beside a config.json: model.safetensors, or the shards a
/// model.safetensors.index.json names. No file beside it is fine (the config alone); a bad one is an error.
std::string readSafetensorsBeside(const fs::path& dir, LlmModel& m)
{
    std::vector<fs::path> shards;
    const fs::path index = dir / "model.safetensors.index.json";
    if (fs::exists(index)) {
        std::ifstream in(index);
        nlohmann::json j;
        try {
            j = nlohmann::json::parse(in);
        } catch (const nlohmann::json::exception& e) {
            return index.string() + ": not valid JSON (" + describeJsonError(e) + ")";
        }
        if (!j.is_object() || !j.contains("weight_map") || !j["weight_map"].is_object())
            return index.string() + ": weight_map: missing; a sharded model's index maps each tensor to its file";
        std::set<std::string> names;
        for (const auto& [tensor, shard] : j["weight_map"].items())
            if (shard.is_string())
                names.insert(shard.get<std::string>());
        for (const std::string& s : names) {
            if (s.find('/') != std::string::npos || s.find("..") != std::string::npos)
                return index.string() + ": weight_map names \"" + s + "\", not a file beside the index";
            shards.push_back(dir / s);
        }
    } else if (fs::exists(dir / "model.safetensors"))
        shards.push_back(dir / "model.safetensors");
    if (shards.empty())
        return {};
    LlmStorage storage;
    std::map<std::string, double> byType;
    for (const fs::path& p : shards) {
        std::ifstream in(p, std::ios::binary);
        if (!in)
            return p.string() + ": cannot be opened (the index names it; is the download complete?)";
        std::string error;
        const auto tensors = readSafetensors(in, sizeOf(p), p.string(), error);
        if (!tensors)
            return error;
        for (const StoredTensor& t : *tensors) {
            addStoredTensor(storage, t.name, t.bytes, t.elements, t.type, m.arch.layers);
            byType[t.type] += t.bytes;
        }
    }
    finishStorage(storage, byType);
    m.storage = std::move(storage);
    return {};
}

LlmLoad fromConfigFile(const fs::path& config)
{
    std::ifstream in(config);
    if (!in)
        return { std::nullopt, config.string() + ": cannot be opened" };
    std::stringstream text;
    text << in.rdbuf();
    LlmLoad load = parseHfConfig(text.str(), config.string());
    if (!load.model)
        return load;
    if (std::string e = readSafetensorsBeside(config.parent_path(), *load.model); !e.empty())
        return { std::nullopt, e };
    return load;
}

/// GGUF metadata as an architecture: general.architecture's keys ({arch}.block_count, ...), the vocabulary
/// from the embedding's shape, a tied head where the file has no output.weight.
} // namespace

LlmLoad readGgufModel(std::istream& in, std::uint64_t size, const std::string& file)
{
    std::string error;
    const auto g = readGguf(in, size, file, error);
    if (!g)
        return { std::nullopt, error };
    const fs::path path(file);
    const auto archIt = g->strings.find("general.architecture");
    if (archIt == g->strings.end())
        return { std::nullopt, file + ": general.architecture: missing; every GGUF model names its architecture" };
    const std::string arch = archIt->second;
    // llama.cpp's names for Hugging Face's qwen3_moe, and for deepseek_v2 and deepseek_v3 (latent attention)
    bool known = arch == "qwen3moe" || arch == "deepseek2" || arch == "gpt-oss";
    for (std::string_view f : kHfFamilies)
        known = known || f == arch;
    if (!known)
        return { std::nullopt,
            file + ": general.architecture: \"" + arch
                + "\" is not an architecture the tool knows; it reads llama (also Mistral and Mixtral files), qwen2, "
                  "qwen3, "
                  "qwen3moe, deepseek2 (DeepSeek-V2 and V3), gpt-oss, llama4, phi3, gemma2, gemma3 and gpt2" };
    std::string missing;
    auto number = [&](const std::string& key, double fallback = -1) {
        const auto it = g->numbers.find(arch + "." + key);
        if (it != g->numbers.end())
            return it->second;
        if (fallback < 0 && missing.empty())
            missing = arch + "." + key;
        return std::max(0.0, fallback);
    };
    auto clampInt = [](double v) { return int(std::clamp(v, 0.0, 2e9)); };
    LlmArch a;
    a.family = arch;
    a.id = path.stem().string();
    a.title = a.id + " (GGUF)";
    a.source = file;
    a.layers = clampInt(number("block_count"));
    a.hidden = clampInt(number("embedding_length"));
    a.ffn = clampInt(number("feed_forward_length"));
    a.heads = clampInt(number("attention.head_count"));
    a.kvHeads = clampInt(number("attention.head_count_kv", a.heads));
    a.maxContext = clampInt(number("context_length", 2048));
    a.headDim = clampInt(number("attention.key_length", a.heads > 0 ? a.hidden / a.heads : 0));
    a.experts = clampInt(number("expert_count", 0));
    a.expertsPerToken = clampInt(number("expert_used_count", 0));
    a.expertFfn = clampInt(number("expert_feed_forward_length", 0));
    a.slidingWindow = clampInt(number("attention.sliding_window", 0));
    if (arch == "deepseek2") {
        // Latent attention: a head's key is key_length wide (no-position and rotary parts), its value
        // value_length; conversions that store the absorbed form give the per-head widths as *_mla
        // (key_length then being the latent's).
        const bool mla = g->numbers.count(arch + ".attention.key_length_mla") > 0;
        a.qLora = clampInt(number("attention.q_lora_rank", 0));
        a.kvLora = clampInt(number("attention.kv_lora_rank"));
        a.qkRope = clampInt(number("rope.dimension_count"));
        a.headDim = clampInt(number(mla ? "attention.key_length_mla" : "attention.key_length"));
        a.qkNope = std::max(0, a.headDim - a.qkRope);
        a.vHeadDim = clampInt(number(mla ? "attention.value_length_mla" : "attention.value_length"));
        a.kvHeads = 1;
        a.sharedExperts = clampInt(number("expert_shared_count", 0));
        a.denseLayers = clampInt(number("leading_dense_block_count", 0));
    }
    if (!missing.empty())
        return { std::nullopt,
            file + ": " + missing
                + ": missing from the metadata; the converter that wrote the file "
                  "should give it (convert the model again with a current llama.cpp)" };
    std::set<std::string> names;
    for (const StoredTensor& t : g->tensors)
        names.insert(t.name);
    for (const StoredTensor& t : g->tensors)
        if (t.name == "token_embd.weight" && t.shape.size() == 2)
            a.vocab = clampInt(double(t.shape[1]));
    if (a.vocab == 0)
        a.vocab = clampInt(number("vocab_size", 0));
    a.tiedEmbeddings = !names.count("output.weight");
    a.qkvBias = names.count("blk.0.attn_q.bias") > 0 || names.count("blk.0.attn_qkv.bias") > 0;
    a.fusedQkv = names.count("blk.0.attn_qkv.weight") > 0;
    a.fusedGateUp = arch == "phi3" && !names.count("blk.0.ffn_gate.weight");
    a.qkNorm = names.count("blk.0.attn_q_norm.weight") > 0;
    if (arch == "gemma2" || arch == "gemma3") {
        a.mlp = LlmMlp::GeGlu;
        a.normsPerBlock = 4;
        // llama.cpp sets Gemma 3's pattern in code (every 6th layer global); a file may say it
        a.slidingPeriod = arch == "gemma2" ? 2 : clampInt(number("attention.sliding_window_pattern", 6));
    }
    if (arch == "gpt2") {
        a.mlp = LlmMlp::Gelu;
        a.norm = LlmNorm::Layer;
        a.allBiases = a.learnedPositions = true;
    }
    if (arch == "deepseek2") {
        // DeepSeek-V3's router adds a bias per expert (exp_probs_b); V2's does not
        a.routerBias = std::any_of(
            names.begin(), names.end(), [](const std::string& n) { return n.ends_with(".exp_probs_b.bias"); });
        a.family = a.routerBias ? "deepseek_v3" : "deepseek_v2";
    } else if (arch == "qwen3moe")
        a.family = "qwen3_moe";
    else if (arch == "llama4") {
        // llama.cpp's Llama 4: mixtures every interleave_moe_layer_step-th layer with a shared expert, the
        // local layers attending within chunks of 8,192 tokens, every fourth layer global (set in its code;
        // a sliding_window of 0 in the file turns the chunks off)
        a.moeStep = clampInt(number("interleave_moe_layer_step", 1));
        a.sharedExperts = std::any_of(names.begin(), names.end(),
                              [](const std::string& n) { return n.ends_with(".ffn_gate_shexp.weight"); })
            ? 1
            : 0;
        const bool off = g->numbers.count(arch + ".attention.sliding_window") > 0 && a.slidingWindow == 0;
        a.chunkedAttention = !off;
        a.slidingWindow = off ? 0 : 8192;
        a.slidingPeriod = 4;
    } else if (arch == "gpt-oss") {
        // llama.cpp's OpenAI MoE: biases on the attention, the router and the experts, a sink per head,
        // every other layer sliding from layer 0 (set in its code)
        a.family = "gpt_oss";
        a.oBias = names.count("blk.0.attn_output.bias") > 0;
        a.attentionSinks = names.count("blk.0.attn_sinks.weight") > 0;
        a.expertBiases = names.count("blk.0.ffn_gate_exps.bias") > 0;
        a.routerBias = names.count("blk.0.ffn_gate_inp.bias") > 0;
        a.activeWithoutEmbedding = true;
        a.slidingPeriod = 2;
    } else if (a.experts > 0)
        a.family = "mixtral";
    if (auto e = validateArch(a))
        return { std::nullopt, file + ": " + *e };
    LlmModel m;
    m.arch = a;
    m.file = file;
    LlmStorage storage;
    std::map<std::string, double> byType;
    for (const StoredTensor& t : g->tensors) {
        addStoredTensor(storage, t.name, t.bytes, t.elements, t.type, a.layers);
        byType[t.type] += t.bytes;
    }
    finishStorage(storage, byType);
    m.storage = std::move(storage);
    return { std::move(m), {} };
}

namespace {

LlmLoad fromGguf(const fs::path& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return { std::nullopt, path.string() + ": cannot be opened" };
    return readGgufModel(in, sizeOf(path), path.string());
}

} // namespace

bool isLanguageModelSpec(std::string_view spec)
{
    if (findLanguageModel(spec))
        return true;
    // (an ONNX file is not one of them: 'analyze' takes any graph, 'llm' a decoder's)
    if (endsWith(spec, ".gguf") || endsWith(spec, ".safetensors") || endsWith(spec, "config.json"))
        return true;
    std::error_code ec;
    return fs::is_directory(fs::path(spec), ec) && fs::exists(fs::path(spec) / "config.json", ec);
}

LlmLoad loadLanguageModel(const std::string& spec)
{
    if (const LlmArch* a = findLanguageModel(spec)) {
        LlmModel m;
        m.arch = *a;
        return { std::move(m), {} };
    }
    const fs::path p(spec);
    std::error_code ec;
    if (fs::is_directory(p, ec)) {
        if (!fs::exists(p / "config.json"))
            return { std::nullopt,
                spec
                    + ": the directory holds no config.json; a Hugging Face model directory has one "
                      "beside its .safetensors files" };
        return fromConfigFile(p / "config.json");
    }
    if (!fs::exists(p, ec)) {
        std::string known;
        for (const LlmArch& a : builtinLanguageModels())
            known += (known.empty() ? "" : ", ") + a.id;
        return { std::nullopt, spec + ": no such file, and not a built-in language model (" + known + ")" };
    }
    if (endsWith(spec, ".gguf"))
        return fromGguf(p);
    if (endsWith(spec, ".onnx"))
        return readOnnxDecoder(spec);
    if (endsWith(spec, ".safetensors")) {
        const fs::path config = p.parent_path() / "config.json";
        if (!fs::exists(config))
            return { std::nullopt,
                spec
                    + ": a safetensors file holds tensors, not the architecture; put the model's "
                      "config.json beside it (from its Hub page)" };
        return fromConfigFile(config);
    }
    return fromConfigFile(p);
}

} // namespace rfx
