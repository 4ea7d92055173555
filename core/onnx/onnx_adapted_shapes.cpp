// Shapes of the operators that onnx_adapt.cpp moved out of ONNX 1.12's view: the opset-18-23
// signatures and the operators new since 17, written from onnx/onnx's own definitions and shape
// functions (onnx/defs/reduction/defs.cc, tensor/defs.cc, nn/defs.cc, math/defs.cc, at opset 23).
// Where an older schema has the same shape rule (a pool with dilations is MaxPool's, a Bitwise
// operator broadcasts as Add) its shape function is used on a copy of the node.
#include "onnx/onnx_shape_context.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>

namespace rfx::onnximport {

using namespace shapes;

namespace {

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
        throw ImportError(
            "split: " + std::to_string(sizes.size()) + " sizes for " + std::to_string(pieces) + " outputs");
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
        throw ImportError(
            "pads: " + std::to_string(pads->data.size()) + " values for " + std::to_string(axes.size()) + " axes");
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
            out[size_t(axes[i])] = policy == "stretch"
                ? std::int64_t(sizes->data[i])
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
        throw ImportError(
            "shape: " + std::to_string(shape->data.size()) + " sizes for " + std::to_string(axes.size()) + " axes");
    Dims out = *in;
    for (size_t i = 0; i < axes.size(); ++i)
        out[size_t(axes[i])] = std::int64_t(shape->data[i]);
    return { tensorType(c.elemType(0), out) };
}

} // namespace

bool sameShapeAsInput(const std::string& op)
{
    return op == "Gelu" || op == "Mish" || op == "GroupNormalization" || op == "RMSNormalization"
        || op == "RotaryEmbedding" || op == "SimplifiedLayerNormalization" || op == "BitwiseNot"
        || op == "DequantizeLinear" || op == "QuantizeLinear" || op == "Swish";
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
} // namespace rfx::onnximport
