// How one counted ONNX node becomes a row: its operator class and its FLOPs, by the conventions of
// onnxConventions() (README "ONNX models"). The translation pass (onnx_ops.cpp) calls countRow for
// every node that reads a live tensor; false means the tool does not count the operator.
#include "onnx/onnx_internal.h"

#include <algorithm>

namespace rfx::onnximport {

namespace {

std::string stringAttr(const onnx::NodeProto& n, const char* name, const std::string& fallback)
{
    const auto* a = attribute(n, name);
    return a ? a->s() : fallback;
}

int firstOf(const onnx::NodeProto& n, const char* name, int fallback)
{
    const auto* a = attribute(n, name);
    return a && a->ints_size() > 0 ? int(a->ints(0)) : fallback;
}

bool isMicrosoft(const onnx::NodeProto& n) { return n.domain() == "com.microsoft"; }

// Convolutions (Conv, ConvTranspose, ConvInteger, QLinearConv, FusedConv): the kernel from the weight
// [Cout, Cin/g, k...] (1-D k = Kh; 2-D Kh, Kw; 3-D Kd, Kh, Kw), checked against the input's channels.
void convolution(const onnx::NodeProto& n, Layer& l, const CountContext& c, int weight, bool transposed)
{
    const Shape& in = l.inShapes.front();
    if (n.input_size() <= weight || n.input(weight).empty())
        throw ImportError(c.file + ": " + c.where + ": the weight's shape is unknown");
    const auto& w = c.dims(n.input(weight));
    if (int(w.size()) != in.rank)
        throw ImportError(c.file + ": " + c.where + ": the weight has rank " + std::to_string(w.size())
            + ", the input rank " + std::to_string(in.rank));
    const size_t k = w.size() == 5 ? 3 : 2;
    l.kd = int(w.size() == 5 ? w[2] : 1);
    l.kh = int(w.size() > k ? w[k] : 1);
    l.kw = int(w.size() > k + 1 ? w[k + 1] : 1);
    l.op = transposed ? Op::ConvTranspose : Op::Conv;
    l.groups = int(intAttr(n, "group", 1));
    l.stride = firstOf(n, "strides", 1);
    l.padding = firstOf(n, "pads", 0);
    if (l.groups < 1 || in.c % l.groups != 0)
        throw ImportError(c.file + ": " + c.where + ": group: " + std::to_string(l.groups) + " does not divide the "
            + std::to_string(in.c) + " input channels");
    // ONNX's shape function does not compare the channels: a wrong weight would count silently.
    const std::int64_t expected = transposed ? w[0] : w[1] * l.groups;
    if (expected != in.c)
        throw ImportError(c.file + ": " + c.where + ": the weight '" + n.input(weight) + "' expects "
            + std::to_string(expected) + " input channels, the input has " + std::to_string(in.c));
}

// A matrix product whose contracted extent K is the first operand's last (a MatMul, MatMulInteger,
// QLinearMatMul, FusedMatMul): 2 K per output element, on the matrix ceiling.
bool matmul(const onnx::NodeProto& n, Layer& l, const CountContext& c, std::int64_t k = -1)
{
    if (n.input_size() < 2)
        return false;
    if (k < 0) {
        const auto& a = c.dims(n.input(0));
        if (a.empty())
            return false;
        k = a.back();
    }
    l.op = Op::MatMul;
    l.opsPerElement = 2.0 * double(k);
    return true;
}

// A Gemm (or QGemm, FusedGemm): A [M, K] (transA: [K, M]) times B -> [M, N], a linear layer of M rows.
bool gemm(const onnx::NodeProto& n, Layer& l, const CountContext& c)
{
    if (n.input_size() < 2)
        return false;
    const auto& a = c.dims(n.input(0));
    if (a.size() != 2)
        return false;
    const bool transA = intAttr(n, "transA", 0) != 0;
    l.op = Op::Linear;
    l.inShapes.front() = Shape { transA ? a[1] : a[0], transA ? a[0] : a[1], 1, 1, 2 };
    return true;
}

// LSTM, GRU, RNN: per step, batch element and direction, the gates' matrix products
// 2 G H (I + H) (G = 4, 3, 1 gates), plus 2 G H for the two biases when B is given; the gates'
// elementwise activations are not counted. X is [seq, batch, I] ([batch, seq, I] with layout 1),
// W [directions, G H, I].
bool recurrent(const onnx::NodeProto& n, Layer& l, const CountContext& c, double gates)
{
    if (n.input_size() < 3 || n.input(1).empty())
        return false;
    const auto& x = c.dims(n.input(0));
    const auto& w = c.dims(n.input(1));
    if (x.size() != 3 || w.size() != 3 || w[1] % std::int64_t(gates) != 0)
        return false;
    const bool batchFirst = intAttr(n, "layout", 0) != 0;
    const double steps = double(batchFirst ? x[1] : x[0]), batch = double(batchFirst ? x[0] : x[1]);
    const double hidden = double(w[1]) / gates, input = double(w[2]), directions = double(w[0]);
    const bool bias = n.input_size() > 3 && !n.input(3).empty();
    const double perStep = 2 * gates * hidden * (input + hidden) + (bias ? 2 * gates * hidden : 0);
    const double total = perStep * steps * batch * directions;
    l.op = Op::MatMul;
    l.opsPerElement = total / double(std::max<std::int64_t>(1, l.out.elements()));
    return true;
}

// Attention (opset 23): per score (B x q_heads x q_seq x kv_seq) 2 Dk for Q K^T, 1 for the scale, 5 for
// the softmax and 2 Dv for the product with V.
bool attentionRow(const onnx::NodeProto& n, Layer& l, const CountContext& c)
{
    if (n.input_size() < 3 || n.input(1).empty() || n.input(2).empty())
        return false;
    const auto& q = c.dims(n.input(0));
    const auto& k = c.dims(n.input(1));
    const auto& v = c.dims(n.input(2));
    if (q.size() != k.size() || q.size() != v.size() || (q.size() != 3 && q.size() != 4))
        return false;
    double scores = 0, dk = 0, dv = 0;
    if (q.size() == 4) {
        scores = double(q[0]) * double(q[1]) * double(q[2]) * double(k[2]);
        dk = double(q[3]), dv = double(v[3]);
    } else {
        const double heads = double(std::max<std::int64_t>(1, intAttr(n, "q_num_heads", 1)));
        const double kvHeads = double(std::max<std::int64_t>(1, intAttr(n, "kv_num_heads", 1)));
        scores = double(q[0]) * heads * double(q[1]) * double(k[1]);
        dk = double(q[2]) / heads, dv = double(v[2]) / kvHeads;
    }
    l.op = Op::MatMul;
    l.opsPerElement = scores * (2 * dk + 1 + 5 + 2 * dv) / double(std::max<std::int64_t>(1, l.out.elements()));
    return true;
}

// Quantization: QuantizeLinear 3 an element (divide by the scale, round, add the zero point; the
// saturation is free), DequantizeLinear 2 (subtract the zero point, multiply), DynamicQuantizeLinear 5
// (the min and max that give the scale, then quantize).
std::optional<double> quantizationOps(const std::string& op)
{
    if (op == "QuantizeLinear")
        return 3;
    if (op == "DequantizeLinear")
        return 2;
    if (op == "DynamicQuantizeLinear")
        return 5;
    return std::nullopt;
}

// Causal attention's (query, key) pairs: S new queries after P cached keys, query i seeing the P + i + 1
// keys up to itself, or the last `window` of them (local_window_size).
double causalPairs(double queries, double cached, std::int64_t window)
{
    if (window <= 0 || double(window) >= cached + queries)
        return queries * cached + queries * (queries + 1) / 2;
    double pairs = 0;
    const double W = double(window);
    // keys seen rise from P + 1 by one a query until they reach the window, then stay there
    const double rising = std::clamp(W - cached, 0.0, queries); // queries seeing fewer than W keys
    pairs += rising * (cached + 1) + rising * (rising - 1) / 2;
    pairs += (queries - rising) * W;
    return pairs;
}

// GroupQueryAttention (causal by definition) and MultiHeadAttention (causal with unidirectional = 1):
// per (query, key) pair 2 d for Q K^T, 1 for the scale, 5 for the softmax and 2 d_v for the product with V,
// as Attention-23 counts it, over the pairs a causal mask leaves (over every pair where there is none);
// GroupQueryAttention with do_rotary = 1 adds the rotary embedding of Q and K, 3 an element.
bool contribAttentionRow(const onnx::NodeProto& n, Layer& l, const CountContext& c)
{
    const bool gqa = n.op_type() == "GroupQueryAttention";
    const auto& q = c.dims(n.input(0));
    const double heads = double(intAttr(n, "num_heads", 0));
    const double kvHeads = gqa ? double(intAttr(n, "kv_num_heads", 0)) : heads;
    if (q.size() != 3 || heads <= 0 || kvHeads <= 0 || n.output_size() < 1)
        return false;
    const std::vector<std::int64_t>* present
        = n.output_size() > 1 && !n.output(1).empty() ? &c.dims(n.output(1)) : nullptr;
    const double queries = double(q[1]), batch = double(q[0]);
    const double outFeatures = double(l.out.elements()) / std::max(1.0, batch * queries);
    const double dv = outFeatures / heads;
    double dk = dv, keys = queries;
    if (present && present->size() == 4) {
        dk = double((*present)[3]);
        keys = double((*present)[2]);
    } else if (n.input_size() > 1 && !n.input(1).empty()) {
        const auto& k = c.dims(n.input(1));
        keys = k.size() == 4 ? double(k[2]) : k.size() == 3 ? double(k[1]) : keys;
        dk = k.size() == 4 ? double(k[3]) : k.size() == 3 ? double(k[2]) / kvHeads : dk;
    }
    const bool causal = gqa || intAttr(n, "unidirectional", 0) != 0;
    const double pairs = causal
        ? causalPairs(queries, std::max(0.0, keys - queries), gqa ? intAttr(n, "local_window_size", -1) : -1)
        : queries * keys;
    double flops = batch * heads * pairs * (2 * dk + 1 + 5 + 2 * dv);
    if (gqa && intAttr(n, "do_rotary", 0) != 0)
        flops += 3 * batch * queries * (heads + kvHeads) * dk;
    l.op = Op::MatMul;
    l.opsPerElement = flops / double(std::max<std::int64_t>(1, l.out.elements()));
    return true;
}

// ONNX Runtime's contrib operators (com.microsoft), from its ContribOperators documentation.
bool contrib(const onnx::NodeProto& n, Layer& l, const CountContext& c)
{
    const std::string& op = n.op_type();
    // Gelu: x/2 (1 + erf(x/sqrt 2)) = 5 FLOPs an element; BiasGelu adds its bias first (6); FastGelu,
    // x/2 (1 + tanh(c (x + 0.044715 x^3))), 9; QuickGelu, x sigmoid(1.702 x), 6 (a sigmoid is 4).
    static const std::map<std::string, double, std::less<>> elementwise {
        { "Gelu", 5 },
        { "BiasGelu", 6 },
        { "FastGelu", 9 },
        { "QuickGelu", 6 },
        { "QLinearAdd", 1 },
        { "QLinearMul", 1 },
        { "QLinearSigmoid", 4 },
        { "QLinearLeakyRelu", 2 },
        { "SkipLayerNormalization", 8 },
        { "SimplifiedLayerNormalization", 4 },
        { "SkipSimplifiedLayerNormalization", 5 },
        { "BiasAdd", 1 },
    };
    if (auto it = elementwise.find(op); it != elementwise.end()) {
        l.op = Op::Eltwise;
        l.opsPerElement = it->second;
        return true;
    }
    if (op == "FusedConv") {
        convolution(n, l, c, 1, false);
        return true;
    }
    if (op == "FusedMatMul")
        return matmul(n, l, c);
    if (op == "FusedGemm" || op == "QGemm")
        return gemm(n, l, c);
    if (op == "MatMulNBits") // A [..., K] times the N x K weights stored in `bits` bits
        return matmul(n, l, c, intAttr(n, "K", -1) > 0 ? intAttr(n, "K", 1) : -1);
    if (op == "GroupQueryAttention" || op == "MultiHeadAttention")
        return contribAttentionRow(n, l, c);
    if (op == "RotaryEmbedding") { // x cos + rotate(x) sin, as ONNX's own RotaryEmbedding
        l.op = Op::Eltwise;
        l.opsPerElement = 3;
        return true;
    }
    return false;
}

} // namespace

MatrixOperands matrixOperands(const onnx::NodeProto& n)
{
    const std::string& op = n.op_type();
    if (isMicrosoft(n)) {
        if (op == "FusedConv" || op == "FusedGemm")
            return { 1, 2 };
        if (op == "QGemm")
            return { 3, 6 };
        if (op == "MatMulNBits")
            return { 1, 5 };
        return {};
    }
    if (op == "Conv" || op == "ConvTranspose" || op == "Gemm")
        return { 1, 2 };
    if (op == "QLinearConv")
        return { 3, 8 };
    if (op == "ConvInteger")
        return { 1, -1 };
    return {};
}

bool countRow(const onnx::NodeProto& n, Layer& l, const CountContext& c)
{
    if (!isStandard(n))
        return isMicrosoft(n) && contrib(n, l, c);
    const std::string& op = n.op_type();
    const Shape& in = l.inShapes.front();
    if (op == "Conv" || op == "ConvTranspose" || op == "ConvInteger") {
        convolution(n, l, c, 1, op == "ConvTranspose");
        return true;
    }
    if (op == "QLinearConv") {
        convolution(n, l, c, 3, false);
        return true;
    }
    if (op == "Gemm")
        return gemm(n, l, c);
    if (op == "MatMul" || op == "MatMulInteger" || op == "QLinearMatMul")
        return matmul(n, l, c);
    if (op == "LSTM" || op == "GRU" || op == "RNN")
        return recurrent(n, l, c, op == "LSTM" ? 4 : op == "GRU" ? 3 : 1);
    if (op == "Attention")
        return attentionRow(n, l, c);
    if (op == "Einsum") { // a matrix product in index notation
        const double flops = einsumFlops(n, c.dims);
        if (flops < 0)
            return false;
        l.op = n.input_size() > 1 ? Op::MatMul : Op::Reduce;
        l.opsPerElement = flops / double(std::max<std::int64_t>(1, l.out.elements()));
        return true;
    }
    if (op == "BatchNormalization") {
        l.op = Op::BatchNorm;
        return true;
    }
    if (op == "Relu") {
        l.op = Op::ReLU;
        return true;
    }
    if (op == "Add" && l.inShapes.size() == 2 && l.inShapes[0] == l.inShapes[1] && l.inShapes[0] == l.out) {
        l.op = Op::Add; // a residual connection, as in the built-in ResNets
        return true;
    }
    if (auto ops = elementwiseOps(op); ops || (ops = quantizationOps(op))) {
        l.op = Op::Eltwise;
        l.opsPerElement = *ops;
        return true;
    }
    if (op.starts_with("Reduce")) {
        // K inputs per output: K - 1 additions (comparisons); one more for the scaling or the logarithm
        // (Mean, LogSum); 2 K when each input is transformed first (L1, L2, SumSquare, LogSumExp).
        const double k = double(in.elements()) / double(std::max<std::int64_t>(1, l.out.elements()));
        l.op = Op::Reduce;
        l.opsPerElement = (op == "ReduceMean" || op == "ReduceLogSum")                                     ? k
            : (op == "ReduceL1" || op == "ReduceL2" || op == "ReduceSumSquare" || op == "ReduceLogSumExp") ? 2 * k
                                                                                                           : k - 1;
        return true;
    }
    if (op == "MaxPool" || op == "AveragePool" || op == "GlobalAveragePool" || op == "GlobalMaxPool"
        || op == "LpPool") {
        const bool global = op.starts_with("Global");
        l.op = op == "MaxPool" || op == "GlobalMaxPool" ? Op::MaxPool : Op::AvgPool;
        const auto* k = attribute(n, "kernel_shape");
        const int first = in.rank == 5 ? 1 : 0; // 3-D windows: Kd first
        auto window = [&](int i) { return k && k->ints_size() > i ? int(k->ints(i)) : 1; };
        l.kd = global ? int(in.d) : (in.rank == 5 ? window(0) : 1);
        l.kh = global ? int(in.rank > 2 ? in.h : 1) : window(first);
        l.kw = global ? int(in.rank > 3 ? in.w : 1) : window(first + 1);
        l.stride = firstOf(n, "strides", 1);
        l.padding = firstOf(n, "pads", 0);
        return true;
    }
    if (op == "Concat") {
        l.op = Op::Concat;
        return true;
    }
    if (op == "Resize" || op == "Upsample") {
        // nearest: a copy; linear: a + t (b - a) per resized axis (3); cubic: 4 taps per axis (7).
        const std::string mode = stringAttr(n, "mode", "nearest");
        int axes = 0;
        const auto& od = c.dims(n.output(0));
        const auto& id = c.dims(n.input(0));
        for (size_t i = 0; i < od.size() && i < id.size(); ++i)
            axes += od[i] != id[i];
        l.op = mode == "nearest" ? Op::Copy : Op::Eltwise;
        l.opsPerElement = mode == "nearest" ? 0 : (mode == "cubic" ? 7.0 : 3.0) * axes;
        return true;
    }
    if (isDataMovement(op)) {
        l.op = Op::Copy;
        return true;
    }
    return false;
}

} // namespace rfx::onnximport
