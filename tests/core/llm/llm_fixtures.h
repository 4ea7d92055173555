#pragma once
// Small GGUF and safetensors files written byte by byte, as the formats' specifications lay them out
// (ggml-org/ggml docs/gguf.md; huggingface/safetensors README "Format"), for the readers' tests.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace rfx::test {

class GgufWriter {
public:
    struct Tensor {
        std::string name;
        std::vector<std::uint64_t> dims; ///< ggml order: the row length first
        std::uint32_t type;
        std::uint64_t bytes;
    };
    void u32(std::uint32_t v) { raw(&v, 4); }
    void u64(std::uint64_t v) { raw(&v, 8); }
    void str(const std::string& s)
    {
        u64(s.size());
        m_b += s;
    }
    void kvU32(const std::string& key, std::uint32_t v)
    {
        str(key);
        u32(4);
        u32(v);
    }
    void kvStr(const std::string& key, const std::string& v)
    {
        str(key);
        u32(8);
        str(v);
    }
    /// The whole file: header, `kvs` (already written with kvU32 / kvStr into a writer), tensor infos, data.
    static std::string file(std::uint32_t version, std::uint64_t kvCount, const std::string& kvs,
        const std::vector<Tensor>& tensors, bool withData = true)
    {
        GgufWriter w;
        w.m_b = "GGUF";
        w.u32(version);
        w.u64(tensors.size());
        w.u64(kvCount);
        w.m_b += kvs;
        std::uint64_t offset = 0;
        for (const Tensor& t : tensors) {
            w.str(t.name);
            w.u32(std::uint32_t(t.dims.size()));
            for (auto d : t.dims)
                w.u64(d);
            w.u32(t.type);
            w.u64(offset);
            offset += (t.bytes + 31) / 32 * 32;
        }
        w.m_b.resize((w.m_b.size() + 31) / 32 * 32, '\0');
        if (withData)
            w.m_b.append(size_t(offset), '\0');
        return w.m_b;
    }
    const std::string& bytes() const { return m_b; }

private:
    void raw(const void* p, size_t n) { m_b.append(static_cast<const char*>(p), n); }
    std::string m_b;
};

/// A safetensors file: the header's JSON and data of the size it declares.
inline std::string safetensorsFile(const std::string& headerJson, std::uint64_t dataBytes)
{
    std::string b(8, '\0');
    std::uint64_t n = headerJson.size();
    for (int i = 0; i < 8; ++i)
        b[size_t(i)] = char((n >> (8 * i)) & 0xff);
    return b + headerJson + std::string(size_t(dataBytes), '\0');
}

// A two-block Llama: hidden 256, 4 heads and 2 KV heads of 64, MLP 512, vocabulary 1024, untied head. The
// ONNX decoders tests/data/onnx/wild/tiny_llama_past.onnx and tiny_llama_genai.onnx are the same model
// (make_fixtures.py's TINY_LLAMA).
inline constexpr const char* kTinyConfig = R"({"model_type": "llama", "hidden_size": 256, "num_hidden_layers": 2,
    "num_attention_heads": 4, "num_key_value_heads": 2, "intermediate_size": 512, "vocab_size": 1024,
    "max_position_embeddings": 2048, "tie_word_embeddings": false})";
// its parameters: embedding and head 1024 x 256 each, per block q 256 x 256, k and v 256 x 128, o 256 x 256,
// MLP 3 x 256 x 512, two norms of 256; a final norm of 256
inline constexpr std::int64_t kTinyParams = 2 * 262144 + 2 * (65536 + 32768 + 32768 + 65536 + 393216 + 512) + 256;

struct TinyTensor {
    std::string hf, gguf;
    std::vector<std::uint64_t> dims; // ggml order (row length first)
};

inline std::vector<TinyTensor> tinyTensors()
{
    std::vector<TinyTensor> t { { "model.embed_tokens.weight", "token_embd.weight", { 256, 1024 } },
        { "model.norm.weight", "output_norm.weight", { 256 } }, { "lm_head.weight", "output.weight", { 256, 1024 } } };
    for (int b = 0; b < 2; ++b) {
        const std::string hf = "model.layers." + std::to_string(b) + ".", g = "blk." + std::to_string(b) + ".";
        t.push_back({ hf + "input_layernorm.weight", g + "attn_norm.weight", { 256 } });
        t.push_back({ hf + "self_attn.q_proj.weight", g + "attn_q.weight", { 256, 256 } });
        t.push_back({ hf + "self_attn.k_proj.weight", g + "attn_k.weight", { 256, 128 } });
        t.push_back({ hf + "self_attn.v_proj.weight", g + "attn_v.weight", { 256, 128 } });
        t.push_back({ hf + "self_attn.o_proj.weight", g + "attn_output.weight", { 256, 256 } });
        t.push_back({ hf + "post_attention_layernorm.weight", g + "ffn_norm.weight", { 256 } });
        t.push_back({ hf + "mlp.gate_proj.weight", g + "ffn_gate.weight", { 256, 512 } });
        t.push_back({ hf + "mlp.up_proj.weight", g + "ffn_up.weight", { 256, 512 } });
        t.push_back({ hf + "mlp.down_proj.weight", g + "ffn_down.weight", { 512, 256 } });
    }
    return t;
}

inline std::uint64_t elementsOf(const std::vector<std::uint64_t>& dims)
{
    std::uint64_t n = 1;
    for (auto d : dims)
        n *= d;
    return n;
}

inline std::string tinyKvs(std::uint64_t& count)
{
    GgufWriter w;
    w.kvStr("general.architecture", "llama");
    w.kvU32("llama.block_count", 2);
    w.kvU32("llama.embedding_length", 256);
    w.kvU32("llama.feed_forward_length", 512);
    w.kvU32("llama.attention.head_count", 4);
    w.kvU32("llama.attention.head_count_kv", 2);
    w.kvU32("llama.context_length", 2048);
    count = 7;
    return w.bytes();
}

/// How the tiny GGUF stores its tensors: Q4_K_M's mix (ggml type 12, Q4_K: 144 bytes per 256 weights; 14,
/// Q6_K: 210 per 256 for v and down and the head; 8, Q8_0: 34 per 32 for the embedding; 0, F32 norms); all
/// F16 (type 1) but F32 norms; all F32 (0); or Q4_0 matrices (2: an fp16 scale and 32 4-bit weights, 18 bytes
/// per 32, as ONNX Runtime's MatMulNBits with blocks of 32 and no zero points) with an F16 embedding and norms.
enum class TinyMix { Q4KM, F16, F32, Q4_0 };

inline std::string tinyGguf(TinyMix mix, double* weightBytes = nullptr)
{
    std::vector<GgufWriter::Tensor> tensors;
    double total = 0;
    for (const TinyTensor& t : tinyTensors()) {
        const std::uint64_t n = elementsOf(t.dims);
        const bool norm = t.dims.size() == 1, embedding = t.gguf == "token_embd.weight";
        std::uint32_t type = 0;
        double bytes = double(n) * 4;
        if (mix == TinyMix::F16 && !norm) {
            type = 1;
            bytes = double(n) * 2;
        } else if (mix == TinyMix::Q4_0) {
            type = norm || embedding ? 1 : 2;
            bytes = norm || embedding ? double(n) * 2 : double(n) / 32 * 18;
        } else if (mix == TinyMix::Q4KM && !norm) {
            type = 12;
            bytes = double(n) / 256 * 144;
            if (embedding) {
                type = 8;
                bytes = double(n) / 32 * 34;
            } else if (t.gguf.ends_with("attn_v.weight") || t.gguf.ends_with("ffn_down.weight")
                || t.gguf == "output.weight") {
                type = 14;
                bytes = double(n) / 256 * 210;
            }
        }
        total += bytes;
        tensors.push_back({ t.gguf, t.dims, type, std::uint64_t(bytes) });
    }
    if (weightBytes)
        *weightBytes = total;
    std::uint64_t kvCount = 0;
    const std::string kvs = tinyKvs(kvCount);
    return GgufWriter::file(3, kvCount, kvs, tensors);
}

/// The tiny model as safetensors (BF16 matrices and F32 norms, or all F32): the header's JSON and the data.
inline std::string tinySafetensors(bool f32 = false)
{
    std::string header = "{\"__metadata__\": {\"format\": \"pt\"}";
    std::uint64_t offset = 0;
    for (const TinyTensor& t : tinyTensors()) {
        const std::uint64_t n = elementsOf(t.dims);
        const bool wide = f32 || t.dims.size() == 1;
        const std::uint64_t bytes = n * (wide ? 4 : 2);
        std::string shape;
        for (auto it = t.dims.rbegin(); it != t.dims.rend(); ++it) // PyTorch order: rows first
            shape += (shape.empty() ? "" : ",") + std::to_string(*it);
        header += ", \"" + t.hf + "\": {\"dtype\": \"" + (wide ? "F32" : "BF16") + "\", \"shape\": [" + shape
            + "], \"data_offsets\": [" + std::to_string(offset) + ", " + std::to_string(offset + bytes) + "]}";
        offset += bytes;
    }
    return safetensorsFile(header + "}", offset);
}

} // namespace rfx::test
