// ONNX nodes to rows, by the conventions of onnxConventions() (core/onnx/onnx_model.h, README "ONNX models").
//
// A node is a row when it reads a live tensor (one computed from the graph's inputs). Nodes that only
// compute on constants and shapes (Shape, Gather on shapes, Cast of a constant, ...) and the metadata
// operators (Reshape, Flatten, Squeeze, Unsqueeze, Identity, Dropout) are free: their output is the
// same tensor as their input, or a constant. Every other operator becomes a row; one the tool does
// not know moves its inputs and outputs and is marked uncounted, never a silent zero.
#include "onnx/onnx_internal.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <unordered_map>

namespace rfx::onnximport {

namespace {

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
        m_sources.reserve(m_shapes.steps.size() * 2 + m_s.initializers.size());
        m_consumers.reserve(m_shapes.steps.size() * 2);
        for (const Step& st : m_shapes.steps) {
            if (!st.node) {
                ++m_consumers[st.from];
                continue;
            }
            for (const auto& in : st.node->input())
                ++m_consumers[in];
        }
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
                m_sources[iname] = Source { Source::Constant, -1,
                    isParameter(m_s, iname) ? std::set<std::string> { iname } : std::set<std::string> {} };
        for (const Step& st : m_shapes.steps) {
            if (st.node) {
                m_step = &st;
                m_node = st.node;
                node(*st.node, st.index);
                continue;
            }
            // A link: the tensor `to` is `from` (a subgraph's output, a body's formal input).
            auto from = st.from.empty() ? m_sources.end() : m_sources.find(st.from);
            m_sources[st.to] = from == m_sources.end() ? Source {} : from->second;
        }
        m_net.diagnostics.insert(m_net.diagnostics.end(), m_shapes.notes.begin(), m_shapes.notes.end());
        // One warning per kind of problem, not one line per node.
        for (const auto& [reason, seen] : m_uncounted) {
            const auto& [count, firstNode] = seen;
            m_net.diagnostics.push_back({ Severity::Warning, m_file, firstNode,
                reason + "; its row moves its inputs and outputs, with 0 FLOPs"
                    + (count > 1 ? " (and so do " + std::to_string(count - 1) + " more nodes like it)"
                                 : std::string()) });
        }
        if (m_net.layers.empty())
            throw ImportError(m_file + ": no node reads the network's input; nothing to analyse");
        return std::move(m_net);
    }

private:
    bool zeroBound() const
    {
        return std::any_of(m_config.dims.begin(), m_config.dims.end(), [](const auto& d) { return d.second == 0; });
    }

    const std::vector<std::int64_t>& dims(const std::string& tensor, const std::string& where)
    {
        auto it = m_shapes.dims.find(tensor);
        if (it == m_shapes.dims.end())
            throw ImportError(m_file + ": " + where + ": " + unknownShape(tensor));
        double p = 1;
        for (size_t i = 0; i < it->second.size(); ++i) {
            const auto d = it->second[i];
            // Zero where the model has an empty input by design, or where --dim made one (a decoder's
            // past of nothing at prefill).
            if (d < 0 || (d == 0 && !m_s.zeroSized && !zeroBound()))
                throw ImportError(m_file + ": " + where + ": '" + tensor + "' has extent " + std::to_string(d)
                    + " in dimension " + std::to_string(i)
                    + " at this configuration (extents must be positive; is the image too small?)");
            p *= double(d);
        }
        if (p > 1e15) {
            char count[32];
            std::snprintf(count, sizeof count, "%.3g", p);
            throw ImportError(m_file + ": " + where + ": '" + tensor + "' has " + count
                + " elements, beyond what the tool models (over 10^15)");
        }
        if (it->second.size() > 8)
            throw ImportError(m_file + ": " + where + ": '" + tensor + "' has rank " + std::to_string(it->second.size())
                + "; the tool models tensors of rank up to 8");
        return it->second;
    }

    Shape shapeOf(const std::string& tensor, const std::string& where) { return toShape(dims(tensor, where)); }

    std::string unknownShape(const std::string& tensor) const
    {
        return unknownShapeReason(tensor, m_node, m_s, m_shapes);
    }

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
        const std::string domain = isStandard(n) ? "" : n.domain() + ":";
        m_net.origins.push_back(RowOrigin { n.name(), domain + n.op_type(), uncounted });
        return int(m_net.origins.size()) - 1;
    }

    std::string uniqueName(const onnx::NodeProto& n, int index)
    {
        std::string base
            = m_step->scope + (n.name().empty() ? n.op_type() + "_" + std::to_string(index) : shortName(n.name()));
        std::string name = base;
        for (int k = 2; !m_names.insert(name).second; ++k)
            name = base + "#" + std::to_string(k);
        return name;
    }

    int push(Layer l, const onnx::NodeProto& n, const std::vector<std::string>& outputs)
    {
        l.repeats = m_step->repeats;
        m_net.layers.push_back(std::move(l));
        const int row = int(m_net.layers.size()) - 1;
        for (const auto& o : outputs)
            m_sources[o] = Source { Source::Live, row, {} };
        (void)n;
        return row;
    }

    // An elementwise row after a matrix row: a separate row, or (fusion) part of the producer.
    // `internal`: the node's own bias, which the producer's output always feeds alone.
    bool fuse(const std::string& input, Op op, const char* suffix, std::int64_t params, const std::string& output,
        bool internal = false)
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
        const bool standard = isStandard(n);
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
        if (standard && (isFree(op) || foldedQuantization(n, live.front()))) {
            for (const auto& o : outputs) {
                m_sources[o] = m_sources[live.front()];
                if (op == "DequantizeLinear") { // the matrix row reads the quantized tensor, int8 or float8
                    m_widths[o] = bitsOf(live.front());
                    if (auto t = m_shapes.elemTypes.find(live.front()); t != m_shapes.elemTypes.end())
                        m_foldedTypes[o] = arithmeticType(t->second);
                }
            }
            if (op == "QuantizeLinear" && !outputs.empty()) { // the matrix row (or its bias) writes it quantized
                Layer& producer = m_net.layers[size_t(m_sources[live.front()].row)];
                producer.outBits = bitsOf(outputs.front());
            }
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
        const CountContext context {
            [&](const std::string& t) -> const std::vector<std::int64_t>& { return dims(t, where); }, m_file, where
        };
        if (!countRow(n, l, context)) {
            std::string reason = !standard ? "operator of domain '" + n.domain() + "', which the tool does not know"
                                           : "operator " + op + " is not counted by the tool";
            if (m_shapes.assumed.count(produced.front()))
                reason += " (its output is assumed shaped as its input)";
            l.op = Op::Uncounted;
            l.opsPerElement = 0;
            l.storedParams = creditWeights(n);
            l.origin = addOrigin(n, reason);
            setWidths(l, n, live, weights, produced.front());
            auto& [count, first] = m_uncounted[reason];
            if (count++ == 0)
                first = where;
            push(std::move(l), n, produced);
            return;
        }
        l.origin = addOrigin(n);
        setWidths(l, n, live, weights, produced.front()); // after countRow: the operator class decides the arithmetic
        if (const MatrixOperands operands = matrixOperands(n); operands.weight >= 0) {
            // The weight is the main row's; the bias becomes its own row, as in the built-in networks.
            std::set<std::string, std::less<>> biasSet;
            const std::string bias
                = operands.bias >= 0 && n.input_size() > operands.bias ? n.input(operands.bias) : std::string();
            if (!bias.empty() && m_sources.count(bias) && m_sources[bias].kind == Source::Constant)
                biasSet.insert(m_sources[bias].weights.begin(), m_sources[bias].weights.end());
            l.storedParams = creditWeights(n, &biasSet);
            if (op == "MatMulNBits") { // the N x K weights, whatever their packing in bytes
                l.storedParams
                    = std::max<std::int64_t>(0, intAttr(n, "N", 0)) * std::max<std::int64_t>(0, intAttr(n, "K", 0));
                // what a run reads: the packed weights as stored, their scales and zero points
                double bytes = 0;
                for (int i : { 1, 2, 3 })
                    if (auto it = i < n.input_size() ? m_s.initializers.find(n.input(i)) : m_s.initializers.end();
                        it != m_s.initializers.end())
                        bytes += double(it->second.elements) * elementBits(it->second.dataType) / 8.0;
                if (bytes > 0)
                    l.weightBytes = bytes;
            }
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
            b.outBits = m_net.layers[size_t(row)].outBits;
            b.inBits = { b.outBits };
            b.computeBits = b.outBits;
            if (!biasSet.empty())
                b.weightBits = std::uint8_t(elementBits(m_s.initializers.find(*biasSet.begin())->second.dataType));
            b.origin = origin;
            b.repeats = m_step->repeats;
            m_names.insert(b.name);
            push(std::move(b), n, produced);
            return;
        }
        l.storedParams = l.op == Op::BatchNorm ? creditWeights(n, &m_s.statistics) : creditWeights(n);
        // An embedding reads the table's rows its indices pick (each output element one table element),
        // at most the whole table: a decode step's token reads one row, not the vocabulary.
        if (op == "Gather" && n.input_size() > 0 && intAttr(n, "axis", 0) == 0)
            if (auto table = m_s.initializers.find(n.input(0));
                table != m_s.initializers.end() && isParameter(m_s, n.input(0)))
                l.weightBytes = double(std::min<std::int64_t>(table->second.elements, l.out.elements()))
                    * elementBits(table->second.dataType) / 8.0;
        if ((l.op == Op::ReLU || l.op == Op::BatchNorm) && live.size() == 1
            && fuse(live.front(), l.op, l.op == Op::ReLU ? "relu" : "bn", l.storedParams, produced.front()))
            return;
        push(std::move(l), n, produced);
    }

    std::uint8_t bitsOf(const std::string& tensor) const { return tensorBits(tensor, m_shapes, m_widths); }

    void setWidths(Layer& l, const onnx::NodeProto& n, const std::vector<std::string>& live,
        const std::set<std::string>& weights, const std::string& out)
    {
        setRowPrecision(l, n, live, weights, out, { m_s, m_shapes, m_widths, m_foldedTypes });
    }

    // QDQ (README "ONNX models"): a DequantizeLinear whose every reader is a matrix operator, and a
    // QuantizeLinear of a matrix row's output read by nothing else, fold into the matrix row, as a runtime
    // runs the pair DequantizeLinear -> Conv -> QuantizeLinear as one int8 convolution.
    bool foldedQuantization(const onnx::NodeProto& n, const std::string& input)
    {
        if (n.op_type() == "QuantizeLinear") {
            const Source& src = m_sources[input];
            if (src.kind != Source::Live || src.row < 0 || m_consumers[input] != 1)
                return false;
            const Layer& producer = m_net.layers[size_t(src.row)];
            // The matrix row itself, or its bias row (which the Quantize then follows, as in the runtime's kernel).
            return runsOnMatrixUnits(producer.op)
                || (producer.op == Op::Bias && producer.inputs.size() == 1 && producer.inputs[0] >= 0
                    && runsOnMatrixUnits(m_net.layers[size_t(producer.inputs[0])].op));
        }
        if (n.op_type() != "DequantizeLinear" || n.output_size() != 1)
            return false;
        if (m_readers.empty())
            for (const Step& st : m_shapes.steps)
                if (st.node)
                    for (const auto& in : st.node->input())
                        m_readers[in].push_back(st.node);
        auto it = m_readers.find(n.output(0));
        if (it == m_readers.end() || m_consumers[n.output(0)] != int(it->second.size()))
            return false; // a graph output, or read by a link
        return std::all_of(it->second.begin(), it->second.end(), [](const onnx::NodeProto* r) {
            const std::string& op = r->op_type();
            return op == "Conv" || op == "ConvTranspose" || op == "MatMul" || op == "Gemm";
        });
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
    const Step* m_step = nullptr; ///< the step being translated
    const onnx::NodeProto* m_node = nullptr; ///< the node being translated
    std::unordered_map<std::string, std::vector<const onnx::NodeProto*>>
        m_readers; ///< built when a DequantizeLinear asks
    std::map<std::string, std::pair<int, std::string>> m_uncounted; ///< reason -> nodes, the first one's label
    std::unordered_map<std::string, std::uint8_t>
        m_widths; ///< widths of folded DequantizeLinear outputs (their input's)
    std::unordered_map<std::string, NumberType>
        m_foldedTypes; ///< and their arithmetic (int8, or fp8 for float8 inputs)
};

} // namespace

Network translate(const Skeleton& skeleton, const Shapes& shapes, const Config& config, const std::string& file,
    const std::string& name)
{
    return Translator(skeleton, shapes, config, file).run(name);
}

} // namespace rfx::onnximport
