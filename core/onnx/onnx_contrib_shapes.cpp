// Shapes of ONNX Runtime's contrib operators (com.microsoft domain), which ONNX's own library does not
// know, from ONNX Runtime's ContribOperators documentation: MultiHeadAttention and GroupQueryAttention,
// RotaryEmbedding, the fused and skip normalisations, activations and matrix products, MatMulNBits,
// the QLinear operators. Where a standard operator has the same shape rule, its function is used.
#include "onnx/onnx_shape_context.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>

namespace rfx::onnximport {

using namespace shapes;

namespace {

Outputs contribAttention(const Context& c)
{
    const bool gqa = c.n.op_type() == "GroupQueryAttention";
    const Dims* q = c.dims(0);
    const Dims* k = c.dims(1);
    const Dims* v = c.dims(2);
    const Dims* past = c.dims(gqa ? 3 : 6);
    const std::int64_t heads = intAttr(c.n, "num_heads", 0);
    const std::int64_t kvHeads = gqa ? intAttr(c.n, "kv_num_heads", 0) : heads;
    if (!q || q->size() != 3 || heads <= 0 || kvHeads <= 0)
        return {};
    std::int64_t headSize = 0, vHeadSize = 0, newKeys = (*q)[1];
    bool cacheLayout = false; // MultiHeadAttention's key given as [B, H, L, d]: nothing is appended
    if (k && v && k->size() == 3 && v->size() == 3) {
        if ((*k)[2] % kvHeads != 0 || (*v)[2] % kvHeads != 0)
            throw ImportError("kv_num_heads: " + std::to_string(kvHeads) + " does not divide the key's "
                + std::to_string((*k)[2]) + " features");
        headSize = (*k)[2] / kvHeads;
        vHeadSize = (*v)[2] / kvHeads;
        newKeys = (*k)[1];
    } else if (k && v && k->size() == 4 && v->size() == 4) {
        headSize = (*k)[3];
        vHeadSize = (*v)[3];
        newKeys = (*k)[2];
        cacheLayout = true;
    } else if (!k) { // packed
        const std::int64_t parts = gqa ? heads + 2 * kvHeads : 3 * heads;
        if ((*q)[2] % parts != 0)
            throw ImportError("num_heads: the packed query's " + std::to_string((*q)[2]) + " features are not "
                + std::to_string(parts) + " heads of one size");
        headSize = vHeadSize = (*q)[2] / parts;
    } else
        return {};
    const std::int64_t cached = past && past->size() == 4 && !cacheLayout ? (*past)[2] : 0;
    std::int64_t total = cached + newKeys;
    if (const Value* t = gqa ? c.value(6) : nullptr; t && t->data.size() == 1)
        total = std::max(total, std::int64_t(t->data[0]));
    Outputs out(size_t(c.n.output_size()));
    const int type = c.elemType(0);
    out[0] = tensorType(type, { (*q)[0], (*q)[1], heads * vHeadSize });
    if (out.size() > 1)
        out[1] = tensorType(type, { (*q)[0], kvHeads, total, headSize });
    if (out.size() > 2)
        out[2] = tensorType(type, { (*q)[0], kvHeads, total, vHeadSize });
    return out;
}

} // namespace

Outputs contribShapes(const onnx::NodeProto& n, const TypeMap& types, const DataMap& data, const Shapes& s)
{
    // ONNX Runtime's contrib operators (com.microsoft), from its ContribOperators documentation.
    const Context c { n, types, data, s };
    const std::string& op = n.op_type();
    auto inputs = [](std::initializer_list<int> keep) {
        return [keep](onnx::NodeProto& copy) {
            google::protobuf::RepeatedPtrField<std::string> picked;
            for (int i : keep)
                *picked.Add() = i < copy.input_size() ? copy.input(i) : std::string();
            while (!picked.empty() && picked.Get(picked.size() - 1).empty())
                picked.RemoveLast();
            copy.mutable_input()->Swap(&picked);
        };
    };
    if (op == "MatMulNBits") { // A [..., K] times N x K weights -> [..., N]
        const Dims* a = c.dims(0);
        const std::int64_t cols = intAttr(n, "N", 0);
        if (!a || a->empty() || cols <= 0)
            return {};
        Dims out = *a;
        out.back() = cols;
        return { tensorType(c.elemType(0), out) };
    }
    if (op == "GroupQueryAttention" || op == "MultiHeadAttention")
        return contribAttention(c);
    if (op == "QGemm" || op == "FusedGemm")
        return delegated(c, "Gemm", 13, [&](onnx::NodeProto& copy) {
            keepAttributes(copy, { "transA", "transB" });
            inputs(op == "QGemm" ? std::initializer_list<int> { 0, 3 } : std::initializer_list<int> { 0, 1 })(copy);
            copy.mutable_output()->DeleteSubrange(1, std::max(0, copy.output_size() - 1));
        });
    if (op == "FusedConv")
        return delegated(c, "Conv", 11, [&](onnx::NodeProto& copy) {
            keepAttributes(copy, { "auto_pad", "dilations", "group", "kernel_shape", "pads", "strides" });
            inputs({ 0, 1, 2 })(copy);
        });
    if (op == "FusedMatMul" && intAttr(n, "transA", 0) == 0 && intAttr(n, "transB", 0) == 0)
        return delegated(c, "MatMul", 13, [&](onnx::NodeProto& copy) {
            copy.clear_attribute();
            inputs({ 0, 1 })(copy);
        });
    if (op == "QLinearAdd" || op == "QLinearMul")
        return delegated(c, "Add", 14, [&](onnx::NodeProto& copy) {
            copy.clear_attribute();
            inputs({ 0, 3 })(copy);
        });
    static const char* sameShape[]
        = { "Gelu", "FastGelu", "BiasGelu", "QuickGelu", "QLinearSigmoid", "QLinearLeakyRelu", "SkipLayerNormalization",
              "SimplifiedLayerNormalization", "SkipSimplifiedLayerNormalization", "BiasAdd", "RotaryEmbedding" };
    if (std::any_of(std::begin(sameShape), std::end(sameShape), [&](const char* k) { return op == k; }) && c.dims(0)) {
        Outputs out(size_t(std::max(1, n.output_size())));
        out[0] = tensorType(c.elemType(0), *c.dims(0));
        // the normalizations' statistics (mean, inverse deviation: the normalized axis kept as 1) and the
        // Skip* operators' last output, the input plus the skip (the residual the next block adds to)
        if (op.ends_with("LayerNormalization")) {
            Dims stats = *c.dims(0);
            if (!stats.empty())
                stats.back() = 1;
            const bool skip = op.starts_with("Skip");
            for (size_t i = 1; i < out.size(); ++i)
                out[i] = tensorType(onnx::TensorProto::FLOAT, skip && i == 3 ? *c.dims(0) : stats);
            if (skip && out.size() > 3)
                out[3] = tensorType(c.elemType(0), *c.dims(0));
        }
        return out;
    }
    return {};
}

// Einsum's equation ("bij,bjk->bik", implicit outputs, "..."): each letter's extent from the operands.

} // namespace rfx::onnximport
