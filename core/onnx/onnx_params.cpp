// Which initializers are parameters (README "ONNX models", conventions): a learned operand of an
// operator (a convolution's or matrix product's weight and bias, a normalization's scale and shift, a
// recurrent cell's weights, an embedding table, the integer weight of a quantized operator, a bias added
// to a matrix product's output) is a parameter whatever its size, type or where the file stores it, also
// when it reaches the operator through a Cast, Transpose, Reshape or DequantizeLinear; any other
// floating-point initializer of more than one element is a parameter too. Never parameters: what
// steers an operator (BatchNormalization's running mean and variance, Resize's scales, Clip's bounds,
// Pad's value), quantization's scales and zero points, and a vector that reaches only a Cos or a Sin (a
// rotary embedding's inverse frequencies).
#include "onnx/onnx_internal.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <unordered_map>
#include <unordered_set>

namespace rfx::onnximport {

namespace {

using Table = std::map<std::string, std::vector<int>, std::less<>>;

// Inputs that hold learned values, by operator (ONNX's operator docs; ONNX Runtime's contrib docs for
// the com.microsoft ones).
const Table& learnedOperands()
{
    static const Table t {
        { "Conv", { 1, 2 } },
        { "ConvTranspose", { 1, 2 } },
        { "DeformConv", { 1, 3 } },
        { "Gemm", { 0, 1, 2 } },
        { "MatMul", { 0, 1 } },
        { "BatchNormalization", { 1, 2 } },
        { "InstanceNormalization", { 1, 2 } },
        { "LayerNormalization", { 1, 2 } },
        { "GroupNormalization", { 1, 2 } },
        { "RMSNormalization", { 1 } },
        { "PRelu", { 1 } },
        { "LSTM", { 1, 2, 3, 7 } },
        { "GRU", { 1, 2, 3 } },
        { "RNN", { 1, 2, 3 } },
        { "Gather", { 0 } },
        { "ConvInteger", { 1 } },
        { "MatMulInteger", { 0, 1 } },
        { "QLinearConv", { 3, 8 } },
        { "QLinearMatMul", { 0, 3 } },
        { "DequantizeLinear", { 0 } },
        // com.microsoft
        { "QGemm", { 0, 3, 6 } },
        { "MatMulNBits", { 1, 5 } },
        { "FusedConv", { 1, 2 } },
        { "FusedMatMul", { 0, 1 } },
        { "FusedGemm", { 0, 1, 2 } },
        { "SkipLayerNormalization", { 2, 3, 4 } },
        { "BiasGelu", { 1 } },
        { "SimplifiedLayerNormalization", { 1 } },
        { "SkipSimplifiedLayerNormalization", { 2 } },
    };
    return t;
}

// Inputs that steer an operator or scale a quantized tensor: never parameters.
const Table& steeringOperands()
{
    static const Table t {
        { "BatchNormalization", { 3, 4 } },
        { "Resize", { 1, 2, 3 } },
        { "Upsample", { 1 } },
        { "Clip", { 1, 2 } },
        { "Pad", { 2, 3 } },
        { "QuantizeLinear", { 1, 2 } },
        { "DequantizeLinear", { 1, 2 } },
        { "QLinearConv", { 1, 2, 4, 5, 6, 7 } },
        { "QLinearMatMul", { 1, 2, 4, 5, 6, 7 } },
        { "ConvInteger", { 2, 3 } },
        { "MatMulInteger", { 2, 3 } },
        { "QGemm", { 1, 2, 4, 5, 7, 8 } },
        { "MatMulNBits", { 2, 3, 4 } },
        // rotary embeddings' cos and sin tables (computed from the positions, not learned): ONNX's
        // RotaryEmbedding takes them at 1 and 2, ONNX Runtime's at 2 and 3 (position ids are integers)
        { "RotaryEmbedding", { 1, 2, 3 } },
        { "GroupQueryAttention", { 7, 8 } },
        { "QLinearAdd", { 1, 2, 4, 5, 6, 7 } },
        { "QLinearMul", { 1, 2, 4, 5, 6, 7 } },
        { "QLinearSigmoid", { 1, 2, 3, 4 } },
        { "QLinearLeakyRelu", { 1, 2, 3, 4 } },
        { "QLinearGlobalAveragePool", { 1, 2, 3, 4 } },
        { "QLinearConcat", { 0, 1 } },
        { "DynamicQuantizeLSTM", { 9, 10, 11, 12 } },
    };
    return t;
}

// Operators a weight passes through unchanged in what it holds.
bool passesWeight(const std::string& op)
{
    return op == "Cast" || op == "CastLike" || op == "Transpose" || op == "Reshape" || op == "Identity"
        || op == "Squeeze" || op == "Unsqueeze" || op == "Flatten" || op == "DequantizeLinear";
}

bool quantized(const std::string& op)
{
    return op == "ConvInteger" || op == "MatMulInteger" || op == "QLinearConv" || op == "QLinearMatMul"
        || op == "DequantizeLinear" || op == "QGemm" || op == "MatMulNBits" || op == "DynamicQuantizeLSTM";
}

// Who reads each value, graph by graph (sibling branches may reuse a name for different values): the
// nodes that take it as an input, and the control-flow nodes whose subgraphs read it from outside.
struct Scope {
    std::unordered_map<std::string, std::vector<const onnx::NodeProto*>> direct;
    std::unordered_set<std::string> readInside, handedOut;
};

void collectReads(const onnx::GraphProto& g, std::unordered_set<std::string>& reads)
{
    for (const auto& n : g.node()) {
        reads.insert(n.input().begin(), n.input().end());
        for (const auto& a : n.attribute()) {
            if (a.has_g())
                collectReads(a.g(), reads);
            for (const auto& sub : a.graphs())
                collectReads(sub, reads);
        }
    }
    for (const auto& o : g.output())
        reads.insert(o.name());
}

void collectScopes(const onnx::GraphProto& g, std::vector<Scope>& scopes)
{
    Scope s;
    for (const auto& o : g.output())
        s.handedOut.insert(o.name());
    for (const auto& n : g.node()) {
        for (const auto& in : n.input())
            s.direct[in].push_back(&n);
        for (const auto& a : n.attribute()) {
            if (a.has_g()) {
                collectReads(a.g(), s.readInside);
                collectScopes(a.g(), scopes);
            }
            for (const auto& sub : a.graphs()) {
                collectReads(sub, s.readInside);
                collectScopes(sub, scopes);
            }
        }
    }
    scopes.push_back(std::move(s));
}

// Whether every path from the initializer `name` ends in a Cos or a Sin (a rotary table computed from
// it), never at a graph's output, a control-flow node or a value nothing reads: the tables' inputs,
// not learned. Each graph that reads it is followed on its own.
bool feedsOnlyCosAndSin(const std::vector<Scope>& scopes, const std::string& name)
{
    int budget = 64; // nodes looked at: a table is a few steps from its frequencies
    bool read = false;
    for (const Scope& scope : scopes) {
        std::function<bool(const std::string&, int)> reachesOnlyTables = [&](const std::string& value, int depth) {
            auto it = scope.direct.find(value);
            if (depth > 12 || scope.handedOut.count(value) || it == scope.direct.end()
                || (depth > 0 && scope.readInside.count(value)))
                return false;
            for (const onnx::NodeProto* n : it->second) {
                if (--budget < 0)
                    return false;
                if (n->op_type() == "Cos" || n->op_type() == "Sin")
                    continue;
                if (n->output_size() == 0
                    || std::any_of(n->attribute().begin(), n->attribute().end(),
                        [](const auto& a) { return a.has_g() || a.graphs_size() > 0; }))
                    return false;
                for (const auto& o : n->output())
                    if (!o.empty() && !reachesOnlyTables(o, depth + 1))
                        return false;
            }
            return true;
        };
        if (!scope.direct.count(name))
            continue;
        read = true;
        if (!reachesOnlyTables(name, 0))
            return false;
    }
    return read;
}

// Which node writes each tensor, in the graph and in every subgraph of its nodes.
void indexProducers(const onnx::GraphProto& g, std::unordered_map<std::string, const onnx::NodeProto*>& producer)
{
    for (const auto& n : g.node()) {
        for (const auto& o : n.output())
            producer.emplace(o, &n);
        for (const auto& a : n.attribute()) {
            if (a.has_g())
                indexProducers(a.g(), producer);
            for (const auto& sub : a.graphs())
                indexProducers(sub, producer);
        }
    }
}

} // namespace

void classifyInitializers(Skeleton& s)
{
    const onnx::GraphProto& main = s.model.graph();
    std::unordered_map<std::string, const onnx::NodeProto*> producer;
    indexProducers(main, producer);
    std::set<std::string, std::less<>> learned;
    // Follows a learned operand back through Cast, Transpose, DequantizeLinear ... to its initializers.
    // Integer initializers count only behind a quantized operator or a DequantizeLinear (an embedding's
    // Gather or a MatMul reading an integer constant reads indices or shapes, not weights).
    std::function<void(const std::string&, int, bool)> mark = [&](const std::string& name, int depth, bool integerToo) {
        if (name.empty() || depth > 8)
            return;
        if (auto init = s.initializers.find(name); init != s.initializers.end()) {
            if (init->second.floating || integerToo)
                learned.insert(name);
            return;
        }
        auto it = producer.find(name);
        if (it != producer.end() && passesWeight(it->second->op_type()) && it->second->input_size() > 0)
            mark(it->second->input(0), depth + 1, integerToo || it->second->op_type() == "DequantizeLinear");
    };
    std::function<void(const onnx::GraphProto&)> visit = [&](const onnx::GraphProto& g) {
        for (const auto& n : g.node()) {
            if (auto it = steeringOperands().find(n.op_type()); it != steeringOperands().end())
                for (int i : it->second)
                    if (i < n.input_size() && s.initializers.count(n.input(i)))
                        s.statistics.insert(n.input(i));
            if (n.op_type() == "MatMulNBits" && n.input_size() > 1)
                if (auto packed = s.initializers.find(n.input(1)); packed != s.initializers.end())
                    packed->second.packedWeights
                        = std::max<std::int64_t>(0, intAttr(n, "N", 0)) * std::max<std::int64_t>(0, intAttr(n, "K", 0));
            if (auto it = learnedOperands().find(n.op_type()); it != learnedOperands().end())
                for (int i : it->second)
                    if (i < n.input_size())
                        mark(n.input(i), 0, quantized(n.op_type()));
            // A bias added to a matrix product's output is learned whatever its size: nn.Linear(16, 1)
            // exported as MatMul + Add has a one-element bias (PyTorch's exporter writes Linear so when
            // the input is not 2-D, and torchlib always).
            if (n.op_type() == "Add" && n.input_size() == 2)
                for (int i = 0; i < 2; ++i)
                    if (auto p = producer.find(n.input(1 - i)); p != producer.end()
                        && (p->second->op_type() == "MatMul" || p->second->op_type() == "Gemm"
                            || p->second->op_type() == "FusedMatMul"))
                        mark(n.input(i), 0, false);
            for (const auto& a : n.attribute()) {
                if (a.has_g())
                    visit(a.g());
                for (const auto& sub : a.graphs())
                    visit(sub);
            }
        }
    };
    visit(main);
    // Rotary embeddings' inverse frequencies (Hugging Face's inv_freq, a buffer, not a parameter: the
    // exporter keeps it where the positions are not known before the run) reach only Cos and Sin.
    std::vector<Scope> scopes;
    collectScopes(main, scopes);
    // A vector only: a matrix into Cos and Sin (Fourier features, x W) may be learned.
    for (const auto& [name, init] : s.initializers)
        if (init.floating && init.elements > 1
            && std::count_if(init.dims.begin(), init.dims.end(), [](std::int64_t d) { return d > 1; }) == 1
            && !s.statistics.count(name) && feedsOnlyCosAndSin(scopes, name))
            s.statistics.insert(name);
    for (const auto& [name, init] : s.initializers) {
        if (s.statistics.count(name))
            continue;
        if (learned.count(name) || (init.floating && init.elements > 1))
            s.parameters.insert(name);
    }
}

// Exporters fold an inference network's batch norm into the convolutions before them (PyTorch's
// exporter in eval mode: the folded weights become new constants named "onnx::Conv_<n>"; TensorFlow
// converters keep "BatchNorm" or "bn" in the folded weights' names). The counts then lack batch
// norm's scale and shift and its rows, which users compare with published counts: say so.
void noteFoldedBatchNorm(
    const onnx::GraphProto& g, const Skeleton& s, const std::string& file, std::vector<Diagnostic>& warnings)
{
    auto lower = [](std::string v) {
        std::transform(v.begin(), v.end(), v.begin(), [](unsigned char c) { return char(std::tolower(c)); });
        return v;
    };
    int convs = 0, folded = 0;
    std::string example;
    for (const auto& n : g.node()) {
        if (n.op_type() == "BatchNormalization")
            return; // batch norm is there: nothing was folded (or not all of it: the rows say)
        if (n.op_type() != "Conv" || n.input_size() < 2)
            continue;
        ++convs;
        const std::string& w = n.input(1);
        if (!s.initializers.count(w))
            continue;
        const std::string l = lower(w);
        const bool renamed = w.rfind("onnx::Conv_", 0) == 0;
        const bool named = l.find("batchnorm") != std::string::npos || l.find("batch_norm") != std::string::npos
            || l.find("/bn") != std::string::npos || l.find(".bn") != std::string::npos
            || l.find("_bn") != std::string::npos;
        if (renamed || named) {
            ++folded;
            if (example.empty())
                example = w;
        }
    }
    if (folded == 0)
        return;
    warnings.push_back({ Severity::Info, file, "graph",
        "no batch-norm layer: the exporter folded batch norm into " + std::to_string(folded) + " of the "
            + std::to_string(convs) + " convolutions (their weights are named like '" + example
            + "', not after a layer), so the parameters lack batch norm's scale and shift (2 per channel) that the "
              "training network has, and no row carries batch norm's cost" });
}

} // namespace rfx::onnximport
