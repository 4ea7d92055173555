// Reading an ONNX file without its weights: the protobuf wire format is copied field by field, and the
// values of every tensor of more than kMaxValueElements elements (initializers, Constant nodes, the
// tensors of subgraphs and functions) are skipped, never held. The importer needs only their shapes,
// so a 550 MB model with inline weights is parsed from a few hundred kilobytes of graph.
//
// Why by hand: protobuf 3.21 (Debian 12) parses a message whole; it has no way to leave a field out.
// The wire format is stable and small (varints, fixed 32/64-bit, length-delimited), and the fields
// followed are ONNX's own numbers (onnx/onnx.proto): ModelProto.graph = 7, functions = 25;
// GraphProto.node = 1, initializer = 5; NodeProto.attribute = 5; AttributeProto.t = 5, g = 6,
// tensors = 10, graphs = 11; FunctionProto.node = 7; TensorProto.dims = 1, and its data fields
// float_data 4, int32_data 5, string_data 6, int64_data 7, raw_data 9, double_data 10, uint64_data 11.
#include "onnx/onnx_internal.h"

#include <google/protobuf/io/coded_stream.h>

namespace rfx::onnximport {

namespace {

using google::protobuf::io::CodedInputStream;

enum class Kind { Model, Graph, Node, Attribute, Tensor, Function, Opaque };

constexpr int kMaxDepth = 64;

void putVarint(std::string& out, std::uint64_t v)
{
    while (v >= 0x80) {
        out += char((v & 0x7f) | 0x80);
        v >>= 7;
    }
    out += char(v);
}

// What a length-delimited field of a message of kind `k` holds, when it is a message the filter enters.
Kind inner(Kind k, int field)
{
    switch (k) {
    case Kind::Model:
        return field == 7 ? Kind::Graph : field == 25 ? Kind::Function : Kind::Opaque;
    case Kind::Graph:
        return field == 1 ? Kind::Node : field == 5 ? Kind::Tensor : Kind::Opaque;
    case Kind::Node:
        return field == 5 ? Kind::Attribute : Kind::Opaque;
    case Kind::Attribute:
        return field == 5 || field == 10 ? Kind::Tensor : field == 6 || field == 11 ? Kind::Graph : Kind::Opaque;
    case Kind::Function:
        return field == 7 ? Kind::Node : Kind::Opaque;
    default:
        return Kind::Opaque;
    }
}

bool isTensorData(int field)
{
    return field == 4 || field == 5 || field == 6 || field == 7 || field == 9 || field == 10 || field == 11;
}

// Copies one message of kind `k` (up to the stream's current limit) to `out`, leaving out the data of
// large tensors. False on a malformed stream.
bool copyMessage(CodedInputStream& in, Kind k, std::string& out, int depth)
{
    if (depth > kMaxDepth)
        return false;
    double elements = 1; // a tensor's, from its dims (written before its data by every serializer)
    bool sawDims = false;
    while (std::uint32_t tag = in.ReadTag()) {
        const int field = int(tag >> 3), wire = int(tag & 7);
        if (field == 0)
            return false;
        switch (wire) {
        case 0: { // varint
            std::uint64_t v;
            if (!in.ReadVarint64(&v))
                return false;
            if (k == Kind::Tensor && field == 1) {
                elements *= double(v);
                sawDims = true;
            }
            putVarint(out, tag);
            putVarint(out, v);
            break;
        }
        case 1: { // fixed 64
            std::uint64_t v;
            if (!in.ReadLittleEndian64(&v))
                return false;
            putVarint(out, tag);
            for (int i = 0; i < 8; ++i)
                out += char((v >> (8 * i)) & 0xff);
            break;
        }
        case 5: { // fixed 32
            std::uint32_t v;
            if (!in.ReadLittleEndian32(&v))
                return false;
            putVarint(out, tag);
            for (int i = 0; i < 4; ++i)
                out += char((v >> (8 * i)) & 0xff);
            break;
        }
        case 2: { // length-delimited
            std::uint32_t length;
            if (!in.ReadVarint32(&length) || length > std::uint32_t(INT32_MAX))
                return false;
            if (k == Kind::Tensor && isTensorData(field) && sawDims && elements > double(kMaxValueElements)) {
                if (!in.Skip(int(length)))
                    return false;
                break;
            }
            const Kind sub = inner(k, field);
            std::string bytes;
            if (k == Kind::Tensor && field == 1) { // packed dims
                const auto limit = in.PushLimit(int(length));
                std::uint64_t d;
                while (in.BytesUntilLimit() > 0 && in.ReadVarint64(&d)) {
                    elements *= double(d);
                    putVarint(bytes, d);
                }
                sawDims = true;
                const bool whole = in.BytesUntilLimit() == 0;
                in.PopLimit(limit);
                if (!whole)
                    return false;
            } else if (sub == Kind::Opaque) {
                if (!in.ReadString(&bytes, int(length)))
                    return false;
            } else {
                const auto limit = in.PushLimit(int(length));
                const bool ok = copyMessage(in, sub, bytes, depth + 1) && in.BytesUntilLimit() == 0;
                in.PopLimit(limit);
                if (!ok)
                    return false;
            }
            putVarint(out, tag);
            putVarint(out, bytes.size());
            out += bytes;
            break;
        }
        default: // groups (3, 4) are not in ONNX's messages
            return false;
        }
    }
    return in.ConsumedEntireMessage();
}

} // namespace

bool skimModel(google::protobuf::io::ZeroCopyInputStream& stream, onnx::ModelProto& model)
{
    CodedInputStream in(&stream);
    in.SetTotalBytesLimit(INT32_MAX);
    in.SetRecursionLimit(kMaxDepth);
    std::string graph;
    if (!copyMessage(in, Kind::Model, graph, 0))
        return false;
    return model.ParseFromString(graph);
}

} // namespace rfx::onnximport
