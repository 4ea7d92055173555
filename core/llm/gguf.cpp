// GGUF headers (ggml-org/ggml docs/gguf.md): "GGUF", version, tensor count, metadata count, the
// metadata key/value pairs, the tensor infos, then data aligned to general.alignment (default 32).
#include "llm/weight_files.h"

#include "base/format.h"

#include <array>
#include <cstring>
#include <limits>

namespace rfx {

namespace {

// ggml's types with their block size and bytes per block (ggml.c type_traits; sizes checked by compiling
// ggml-common.h's block structs: block_q4_K is 144 bytes for 256 weights).
constexpr GgufType kTypes[] = {
    { 0, "F32", 1, 4 },
    { 1, "F16", 1, 2 },
    { 2, "Q4_0", 32, 18 },
    { 3, "Q4_1", 32, 20 },
    { 6, "Q5_0", 32, 22 },
    { 7, "Q5_1", 32, 24 },
    { 8, "Q8_0", 32, 34 },
    { 9, "Q8_1", 32, 36 },
    { 10, "Q2_K", 256, 84 },
    { 11, "Q3_K", 256, 110 },
    { 12, "Q4_K", 256, 144 },
    { 13, "Q5_K", 256, 176 },
    { 14, "Q6_K", 256, 210 },
    { 15, "Q8_K", 256, 292 },
    { 16, "IQ2_XXS", 256, 66 },
    { 17, "IQ2_XS", 256, 74 },
    { 18, "IQ3_XXS", 256, 98 },
    { 19, "IQ1_S", 256, 50 },
    { 20, "IQ4_NL", 32, 18 },
    { 21, "IQ3_S", 256, 110 },
    { 22, "IQ2_S", 256, 82 },
    { 23, "IQ4_XS", 256, 136 },
    { 24, "I8", 1, 1 },
    { 25, "I16", 1, 2 },
    { 26, "I32", 1, 4 },
    { 27, "I64", 1, 8 },
    { 28, "F64", 1, 8 },
    { 29, "IQ1_M", 256, 56 },
    { 30, "BF16", 1, 2 },
    { 34, "TQ1_0", 256, 54 },
    { 35, "TQ2_0", 256, 66 },
    { 39, "MXFP4", 32, 17 },
    { 40, "NVFP4", 64, 36 },
    { 41, "Q1_0", 128, 18 },
    { 42, "Q2_0", 64, 18 },
};

class Cursor {
public:
    Cursor(std::istream& in, std::uint64_t size, const std::string& file, std::string& error)
        : m_in(in)
        , m_size(size)
        , m_file(file)
        , m_error(error)
    {
    }
    bool ok() const { return m_error.empty(); }
    std::uint64_t pos() const { return m_pos; }
    void fail(const std::string& what)
    {
        if (m_error.empty())
            m_error = m_file + ": " + what;
    }
    bool need(std::uint64_t n, const char* what)
    {
        if (!ok())
            return false;
        if (n > m_size - m_pos) {
            fail(std::string(what) + " runs past the end of the file (at byte " + std::to_string(m_pos) + " of "
                + std::to_string(m_size) + "): the file is truncated or not a GGUF file; download it again");
            return false;
        }
        return true;
    }
    template <class T> T read(const char* what)
    {
        T v {};
        if (!need(sizeof(T), what))
            return v;
        std::array<char, sizeof(T)> b {};
        m_in.read(b.data(), sizeof(T));
        if (!m_in) {
            fail(std::string(what) + ": the file could not be read");
            return v;
        }
        std::memcpy(&v, b.data(), sizeof(T)); // GGUF is little-endian, as every machine this runs on
        m_pos += sizeof(T);
        return v;
    }
    std::string string(const char* what, std::uint64_t keep = 1 << 16)
    {
        const auto n = read<std::uint64_t>(what);
        if (!need(n, what))
            return {};
        std::string s;
        if (n <= keep) {
            s.resize(size_t(n));
            m_in.read(s.data(), std::streamsize(n));
        } else
            m_in.seekg(std::streamoff(n), std::ios::cur);
        if (!m_in) {
            fail(std::string(what) + ": the file could not be read");
            return {};
        }
        m_pos += n;
        return s;
    }
    void skip(std::uint64_t n, const char* what)
    {
        if (!need(n, what))
            return;
        m_in.seekg(std::streamoff(n), std::ios::cur);
        m_pos += n;
    }

private:
    std::istream& m_in;
    std::uint64_t m_size;
    std::uint64_t m_pos = 0;
    const std::string& m_file;
    std::string& m_error;
};

constexpr std::uint64_t scalarSize(std::uint32_t type)
{
    switch (type) {
    case 0:
    case 1:
    case 7:
        return 1; // uint8, int8, bool
    case 2:
    case 3:
        return 2;
    case 4:
    case 5:
    case 6:
        return 4; // uint32, int32, float32
    case 10:
    case 11:
    case 12:
        return 8; // uint64, int64, float64
    default:
        return 0;
    }
}

double scalarValue(Cursor& c, std::uint32_t type, const char* what)
{
    switch (type) {
    case 0:
        return c.read<std::uint8_t>(what);
    case 1:
        return c.read<std::int8_t>(what);
    case 2:
        return c.read<std::uint16_t>(what);
    case 3:
        return c.read<std::int16_t>(what);
    case 4:
        return c.read<std::uint32_t>(what);
    case 5:
        return c.read<std::int32_t>(what);
    case 6:
        return c.read<float>(what);
    case 7:
        return c.read<std::uint8_t>(what) != 0;
    case 10:
        return double(c.read<std::uint64_t>(what));
    case 11:
        return double(c.read<std::int64_t>(what));
    case 12:
        return c.read<double>(what);
    default:
        return 0;
    }
}

} // namespace

const GgufType* ggufType(std::uint32_t id)
{
    for (const GgufType& t : kTypes)
        if (std::uint32_t(t.id) == id)
            return &t;
    return nullptr;
}

std::optional<GgufFile> readGguf(std::istream& in, std::uint64_t fileSize, const std::string& file, std::string& error)
{
    error.clear();
    Cursor c(in, fileSize, file, error);
    GgufFile g;
    const auto magic = c.read<std::uint32_t>("the GGUF magic");
    if (!c.ok())
        return std::nullopt;
    if (magic != 0x46554747u) { // "GGUF", little-endian
        error = file
            + ": not a GGUF file (it does not start with \"GGUF\"); llama.cpp's convert_hf_to_gguf.py writes them";
        return std::nullopt;
    }
    Cursor& body = c;
    g.version = body.read<std::uint32_t>("version");
    if (body.ok() && g.version != 2 && g.version != 3) {
        error = file + ": version: GGUF version " + std::to_string(g.version)
            + " is not one the tool reads (2 and 3; version 1 files predate August 2023: convert the model again)";
        return std::nullopt;
    }
    const auto tensorCount = body.read<std::uint64_t>("tensor_count");
    const auto kvCount = body.read<std::uint64_t>("metadata_kv_count");
    // every pair takes at least 12 bytes, every tensor info at least 24: counts beyond the file are corrupt
    if (body.ok() && (kvCount > fileSize / 12 || tensorCount > fileSize / 24)) {
        error = file + ": metadata_kv_count " + std::to_string(kvCount) + " / tensor_count "
            + std::to_string(tensorCount) + ": more entries than the file's " + std::to_string(fileSize)
            + " bytes can hold: the header is corrupt";
        return std::nullopt;
    }
    for (std::uint64_t i = 0; i < kvCount && body.ok(); ++i) {
        const std::string key = body.string("a metadata key", 4096);
        const auto type = body.read<std::uint32_t>("a metadata value's type");
        if (!body.ok())
            break;
        if (type == 8)
            g.strings[key] = body.string(("metadata " + key).c_str());
        else if (type == 9) {
            const auto itemType = body.read<std::uint32_t>("an array's type");
            const auto n = body.read<std::uint64_t>("an array's length");
            if (!body.ok())
                break;
            g.numbers[key + ".length"] = double(n);
            if (itemType == 8) {
                if (n > fileSize / 8) {
                    body.fail(
                        "metadata " + key + ": an array of " + std::to_string(n) + " strings is longer than the file");
                    break;
                }
                for (std::uint64_t k = 0; k < n && body.ok(); ++k)
                    body.string(("metadata " + key).c_str(), 0);
            } else if (const std::uint64_t s = scalarSize(itemType); s > 0) {
                if (n > fileSize / s) {
                    body.fail(
                        "metadata " + key + ": an array of " + std::to_string(n) + " items is longer than the file");
                    break;
                }
                body.skip(n * s, ("metadata " + key).c_str());
            } else
                body.fail("metadata " + key + ": an array of type " + std::to_string(itemType)
                    + ", which GGUF does not have (0-12; nested arrays are not used by any writer)");
        } else if (scalarSize(type) > 0)
            g.numbers[key] = scalarValue(body, type, ("metadata " + key).c_str());
        else
            body.fail("metadata " + key + ": value type " + std::to_string(type)
                + " is not a GGUF type (0-12): the file is corrupt");
    }
    std::uint64_t dataNeeded = 0;
    for (std::uint64_t i = 0; i < tensorCount && body.ok(); ++i) {
        StoredTensor t;
        t.name = body.string("a tensor's name", 4096);
        const auto dims = body.read<std::uint32_t>("a tensor's dimension count");
        if (body.ok() && (dims == 0 || dims > 8)) {
            body.fail("tensor " + t.name + ": " + std::to_string(dims) + " dimensions (GGUF tensors have 1 to 4)");
            break;
        }
        double elements = 1;
        t.elements = 1;
        for (std::uint32_t k = 0; k < dims && body.ok(); ++k) {
            const auto d = body.read<std::uint64_t>("a tensor's dimension");
            t.shape.push_back(std::int64_t(std::min<std::uint64_t>(d, std::uint64_t(1) << 62)));
            elements *= double(d);
        }
        const auto typeId = body.read<std::uint32_t>("a tensor's type");
        const auto offset = body.read<std::uint64_t>("a tensor's offset");
        if (!body.ok())
            break;
        const GgufType* type = ggufType(typeId);
        if (!type) {
            body.fail("tensor " + t.name + ": type " + std::to_string(typeId)
                + " is not a ggml type the tool knows (it knows F32, F16, BF16, Q4_0 ... Q8_K, the IQ and TQ families, "
                  "MXFP4, "
                  "NVFP4); the file may come from a newer llama.cpp");
            break;
        }
        if (elements > double(fileSize) * double(type->blockElements) / type->blockBytes + 1) {
            body.fail("tensor " + t.name + ": " + formatNumber3(elements) + " elements cannot fit in the file's "
                + std::to_string(fileSize) + " bytes: the header is corrupt");
            break;
        }
        t.elements = std::int64_t(elements);
        if (t.elements % type->blockElements != 0) {
            body.fail("tensor " + t.name + ": " + std::to_string(t.elements) + " elements are not whole blocks of "
                + std::to_string(type->blockElements) + " (" + std::string(type->name) + ")");
            break;
        }
        t.type = type->name;
        t.bytes = double(t.elements / type->blockElements) * type->blockBytes;
        if (offset > fileSize) {
            body.fail(
                "tensor " + t.name + ": its data offset " + std::to_string(offset) + " lies past the end of the file");
            break;
        }
        dataNeeded = std::max(dataNeeded, offset + std::uint64_t(t.bytes));
        g.tensors.push_back(std::move(t));
    }
    if (!body.ok())
        return std::nullopt;
    const auto alignIt = g.numbers.find("general.alignment");
    const std::uint64_t align = alignIt != g.numbers.end() && alignIt->second >= 1 && alignIt->second <= 65536
        ? std::uint64_t(alignIt->second)
        : 32;
    const std::uint64_t headerEnd = body.pos();
    const std::uint64_t dataStart = (headerEnd + align - 1) / align * align;
    if (!g.tensors.empty() && (dataStart > fileSize || dataNeeded > fileSize - dataStart)) {
        error = file + ": the tensors' data runs past the end of the file (it needs "
            + std::to_string(dataStart + dataNeeded) + " bytes, the file has " + std::to_string(fileSize)
            + "): the file is truncated; download it again";
        return std::nullopt;
    }
    return g;
}

} // namespace rfx
