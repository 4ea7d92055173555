// Shapes of an imported model at one configuration: the inputs' symbolic extents bound, then, node by
// node, ONNX's own shape functions (the schema registry's, through onnx::InferenceContextImpl) and the
// evaluation of shape computations (Shape -> Gather -> Sub -> Div -> Slice, as PyTorch's exporter emits
// for a crop), whose values the following shape functions read as constants.
#include "onnx_internal.h"

#include <onnx/defs/schema.h>
#include <onnx/shape_inference/implementation.h>

#include <algorithm>
#include <deque>
#include <optional>
#include <string_view>

namespace rfx::onnximport {

namespace {

// The axis an operator takes when its node names none (ONNX's operator docs, opsets 13-17), for the
// operators whose shape functions index the input's dimensions by it.
std::optional<std::int64_t> defaultAxis(const std::string& op)
{
    static const std::pair<const char*, std::int64_t> defaults[] = {
        { "LayerNormalization", -1 }, { "Softmax", -1 }, { "LogSoftmax", -1 }, { "Hardmax", -1 }, { "TopK", -1 },
        { "Gather", 0 }, { "GatherElements", 0 }, { "Split", 0 }, { "ArgMax", 0 }, { "ArgMin", 0 },
        { "Flatten", 1 },
    };
    for (const auto& [name, axis] : defaults)
        if (op == name)
            return axis;
    return std::nullopt;
}

// What ONNX 1.12's shape functions take on trust: they divide by steps and read attributes by the
// input's rank without checking (a zero Slice step, a 2-D input to Conv: crashes inside libonnx found by
// fuzz_onnx). Refused here, with the node named.
void checkNode(const onnx::NodeProto& n, int index, const Shapes& s, const std::string& file)
{
    struct Rule {
        const char* op;
        int input;
        double min; // every value must be >= min (nonzero: must not be 0)
        bool nonzero;
        const char* what;
    };
    static const Rule rules[] = {
        { "Slice", 4, 0, true, "steps: must not be 0" },
        { "Resize", 2, 1e-6, false, "scales: must be positive" },
        { "Resize", 3, 1, false, "sizes: must be positive" },
        { "Upsample", 1, 1e-6, false, "scales: must be positive" },
        { "Tile", 1, 0, false, "repeats: must be 0 or more" },
        { "Reshape", 1, -1, false, "shape: extents must be -1, 0 or positive" },
        { "Expand", 1, 0, false, "shape: extents must be 0 or more" },
        { "ConstantOfShape", 0, 0, false, "input: extents must be 0 or more" },
        { "Range", 2, 0, true, "delta: must not be 0" },
        { "TopK", 1, 0, false, "k: must be 0 or more" },
    };
    auto fail = [&](const std::string& why) { throw ImportError(file + ": " + nodeLabel(n, index) + ": " + why); };
    const std::string& op = n.op_type();
    for (const Rule& r : rules) {
        if (op != r.op || r.input >= n.input_size())
            continue;
        auto it = s.values.find(n.input(r.input));
        if (it == s.values.end())
            continue;
        for (double v : it->second.data)
            if (r.nonzero ? v == 0 : (v < r.min || v > 1e12))
                fail(r.what);
    }
    // Axes and permutations within the input's rank (LayerNormalization's shape function indexes by its
    // axis unchecked: a SEGV found by fuzz_onnx).
    auto inputRank = [&]() -> int {
        if (n.input_size() == 0)
            return -1;
        auto it = s.dims.find(n.input(0));
        return it == s.dims.end() ? -1 : int(it->second.size());
    };
    if (const int r = inputRank(); r >= 0) {
        const bool growing = op == "Unsqueeze";
        // An absent axis takes the operator's default, which the shape functions index by just as
        // unchecked: LayerNormalization's -1 on a rank-0 input is a SEGV inside libonnx (fuzz_onnx, CI).
        if (const auto d = defaultAxis(op); d
            && std::none_of(n.attribute().begin(), n.attribute().end(), [](const auto& a) { return a.name() == "axis"; })) {
            const std::int64_t hi = op == "Flatten" ? r + 1 : r;
            if (*d < -hi || *d >= hi)
                fail("axis: the default " + std::to_string(*d) + " is outside the input's " + std::to_string(r) + " dimensions");
        }
        for (const auto& a : n.attribute()) {
            const std::int64_t hi = op == "Flatten" ? r + 1 : growing ? r + a.ints_size() : r;
            auto inRange = [&](std::int64_t v) { return v >= -hi && v < hi; };
            if (a.name() == "axis" && a.type() == onnx::AttributeProto::INT && !inRange(a.i()))
                fail("axis: " + std::to_string(a.i()) + " is outside the input's " + std::to_string(r) + " dimensions");
            if (a.name() == "axes")
                for (auto v : a.ints())
                    if (!inRange(v))
                        fail("axes: " + std::to_string(v) + " is outside the input's " + std::to_string(r) + " dimensions");
            if (a.name() == "perm") {
                std::vector<bool> seen(size_t(r), false);
                bool ok = a.ints_size() == r;
                for (auto v : a.ints()) {
                    ok = ok && v >= 0 && v < r && !seen[size_t(v)];
                    if (ok)
                        seen[size_t(v)] = true;
                }
                if (!ok)
                    fail("perm: not a permutation of the input's " + std::to_string(r) + " dimensions");
            }
        }
        // Operands whose length must match the rank.
        auto length = [&](int input) -> long {
            if (input >= n.input_size())
                return -1;
            auto it = s.values.find(n.input(input));
            return it == s.values.end() ? -1 : long(it->second.data.size());
        };
        if ((op == "Tile" && length(1) >= 0 && length(1) != r) || (op == "Pad" && length(1) >= 0 && length(1) != 2 * r)
            || (op == "Resize" && ((length(2) > 0 && length(2) != r) || (length(3) > 0 && length(3) != r)))
            || (op == "Upsample" && length(1) >= 0 && length(1) != r))
            fail("an operand's length does not match the input's " + std::to_string(r) + " dimensions");
    }
    static const char* convPool[] = { "Conv", "ConvTranspose", "MaxPool", "AveragePool", "LpPool", "GlobalAveragePool",
        "GlobalMaxPool", "GlobalLpPool", "ConvInteger", "QLinearConv", "MaxRoiPool", "MaxUnpool" };
    if (std::find_if(std::begin(convPool), std::end(convPool), [&](const char* c) { return op == c; }) == std::end(convPool))
        return;
    auto rankOf = [&](int input) -> int {
        if (input >= n.input_size())
            return -1;
        auto it = s.dims.find(n.input(input));
        return it == s.dims.end() ? -1 : int(it->second.size());
    };
    const int rank = rankOf(0);
    if (rank >= 0 && rank < 3)
        fail("the input has rank " + std::to_string(rank) + "; convolutions and pools need [N, C, spatial...]");
    const bool weighted = op == "Conv" || op == "ConvTranspose" || op == "ConvInteger";
    if (weighted && rank >= 0 && rankOf(1) >= 0 && rankOf(1) != rank)
        fail("the weight has rank " + std::to_string(rankOf(1)) + ", the input rank " + std::to_string(rank));
    if (rank < 0)
        return;
    for (const auto& a : n.attribute()) {
        const int expected = a.name() == "pads" ? 2 * (rank - 2)
            : (a.name() == "kernel_shape" || a.name() == "strides" || a.name() == "dilations" || a.name() == "output_padding"
                  || a.name() == "output_shape")
            ? rank - 2
            : -1;
        if (expected >= 0 && a.ints_size() != expected)
            fail(a.name() + ": " + std::to_string(a.ints_size()) + " values for " + std::to_string(rank - 2) + " spatial dimensions");
    }
}


} // namespace

Shapes inferShapes(const Skeleton& skeleton, const std::vector<OnnxInput>& inputs, const Config& config, const std::string& file)
{
    // One pass in node order (the checker made sure it is topological): each node's own shape function
    // from ONNX's schema registry (onnx::InferenceContextImpl), after the checks its inputs need, then its
    // value when it is a shape computation, which the next nodes' shape functions read as constant data.
    // The nodes are read, not changed: InferenceContextImpl asks for a mutable node only to reach graph
    // attributes (control flow), which are not inferred here. No copy of the graph per configuration.
    const onnx::GraphProto& g = skeleton.model.graph();
    std::map<std::string, int> opsets;
    for (const auto& o : skeleton.model.opset_import())
        opsets[o.domain() == "ai.onnx" ? "" : o.domain()] = int(o.version());
    const int opset = opsets.count("") ? opsets[""] : 1;

    const size_t tensors = size_t(g.node_size()) * 2 + size_t(g.input_size() + g.initializer_size());
    std::unordered_map<std::string, onnx::TypeProto> types;
    std::unordered_map<std::string, onnx::TypeProto*> typeOf;
    std::unordered_map<std::string, const onnx::TensorProto*> dataOf;
    types.reserve(tensors);
    typeOf.reserve(tensors);
    dataOf.reserve(tensors);
    std::deque<onnx::TensorProto> computed; // the values of shape computations, as tensors
    Shapes s;
    s.dims.reserve(tensors);
    auto setType = [&](const std::string& name, const onnx::TypeProto& t) {
        onnx::TypeProto& stored = types[name];
        stored = t;
        typeOf[name] = &stored;
        if (!t.has_tensor_type() || !t.tensor_type().has_shape())
            return;
        std::vector<std::int64_t> dims;
        for (const auto& d : t.tensor_type().shape().dim()) {
            if (!d.has_dim_value())
                return;
            dims.push_back(d.dim_value());
        }
        s.dims[name] = std::move(dims);
    };
    // Bind the inputs' symbolic extents.
    for (const auto& in : g.input()) {
        onnx::TypeProto t = in.type();
        auto it = std::find_if(inputs.begin(), inputs.end(), [&](const OnnxInput& i) { return i.name == in.name(); });
        if (it != inputs.end() && t.has_tensor_type()) {
            auto* shape = t.mutable_tensor_type()->mutable_shape();
            if (it->batchBound && shape->dim_size() > 0)
                shape->mutable_dim(0)->set_dim_value(config.batch);
            for (int i : it->heightAt)
                shape->mutable_dim(i)->set_dim_value(config.unet.height);
            for (int i : it->widthAt)
                shape->mutable_dim(i)->set_dim_value(config.unet.width);
        }
        setType(in.name(), t);
    }
    for (const auto& t : g.initializer()) {
        onnx::TypeProto type;
        type.mutable_tensor_type()->set_elem_type(t.data_type());
        type.mutable_tensor_type()->mutable_shape(); // a scalar has a shape too: rank 0
        for (auto d : t.dims())
            type.mutable_tensor_type()->mutable_shape()->add_dim()->set_dim_value(d);
        setType(t.name(), type);
        dataOf[t.name()] = &t;
        Value v;
        if (readValue(t, v))
            s.values[t.name()] = std::move(v);
    }
    for (int i = 0; i < g.node_size(); ++i) {
        onnx::NodeProto& n = const_cast<onnx::NodeProto&>(g.node(i));
        checkNode(n, i, s, file);
        const std::string domain = n.domain() == "ai.onnx" ? "" : n.domain();
        auto version = opsets.find(domain);
        const onnx::OpSchema* schema = version == opsets.end() ? nullptr : onnx::OpSchemaRegistry::Schema(n.op_type(), version->second, domain);
        const bool controlFlow = domain.empty() && (n.op_type() == "If" || n.op_type() == "Loop" || n.op_type() == "Scan");
        if (schema && schema->has_type_and_shape_inference_function() && !controlFlow) {
            onnx::shape_inference::InferenceContextImpl ctx(n, typeOf, dataOf, {});
            try {
                schema->GetTypeAndShapeInferenceFunction()(ctx);
            } catch (const std::exception& e) { // onnx::InferenceError and friends
                throw ImportError(file + ": " + nodeLabel(n, i) + ": " + e.what());
            }
            for (int o = 0; o < n.output_size(); ++o)
                if (!n.output(o).empty())
                    if (const onnx::TypeProto* t = ctx.getOutputType(size_t(o)))
                        setType(n.output(o), *t);
        } else if (n.output_size() > 0 && n.input_size() > 0 && typeOf.count(n.input(0))) {
            // No shape function (a custom domain, control flow): assume the output is shaped as the
            // first input, so that the rest of the graph can be followed; the row says so.
            setType(n.output(0), *typeOf[n.input(0)]);
            s.assumed.insert(n.output(0));
        }
        if (n.output_size() == 0 || n.output(0).empty())
            continue;
        std::optional<Value> v = evaluateNode(n, s, opset);
        if (!v || v->data.size() > kMaxValueElements || std::int64_t(v->data.size()) != product(v->dims))
            continue;
        computed.push_back(valueTensor(n.output(0), *v));
        dataOf[n.output(0)] = &computed.back();
        s.values[n.output(0)] = std::move(*v);
    }
    return s;
}

std::string nodeLabel(const onnx::NodeProto& node, int index)
{
    const std::string op = node.domain().empty() || node.domain() == "ai.onnx" ? node.op_type() : node.domain() + ":" + node.op_type();
    return (node.name().empty() ? "node " + std::to_string(index) : "node '" + node.name() + "'") + " (" + op + ")";
}


} // namespace rfx::onnximport
