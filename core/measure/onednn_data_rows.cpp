// The rows that move data more than they compute, as oneDNN primitives on activations laid out as
// a framework's CPU path keeps them (channels last, blocked or plain; see Layout): pooling, batch
// norm (inference, global statistics), eltwise, binary, concat, and copies as reorders.
#include "measure/onednn_rows.h"

#include <map>

namespace rfx::onednn {

using namespace dnnl;
using dt = memory::data_type;

namespace {

struct EltwiseKind {
    algorithm alg;
    float alpha = 0, beta = 0;
};

// ONNX's elementwise operators that are one oneDNN eltwise algorithm.
const std::map<std::string, EltwiseKind>& eltwiseByOnnxOp()
{
    static const std::map<std::string, EltwiseKind> kinds {
        { "Relu", { algorithm::eltwise_relu } },
        { "LeakyRelu", { algorithm::eltwise_relu, 0.01f } },
        { "Sigmoid", { algorithm::eltwise_logistic } },
        { "Tanh", { algorithm::eltwise_tanh } },
        { "Exp", { algorithm::eltwise_exp } },
        { "Sqrt", { algorithm::eltwise_sqrt } },
        { "Abs", { algorithm::eltwise_abs } },
        { "Elu", { algorithm::eltwise_elu, 1.f } },
        { "HardSwish", { algorithm::eltwise_hardswish } },
        { "Clip", { algorithm::eltwise_clip, 0.f, 6.f } },
        { "Neg", { algorithm::eltwise_linear, -1.f, 0.f } },
        { "Reciprocal", { algorithm::eltwise_pow, 1.f, -1.f } },
        { "com.microsoft:Gelu", { algorithm::eltwise_gelu_erf } },
        { "com.microsoft:FastGelu", { algorithm::eltwise_gelu_tanh } },
        // x cos + rotate(x) sin: each element of q and k read and written once, as a linear pass does
        { "com.microsoft:RotaryEmbedding", { algorithm::eltwise_linear, 1.f, 0.f } },
    };
    return kinds;
}

const std::map<std::string, algorithm>& binaryByOnnxOp()
{
    static const std::map<std::string, algorithm> kinds { { "Add", algorithm::binary_add },
        { "Sub", algorithm::binary_sub }, { "Mul", algorithm::binary_mul }, { "Div", algorithm::binary_div } };
    return kinds;
}

PreparedRow eltwise(const Layer& l, const engine& eng, dt type, EltwiseKind kind, Layout layout)
{
    const memory::desc data = activations(dimsOf(l.out), type, layout);
    const eltwise_forward::primitive_desc pd(
        eltwise_forward::desc(prop_kind::forward_inference, kind.alg, data, kind.alpha, kind.beta), eng);
    PreparedRow r;
    r.primitive = eltwise_forward(pd);
    r.name = std::string("eltwise (") + pd.impl_info_str() + ")";
    r.args[DNNL_ARG_SRC] = filled(data, eng);
    r.args[DNNL_ARG_DST] = filled(data, eng);
    return r;
}

PreparedRow binaryOp(const Layer& l, const engine& eng, dt type, algorithm alg, Layout layout)
{
    memory::dims a = dimsOf(l.out), b;
    if (l.op == Op::Bias) { // a per-channel vector broadcast over the map
        b.assign(a.size(), 1);
        b[1] = l.out.c;
    } else {
        if (l.inShapes.size() != 2 || l.inShapes[0].rank != l.out.rank || l.inShapes[1].rank != l.out.rank)
            throw Unsupported { "a binary operation needs two inputs of the output's rank" };
        a = dimsOf(l.inShapes[0]);
        b = dimsOf(l.inShapes[1]);
    }
    const memory::desc src0 = activations(a, type, layout), src1 = activations(b, type, layout),
                       dst = activations(dimsOf(l.out), type, layout);
    const binary::primitive_desc pd(binary::desc(alg, src0, src1, dst), eng);
    PreparedRow r;
    r.primitive = binary(pd);
    r.name = std::string("binary (") + pd.impl_info_str() + ")";
    r.args[DNNL_ARG_SRC_0] = filled(src0, eng);
    r.args[DNNL_ARG_SRC_1] = filled(src1, eng);
    r.args[DNNL_ARG_DST] = filled(dst, eng);
    return r;
}

} // namespace

PreparedRow pooling(const Layer& l, const engine& eng, dt type, Layout layout)
{
    const Shape& in = l.inShapes.at(0);
    const Window w = windowOf(l, in, false);
    const memory::desc src = activations(dimsOf(in), type, layout), dst = activations(dimsOf(l.out), type, layout);
    const auto alg = l.op == Op::MaxPool ? algorithm::pooling_max : algorithm::pooling_avg_include_padding;
    const pooling_forward::primitive_desc pd(
        pooling_forward::desc(prop_kind::forward_inference, alg, src, dst, w.strides, w.kernel, w.padL, w.padR), eng);
    PreparedRow r;
    r.primitive = pooling_forward(pd);
    r.name = std::string("pooling (") + pd.impl_info_str() + ")";
    r.args[DNNL_ARG_SRC] = filled(src, eng);
    r.args[DNNL_ARG_DST] = filled(dst, eng);
    if (pd.workspace_desc().get_size() > 0)
        r.args[DNNL_ARG_WORKSPACE] = filled(pd.workspace_desc(), eng);
    return r;
}

PreparedRow batchNorm(const Layer& l, const engine& eng, dt type, Layout layout)
{
    const memory::desc data = activations(dimsOf(l.out), type, layout), channel = plain({ l.out.c }, dt::f32);
    const auto flags
        = normalization_flags::use_global_stats | normalization_flags::use_scale | normalization_flags::use_shift;
    const batch_normalization_forward::primitive_desc pd(
        batch_normalization_forward::desc(prop_kind::forward_inference, data, 1e-5f, flags), eng);
    PreparedRow r;
    r.primitive = batch_normalization_forward(pd);
    r.name = std::string("batch_normalization (") + pd.impl_info_str() + ")";
    r.args[DNNL_ARG_SRC] = filled(data, eng);
    r.args[DNNL_ARG_DST] = filled(data, eng);
    r.args[DNNL_ARG_MEAN] = filled(channel, eng);
    r.args[DNNL_ARG_VARIANCE] = filled(channel, eng, 1.f);
    r.args[DNNL_ARG_SCALE] = filled(channel, eng);
    r.args[DNNL_ARG_SHIFT] = filled(channel, eng);
    return r;
}

PreparedRow concatenation(const Layer& l, const engine& eng, dt type, Layout layout)
{
    std::vector<memory::desc> sources;
    for (const Shape& s : l.inShapes)
        sources.push_back(activations(dimsOf(s), type, layout));
    const concat::primitive_desc pd(activations(dimsOf(l.out), type, layout), 1, sources, eng);
    PreparedRow r;
    r.primitive = concat(pd);
    r.name = std::string("concat (") + pd.impl_info_str() + ")";
    for (size_t i = 0; i < sources.size(); ++i)
        r.args[DNNL_ARG_MULTIPLE_SRC + int(i)] = filled(sources[i], eng);
    r.args[DNNL_ARG_DST] = filled(pd.dst_desc(), eng);
    return r;
}

PreparedRow copy(const Layer& l, const engine& eng, dt type, Layout layout)
{
    // Slices, pads, transposes, resizes: their traffic, measured as a copy of the output's size.
    const memory::desc data = activations(dimsOf(l.out), type, layout);
    PreparedRow r;
    memory from = filled(data, eng), to = filled(data, eng);
    r.primitive = reorder(from, to);
    r.name = "reorder (copy of the output's size)";
    r.args[DNNL_ARG_FROM] = from;
    r.args[DNNL_ARG_TO] = to;
    return r;
}

PreparedRow elementwise(const Layer& l, const engine& eng, dt type, const std::string& onnxOp, Layout layout)
{
    if (l.op == Op::ReLU)
        return eltwise(l, eng, type, { algorithm::eltwise_relu }, layout);
    if (l.op == Op::Bias || l.op == Op::Add)
        return binaryOp(l, eng, type, algorithm::binary_add, layout);
    if (const auto it = eltwiseByOnnxOp().find(onnxOp); it != eltwiseByOnnxOp().end())
        return eltwise(l, eng, type, it->second, layout);
    if (onnxOp == "LayerNormalization" || onnxOp == "SimplifiedLayerNormalization")
        return layerNorm(l, eng, type, onnxOp == "LayerNormalization");
    if (onnxOp == "Softmax")
        return softmax(l, eng, type);
    if (onnxOp == "llm:SiluMul" || onnxOp == "llm:GeluMul")
        return gatedActivation(l, eng, type, onnxOp == "llm:GeluMul");
    if (const auto it = binaryByOnnxOp().find(onnxOp); it != binaryByOnnxOp().end())
        return binaryOp(l, eng, type, it->second, layout);
    throw Unsupported { "no oneDNN primitive for "
        + (onnxOp.empty() ? std::string("this elementwise row") : "ONNX " + onnxOp) };
}

} // namespace rfx::onednn
