// Shapes of an imported model at one configuration: the inputs' symbolic extents bound, then, node by
// node, ONNX's own shape functions (the schema registry's, through onnx::InferenceContextImpl) and the
// evaluation of shape computations (Shape -> Gather -> Sub -> Div -> Slice, as PyTorch's exporter emits
// for a crop), whose values the following shape functions read as constants.
#include "onnx/onnx_walker.h"

#include <onnx/defs/schema.h>
#include <onnx/shape_inference/implementation.h>

#include <algorithm>
#include <deque>
#include <optional>
#include <string_view>

namespace rfx::onnximport {

ShapeWalker::ShapeWalker(const Skeleton& skeleton, const std::string& file, Shapes& shapes)
    : m_skeleton(skeleton)
    , m_file(file)
    , m_s(shapes)
{
    for (const auto& o : skeleton.model.opset_import())
        m_opsets[o.domain() == "ai.onnx" ? "" : o.domain()] = int(o.version());
    m_opset = m_opsets.count("") ? m_opsets[""] : 1;
    const onnx::GraphProto& g = skeleton.model.graph();
    const size_t tensors = size_t(g.node_size()) * 2 + size_t(g.input_size() + g.initializer_size());
    m_types.reserve(tensors);
    m_typeOf.reserve(tensors);
    m_dataOf.reserve(tensors);
    m_s.dims.reserve(tensors);
}

void ShapeWalker::setType(const std::string& name, const onnx::TypeProto& t)
{
    onnx::TypeProto& stored = m_types[name];
    stored = t;
    m_typeOf[name] = &stored;
    if (t.has_tensor_type() && t.tensor_type().elem_type() != 0)
        m_s.elemTypes[name] = t.tensor_type().elem_type();
    if (t.has_sequence_type() || t.has_map_type() || t.has_optional_type())
        m_s.unmodelled[name] = t.has_sequence_type() ? "a sequence" : t.has_map_type() ? "a map" : "an optional value";
    else if (t.has_tensor_type() && t.tensor_type().elem_type() == onnx::TensorProto::STRING)
        m_s.unmodelled[name] = "strings";
    if (!t.has_tensor_type() || !t.tensor_type().has_shape()) {
        m_s.dims.erase(name);
        return;
    }
    std::vector<std::int64_t> dims;
    for (const auto& d : t.tensor_type().shape().dim()) {
        if (!d.has_dim_value()) {
            m_s.dims.erase(name);
            return;
        }
        dims.push_back(d.dim_value());
    }
    m_s.dims[name] = std::move(dims);
}

const onnx::TypeProto* ShapeWalker::typeOf(const std::string& name) const
{
    auto it = m_typeOf.find(name);
    return it == m_typeOf.end() ? nullptr : it->second;
}

void ShapeWalker::bindInputs(const std::vector<OnnxInput>& inputs, const Config& config)
{
    const onnx::GraphProto& g = m_skeleton.model.graph();
    for (const auto& in : g.input()) {
        onnx::TypeProto t = in.type();
        auto it = std::find_if(inputs.begin(), inputs.end(), [&](const OnnxInput& i) { return i.name == in.name(); });
        if (it != inputs.end() && t.has_tensor_type()) {
            auto* shape = t.mutable_tensor_type()->mutable_shape();
            for (int i : it->batchAt)
                shape->mutable_dim(i)->set_dim_value(config.batch);
            for (int i : it->heightAt)
                shape->mutable_dim(i)->set_dim_value(config.unet.height);
            for (int i : it->widthAt)
                shape->mutable_dim(i)->set_dim_value(config.unet.width);
        }
        // Extents bound by name (--dim), over the batch and image ones: a decoder's sequence lengths.
        // (By the names the model gives, before the extents above replaced them.)
        if (t.has_tensor_type() && t.tensor_type().has_shape() && !config.dims.empty())
            for (int i = 0; i < in.type().tensor_type().shape().dim_size(); ++i) {
                const std::string& name = in.type().tensor_type().shape().dim(i).dim_param();
                if (auto bound = config.dims.find(name); !name.empty() && bound != config.dims.end()) {
                    t.mutable_tensor_type()->mutable_shape()->mutable_dim(i)->set_dim_value(bound->second);
                    m_boundDims.insert(bound->first);
                }
            }
        setType(in.name(), t);
        // An empty input's value is known: nothing (ReduceSum's empty axes).
        if (auto d = m_s.dims.find(in.name()); d != m_s.dims.end() && product(d->second) == 0) {
            Value v { d->second, {}, true };
            m_computed.push_back(valueTensor(in.name(), v));
            m_dataOf[in.name()] = &m_computed.back();
            m_s.values[in.name()] = std::move(v);
        }
        // A value the user bound (--input-value): a flag or a count that an If or a Loop reads.
        if (auto bound = config.inputValues.find(in.name()); bound != config.inputValues.end()) {
            auto d = m_s.dims.find(in.name());
            if (d != m_s.dims.end() && product(d->second) == 1) {
                const int type = t.tensor_type().elem_type();
                Value v { d->second, { bound->second },
                    type != onnx::TensorProto::FLOAT && type != onnx::TensorProto::DOUBLE
                        && type != onnx::TensorProto::FLOAT16 && type != onnx::TensorProto::BFLOAT16 };
                m_computed.push_back(valueTensor(in.name(), v));
                m_dataOf[in.name()] = &m_computed.back();
                m_s.values[in.name()] = std::move(v);
            }
        }
    }
    for (const auto& [name, extent] : config.dims)
        if (!m_boundDims.count(name))
            m_s.notes.push_back({ Severity::Warning, m_file, "--dim " + name,
                "no input of the model has a dimension named '" + name + "'; the extent is not used" });
    m_branches = config.branches;
    for (const auto& [name, value] : config.inputValues)
        if (!m_s.values.count(name))
            m_s.notes.push_back({ Severity::Warning, m_file, "--input-value " + name,
                "the model has no one-element input '" + name + "'; the value is not used" });
    for (const auto& t : g.initializer()) {
        onnx::TypeProto type;
        type.mutable_tensor_type()->set_elem_type(t.data_type());
        type.mutable_tensor_type()->mutable_shape(); // a scalar has a shape too: rank 0
        for (auto d : t.dims())
            type.mutable_tensor_type()->mutable_shape()->add_dim()->set_dim_value(d);
        setType(t.name(), type);
        m_dataOf[t.name()] = &t;
        Value v;
        if (readValue(t, v))
            m_s.values[t.name()] = std::move(v);
    }
}

void ShapeWalker::walk(
    const onnx::GraphProto& g, int mainIndex, double repeats, const std::string& scope, std::vector<Step>& out)
{
    for (int i = 0; i < g.node_size(); ++i)
        node(g.node(i), i, mainIndex < 0 ? i : mainIndex, repeats, scope, out);
}

void ShapeWalker::node(
    const onnx::NodeProto& n, int index, int label, double repeats, const std::string& scope, std::vector<Step>& out)
{
    // Each node's own shape function from ONNX's schema registry (onnx::InferenceContextImpl), after the
    // checks its inputs need, then its value when it is a shape computation, which the next nodes' shape
    // functions read as constant data. The nodes are read, not changed: InferenceContextImpl asks for a
    // mutable node only to reach graph attributes, which control flow (onnx_control.cpp) walks itself.
    // No copy of the graph per configuration.
    checkNode(n, index, m_s, m_file);
    const std::string domain = n.domain() == "ai.onnx" ? "" : n.domain();
    if (domain.empty() && (n.op_type() == "If" || n.op_type() == "Loop" || n.op_type() == "Scan")) {
        controlFlow(n, label, repeats, scope, out);
        return;
    }
    out.push_back(Step { &n, label, repeats, scope, {}, {} });
    auto version = m_opsets.find(domain);
    const onnx::OpSchema* schema
        = version == m_opsets.end() ? nullptr : onnx::OpSchemaRegistry::Schema(n.op_type(), version->second, domain);
    bool typed = false;
    const bool recurrent = domain.empty() && (n.op_type() == "LSTM" || n.op_type() == "GRU" || n.op_type() == "RNN");
    if (recurrent) {
        const Outputs types = recurrentShapes(n, m_typeOf, m_dataOf, m_s);
        for (size_t o = 0; o < types.size() && o < size_t(n.output_size()); ++o)
            if (types[o] && !n.output(int(o)).empty())
                setType(n.output(int(o)), *types[o]);
        typed = !types.empty();
    }
    if (typed) {
    } else if (domain == kAdaptedDomain || domain == "com.microsoft") {
        try {
            const Outputs types = domain == kAdaptedDomain ? adaptedShapes(n, m_typeOf, m_dataOf, m_s)
                                                           : contribShapes(n, m_typeOf, m_dataOf, m_s);
            for (size_t o = 0; o < types.size() && o < size_t(n.output_size()); ++o)
                if (types[o] && !n.output(int(o)).empty())
                    setType(n.output(int(o)), *types[o]);
            typed = !types.empty() && types.front();
        } catch (const std::exception& e) { // the tool's own words (onnx_adapted_shapes.cpp)
            throw ImportError(m_file + ": " + nodeLabel(n, index) + ": " + e.what());
        }
    } else if (schema && schema->has_type_and_shape_inference_function()) {
        onnx::NodeProto& mutableNode = const_cast<onnx::NodeProto&>(n);
        const ScalarStandIns standIns = scalarStandIns(n, index);
        onnx::shape_inference::InferenceContextImpl ctx(mutableNode, m_typeOf, m_dataOf, {});
        try {
            schema->GetTypeAndShapeInferenceFunction()(ctx);
        } catch (const std::exception& e) { // onnx::InferenceError and friends
            restoreScalars(standIns);
            throw ImportError(m_file + ": " + nodeLabel(n, index) + ": " + refusedShapes(n, e.what()));
        }
        restoreScalars(standIns);
        for (int o = 0; o < n.output_size(); ++o)
            if (!n.output(o).empty())
                if (const onnx::TypeProto* t = ctx.getOutputType(size_t(o)))
                    setType(n.output(o), *t);
        typed = true;
    }
    if (std::any_of(n.output().begin(), n.output().end(),
            [&](const std::string& o) { return !o.empty() && !m_s.dims.count(o); })) {
        const Outputs more = missingShapes(n, m_typeOf, m_dataOf, m_s);
        for (size_t o = 0; o < more.size() && o < size_t(n.output_size()); ++o)
            if (more[o] && !n.output(int(o)).empty() && !m_s.dims.count(n.output(int(o))))
                setType(n.output(int(o)), *more[o]);
        typed = typed || (!more.empty() && more.front());
    }
    if (!typed && n.output_size() > 0 && n.input_size() > 0 && m_typeOf.count(n.input(0))) {
        // No shape function (a custom domain, an operator newer than the tool): assume the output is
        // shaped as the first input, so that the rest of the graph can be followed; the row says so.
        setType(n.output(0), *m_typeOf[n.input(0)]);
        m_s.assumed.insert(n.output(0));
    }
    storeValues(n, evaluateNode(n, ShapeWalker::scope()));
}

namespace {

// The inputs whose shape functions in ONNX (onnx/defs) insist on a scalar, rank 0, where ONNX Runtime
// takes a tensor of one element of any rank, as exporters write them (PyTorch 2.x's Range over
// [1]-shaped sizes): Range's start, limit and delta (generator/utils.h), Dropout's ratio and
// training_mode (nn/defs.cc), the window functions' size, MelWeightMatrix's num_mel_bins and
// dft_length, STFT's frame_length, DFT's dft_length and axis (math/defs.cc and old.cc). If's
// condition and Loop's trip count and condition are the tool's own (onnx_control.cpp), and Clip's
// bounds, Pad's constant value and ConstantOfShape's value are not checked for rank by ONNX 1.12.
struct ScalarInputs {
    const char* op;
    std::initializer_list<int> inputs;
};
constexpr ScalarInputs kScalarInputs[] = {
    { "Range", { 0, 1, 2 } },
    { "Dropout", { 1, 2 } },
    { "HannWindow", { 0 } },
    { "HammingWindow", { 0 } },
    { "BlackmanWindow", { 0 } },
    { "MelWeightMatrix", { 0, 1 } },
    { "STFT", { 3 } },
    { "DFT", { 1, 2 } },
};

bool oneElement(const onnx::TypeProto& t)
{
    if (!t.has_tensor_type() || !t.tensor_type().has_shape() || t.tensor_type().shape().dim_size() == 0)
        return false;
    for (const auto& d : t.tensor_type().shape().dim())
        if (!d.has_dim_value() || d.dim_value() != 1)
            return false;
    return true;
}

} // namespace

ShapeWalker::ScalarStandIns ShapeWalker::scalarStandIns(const onnx::NodeProto& n, int index)
{
    ScalarStandIns s;
    if (!(n.domain().empty() || n.domain() == "ai.onnx"))
        return s;
    const ScalarInputs* rule = nullptr;
    for (const ScalarInputs& r : kScalarInputs)
        if (n.op_type() == r.op)
            rule = &r;
    if (!rule)
        return s;
    std::string relaxed;
    for (int i : rule->inputs) {
        if (i >= n.input_size() || n.input(i).empty())
            continue;
        const std::string& name = n.input(i);
        const auto type = m_typeOf.find(name);
        if (type == m_typeOf.end() || !type->second || !oneElement(*type->second))
            continue;
        // Stand-ins of rank 0 for the shape function's look, the originals put back after it.
        auto stand = std::make_unique<ScalarStandIn>();
        stand->name = name;
        stand->type = *type->second;
        stand->type.mutable_tensor_type()->mutable_shape()->clear_dim();
        stand->oldType = type->second;
        type->second = &stand->type;
        if (const auto data = m_dataOf.find(name); data != m_dataOf.end() && data->second) {
            stand->data = *data->second;
            stand->data.clear_dims();
            stand->oldData = data->second;
            data->second = &stand->data;
        }
        relaxed += (relaxed.empty() ? "'" : ", '") + name + "'";
        s.push_back(std::move(stand));
    }
    if (!relaxed.empty())
        m_s.notes.push_back({ Severity::Info, m_file, nodeLabel(n, index),
            (s.size() == 1 ? "input " : "inputs ") + relaxed + (s.size() == 1 ? " is a tensor" : " are tensors")
                + " of one element where ONNX's rule for " + n.op_type()
                + " asks for a scalar; read as the scalar, as ONNX Runtime does" });
    return s;
}

void ShapeWalker::restoreScalars(const ScalarStandIns& standIns)
{
    for (const auto& stand : standIns) {
        m_typeOf[stand->name] = stand->oldType;
        if (stand->oldData)
            m_dataOf[stand->name] = stand->oldData;
    }
}

std::string ShapeWalker::refusedShapes(const onnx::NodeProto& n, const std::string& why) const
{
    // The tool's words first: what the node was given; ONNX's own words after, when they are its.
    std::string given;
    for (int i = 0; i < n.input_size() && i < 4; ++i) {
        if (n.input(i).empty())
            continue;
        auto d = m_s.dims.find(n.input(i));
        std::string extents = "unknown";
        if (d != m_s.dims.end()) {
            extents = d->second.empty() ? "a scalar" : "";
            for (size_t k = 0; k < d->second.size(); ++k)
                extents += (k ? " x " : "") + std::to_string(d->second[k]);
        }
        given += (given.empty() ? "" : ", ") + ("'" + n.input(i) + "' " + extents);
    }
    const bool onnxWords = why.starts_with("[") || why.find("Error]") != std::string::npos;
    return "its outputs' shapes cannot be worked out from its inputs (" + given
        + "): the file may be damaged, or the model may need other input sizes (another --image or --batch)"
        + (onnxWords ? ". ONNX's shape inference says: " + why : ": " + why);
}

ValueScope ShapeWalker::scope()
{
    ValueScope s;
    s.value = [this](const std::string& name) -> const Value* {
        auto it = m_s.values.find(name);
        return it == m_s.values.end() ? nullptr : &it->second;
    };
    s.dims = [this](const std::string& name) -> const std::vector<std::int64_t>* {
        auto it = m_s.dims.find(name);
        return it == m_s.dims.end() ? nullptr : &it->second;
    };
    s.elemType = [this](const std::string& name) {
        auto it = m_s.elemTypes.find(name);
        return it == m_s.elemTypes.end() ? 0 : it->second;
    };
    s.opset = m_opset;
    s.budget = &m_budget;
    return s;
}

void ShapeWalker::storeValues(const onnx::NodeProto& n, std::vector<std::optional<Value>>&& values)
{
    for (size_t o = 0; o < values.size() && o < size_t(n.output_size()); ++o) {
        const std::string& name = n.output(int(o));
        if (name.empty() || !values[o])
            continue;
        Value& v = *values[o];
        if (!v.sequence) {
            // What shape inference could not tell (a NonZero's count, a Loop's result), the value does.
            if (auto d = m_s.dims.find(name); d == m_s.dims.end() || d->second != v.dims) {
                onnx::TypeProto t;
                const auto known = m_s.elemTypes.find(name);
                t.mutable_tensor_type()->set_elem_type(known != m_s.elemTypes.end() ? known->second
                        : v.integer                                                 ? int(onnx::TensorProto::INT64)
                                                                                    : int(onnx::TensorProto::FLOAT));
                auto* shape = t.mutable_tensor_type()->mutable_shape();
                for (auto e : v.dims)
                    shape->add_dim()->set_dim_value(e);
                setType(name, t);
            }
            m_computed.push_back(valueTensor(name, v));
            m_dataOf[name] = &m_computed.back();
        }
        m_s.values[name] = std::move(v);
    }
}

Shapes inferShapes(
    const Skeleton& skeleton, const std::vector<OnnxInput>& inputs, const Config& config, const std::string& file)
{
    Shapes s;
    ShapeWalker walker(skeleton, file, s);
    walker.bindInputs(inputs, config);
    s.steps.reserve(size_t(skeleton.model.graph().node_size()));
    walker.walk(skeleton.model.graph(), -1, 1, {}, s.steps);
    walker.noteUnusedBranches();
    return s;
}

std::string nodeLabel(const onnx::NodeProto& node, int index)
{
    const std::string op = isStandard(node) ? node.op_type() : node.domain() + ":" + node.op_type();
    return (node.name().empty() ? "node " + std::to_string(index) : "node '" + node.name() + "'") + " (" + op + ")";
}

} // namespace rfx::onnximport
