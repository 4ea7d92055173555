// A network's rows as oneDNN 2.x primitives (operation descriptor -> primitive_desc -> primitive) at
// the row's shapes: convolutions, transposed convolutions, inner products and matmuls in the formats
// the library chooses (format_tag::any) with the reorders that choice costs; pooling, batch norm,
// eltwise, binary and concat in the plain layout the row's producer leaves; copies as reorders.
#include "measure/onednn_rows.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>

namespace rfx::onednn {

using namespace dnnl;
using dt = memory::data_type;
using tag = memory::format_tag;

memory::dims dimsOf(const Shape& s)
{
    switch (s.rank) {
    case 1:
        return { s.n };
    case 2:
        return { s.n, s.c };
    case 3:
        return { s.n, s.c, s.h };
    case 5:
        return { s.n, s.c, s.d, s.h, s.w };
    default:
        return { s.n, s.c, s.h, s.w };
    }
}

tag plainTag(size_t rank)
{
    static constexpr tag tags[] = { tag::a, tag::ab, tag::abc, tag::abcd, tag::abcde, tag::abcdef };
    return tags[std::clamp<size_t>(rank, 1, 6) - 1];
}

memory::desc plain(const memory::dims& d, dt type) { return memory::desc(d, type, plainTag(d.size())); }
memory::desc chosenByLibrary(const memory::dims& d, dt type) { return memory::desc(d, type, tag::any); }

memory::desc activations(const memory::dims& d, dt type, Layout layout)
{
    if (d.size() < 4 || d.size() > 5 || layout == Layout::Plain)
        return plain(d, type);
    if (layout == Layout::Blocked)
        return memory::desc(d, type, d.size() == 4 ? tag::nChw16c : tag::nCdhw16c);
    if (layout == Layout::Blocked8)
        return memory::desc(d, type, d.size() == 4 ? tag::nChw8c : tag::nCdhw8c);
    return memory::desc(d, type, d.size() == 4 ? tag::nhwc : tag::ndhwc);
}

std::string layoutName(Layout layout, size_t rank)
{
    switch (layout) {
    case Layout::ChannelsLast:
        return rank == 4 ? "nhwc" : rank == 5 ? "ndhwc" : "plain";
    case Layout::Blocked:
        return rank == 4 ? "nChw16c" : rank == 5 ? "nCdhw16c" : "plain";
    case Layout::Blocked8:
        return rank == 4 ? "nChw8c" : rank == 5 ? "nCdhw8c" : "plain";
    case Layout::Plain:
        return rank == 4 ? "nchw" : rank == 5 ? "ncdhw" : "plain";
    }
    return "plain";
}

std::vector<Layout> layoutsToTry(const Layer& l)
{
    switch (l.op) {
    case Op::MaxPool:
    case Op::AvgPool:
    case Op::BatchNorm:
    case Op::ReLU:
    case Op::Bias:
    case Op::Add:
    case Op::Eltwise:
    case Op::Concat:
    case Op::Copy:
        if (l.out.rank == 4 || l.out.rank == 5)
            return { Layout::ChannelsLast, Layout::Blocked, Layout::Blocked8, Layout::Plain };
        return { Layout::Plain };
    default:
        return { Layout::Plain };
    }
}

// Small pseudo-random values in [-0.5, 0.5), the same on every run (a fixed linear congruential
// generator); `constant` >= 0 fills that value instead (batch norm's variance).
void fill(const memory& m, float constant)
{
    const memory::desc d = m.get_desc();
    const size_t bytes = d.get_size();
    void* p = m.get_data_handle();
    std::uint32_t state = 12345;
    auto next = [&] {
        if (constant >= 0)
            return constant;
        state = state * 1664525u + 1013904223u;
        return float(state >> 8) / float(1 << 24) - 0.5f;
    };
    if (d.data_type() == dt::f32) {
        auto* f = static_cast<float*>(p);
        for (size_t i = 0; i < bytes / sizeof(float); ++i)
            f[i] = next();
    } else if (d.data_type() == dt::bf16) {
        auto* h = static_cast<std::uint16_t*>(p);
        for (size_t i = 0; i < bytes / sizeof(std::uint16_t); ++i) {
            const float v = next();
            std::uint32_t u = 0;
            std::memcpy(&u, &v, sizeof u);
            h[i] = std::uint16_t(u >> 16);
        }
    } else if (d.data_type() == dt::u8 || d.data_type() == dt::s8) {
        // Quantised data: small whole numbers (0..15 unsigned, -8..7 signed), as a scale maps [-0.5, 0.5) there.
        auto* b = static_cast<std::uint8_t*>(p);
        const bool isSigned = d.data_type() == dt::s8;
        for (size_t i = 0; i < bytes; ++i) {
            const int v = int((next() + 0.5f) * 16) - (isSigned ? 8 : 0);
            b[i] = std::uint8_t(std::int8_t(std::clamp(v, isSigned ? -8 : 0, isSigned ? 7 : 15)));
        }
    } else {
        std::memset(p, 0, bytes);
    }
}

namespace {
// int8 rows: u8 activations, s8 weights, f32 bias (oneDNN's int8 convolutions and inner products).
dt weightType(dt activations) { return activations == dt::u8 ? dt::s8 : activations; }
dt biasType(dt activations) { return activations == dt::u8 ? dt::f32 : activations; }
} // namespace

memory filled(const memory::desc& d, const engine& eng, float constant)
{
    memory m(d, eng);
    fill(m, constant);
    return m;
}

// Kernel, strides and paddings of a convolution, transposed convolution or pool over 1 to 3
// spatial extents. The right padding is what makes the row's output extent (asymmetric pads of
// imported models included).

Window windowOf(const Layer& l, const Shape& in, bool transposed)
{
    if (in.rank < 3 || in.rank > 5 || in.rank != l.out.rank)
        throw Unsupported { "input of rank " + std::to_string(in.rank) + " (1 to 3 spatial extents are run)" };
    const std::vector<std::int64_t> all[3]
        = { { in.d, in.h, in.w }, { l.out.d, l.out.h, l.out.w }, { l.kd, l.kh, l.kw } };
    const size_t spatial = size_t(in.rank - 2),
                 first = in.rank == 3 ? 1 : 3 - spatial; // rank 3: [N, C, L] keeps L in h
    Window w;
    for (size_t i = first; i < first + spatial; ++i) {
        const std::int64_t inExt = all[0][i], outExt = all[1][i], k = all[2][i];
        w.kernel.push_back(k);
        w.strides.push_back(l.stride);
        w.padL.push_back(l.padding);
        w.padR.push_back(transposed ? (inExt - 1) * l.stride + k - l.padding - outExt
                                    : (outExt - 1) * l.stride + k - inExt - l.padding);
    }
    return w;
}

// The last real extent of a shape (its features): [N, F] -> F, [N, L, F] -> F.
std::int64_t lastExtent(const Shape& s)
{
    const std::int64_t e[] = { s.n, s.c, s.h, s.w, s.w };
    return e[std::clamp(s.rank, 1, 5) - 1];
}

namespace {

// An argument in the format the primitive chose. When that is not the plain layout, the reorder
// from (or, for the output, back to) the plain layout is kept to be timed.
memory argument(const memory::desc& chosen, const memory::dims& dims, dt type, const engine& eng,
    std::vector<Reorder>& reorders, bool output = false)
{
    memory inPrimitive = filled(chosen, eng);
    const memory::desc user = plain(dims, type);
    if (!(chosen == user)) {
        memory inUser = filled(user, eng);
        if (output)
            reorders.push_back({ reorder(inPrimitive, inUser), inPrimitive, inUser });
        else
            reorders.push_back({ reorder(inUser, inPrimitive), inUser, inPrimitive });
    }
    return inPrimitive;
}

bool hasEpilogue(const Layer& l, Op op)
{
    return std::find(l.epilogue.begin(), l.epilogue.end(), op) != l.epilogue.end();
}

memory::dims weightDims(const Layer& l, const Shape& in, const Window& w)
{
    memory::dims d;
    if (l.groups > 1)
        d = { l.groups, l.out.c / l.groups, in.c / l.groups };
    else
        d = { l.out.c, in.c };
    d.insert(d.end(), w.kernel.begin(), w.kernel.end());
    return d;
}

primitive_attr fusedAttributes(const Layer& l)
{
    primitive_attr attr;
    if (hasEpilogue(l, Op::ReLU)) { // bias is the primitive's own argument; batch norm folds into the weights
        post_ops ops;
        ops.append_eltwise(1.f, algorithm::eltwise_relu, 0.f, 0.f);
        attr.set_post_ops(ops);
    }
    return attr;
}

PreparedRow convolution(const Layer& l, const engine& eng, dt type, bool transposed)
{
    const Shape& in = l.inShapes.at(0);
    const Window w = windowOf(l, in, transposed);
    const memory::dims src = dimsOf(in), dst = dimsOf(l.out), wei = weightDims(l, in, w), bias { l.out.c };
    const bool withBias = hasEpilogue(l, Op::Bias);
    const auto s = chosenByLibrary(src, type), wd = chosenByLibrary(wei, weightType(type)),
               b = chosenByLibrary(bias, biasType(type)), d = chosenByLibrary(dst, type);
    PreparedRow r;
    memory::desc srcDesc, weiDesc, dstDesc;
    // The same for both: a descriptor with or without bias, the primitive, its chosen formats.
    auto make = [&]<typename Forward>(Forward*, algorithm alg, const char* kind) {
        const auto desc = withBias
            ? typename Forward::desc(prop_kind::forward_inference, alg, s, wd, b, d, w.strides, w.padL, w.padR)
            : typename Forward::desc(prop_kind::forward_inference, alg, s, wd, d, w.strides, w.padL, w.padR);
        const typename Forward::primitive_desc pd(desc, fusedAttributes(l), eng);
        r.primitive = Forward(pd);
        r.name = std::string(kind) + " (" + pd.impl_info_str() + ")";
        srcDesc = pd.src_desc(), weiDesc = pd.weights_desc(), dstDesc = pd.dst_desc();
    };
    if (transposed)
        make(static_cast<deconvolution_forward*>(nullptr), algorithm::deconvolution_direct, "deconvolution");
    else
        make(static_cast<convolution_forward*>(nullptr), algorithm::convolution_direct, "convolution");
    r.args[DNNL_ARG_SRC] = argument(srcDesc, src, type, eng, r.reorders);
    r.args[DNNL_ARG_WEIGHTS] = argument(weiDesc, wei, weightType(type), eng, r.reorders);
    r.args[DNNL_ARG_DST] = argument(dstDesc, dst, type, eng, r.reorders, true);
    if (withBias)
        r.args[DNNL_ARG_BIAS] = filled(plain(bias, biasType(type)), eng);
    return r;
}

PreparedRow innerProduct(const Layer& l, const engine& eng, dt type)
{
    // A linear layer on [N, C, H, W] (flattened) or [N, F]: M x K times K x N.
    const std::int64_t n = l.out.rank >= 4 ? l.out.c : lastExtent(l.out);
    const std::int64_t m = l.out.elements() / n, k = l.inShapes.at(0).elements() / m;
    const memory::dims src { m, k }, wei { n, k }, dst { m, n }, bias { n };
    const bool withBias = hasEpilogue(l, Op::Bias);
    const auto desc = withBias
        ? inner_product_forward::desc(prop_kind::forward_inference, chosenByLibrary(src, type),
            chosenByLibrary(wei, weightType(type)), chosenByLibrary(bias, biasType(type)), chosenByLibrary(dst, type))
        : inner_product_forward::desc(prop_kind::forward_inference, chosenByLibrary(src, type),
            chosenByLibrary(wei, weightType(type)), chosenByLibrary(dst, type));
    const inner_product_forward::primitive_desc pd(desc, fusedAttributes(l), eng);
    PreparedRow r;
    r.primitive = inner_product_forward(pd);
    r.name = std::string("inner_product (") + pd.impl_info_str() + ")";
    r.args[DNNL_ARG_SRC] = argument(pd.src_desc(), src, type, eng, r.reorders);
    r.args[DNNL_ARG_WEIGHTS] = argument(pd.weights_desc(), wei, weightType(type), eng, r.reorders);
    r.args[DNNL_ARG_DST] = argument(pd.dst_desc(), dst, type, eng, r.reorders, true);
    if (withBias)
        r.args[DNNL_ARG_BIAS] = filled(plain(bias, biasType(type)), eng);
    return r;
}

PreparedRow matrixProduct(const Layer& l, const engine& eng, dt type)
{
    // opsPerElement = 2 K; the second operand is a K x N matrix, or one per batch when it is that
    // much larger (attention's products of two activations).
    const std::int64_t k = std::int64_t(l.opsPerElement / 2), n = lastExtent(l.out);
    if (k < 1 || n < 1)
        throw Unsupported { "the matrix product's inner extent is not known" };
    const std::int64_t b
        = l.inShapes.size() > 1 && l.inShapes[1].elements() > k * n ? l.inShapes[1].elements() / (k * n) : 1;
    const std::int64_t m = l.out.elements() / (b * n);
    const memory::dims src = b > 1 ? memory::dims { b, m, k } : memory::dims { m, k };
    const memory::dims wei = b > 1 ? memory::dims { b, k, n } : memory::dims { k, n };
    const memory::dims dst = b > 1 ? memory::dims { b, m, n } : memory::dims { m, n };
    const matmul::primitive_desc pd(
        matmul::desc(plain(src, type), chosenByLibrary(wei, weightType(type)), plain(dst, type)), eng);
    PreparedRow r;
    r.primitive = matmul(pd);
    r.name = std::string("matmul (") + pd.impl_info_str() + ")";
    r.args[DNNL_ARG_SRC] = filled(pd.src_desc(), eng);
    r.args[DNNL_ARG_WEIGHTS] = argument(pd.weights_desc(), wei, weightType(type), eng, r.reorders);
    r.args[DNNL_ARG_DST] = filled(pd.dst_desc(), eng);
    const int copies = weightCopies(l, double(pd.weights_desc().get_size()));
    if (copies > 1) {
        r.rotated = DNNL_ARG_WEIGHTS;
        r.rotation.push_back(r.args[DNNL_ARG_WEIGHTS]);
        for (int i = 1; i < copies; ++i)
            r.rotation.push_back(filled(pd.weights_desc(), eng));
        r.name += ", " + std::to_string(copies) + " copies of its weights in turn";
    }
    return r;
}

PreparedRow prepare(const Layer& l, const engine& eng, dt type, const std::string& onnxOp, Layout layout)
{
    switch (l.op) {
    case Op::Conv:
        return convolution(l, eng, type, false);
    case Op::ConvTranspose:
        return convolution(l, eng, type, true);
    case Op::Linear:
        return innerProduct(l, eng, type);
    case Op::MatMul:
        return matrixProduct(l, eng, type);
    case Op::MaxPool:
    case Op::AvgPool:
        return pooling(l, eng, type, layout);
    case Op::BatchNorm:
        return batchNorm(l, eng, type, layout);
    case Op::ReLU:
    case Op::Bias:
    case Op::Add:
    case Op::Eltwise:
        return elementwise(l, eng, type, onnxOp, layout);
    case Op::Concat:
        return concatenation(l, eng, type, layout);
    case Op::Copy:
        return copy(l, eng, type, layout);
    case Op::Reduce:
        throw Unsupported { "reductions are not run yet" };
    case Op::Optimizer:
        throw Unsupported { "the optimizer step is training, not run" };
    case Op::Uncounted:
        throw Unsupported { "an operator the tool does not know" };
    }
    throw Unsupported { "unknown row" };
}

} // namespace

int weightCopies(const Layer& l, double bytes)
{
    if (l.block.empty() || l.repeats <= 1 || bytes <= 0)
        return 1;
    constexpr double kStream = 512.0 * 1024 * 1024;
    // Between two runs of one block's row a pass streams its weights and cache read (passBytes): as
    // many copies as stream that much, up to 512 MiB, not only one per block. With one per block, a
    // decode step's 16 blocks of 1 MB caches (context 128, batch 4) stayed in the L3 between runs, and
    // the context row came out 18 % above its DRAM roof (Zen 5 set, 2026-12-06).
    const double stream = std::min(kStream, std::max(l.passBytes, bytes * std::floor(l.repeats)));
    constexpr double kMostCopies = 4096; // a norm's 8 KB of weights: 32 MiB of copies
    return int(std::min(std::ceil(stream / bytes), std::max(std::floor(l.repeats), kMostCopies)));
}

double rowBytes(const Layer& l, double elementBytes)
{
    double elements = double(l.out.elements()); // the output, every input (a matrix product's second operand too)
    for (const Shape& s : l.inShapes)
        elements += double(s.elements());
    if ((l.op == Op::Conv || l.op == Op::ConvTranspose) && !l.inShapes.empty())
        elements += double(l.out.c) * double(l.inShapes[0].c / std::max(l.groups, 1)) * l.kd * l.kh * l.kw;
    if (l.op == Op::Linear && !l.inShapes.empty()) {
        const double n = double(l.out.rank >= 4 ? l.out.c : lastExtent(l.out));
        const double m = double(l.out.elements()) / n;
        elements += double(l.inShapes[0].elements()) / m * n; // K x N weights
    }
    if (l.op == Op::MatMul && l.inShapes.size() == 1) { // K x N weights, a block row's copies of them
        const double k = l.opsPerElement / 2, n = double(lastExtent(l.out));
        elements += k * n * weightCopies(l, k * n * elementBytes) / 2; // one copy is plain and reordered already
    }
    return 2 * elements * elementBytes; // plain and reordered copies
}

PreparedRow prepareRow(const Layer& l, const engine& eng, dt type, const std::string& onnxOp, Layout layout)
{
    if (l.inShapes.empty() && l.op != Op::Copy)
        throw Unsupported { "the row has no input shape" };
    if (onnxOp == "llm:FlashAttention")
        throw Unsupported { "FlashAttention is one fused kernel, which oneDNN 2.6 does not have: measure attention as "
                            "two matrix products and a softmax (naive attention, measure --llm's way)" };
    try {
        PreparedRow r = prepare(l, eng, type, onnxOp, layout);
        r.layout = layout;
        if (layoutsToTry(l).size() > 1)
            r.name += " on " + layoutName(layout, size_t(l.out.rank));
        return r;
    } catch (const dnnl::error& e) {
        if (type == dt::u8) // int8 kernels exist for convolutions, matrix products, pools and elementwise rows
            throw Unsupported { std::string("oneDNN has no int8 kernel for it (") + e.what() + ")" };
        throw Unsupported { std::string("oneDNN cannot run it: ") + e.what() };
    }
}

} // namespace rfx::onednn
