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

} // namespace rfx::test
