#pragma once
// The headers of GGUF and safetensors files, read without their tensors' data. Debian 12 packages
// no reader of either format, so these are the smallest readers that do the job: every count and
// length is checked against the file's size before anything is allocated for it.
#include <cstdint>
#include <istream>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rfx {

struct StoredTensor {
    std::string name;
    std::string type; ///< "Q4_K", "BF16", "F8_E4M3"
    std::vector<std::int64_t> shape;
    std::int64_t elements = 0;
    double bytes = 0; ///< as stored (a quantized type's blocks and scales included)
};

/// One GGUF type's block: `blockElements` weights in `blockBytes` bytes (ggml's type_traits:
/// blck_size and type_size, ggml-org/ggml src/ggml.c and ggml-common.h).
struct GgufType {
    int id;
    std::string_view name;
    int blockElements;
    int blockBytes;
};
/// The type of a GGUF id, or null for ids ggml never had or has removed (4, 5, 31-33, 36-38).
const GgufType* ggufType(std::uint32_t id);

struct GgufFile {
    std::uint32_t version = 0;
    /// The metadata's scalar values (numbers as double, booleans as 0/1, strings as text), by key;
    /// arrays by their length only (key + ".length").
    std::map<std::string, double, std::less<>> numbers;
    std::map<std::string, std::string, std::less<>> strings;
    std::vector<StoredTensor> tensors;
};
/// Reads a GGUF (version 2 or 3) stream of `fileSize` bytes: header, metadata and tensor infos; each
/// tensor's data must lie inside the file. `error` says why not, naming `file` and the field.
std::optional<GgufFile> readGguf(std::istream& in, std::uint64_t fileSize, const std::string& file, std::string& error);

/// safetensors: an 8-byte little-endian header length N (at most 100,000,000, the format's own limit),
/// N bytes of JSON {name: {dtype, shape, data_offsets: [begin, end]}, "__metadata__": {...}}, then the
/// data; each tensor's end - begin must be its elements x its dtype's size and lie inside the file.
std::optional<std::vector<StoredTensor>> readSafetensors(
    std::istream& in, std::uint64_t fileSize, const std::string& file, std::string& error);
/// Bits per element of a safetensors dtype (F16 16, F8_E4M3 8, F4 4, ...); 0 for one the format does not have.
int safetensorsDtypeBits(std::string_view dtype);

} // namespace rfx
