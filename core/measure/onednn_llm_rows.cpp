// A language model's data rows as oneDNN 2.x runs them on a CPU: RMS and layer norms as layer
// normalization (oneDNN 2.6 has no RMS norm; layer norm moves the same bytes and computes a mean
// more), the scores' softmax, the rotary embedding as one eltwise pass over q and k (x cos +
// rotate(x) sin reads and writes each once, as eltwise_linear does), and a gated activation (SiLU or
// GELU of the gate times up) as a binary multiply with the activation fused.
#include "measure/onednn_rows.h"

namespace rfx::onednn {

using namespace dnnl;
using dt = memory::data_type;

namespace {

// The row's features as the last extent of a 2-D [rows, features] tensor.
memory::dims rowsOfFeatures(const Shape& s)
{
    const std::int64_t f = lastExtent(s);
    return { std::max<std::int64_t>(1, s.elements() / std::max<std::int64_t>(1, f)), f };
}

} // namespace

PreparedRow layerNorm(const Layer& l, const engine& eng, dt type, bool shift)
{
    const memory::desc data = plain(rowsOfFeatures(l.out), type);
    const auto flags
        = shift ? normalization_flags::use_scale | normalization_flags::use_shift : normalization_flags::use_scale;
    const layer_normalization_forward::primitive_desc pd(
        layer_normalization_forward::desc(prop_kind::forward_inference, data, 1e-5f, flags), eng);
    PreparedRow r;
    r.primitive = layer_normalization_forward(pd);
    r.name = std::string("layer_normalization (") + pd.impl_info_str() + ")";
    r.args[DNNL_ARG_SRC] = filled(data, eng);
    r.args[DNNL_ARG_DST] = filled(pd.dst_desc(), eng);
    const memory::desc features = plain({ data.dims()[1] }, dt::f32);
    r.args[DNNL_ARG_SCALE] = filled(features, eng);
    if (shift)
        r.args[DNNL_ARG_SHIFT] = filled(features, eng);
    if (pd.mean_desc().get_size() > 0) {
        r.args[DNNL_ARG_MEAN] = filled(pd.mean_desc(), eng);
        r.args[DNNL_ARG_VARIANCE] = filled(pd.variance_desc(), eng, 1.f);
    }
    return r;
}

PreparedRow softmax(const Layer& l, const engine& eng, dt type)
{
    const memory::desc data = plain(rowsOfFeatures(l.out), type); // over the keys, the last extent
    const softmax_forward::primitive_desc pd(softmax_forward::desc(prop_kind::forward_inference, data, 1), eng);
    PreparedRow r;
    r.primitive = softmax_forward(pd);
    r.name = std::string("softmax (") + pd.impl_info_str() + ")";
    r.args[DNNL_ARG_SRC] = filled(data, eng);
    r.args[DNNL_ARG_DST] = filled(data, eng);
    return r;
}

PreparedRow gatedActivation(const Layer& l, const engine& eng, dt type, bool gelu)
{
    // oneDNN 2.6 runs an eltwise with a binary post-op on its reference kernel only (0.5 % of the bound
    // on a Zen 5): the multiply with the activation fused after it runs on its vector kernels. The same
    // tensors are read and written and the same operations done, the multiply before the activation.
    if (l.inShapes.size() != 2)
        throw Unsupported { "a gated activation needs the gate and up as its inputs" };
    const memory::desc gate = plain(dimsOf(l.inShapes[0]), type), up = plain(dimsOf(l.inShapes[1]), type),
                       dst = plain(dimsOf(l.out), type);
    post_ops ops;
    ops.append_eltwise(1.f, gelu ? algorithm::eltwise_gelu_tanh : algorithm::eltwise_swish, 1.f, 0.f);
    primitive_attr attr;
    attr.set_post_ops(ops);
    const binary::primitive_desc pd(binary::desc(algorithm::binary_mul, gate, up, dst), attr, eng);
    PreparedRow r;
    r.primitive = binary(pd);
    r.name = std::string("binary_mul with ") + (gelu ? "gelu_tanh" : "swish") + " (" + pd.impl_info_str() + ")";
    r.args[DNNL_ARG_SRC_0] = filled(gate, eng);
    r.args[DNNL_ARG_SRC_1] = filled(up, eng);
    r.args[DNNL_ARG_DST] = filled(dst, eng);
    return r;
}

} // namespace rfx::onednn
