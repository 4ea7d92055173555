// ONNX nodes to rows, by the conventions of onnxConventions() (core/model/onnx_model.h, README "ONNX models").
//
// A node is a row when it reads a live tensor (one computed from the graph's inputs). Nodes that only
// compute on constants and shapes (Shape, Gather on shapes, Cast of a constant, ...) and the metadata
// operators (Reshape, Flatten, Squeeze, Unsqueeze, Identity, Dropout) are free: their output is the
// same tensor as their input, or a constant. Every other operator becomes a row; one the tool does
// not know moves its inputs and outputs and is marked uncounted, never a silent zero.
#include "onnx_internal.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <unordered_map>
#include <optional>

namespace rfx::onnximport {

namespace {

std::string stringAttr(const onnx::NodeProto& n, const char* name, const std::string& fallback)
{
    const auto* a = attribute(n, name);
    return a ? a->s() : fallback;
}

// Where a tensor comes from.
struct Source {
    enum Kind { Constant, Live } kind = Constant;
    int row = -1; ///< producing row, -1 = the network input (live tensors)
    std::set<std::string> weights; ///< the float initializers a constant tensor was computed from
};

class Translator {
public:
    Translator(const Skeleton& s, const Shapes& shapes, const Config& c, const std::string& file)
        : m_s(s)
        , m_shapes(shapes)
        , m_config(c)
        , m_file(file)
    {
    }

    Network run(const std::string& name)
    {
        const onnx::GraphProto& g = m_s.model.graph();
        m_sources.reserve(size_t(g.node_size()) * 2 + m_s.initializers.size());
        m_consumers.reserve(size_t(g.node_size()) * 2);
        for (const auto& n : g.node())
            for (const auto& in : n.input())
                ++m_consumers[in];
        for (const auto& out : g.output())
            ++m_consumers[out.name()];
        m_net.name = name;
        bool first = true;
        for (const std::string& in : m_s.realInputs) {
            const auto& d = dims(in, "input '" + in + "'");
            if (first)
                m_net.input = toShape(d);
            first = false;
            m_sources[in] = Source { Source::Live, -1, {} };
        }
        for (const auto& [iname, init] : m_s.initializers)
            if (!m_sources.count(iname))
                m_sources[iname] = Source { Source::Constant, -1, isParameter(m_s, iname, init) ? std::set<std::string> { iname } : std::set<std::string> {} };
        for (int i = 0; i < g.node_size(); ++i)
            node(g.node(i), i);
        if (m_net.layers.empty())
            throw ImportError(m_file + ": no node reads the network's input; nothing to analyse");
        return std::move(m_net);
    }

private:
    const std::vector<std::int64_t>& dims(const std::string& tensor, const std::string& where)
    {
        auto it = m_shapes.dims.find(tensor);
        if (it == m_shapes.dims.end())
            throw ImportError(m_file + ": " + where + ": the shape of '" + tensor
                + "' could not be inferred (shape inference stopped here; an operator without a shape function?)");
        double p = 1;
        for (size_t i = 0; i < it->second.size(); ++i) {
            const auto d = it->second[i];
            if (d <= 0)
                throw ImportError(m_file + ": " + where + ": '" + tensor + "' has extent " + std::to_string(d) + " in dimension "
                    + std::to_string(i) + " at this configuration (extents must be positive; is the image too small?)");
            p *= double(d);
        }
        if (p > 1e15) {
            char count[32];
            std::snprintf(count, sizeof count, "%.3g", p);
            throw ImportError(m_file + ": " + where + ": '" + tensor + "' has " + count
                + " elements, beyond what the tool models (over 10^15)");
        }
        if (it->second.size() > 5)
            throw ImportError(m_file + ": " + where + ": '" + tensor + "' has rank " + std::to_string(it->second.size())
                + "; the tool models tensors of rank up to 5 ([N, C, D, H, W])");
        return it->second;
    }

    Shape shapeOf(const std::string& tensor, const std::string& where) { return toShape(dims(tensor, where)); }

    // Parameters a row reads: the float initializers behind its constant inputs, each credited once.
    std::int64_t creditWeights(const onnx::NodeProto& n, const std::set<std::string, std::less<>>* skip = nullptr)
    {
        std::int64_t p = 0;
        for (const auto& in : n.input()) {
            auto it = m_sources.find(in);
            if (in.empty() || it == m_sources.end() || it->second.kind != Source::Constant)
                continue;
            for (const std::string& w : it->second.weights)
                if ((!skip || !skip->count(w)) && m_credited.insert(w).second)
                    p += m_s.initializers.find(w)->second.elements;
        }
        return p;
    }

    int addOrigin(const onnx::NodeProto& n, const std::string& uncounted = {})
    {
        const std::string domain = n.domain().empty() || n.domain() == "ai.onnx" ? "" : n.domain() + ":";
        m_net.origins.push_back(RowOrigin { n.name(), domain + n.op_type(), uncounted });
        return int(m_net.origins.size()) - 1;
    }

    std::string uniqueName(const onnx::NodeProto& n, int index)
    {
        std::string base = n.name().empty() ? n.op_type() + "_" + std::to_string(index) : shortName(n.name());
        std::string name = base;
        for (int k = 2; !m_names.insert(name).second; ++k)
            name = base + "#" + std::to_string(k);
        return name;
    }

    int push(Layer l, const onnx::NodeProto& n, std::vector<std::string> outputs)
    {
        m_net.layers.push_back(std::move(l));
        const int row = int(m_net.layers.size()) - 1;
        for (const auto& o : outputs)
            m_sources[o] = Source { Source::Live, row, {} };
        (void)n;
        return row;
    }

    // An elementwise row after a matrix row: a separate row, or (fusion) part of the producer.
    // `internal`: the node's own bias, which the producer's output always feeds alone.
    bool fuse(const std::string& input, Op op, const char* suffix, std::int64_t params, const std::string& output, bool internal = false)
    {
        if (!m_config.fusion)
            return false;
        const Source src = m_sources[input];
        if (src.kind != Source::Live || src.row < 0 || (!internal && m_consumers[input] != 1))
            return false;
        Layer& p = m_net.layers[size_t(src.row)];
        if (!runsOnMatrixUnits(p.op) || p.out.elements() != shapeOf(output, p.name).elements())
            return false;
        p.epilogue.push_back(op);
        p.name += std::string("+") + suffix;
        p.storedParams += params;
        m_sources[output] = src;
        return true;
    }

    void node(const onnx::NodeProto& n, int index)
    {
        const std::string& op = n.op_type();
        const bool standard = n.domain().empty() || n.domain() == "ai.onnx";
        std::vector<std::string> live;
        std::set<std::string> weights;
        for (const auto& in : n.input()) {
            if (in.empty())
                continue;
            auto it = m_sources.find(in);
            if (it == m_sources.end())
                throw ImportError(m_file + ": " + nodeLabel(n, index) + ": reads '" + in + "', which no node produces");
            if (it->second.kind == Source::Live)
                live.push_back(in);
            else
                weights.insert(it->second.weights.begin(), it->second.weights.end());
        }
        std::vector<std::string> outputs(n.output().begin(), n.output().end());
        // Constant computations and shape arithmetic: no row, the outputs are constants.
        if (live.empty() || (standard && (op == "Shape" || op == "Size"))) {
            for (const auto& o : outputs)
                m_sources[o] = Source { Source::Constant, -1, weights };
            return;
        }
        if (standard && isFree(op)) {
            for (const auto& o : outputs)
                m_sources[o] = m_sources[live.front()];
            return;
        }
        const std::string where = nodeLabel(n, index);
        Layer l;
        l.name = uniqueName(n, index);
        for (const auto& in : live) {
            l.inputs.push_back(m_sources[in].row);
            l.inShapes.push_back(shapeOf(in, where));
        }
        std::vector<std::string> produced;
        for (const auto& o : outputs)
            if (!o.empty())
                produced.push_back(o);
        if (produced.empty())
            return;
        l.out = shapeOf(produced.front(), where);
        if (produced.size() > 1 && op == "Split") {
            l.out = l.inShapes.front(); // all the pieces together
        }
        if (!(standard ? counted(n, l, where) : countedContrib(n, l))) {
            std::string reason = !standard ? "operator of domain '" + n.domain() + "', which the tool does not know"
                : (op == "If" || op == "Loop" || op == "Scan") ? "control flow (" + op + ") is not counted"
                                                               : "operator " + op + " is not counted by the tool";
            if (m_shapes.assumed.count(produced.front()))
                reason += " (its output is assumed shaped as its input)";
            l.op = Op::Uncounted;
            l.opsPerElement = 0;
            l.storedParams = creditWeights(n);
            l.origin = addOrigin(n, reason);
            m_net.diagnostics.push_back({ Severity::Warning, m_file, where, reason + "; its row moves its inputs and outputs, with 0 FLOPs" });
            push(std::move(l), n, produced);
            return;
        }
        l.origin = addOrigin(n);
        if (l.op == Op::Conv || l.op == Op::ConvTranspose || l.op == Op::Linear) {
            // The weight is the main row's; the bias (input 2) becomes its own row, as in the built-in networks.
            std::set<std::string, std::less<>> biasSet;
            const std::string bias = n.input_size() > 2 ? n.input(2) : std::string();
            if (!bias.empty() && m_sources.count(bias) && m_sources[bias].kind == Source::Constant)
                biasSet.insert(m_sources[bias].weights.begin(), m_sources[bias].weights.end());
            l.storedParams = creditWeights(n, &biasSet);
            const std::string base = l.name;
            const int origin = l.origin;
            const int row = push(std::move(l), n, produced);
            if (bias.empty())
                return;
            std::int64_t biasParams = 0;
            for (const std::string& w : biasSet)
                if (m_credited.insert(w).second)
                    biasParams += m_s.initializers.find(w)->second.elements;
            if (fuse(produced.front(), Op::Bias, "bias", biasParams, produced.front(), true))
                return;
            Layer b = singleInputLayer(base + ".bias", Op::Bias, row, m_net.layers[size_t(row)].out);
            b.storedParams = biasParams;
            b.origin = origin;
            m_names.insert(b.name);
            push(std::move(b), n, produced);
            return;
        }
        l.storedParams = l.op == Op::BatchNorm ? creditWeights(n, &m_s.statistics)
                                               : creditWeights(n);
        if ((l.op == Op::ReLU || l.op == Op::BatchNorm) && live.size() == 1
            && fuse(live.front(), l.op, l.op == Op::ReLU ? "relu" : "bn", l.storedParams, produced.front()))
            return;
        push(std::move(l), n, produced);
    }

    // Sets the row's operator and counts; false when the operator is not one the tool counts.
    bool counted(const onnx::NodeProto& n, Layer& l, const std::string& where)
    {
        const std::string& op = n.op_type();
        const Shape& in = l.inShapes.front();
        auto kernelFromWeight = [&](int rankNeeded) {
            const auto& w = dims(n.input(1), where);
            if (int(w.size()) != rankNeeded)
                throw ImportError(m_file + ": " + where + ": the weight has rank " + std::to_string(w.size()) + ", the input rank "
                    + std::to_string(rankNeeded));
            // [Cout, Cin/g, k...]: 1-D k = Kh; 2-D Kh, Kw; 3-D Kd, Kh, Kw.
            const size_t k = w.size() == 5 ? 3 : 2;
            l.kd = int(w.size() == 5 ? w[2] : 1);
            l.kh = int(w.size() > k ? w[k] : 1);
            l.kw = int(w.size() > k + 1 ? w[k + 1] : 1);
        };
        auto firstOf = [&](const char* name, int fallback) {
            const auto* a = attribute(n, name);
            return a && a->ints_size() > 0 ? int(a->ints(0)) : fallback;
        };
        if (op == "Conv" || op == "ConvTranspose") {
            if (n.input_size() < 2 || !m_shapes.dims.count(n.input(1)))
                throw ImportError(m_file + ": " + where + ": the weight's shape is unknown");
            kernelFromWeight(in.rank);
            l.op = op == "Conv" ? Op::Conv : Op::ConvTranspose;
            l.groups = int(intAttr(n, "group", 1));
            l.stride = firstOf("strides", 1);
            l.padding = firstOf("pads", 0);
            if (l.groups < 1 || in.c % l.groups != 0)
                throw ImportError(m_file + ": " + where + ": group: " + std::to_string(l.groups) + " does not divide the "
                    + std::to_string(in.c) + " input channels");
            // ONNX's shape function does not compare the channels: a wrong weight would count silently.
            const auto& w = dims(n.input(1), where);
            const std::int64_t expected = l.op == Op::Conv ? w[1] * l.groups : w[0];
            if (expected != in.c)
                throw ImportError(m_file + ": " + where + ": the weight '" + n.input(1) + "' expects " + std::to_string(expected)
                    + " input channels, the input has " + std::to_string(in.c));
            return true;
        }
        if (op == "Gemm") {
            // A [M, K] (transA: [K, M]) times B [K, N] -> [M, N]: counted as a linear layer of M rows.
            const auto& a = dims(n.input(0), where);
            if (a.size() != 2)
                return false;
            const bool transA = intAttr(n, "transA", 0) != 0;
            l.op = Op::Linear;
            l.inShapes.front() = Shape { transA ? a[1] : a[0], transA ? a[0] : a[1], 1, 1, 2 };
            return true;
        }
        if (op == "MatMul") {
            const auto& a = dims(n.input(0), where);
            l.op = Op::MatMul;
            l.opsPerElement = 2.0 * double(a.back()); // K: the contracted extent
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
        if (auto ops = elementwiseOps(op)) {
            l.op = Op::Eltwise;
            l.opsPerElement = *ops;
            return true;
        }
        if (op == "ReduceMean" || op == "ReduceSum" || op == "ReduceMax" || op == "ReduceMin" || op == "ReduceL2") {
            // K inputs per output: K - 1 additions (comparisons), and one more (the scaling, the root) for mean and L2.
            const double k = double(in.elements()) / double(std::max<std::int64_t>(1, l.out.elements()));
            l.op = Op::Reduce;
            l.opsPerElement = op == "ReduceMean" ? k : op == "ReduceL2" ? 2 * k : k - 1;
            return true;
        }
        if (op == "MaxPool" || op == "AveragePool" || op == "GlobalAveragePool" || op == "GlobalMaxPool") {
            const bool global = op.starts_with("Global");
            l.op = op == "MaxPool" || op == "GlobalMaxPool" ? Op::MaxPool : Op::AvgPool;
            const auto* k = attribute(n, "kernel_shape");
            const int first = in.rank == 5 ? 1 : 0; // 3-D windows: Kd first
            auto window = [&](int i) { return k && k->ints_size() > i ? int(k->ints(i)) : 1; };
            l.kd = global ? int(in.d) : (in.rank == 5 ? window(0) : 1);
            l.kh = global ? int(in.rank > 2 ? in.h : 1) : window(first);
            l.kw = global ? int(in.rank > 3 ? in.w : 1) : window(first + 1);
            l.stride = firstOf("strides", 1);
            l.padding = firstOf("pads", 0);
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
            const auto& od = dims(n.output(0), where);
            const auto& id = dims(n.input(0), where);
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

    const Skeleton& m_s;
    const Shapes& m_shapes;
    const Config& m_config;
    const std::string& m_file;
    Network m_net;
    std::unordered_map<std::string, Source> m_sources;
    std::unordered_map<std::string, int> m_consumers;
    std::set<std::string> m_credited;
    std::set<std::string> m_names;
};

} // namespace

Network translate(const Skeleton& skeleton, const Shapes& shapes, const Config& config, const std::string& file, const std::string& name)
{
    return Translator(skeleton, shapes, config, file).run(name);
}

} // namespace rfx::onnximport
