// Shapes of the operators that onnx_adapt.cpp moved out of ONNX 1.12's view: the opset-18-23
// signatures and the operators new since 17, written from onnx/onnx's own definitions and shape
// functions (onnx/defs/reduction/defs.cc, tensor/defs.cc, nn/defs.cc, math/defs.cc, at opset 23).
// Where an older schema has the same shape rule (a pool with dilations is MaxPool's, a Bitwise
// operator broadcasts as Add) its shape function is used on a copy of the node.
#include "onnx_internal.h"

#include <onnx/defs/schema.h>
#include <onnx/shape_inference/implementation.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <functional>
#include <map>

namespace rfx::onnximport {

namespace {

using Dims = std::vector<std::int64_t>;

struct Context {
    const onnx::NodeProto& n;
    const TypeMap& types;
    const DataMap& data;
    const Shapes& s;

    const onnx::TypeProto* type(int i) const
    {
        if (i >= n.input_size() || n.input(i).empty())
            return nullptr;
        auto it = types.find(n.input(i));
        return it == types.end() ? nullptr : it->second;
    }
    const Dims* dims(int i) const
    {
        if (i >= n.input_size())
            return nullptr;
        auto it = s.dims.find(n.input(i));
        return it == s.dims.end() ? nullptr : &it->second;
    }
    const Value* value(int i) const
    {
        if (i >= n.input_size() || n.input(i).empty())
            return nullptr;
        auto it = s.values.find(n.input(i));
        return it == s.values.end() ? nullptr : &it->second;
    }
    int elemType(int i) const
    {
        const auto* t = type(i);
        return t && t->has_tensor_type() ? t->tensor_type().elem_type() : onnx::TensorProto::FLOAT;
    }
};

onnx::TypeProto tensorType(int elemType, const Dims& dims)
{
    onnx::TypeProto t;
    t.mutable_tensor_type()->set_elem_type(elemType);
    auto* shape = t.mutable_tensor_type()->mutable_shape();
    for (auto d : dims)
        shape->add_dim()->set_dim_value(d);
    return t;
}

std::int64_t normalized(std::int64_t axis, size_t rank) { return axis < 0 ? axis + std::int64_t(rank) : axis; }

Dims axesOf(const Value* v, size_t rank)
{
    Dims axes;
    if (v)
        for (double x : v->data)
            axes.push_back(normalized(std::int64_t(x), rank));
    return axes;
}

bool validAxes(const Dims& axes, size_t rank)
{
    return std::all_of(axes.begin(), axes.end(), [&](std::int64_t a) { return a >= 0 && a < std::int64_t(rank); });
}

// A node's outputs by another schema's shape function (the copy's op_type and attributes set by `edit`).
Outputs delegated(const Context& c, const char* op, int version, const std::function<void(onnx::NodeProto&)>& edit)
{
    const onnx::OpSchema* schema = onnx::OpSchemaRegistry::Schema(op, version, "");
    if (!schema || !schema->has_type_and_shape_inference_function())
        return {};
    onnx::NodeProto copy = c.n;
    copy.set_op_type(op);
    copy.set_domain("");
    edit(copy);
    onnx::shape_inference::InferenceContextImpl ctx(copy, c.types, c.data, {});
    schema->GetTypeAndShapeInferenceFunction()(ctx);
    Outputs out(size_t(copy.output_size()));
    for (int o = 0; o < copy.output_size(); ++o)
        if (const auto* t = ctx.getOutputType(size_t(o)))
            out[size_t(o)] = *t;
    return out;
}

void keepAttributes(onnx::NodeProto& n, std::initializer_list<const char*> names)
{
    google::protobuf::RepeatedPtrField<onnx::AttributeProto> kept;
    for (const auto& a : n.attribute())
        if (std::any_of(names.begin(), names.end(), [&](const char* k) { return a.name() == k; }))
            *kept.Add() = a;
    n.mutable_attribute()->Swap(&kept);
}

Outputs reduce(const Context& c)
{
    const Dims* in = c.dims(0);
    if (!in)
        return {};
    const bool keep = intAttr(c.n, "keepdims", 1) != 0;
    const Dims axes = axesOf(c.value(1), in->size());
    if (c.type(1) && !c.value(1))
        return {}; // axes computed at run time
    if (!validAxes(axes, in->size()))
        throw ImportError("axes: outside the input's " + std::to_string(in->size()) + " dimensions");
    if (axes.empty() && intAttr(c.n, "noop_with_empty_axes", 0) != 0)
        return { tensorType(c.elemType(0), *in) };
    Dims out;
    for (size_t i = 0; i < in->size(); ++i) {
        const bool reduced = axes.empty() || std::find(axes.begin(), axes.end(), std::int64_t(i)) != axes.end();
        if (!reduced)
            out.push_back((*in)[i]);
        else if (keep)
            out.push_back(1);
    }
    return { tensorType(c.elemType(0), out) };
}

// Split-18: the sizes given as input 1, or num_outputs pieces of ceil(extent / num_outputs), the last
// one smaller (onnx/defs/tensor/defs.cc).
Outputs split(const Context& c)
{
    const Dims* in = c.dims(0);
    if (!in || in->empty())
        return {};
    const std::int64_t axis = normalized(intAttr(c.n, "axis", 0), in->size());
    if (axis < 0 || axis >= std::int64_t(in->size()))
        throw ImportError("axis: outside the input's " + std::to_string(in->size()) + " dimensions");
    const std::int64_t extent = (*in)[size_t(axis)];
    const int pieces = c.n.output_size();
    Dims sizes;
    if (const Value* v = c.value(1)) {
        for (double x : v->data)
            sizes.push_back(std::int64_t(x));
    } else {
        const std::int64_t count = intAttr(c.n, "num_outputs", pieces);
        if (count < 1 || count != pieces)
            throw ImportError("num_outputs: " + std::to_string(count) + " for " + std::to_string(pieces) + " outputs");
        const std::int64_t chunk = (extent + count - 1) / count;
        for (std::int64_t i = 0; i < count; ++i)
            sizes.push_back(std::max<std::int64_t>(0, std::min(chunk, extent - i * chunk)));
    }
    if (int(sizes.size()) != pieces)
        throw ImportError("split: " + std::to_string(sizes.size()) + " sizes for " + std::to_string(pieces) + " outputs");
    Outputs out;
    for (auto size : sizes) {
        Dims d = *in;
        d[size_t(axis)] = size;
        out.push_back(tensorType(c.elemType(0), d));
    }
    return out;
}

// Pad-18 with axes: pads [begin of each axis..., end of each axis...] on the listed axes.
Outputs pad(const Context& c)
{
    const Dims* in = c.dims(0);
    const Value* pads = c.value(1);
    if (!in || !pads)
        return {};
    Dims axes = axesOf(c.value(3), in->size());
    if (!c.value(3))
        for (size_t i = 0; i < in->size(); ++i)
            axes.push_back(std::int64_t(i));
    if (!validAxes(axes, in->size()) || pads->data.size() != 2 * axes.size())
        throw ImportError("pads: " + std::to_string(pads->data.size()) + " values for " + std::to_string(axes.size()) + " axes");
    Dims out = *in;
    for (size_t i = 0; i < axes.size(); ++i)
        out[size_t(axes[i])] += std::int64_t(pads->data[i]) + std::int64_t(pads->data[i + axes.size()]);
    return { tensorType(c.elemType(0), out) };
}

// Resize-18/19 with axes or keep_aspect_ratio_policy (onnx/defs/tensor/utils.cc, resizeShapeInference):
// sizes, with not_larger / not_smaller, scale every listed axis by the smallest / largest ratio and round.
Outputs resize(const Context& c)
{
    const Dims* in = c.dims(0);
    if (!in)
        return {};
    Dims axes;
    if (const auto* a = attribute(c.n, "axes"))
        for (auto v : a->ints())
            axes.push_back(normalized(v, in->size()));
    else
        for (size_t i = 0; i < in->size(); ++i)
            axes.push_back(std::int64_t(i));
    if (!validAxes(axes, in->size()))
        throw ImportError("axes: outside the input's " + std::to_string(in->size()) + " dimensions");
    Dims out = *in;
    const Value* scales = c.value(2);
    const Value* sizes = c.value(3);
    if (sizes && sizes->data.size() == axes.size()) {
        const auto* p = attribute(c.n, "keep_aspect_ratio_policy");
        const std::string policy = p ? p->s() : "stretch";
        double ratio = policy == "not_larger" ? 1e300 : 0;
        for (size_t i = 0; i < axes.size(); ++i) {
            const double r = sizes->data[i] / double(std::max<std::int64_t>(1, (*in)[size_t(axes[i])]));
            ratio = policy == "not_larger" ? std::min(ratio, r) : std::max(ratio, r);
        }
        for (size_t i = 0; i < axes.size(); ++i)
            out[size_t(axes[i])] = policy == "stretch" ? std::int64_t(sizes->data[i])
                                                       : std::int64_t(std::round(ratio * double((*in)[size_t(axes[i])])));
    } else if (scales && scales->data.size() == axes.size()) {
        for (size_t i = 0; i < axes.size(); ++i)
            out[size_t(axes[i])] = std::int64_t(std::floor(double((*in)[size_t(axes[i])]) * scales->data[i]));
    } else
        return {};
    return { tensorType(c.elemType(0), out) };
}

// Col2Im-18: [N, C x prod(block_shape), L] -> [N, C, image_shape...].
Outputs col2im(const Context& c)
{
    const Dims* in = c.dims(0);
    const Value *image = c.value(1), *block = c.value(2);
    if (!in || !image || !block || in->size() != 3)
        return {};
    std::int64_t blockSize = 1;
    for (double b : block->data)
        blockSize *= std::max<std::int64_t>(1, std::int64_t(b));
    if ((*in)[1] % blockSize != 0)
        throw ImportError("block_shape: its product " + std::to_string(blockSize) + " does not divide the input's "
            + std::to_string((*in)[1]) + " channels");
    Dims out { (*in)[0], (*in)[1] / blockSize };
    for (double x : image->data)
        out.push_back(std::int64_t(x));
    return { tensorType(c.elemType(0), out) };
}

// Attention-23: Q, K, V as [B, S, hidden] (with q_num_heads, kv_num_heads) or [B, heads, S, head_size];
// Y has Q's layout with V's head size; present_key / present_value append the new keys to the past.
Outputs attention(const Context& c)
{
    const Dims *q = c.dims(0), *k = c.dims(1), *v = c.dims(2);
    if (!q || !k || !v || q->size() != k->size() || q->size() != v->size() || (q->size() != 3 && q->size() != 4))
        return {};
    Outputs out(size_t(c.n.output_size()));
    const int type = c.elemType(0);
    const Dims* pastKey = c.dims(4);
    if (q->size() == 4) {
        out[0] = tensorType(type, { (*q)[0], (*q)[1], (*q)[2], (*v)[3] });
        const std::int64_t total = (*k)[2] + (pastKey && pastKey->size() == 4 ? (*pastKey)[2] : 0);
        if (out.size() > 1)
            out[1] = tensorType(type, { (*k)[0], (*k)[1], total, (*k)[3] });
        if (out.size() > 2)
            out[2] = tensorType(type, { (*v)[0], (*v)[1], total, (*v)[3] });
        if (out.size() > 3)
            out[3] = tensorType(type, { (*q)[0], (*q)[1], (*q)[2], total });
        return out;
    }
    const std::int64_t qHeads = intAttr(c.n, "q_num_heads", 0), kvHeads = intAttr(c.n, "kv_num_heads", 0);
    if (qHeads <= 0 || kvHeads <= 0 || (*v)[2] % kvHeads != 0 || (*k)[2] % kvHeads != 0)
        throw ImportError("q_num_heads, kv_num_heads: 3-D inputs need both, dividing the hidden sizes");
    const std::int64_t vHead = (*v)[2] / kvHeads, kHead = (*k)[2] / kvHeads;
    out[0] = tensorType(type, { (*q)[0], (*q)[1], qHeads * vHead });
    const std::int64_t total = (*k)[1] + (pastKey && pastKey->size() == 4 ? (*pastKey)[2] : 0);
    if (out.size() > 1)
        out[1] = tensorType(type, { (*k)[0], kvHeads, total, kHead });
    if (out.size() > 2)
        out[2] = tensorType(type, { (*v)[0], kvHeads, total, vHead });
    if (out.size() > 3)
        out[3] = tensorType(type, { (*q)[0], qHeads, (*q)[1], total });
    return out;
}

// CenterCropPad-18: the listed axes (all by default) take the sizes of input 1.
Outputs centerCropPad(const Context& c)
{
    const Dims* in = c.dims(0);
    const Value* shape = c.value(1);
    if (!in || !shape)
        return {};
    Dims axes;
    if (const auto* a = attribute(c.n, "axes"))
        for (auto v : a->ints())
            axes.push_back(normalized(v, in->size()));
    else
        for (size_t i = 0; i < shape->data.size(); ++i)
            axes.push_back(std::int64_t(i));
    if (!validAxes(axes, in->size()) || axes.size() != shape->data.size())
        throw ImportError("shape: " + std::to_string(shape->data.size()) + " sizes for " + std::to_string(axes.size()) + " axes");
    Dims out = *in;
    for (size_t i = 0; i < axes.size(); ++i)
        out[size_t(axes[i])] = std::int64_t(shape->data[i]);
    return { tensorType(c.elemType(0), out) };
}

} // namespace

bool sameShapeAsInput(const std::string& op)
{
    return op == "Gelu" || op == "Mish" || op == "GroupNormalization" || op == "RMSNormalization" || op == "RotaryEmbedding"
        || op == "SimplifiedLayerNormalization"
        || op == "BitwiseNot" || op == "DequantizeLinear" || op == "QuantizeLinear" || op == "Swish";
}

Outputs adaptedShapes(const onnx::NodeProto& n, const TypeMap& types, const DataMap& data, const Shapes& s)
{
    const Context c { n, types, data, s };
    const std::string& op = n.op_type();
    if (op.starts_with("Reduce"))
        return reduce(c);
    if (op == "Split")
        return split(c);
    if (op == "Pad")
        return pad(c);
    if (op == "Resize")
        return resize(c);
    if (op == "Col2Im")
        return col2im(c);
    if (op == "Attention")
        return attention(c);
    if (op == "CenterCropPad")
        return centerCropPad(c);
    if (op == "AveragePool" || op == "LpPool") // MaxPool-12 has the same shape rule, dilations included
        return delegated(c, "MaxPool", 12, [](onnx::NodeProto& copy) {
            keepAttributes(copy, { "auto_pad", "ceil_mode", "dilations", "kernel_shape", "pads", "strides" });
            copy.mutable_output()->DeleteSubrange(1, std::max(0, copy.output_size() - 1));
        });
    if (op == "BitwiseAnd" || op == "BitwiseOr" || op == "BitwiseXor") // numpy broadcasting, as Add
        return delegated(c, "Add", 14, [](onnx::NodeProto& copy) { copy.clear_attribute(); });
    if (op == "DeformConv") // the output is the convolution's (offsets and mask do not change it)
        return delegated(c, "Conv", 11, [](onnx::NodeProto& copy) {
            keepAttributes(copy, { "dilations", "group", "kernel_shape", "pads", "strides" });
            copy.mutable_input()->DeleteSubrange(2, std::max(0, copy.input_size() - 2));
        });
    if (sameShapeAsInput(op) && n.input_size() > 0 && n.output_size() > 0) {
        const Dims* in = c.dims(0);
        if (!in)
            return {};
        Outputs out(size_t(n.output_size()));
        out[0] = tensorType(c.elemType(0), *in);
        return out;
    }
    return {};
}

// ONNX Runtime's GroupQueryAttention and MultiHeadAttention (ContribOperators.md): the query [B, S, H d]
// (GroupQueryAttention: or Q, K and V packed, [B, S, (H + 2 Hkv) d], key and value absent); key and value
// [B, L, Hkv d] (MultiHeadAttention: or [B, H, L, d], already in the cache's layout); past_key / past_value
// [B, Hkv, P, d] (inputs 3 and 4; 6 and 7 of MultiHeadAttention). The output is [B, S, H d_v]; present_key
// and present_value [B, Hkv, T, d] with T = P + L, or the total_sequence_length input where it is known and
// longer (GroupQueryAttention's buffer shared with the past).
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
            throw ImportError("kv_num_heads: " + std::to_string(kvHeads) + " does not divide the key's " + std::to_string((*k)[2])
                + " features");
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
    static const char* sameShape[] = { "Gelu", "FastGelu", "BiasGelu", "QuickGelu", "QLinearSigmoid", "QLinearLeakyRelu",
        "SkipLayerNormalization", "SimplifiedLayerNormalization", "SkipSimplifiedLayerNormalization", "BiasAdd",
        "RotaryEmbedding" };
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
struct Einsum {
    std::vector<std::string> terms;
    std::string output;
    std::map<char, std::int64_t> extents;
    Dims ellipsis; ///< the broadcast extents "..." stands for
};

std::optional<Einsum> parseEinsum(const onnx::NodeProto& n, const std::function<const Dims*(int)>& dimsOf)
{
    const auto* eq = attribute(n, "equation");
    if (!eq)
        return std::nullopt;
    std::string e;
    for (char ch : eq->s())
        if (ch != ' ')
            e += ch;
    Einsum r;
    const size_t arrow = e.find("->");
    const std::string lhs = e.substr(0, arrow);
    for (size_t at = 0;;) {
        const size_t comma = lhs.find(',', at);
        r.terms.push_back(lhs.substr(at, comma == std::string::npos ? std::string::npos : comma - at));
        if (comma == std::string::npos)
            break;
        at = comma + 1;
    }
    if (int(r.terms.size()) != n.input_size())
        return std::nullopt;
    std::map<char, int> uses;
    for (size_t t = 0; t < r.terms.size(); ++t) {
        const Dims* d = dimsOf(int(t));
        if (!d)
            return std::nullopt;
        std::string term = r.terms[t];
        const size_t dots = term.find("...");
        const size_t letters = term.size() - (dots == std::string::npos ? 0 : 3);
        if (letters > d->size())
            return std::nullopt;
        const size_t broadcast = dots == std::string::npos ? 0 : d->size() - letters;
        if (dots != std::string::npos) {
            Dims mine(d->begin() + std::ptrdiff_t(dots), d->begin() + std::ptrdiff_t(dots + broadcast));
            if (mine.size() > r.ellipsis.size())
                r.ellipsis.insert(r.ellipsis.begin(), mine.size() - r.ellipsis.size(), 1);
            for (size_t i = 0; i < mine.size(); ++i) {
                auto& slot = r.ellipsis[r.ellipsis.size() - mine.size() + i];
                slot = std::max(slot, mine[i]);
            }
            term.erase(dots, 3);
        }
        for (size_t i = 0, dim = 0; i < term.size(); ++i, ++dim) {
            if (dots != std::string::npos && i == dots)
                dim += broadcast;
            if (!std::isalpha(static_cast<unsigned char>(term[i])))
                return std::nullopt;
            r.extents[term[i]] = std::max(r.extents[term[i]], (*d)[dim]);
            ++uses[term[i]];
        }
    }
    if (arrow != std::string::npos) {
        r.output = e.substr(arrow + 2);
    } else { // implicit: "..." first, then the letters used once, in alphabetical order
        r.output = lhs.find("...") != std::string::npos ? "..." : "";
        for (const auto& [letter, count] : uses)
            if (count == 1)
                r.output += letter;
    }
    return r;
}

Dims einsumOutput(const Einsum& e)
{
    Dims out;
    for (size_t i = 0; i < e.output.size(); ++i) {
        if (e.output.compare(i, 3, "...") == 0) {
            out.insert(out.end(), e.ellipsis.begin(), e.ellipsis.end());
            i += 2;
        } else if (auto it = e.extents.find(e.output[i]); it != e.extents.end())
            out.push_back(it->second);
    }
    return out;
}

Outputs recurrentShapes(const onnx::NodeProto& n, const TypeMap& types, const DataMap& data, const Shapes& s)
{
    // ONNX's RNN shape rule (onnx/defs/rnn/defs.cc, RNNShapeInference), from the extents alone: X is
    // [seq, batch, input] ([batch, seq, input] with layout 1); Y [seq, directions, batch, hidden] ([batch,
    // seq, directions, hidden]); Y_h and Y_c [directions, batch, hidden] ([batch, directions, hidden]).
    const Context c { n, types, data, s };
    const Dims* x = c.dims(0);
    if (!x || x->size() != 3)
        return {};
    const bool batchFirst = intAttr(n, "layout", 0) == 1;
    const auto* direction = attribute(n, "direction");
    const std::int64_t directions = direction && direction->s() == "bidirectional" ? 2 : 1;
    std::int64_t hidden = intAttr(n, "hidden_size", -1);
    if (const Dims* r = c.dims(2); hidden <= 0 && r && r->size() == 3)
        hidden = (*r)[2];
    if (hidden <= 0)
        return {};
    const std::int64_t seq = (*x)[batchFirst ? 1 : 0], batch = (*x)[batchFirst ? 0 : 1];
    const int type = c.elemType(0);
    Outputs out(size_t(n.output_size()));
    if (!out.empty())
        out[0] = tensorType(type, batchFirst ? Dims { batch, seq, directions, hidden } : Dims { seq, directions, batch, hidden });
    for (size_t i = 1; i < out.size() && i < 3; ++i)
        out[i] = tensorType(type, batchFirst ? Dims { batch, directions, hidden } : Dims { directions, batch, hidden });
    return out;
}

Outputs missingShapes(const onnx::NodeProto& n, const TypeMap& types, const DataMap& data, const Shapes& s)
{
    const Context c { n, types, data, s };
    const std::string& op = n.op_type();
    // LayerNormalization's Mean and InvStdDev: the input's extents, 1 from `axis` on.
    if (op == "LayerNormalization" && c.dims(0) && n.output_size() > 1) {
        Dims stats = *c.dims(0);
        const std::int64_t axis = normalized(intAttr(n, "axis", -1), stats.size());
        for (size_t i = size_t(std::max<std::int64_t>(0, axis)); i < stats.size(); ++i)
            stats[i] = 1;
        Outputs out(size_t(n.output_size()));
        out[1] = tensorType(onnx::TensorProto::FLOAT, stats);
        if (out.size() > 2)
            out[2] = tensorType(onnx::TensorProto::FLOAT, stats);
        return out;
    }
    if (op == "Einsum")
        if (auto e = parseEinsum(n, [&](int i) { return c.dims(i); }))
            return { tensorType(c.elemType(0), einsumOutput(*e)) };
    // ai.onnx.preview.training's Gradient: each output shaped as the tensor (attribute xs) it differentiates by.
    if (op == "Gradient")
        if (const auto* xs = attribute(n, "xs")) {
            Outputs out(size_t(n.output_size()));
            for (int i = 0; i < xs->strings_size() && i < n.output_size(); ++i)
                if (auto it = types.find(xs->strings(i)); it != types.end())
                    out[size_t(i)] = *it->second;
            return out;
        }
    return {};
}

double einsumFlops(const onnx::NodeProto& n, const std::function<const std::vector<std::int64_t>&(const std::string&)>& dims)
{
    const auto e = parseEinsum(n, [&](int i) { return &dims(n.input(i)); });
    if (!e)
        return -1;
    double all = 1; // every combination of the letters' indices, once
    for (const auto& [letter, extent] : e->extents)
        all *= double(extent);
    for (auto d : e->ellipsis)
        all *= double(d);
    return e->terms.size() > 1 ? 2 * all : all;
}

} // namespace rfx::onnximport
