// Graphs as converters write them, brought to the one form the rest of the importer reads, before
// ONNX's checker sees them: model-local functions inlined (PyTorch's dynamo exporter leaves them),
// Constant nodes turned into initializers (PaddlePaddle's and spox's exporters keep every weight in
// one), initializers of subgraphs lifted to the main graph (an If branch's weights), and the nodes
// sorted topologically (ONNX Runtime's fp16 converter appends its input Cast last; runtimes sort).
#include "onnx/onnx_internal.h"

#include <algorithm>
#include <functional>
#include <queue>
#include <unordered_map>
#include <unordered_set>

namespace rfx::onnximport {

namespace {

bool isStandardDomain(const std::string& d) { return d.empty() || d == "ai.onnx"; }

// Every subgraph of a node (If's branches, Loop's and Scan's bodies).
template <typename F> void forEachSubgraph(onnx::NodeProto& n, F&& f)
{
    for (auto& a : *n.mutable_attribute()) {
        if (a.has_g())
            f(*a.mutable_g());
        for (auto& g : *a.mutable_graphs())
            f(g);
    }
}

// --- model-local functions ------------------------------------------------------------------------

// Fields of IR 10 and ONNX 1.13+ that ONNX 1.12's protobuf does not know, so they arrive as unknown
// fields (protobuf keeps them): FunctionProto.attribute_proto (11, the attributes with their defaults)
// and overload (13), NodeProto.overload (8). Debian's 1.12 is too old for them; read from the wire.
constexpr int kFunctionAttributeProto = 11;
constexpr int kFunctionOverload = 13;
constexpr int kNodeOverload = 8;

std::string unknownString(const google::protobuf::Message& m, int number)
{
    const google::protobuf::UnknownFieldSet& u = m.GetReflection()->GetUnknownFields(m);
    for (int i = 0; i < u.field_count(); ++i)
        if (u.field(i).number() == number && u.field(i).type() == google::protobuf::UnknownField::TYPE_LENGTH_DELIMITED)
            return u.field(i).length_delimited();
    return {};
}

/// A function's attribute defaults (attribute_proto), by name.
std::map<std::string, onnx::AttributeProto> attributeDefaults(const onnx::FunctionProto& f)
{
    std::map<std::string, onnx::AttributeProto> defaults;
    const google::protobuf::UnknownFieldSet& u = f.GetReflection()->GetUnknownFields(f);
    for (int i = 0; i < u.field_count(); ++i) {
        if (u.field(i).number() != kFunctionAttributeProto
            || u.field(i).type() != google::protobuf::UnknownField::TYPE_LENGTH_DELIMITED)
            continue;
        onnx::AttributeProto a;
        if (a.ParseFromString(u.field(i).length_delimited()) && !a.name().empty())
            defaults[a.name()] = a;
    }
    return defaults;
}

// Functions are told apart by domain, name and overload (IR 10: torchlib writes overloads of one name).
struct FunctionKey {
    std::string domain, name, overload;
    friend bool operator<(const FunctionKey& a, const FunctionKey& b)
    {
        return std::tie(a.domain, a.name, a.overload) < std::tie(b.domain, b.name, b.overload);
    }
};

// One call of a function: its nodes with their tensors renamed into the caller's scope (formal inputs
// and outputs to the call's actual names, everything else prefixed with the call's name) and attribute
// references (ref_attr_name) replaced by the call's attributes, or where the call gives none, by the
// function's default (attribute_proto); with neither the attribute is left out and the operator's own
// default applies, as ONNX's function inliner does. Nested calls are expanded by the caller.
std::vector<onnx::NodeProto> expandCall(
    const onnx::FunctionProto& f, const onnx::NodeProto& call, const std::string& prefix)
{
    const std::map<std::string, onnx::AttributeProto> defaults = attributeDefaults(f);
    std::unordered_map<std::string, std::string> rename;
    for (int i = 0; i < f.input_size(); ++i)
        rename[f.input(i)] = i < call.input_size() ? call.input(i) : std::string();
    for (int i = 0; i < f.output_size(); ++i)
        rename[f.output(i)] = i < call.output_size() ? call.output(i) : std::string();
    auto mapped = [&](const std::string& name) {
        if (name.empty())
            return name;
        auto it = rename.find(name);
        return it != rename.end() ? it->second : prefix + name;
    };
    std::vector<onnx::NodeProto> out;
    for (const auto& fn : f.node()) {
        onnx::NodeProto n = fn;
        n.set_name(prefix + (fn.name().empty() ? fn.op_type() : fn.name()));
        for (auto& in : *n.mutable_input())
            in = mapped(in);
        for (auto& o : *n.mutable_output())
            o = mapped(o);
        google::protobuf::RepeatedPtrField<onnx::AttributeProto> attrs;
        for (const auto& a : n.attribute()) {
            if (a.ref_attr_name().empty()) {
                *attrs.Add() = a;
                continue;
            }
            const onnx::AttributeProto* value = nullptr;
            for (const auto& given : call.attribute())
                if (given.name() == a.ref_attr_name())
                    value = &given;
            if (!value)
                if (auto d = defaults.find(a.ref_attr_name()); d != defaults.end())
                    value = &d->second;
            if (value) {
                onnx::AttributeProto copy = *value;
                copy.set_name(a.name());
                *attrs.Add() = copy;
            }
        }
        n.mutable_attribute()->Swap(&attrs);
        out.push_back(std::move(n));
    }
    return out;
}

void inlineFunctions(onnx::ModelProto& m, const std::string& file)
{
    if (m.functions_size() == 0)
        return;
    std::map<FunctionKey, const onnx::FunctionProto*> functions;
    for (const auto& f : m.functions())
        functions[{ f.domain(), f.name(), unknownString(f, kFunctionOverload) }] = &f;
    int calls = 0;
    std::function<void(onnx::GraphProto&, int)> expand = [&](onnx::GraphProto& g, int depth) {
        if (depth > 16)
            throw ImportError(file + ": functions: calls nest more than 16 deep (a function that calls itself?)");
        google::protobuf::RepeatedPtrField<onnx::NodeProto> nodes;
        std::function<void(const onnx::NodeProto&, int)> add = [&](const onnx::NodeProto& n, int level) {
            auto it = functions.find({ n.domain(), n.op_type(), unknownString(n, kNodeOverload) });
            if (it == functions.end()) {
                *nodes.Add() = n;
                return;
            }
            if (level > 16 || ++calls > 100000)
                throw ImportError(
                    file + ": functions: '" + n.op_type() + "' expands without end (a function that calls itself?)");
            const std::string prefix = (n.name().empty() ? n.op_type() + "_" + std::to_string(calls) : n.name()) + "/";
            for (const auto& inner : expandCall(*it->second, n, prefix))
                add(inner, level + 1);
        };
        for (const auto& n : g.node())
            add(n, 0);
        g.mutable_node()->Swap(&nodes);
        for (auto& n : *g.mutable_node())
            forEachSubgraph(n, [&](onnx::GraphProto& sub) { expand(sub, depth + 1); });
    };
    expand(*m.mutable_graph(), 0);
    // The functions' own opset imports join the model's (a function body may use a domain the main
    // graph does not).
    for (const auto& f : m.functions())
        for (const auto& o : f.opset_import())
            if (std::none_of(m.opset_import().begin(), m.opset_import().end(),
                    [&](const auto& x) { return x.domain() == o.domain(); }))
                *m.add_opset_import() = o;
    m.clear_functions();
}

// --- constants and subgraph initializers ----------------------------------------------------------

// A Constant node's value as a tensor named after its output (value, value_float(s), value_int(s)).
bool constantTensor(const onnx::NodeProto& n, onnx::TensorProto& t)
{
    if (n.op_type() != "Constant" || !isStandardDomain(n.domain()) || n.output_size() != 1)
        return false;
    for (const auto& a : n.attribute()) {
        if (a.name() == "value" && a.has_t()) {
            t = a.t();
        } else if (a.name() == "value_float") {
            t.set_data_type(onnx::TensorProto::FLOAT);
            t.add_float_data(a.f());
        } else if (a.name() == "value_floats") {
            t.set_data_type(onnx::TensorProto::FLOAT);
            t.add_dims(a.floats_size());
            for (float v : a.floats())
                t.add_float_data(v);
        } else if (a.name() == "value_int") {
            t.set_data_type(onnx::TensorProto::INT64);
            t.add_int64_data(a.i());
        } else if (a.name() == "value_ints") {
            t.set_data_type(onnx::TensorProto::INT64);
            t.add_dims(a.ints_size());
            for (auto v : a.ints())
                t.add_int64_data(v);
        } else
            continue;
        t.set_name(n.output(0));
        return true;
    }
    return false;
}

// Every name each scope defines (inputs, initializers, node outputs), counted over the whole model.
void countDefinitions(const onnx::GraphProto& g, std::unordered_map<std::string, int>& defined)
{
    for (const auto& in : g.input())
        ++defined[in.name()];
    for (const auto& t : g.initializer())
        ++defined[t.name()];
    for (const auto& n : g.node()) {
        for (const auto& o : n.output())
            ++defined[o];
        for (const auto& a : n.attribute()) {
            if (a.has_g())
                countDefinitions(a.g(), defined);
            for (const auto& sub : a.graphs())
                countDefinitions(sub, defined);
        }
    }
}

// Constant nodes become initializers of the main graph, and so do the initializers of subgraphs. A
// name defined in more than one scope stays where it is: sibling branches may reuse names (Optimum's
// merged decoder holds two exports of one model, both with a '/Constant_output_0'), and lifted, one
// would shadow the other.
void liftConstants(onnx::GraphProto& main)
{
    std::unordered_map<std::string, int> defined;
    countDefinitions(main, defined);
    std::unordered_set<std::string> names;
    for (const auto& [name, count] : defined)
        if (count > 1)
            names.insert(name);
    for (const auto& t : main.initializer())
        names.insert(t.name());
    for (const auto& in : main.input())
        names.insert(in.name());
    std::function<void(onnx::GraphProto&, bool)> lift = [&](onnx::GraphProto& g, bool isMain) {
        google::protobuf::RepeatedPtrField<onnx::NodeProto> kept;
        for (auto& n : *g.mutable_node()) {
            onnx::TensorProto t;
            if (constantTensor(n, t) && names.insert(t.name()).second) {
                *main.add_initializer() = std::move(t);
                continue;
            }
            forEachSubgraph(n, [&](onnx::GraphProto& sub) { lift(sub, false); });
            *kept.Add() = std::move(n);
        }
        g.mutable_node()->Swap(&kept);
        if (isMain)
            return;
        google::protobuf::RepeatedPtrField<onnx::TensorProto> stay;
        for (auto& t : *g.mutable_initializer()) {
            if (names.insert(t.name()).second)
                *main.add_initializer() = std::move(t);
            else
                *stay.Add() = std::move(t);
        }
        g.mutable_initializer()->Swap(&stay);
    };
    lift(main, true);
}

// --- topological order ----------------------------------------------------------------------------

// The names a subgraph reads from the scopes around it.
void outerReads(const onnx::GraphProto& g, std::unordered_set<std::string>& reads)
{
    std::unordered_set<std::string> local;
    for (const auto& in : g.input())
        local.insert(in.name());
    for (const auto& t : g.initializer())
        local.insert(t.name());
    for (const auto& n : g.node())
        for (const auto& o : n.output())
            local.insert(o);
    auto note = [&](const std::string& name) {
        if (!name.empty() && !local.count(name))
            reads.insert(name);
    };
    for (const auto& n : g.node()) {
        for (const auto& in : n.input())
            note(in);
        for (const auto& a : n.attribute()) {
            std::unordered_set<std::string> inner;
            if (a.has_g())
                outerReads(a.g(), inner);
            for (const auto& sub : a.graphs())
                outerReads(sub, inner);
            for (const auto& name : inner)
                note(name);
        }
    }
    for (const auto& o : g.output())
        note(o.name());
}

// Kahn's algorithm, taking the nodes in file order whenever several are ready, so a sorted graph keeps
// its order. Nodes in a cycle, or reading a tensor nobody produces, stay at the end in file order: the
// checker then names them. Returns whether anything moved.
bool sortNodes(onnx::GraphProto& g)
{
    const int count = g.node_size();
    std::unordered_map<std::string, int> producer;
    for (int i = 0; i < count; ++i)
        for (const auto& o : g.node(i).output())
            if (!o.empty())
                producer.emplace(o, i);
    std::vector<std::vector<int>> readers(static_cast<size_t>(count));
    std::vector<int> waiting(size_t(count), 0);
    for (int i = 0; i < count; ++i) {
        std::unordered_set<std::string> reads(g.node(i).input().begin(), g.node(i).input().end());
        for (const auto& a : g.node(i).attribute()) {
            if (a.has_g())
                outerReads(a.g(), reads);
            for (const auto& sub : a.graphs())
                outerReads(sub, reads);
        }
        for (const auto& name : reads) {
            auto it = producer.find(name);
            if (it != producer.end() && it->second != i) {
                readers[size_t(it->second)].push_back(i);
                ++waiting[size_t(i)];
            }
        }
    }
    std::priority_queue<int, std::vector<int>, std::greater<>> ready;
    for (int i = 0; i < count; ++i)
        if (waiting[size_t(i)] == 0)
            ready.push(i);
    std::vector<int> order;
    order.reserve(size_t(count));
    std::vector<bool> placed(size_t(count), false);
    while (!ready.empty()) {
        const int i = ready.top();
        ready.pop();
        order.push_back(i);
        placed[size_t(i)] = true;
        for (int r : readers[size_t(i)])
            if (--waiting[size_t(r)] == 0)
                ready.push(r);
    }
    for (int i = 0; i < count; ++i)
        if (!placed[size_t(i)])
            order.push_back(i);
    bool moved = false;
    for (int i = 0; i < count; ++i)
        moved = moved || order[size_t(i)] != i;
    if (!moved)
        return false;
    google::protobuf::RepeatedPtrField<onnx::NodeProto> sorted;
    for (int i : order)
        *sorted.Add() = std::move(*g.mutable_node(i));
    g.mutable_node()->Swap(&sorted);
    return true;
}

bool sortAll(onnx::GraphProto& g)
{
    bool moved = sortNodes(g);
    for (auto& n : *g.mutable_node())
        forEachSubgraph(n, [&](onnx::GraphProto& sub) { moved = sortAll(sub) || moved; });
    return moved;
}

} // namespace

void normalizeGraph(onnx::ModelProto& model, const std::string& file, std::vector<Diagnostic>& warnings)
{
    inlineFunctions(model, file);
    liftConstants(*model.mutable_graph());
    // IR versions before 4 want every initializer listed as a graph input; the lifted constants are not.
    if (model.ir_version() < 4)
        model.set_ir_version(4);
    if (sortAll(*model.mutable_graph()))
        warnings.push_back({ Severity::Info, file, "graph",
            "the nodes were not in topological order (as some converters write them); they were sorted, as runtimes "
            "do" });
}

} // namespace rfx::onnximport
