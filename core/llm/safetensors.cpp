// safetensors headers (huggingface/safetensors, "Format"): u64 N, N bytes of JSON, the data.
#include "llm/weight_files.h"

#include "base/json_error.h"

#include <nlohmann/json.hpp>

#include <array>
#include <cstring>

namespace rfx {

int safetensorsDtypeBits(std::string_view d)
{
    struct Entry {
        std::string_view name;
        int bits;
    };
    static constexpr Entry kDtypes[] = { { "BOOL", 8 }, { "U8", 8 }, { "I8", 8 }, { "F8_E5M2", 8 }, { "F8_E4M3", 8 },
        { "F8_E8M0", 8 }, { "I16", 16 }, { "U16", 16 }, { "F16", 16 }, { "BF16", 16 }, { "I32", 32 }, { "U32", 32 },
        { "F32", 32 }, { "F64", 64 }, { "I64", 64 }, { "U64", 64 }, { "F4", 4 }, { "F6_E2M3", 6 }, { "F6_E3M2", 6 } };
    for (const Entry& e : kDtypes)
        if (e.name == d)
            return e.bits;
    return 0;
}

std::optional<std::vector<StoredTensor>> readSafetensors(
    std::istream& in, std::uint64_t fileSize, const std::string& file, std::string& error)
{
    error.clear();
    constexpr std::uint64_t kMaxHeader = 100'000'000; // the format's own limit
    std::array<unsigned char, 8> lenBytes {};
    if (fileSize < 8 || !in.read(reinterpret_cast<char*>(lenBytes.data()), 8)) {
        error = file + ": shorter than a safetensors header (8 bytes of length, then JSON): the file is truncated";
        return std::nullopt;
    }
    std::uint64_t n = 0;
    for (int i = 7; i >= 0; --i)
        n = n << 8 | lenBytes[size_t(i)];
    if (n > kMaxHeader || n > fileSize - 8) {
        error = file + ": its header length (" + std::to_string(n) + " bytes) "
            + (n > fileSize - 8 ? "runs past the end of the file (" + std::to_string(fileSize) + " bytes)"
                                : std::string("is over the format's 100,000,000-byte limit"))
            + ": the file is truncated or not a safetensors file";
        return std::nullopt;
    }
    std::string text(size_t(n), '\0');
    if (!in.read(text.data(), std::streamsize(n))) {
        error = file + ": its header could not be read: the file is truncated";
        return std::nullopt;
    }
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception& e) {
        error = file + ": its header is not valid JSON (" + describeJsonError(e)
            + "): the file is damaged or not a safetensors file";
        return std::nullopt;
    }
    if (!j.is_object()) {
        error = file + ": its header must be a JSON object of tensors";
        return std::nullopt;
    }
    const std::uint64_t dataSize = fileSize - 8 - n;
    std::vector<StoredTensor> tensors;
    for (const auto& [name, t] : j.items()) {
        if (name == "__metadata__")
            continue;
        const std::string where = file + ": tensor " + name + ": ";
        if (!t.is_object() || !t.contains("dtype") || !t["dtype"].is_string() || !t.contains("shape")
            || !t["shape"].is_array() || !t.contains("data_offsets") || !t["data_offsets"].is_array()
            || t["data_offsets"].size() != 2) {
            error = where
                + "needs dtype (a string), shape (a list) and data_offsets ([begin, end]): the header is damaged";
            return std::nullopt;
        }
        StoredTensor s;
        s.name = name;
        s.type = t["dtype"].get<std::string>();
        const int bits = safetensorsDtypeBits(s.type);
        if (bits == 0) {
            error = where + "dtype: \"" + s.type
                + "\" is not a safetensors dtype the tool knows (F32, F16, BF16, F8_E4M3, I8, ...)";
            return std::nullopt;
        }
        double elements = 1;
        for (const auto& d : t["shape"]) {
            if (!d.is_number_unsigned()) {
                error = where + "shape: every extent must be a whole number of 0 or more, got " + d.dump();
                return std::nullopt;
            }
            const auto v = d.get<std::uint64_t>();
            elements *= double(v);
            s.shape.push_back(std::int64_t(std::min<std::uint64_t>(v, std::uint64_t(1) << 62)));
        }
        const auto& o = t["data_offsets"];
        if (!o[0].is_number_unsigned() || !o[1].is_number_unsigned()) {
            error = where + "data_offsets: must be two whole numbers [begin, end]";
            return std::nullopt;
        }
        const auto begin = o[0].get<std::uint64_t>(), end = o[1].get<std::uint64_t>();
        if (begin > end || end > dataSize) {
            error = where + "data_offsets [" + std::to_string(begin) + ", " + std::to_string(end)
                + "] lie outside the file's " + std::to_string(dataSize)
                + " bytes of data: the file is truncated or damaged";
            return std::nullopt;
        }
        const double expected = elements * bits / 8;
        if (expected != double(end - begin)) {
            error = where + "its shape and dtype make " + std::to_string(expected) + " bytes, its data_offsets "
                + std::to_string(end - begin) + ": the header is damaged";
            return std::nullopt;
        }
        s.elements = std::int64_t(elements);
        s.bytes = expected;
        tensors.push_back(std::move(s));
    }
    return tensors;
}

} // namespace rfx
