// Control flow (README "ONNX models", conventions): an If whose condition is known (from constants,
// shapes or a value the user bound with --input-value) takes that branch; otherwise the heavier of the
// branches whose shapes work is counted, with a note naming the input that decides. A Loop with a
// known trip count counts its body that many times, a Scan its body once per step. The nodes of the
// branch or body are walked like the main graph's, their rows named after the control-flow node, and
// the subgraph's outputs become the node's, typed, so the nodes after it work.
#include "onnx/onnx_walker.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace rfx::onnximport {

namespace {

const onnx::GraphProto* graphAttr(const onnx::NodeProto& n, const char* name)
{
    const auto* a = attribute(n, name);
    return a && a->has_g() ? &a->g() : nullptr;
}

std::string scopeOf(const onnx::NodeProto& n, int label, const std::string& scope, const char* part)
{
    const std::string self = n.name().empty() ? n.op_type() + "_" + std::to_string(label) : shortName(n.name());
    return scope + self + "." + part + "/";
}

onnx::TypeProto scalarType(int elemType)
{
    onnx::TypeProto t;
    t.mutable_tensor_type()->set_elem_type(elemType);
    t.mutable_tensor_type()->mutable_shape();
    return t;
}

constexpr std::int64_t kRemove = -1, kUnknownExtent = -2;

// `t` with extent `extent` inserted at `axis` (a Loop's or Scan's stacked output; kUnknownExtent: a
// symbolic one), or the extent at `axis` removed (kRemove: a Scan input's slice).
onnx::TypeProto restacked(const onnx::TypeProto& t, std::int64_t axis, std::int64_t extent)
{
    onnx::TypeProto r = t;
    if (!t.has_tensor_type() || !t.tensor_type().has_shape())
        return r;
    const auto& dims = t.tensor_type().shape().dim();
    auto* shape = r.mutable_tensor_type()->mutable_shape();
    shape->clear_dim();
    const int rank = dims.size();
    if (axis < 0)
        axis += extent == kRemove ? rank : rank + 1;
    for (int i = 0; i <= rank; ++i) {
        if (i == axis && extent >= 0)
            shape->add_dim()->set_dim_value(extent);
        else if (i == axis && extent == kUnknownExtent)
            shape->add_dim()->set_dim_param("trips");
        if (i < rank && !(i == axis && extent == kRemove))
            *shape->add_dim() = dims[i];
    }
    return r;
}

std::string count(double x)
{
    char s[32];
    std::snprintf(s, sizeof s, "%.3g", x);
    return s;
}

} // namespace

double roughWork(const onnx::NodeProto& n, const Shapes& s)
{
    auto dims = [&](int i) -> const std::vector<std::int64_t>* {
        if (i >= n.input_size())
            return nullptr;
        auto it = s.dims.find(n.input(i));
        return it == s.dims.end() ? nullptr : &it->second;
    };
    if (n.output_size() == 0)
        return 0;
    auto out = s.dims.find(n.output(0));
    const double outputs = out == s.dims.end() ? 0 : double(std::max<std::int64_t>(0, product(out->second)));
    const std::string& op = n.op_type();
    if ((op == "Conv" || op == "ConvTranspose" || op == "ConvInteger") && dims(1) && dims(1)->size() > 1) {
        double k = 1;
        for (size_t i = 1; i < dims(1)->size(); ++i)
            k *= double((*dims(1))[i]);
        return 2 * outputs * k;
    }
    if ((op == "MatMul" || op == "Gemm" || op == "MatMulInteger") && dims(0) && !dims(0)->empty())
        return 2 * outputs * double(dims(0)->back());
    return outputs;
}

void ShapeWalker::linkOutput(
    const std::string& from, const std::string& to, const onnx::TypeProto* type, std::vector<Step>& out)
{
    if (to.empty())
        return;
    if (const onnx::TypeProto* t = type ? type : typeOf(from))
        setType(to, *t);
    if (auto v = m_s.values.find(from); v != m_s.values.end() && !type) {
        m_s.values[to] = v->second;
        if (auto d = m_dataOf.find(from); d != m_dataOf.end())
            m_dataOf[to] = d->second;
    }
    out.push_back(Step { nullptr, 0, 1, {}, from, to });
}

void ShapeWalker::controlFlow(
    const onnx::NodeProto& n, int label, double repeats, const std::string& scope, std::vector<Step>& out)
{
    if (n.op_type() == "If")
        ifNode(n, label, repeats, scope, out);
    else if (n.op_type() == "Loop")
        loopNode(n, label, repeats, scope, out);
    else
        scanNode(n, label, repeats, scope, out);
}

void ShapeWalker::ifNode(
    const onnx::NodeProto& n, int label, double repeats, const std::string& scope, std::vector<Step>& out)
{
    const onnx::GraphProto* branches[] = { graphAttr(n, "then_branch"), graphAttr(n, "else_branch") };
    const char* names[] = { "then", "else" };
    if (!branches[0] || !branches[1] || n.input_size() < 1)
        throw ImportError(m_file + ": " + nodeLabel(n, label) + ": an If needs a condition and both branches");
    int chosen = -1;
    // The name --branch knows the If by: its own, else its first output's.
    const std::string ifName = !n.name().empty() ? n.name() : n.output_size() > 0 ? n.output(0) : std::string();
    const auto bound = m_branches.find(ifName);
    if (auto cond = m_s.values.find(n.input(0)); cond != m_s.values.end() && cond->second.data.size() == 1) {
        chosen = cond->second.data[0] != 0 ? 0 : 1;
    } else if (bound != m_branches.end()) {
        if (std::find(m_s.openIfs.begin(), m_s.openIfs.end(), ifName) == m_s.openIfs.end())
            m_s.openIfs.push_back(ifName);
        chosen = bound->second ? 0 : 1;
        m_branchesUsed.insert(ifName);
        m_s.notes.push_back({ Severity::Info, m_file, nodeLabel(n, label),
            std::string("its condition is not known before the run; the '") + names[chosen]
                + "' branch is counted, as --branch " + ifName + "=" + names[chosen] + " chooses" });
    } else {
        if (std::find(m_s.openIfs.begin(), m_s.openIfs.end(), ifName) == m_s.openIfs.end())
            m_s.openIfs.push_back(ifName);
        // Unknown before the run: each branch that works at these shapes, the heavier counted.
        double work[2] = { -1, -1 };
        std::string firstError;
        for (int b = 0; b < 2; ++b) {
            std::vector<Step> trial;
            try {
                walk(*branches[b], label, repeats, scopeOf(n, label, scope, names[b]), trial);
            } catch (const ImportError& e) {
                if (firstError.empty())
                    firstError = e.what();
                continue;
            }
            work[b] = 0;
            for (const Step& st : trial)
                if (st.node)
                    work[b] += roughWork(*st.node, m_s);
        }
        if (work[0] < 0 && work[1] < 0)
            throw ImportError(firstError);
        chosen = work[1] > work[0] ? 1 : 0;
        // A condition read from a one-element input (a flag) is bound by its value; one computed from a
        // tensor's data (a threshold on a signal) cannot be: the user chooses the branch by the node.
        const std::string decides = decidingInput(n.input(0));
        const bool oneInput = decides.starts_with("input '") && decides.find(" and ") == std::string::npos;
        const std::string input = oneInput ? decides.substr(7, decides.size() - 8) : std::string();
        auto inputDims = m_s.dims.find(input);
        const bool flag = oneInput && inputDims != m_s.dims.end() && product(inputDims->second) == 1;
        const std::string what = flag ? "it depends on the value of " + decides
            : decides == "values computed at run time"
            ? "it depends on " + decides
            : "it depends on the data of " + decides + ", not on a value set before the run";
        const std::string choose = flag
            ? "Bind the input's value to choose: --input-value " + input + "=1 (then) or " + input + "=0 (else)"
            : "Choose the branch by the node: --branch " + ifName + "=then or --branch " + ifName
                + "=else (in the window: Model inputs)";
        m_s.notes.push_back({ Severity::Warning, m_file, nodeLabel(n, label),
            "its condition '" + n.input(0) + "' is not known before the run (" + what + "); the heavier branch, '"
                + names[chosen] + "' (about " + count(work[chosen]) + " operations against "
                + (work[1 - chosen] < 0 ? std::string("a branch whose shapes do not work here")
                                        : count(work[1 - chosen]))
                + "), is counted. " + choose });
    }
    const onnx::GraphProto& g = *branches[chosen];
    walk(g, label, repeats, scopeOf(n, label, scope, names[chosen]), out);
    for (int o = 0; o < n.output_size() && o < g.output_size(); ++o)
        linkOutput(g.output(o).name(), n.output(o), nullptr, out);
}

void ShapeWalker::noteUnusedBranches()
{
    for (const auto& [name, then] : m_branches)
        if (!m_branchesUsed.count(name))
            m_s.notes.push_back({ Severity::Warning, m_file, "--branch " + name,
                "the model has no If named '" + name
                    + "' whose condition depends on the data; the choice is not used" });
}

std::string ShapeWalker::decidingInput(const std::string& tensor) const
{
    // Back through the producers to the graph inputs it reads.
    std::unordered_map<std::string, const onnx::NodeProto*> producer;
    for (const auto& node : m_skeleton.model.graph().node())
        for (const auto& o : node.output())
            producer.emplace(o, &node);
    std::vector<std::string> todo { tensor }, found;
    std::set<std::string> seen;
    while (!todo.empty() && seen.size() < 10000) {
        const std::string t = todo.back();
        todo.pop_back();
        if (!seen.insert(t).second)
            continue;
        if (std::find(m_skeleton.realInputs.begin(), m_skeleton.realInputs.end(), t) != m_skeleton.realInputs.end())
            found.push_back("input '" + t + "'");
        else if (auto it = producer.find(t); it != producer.end())
            for (const auto& in : it->second->input())
                todo.push_back(in);
    }
    if (found.empty())
        return "values computed at run time";
    std::string s;
    for (const auto& f : found)
        s += (s.empty() ? "" : " and ") + f;
    return s;
}

void ShapeWalker::loopNode(
    const onnx::NodeProto& n, int label, double repeats, const std::string& scope, std::vector<Step>& out)
{
    const onnx::GraphProto* body = graphAttr(n, "body");
    if (!body || body->input_size() < 2 || body->output_size() < 1 || body->input_size() != n.input_size())
        throw ImportError(m_file + ": " + nodeLabel(n, label)
            + ": the body does not match the Loop's inputs (iteration, " + "condition and the loop-carried values)");
    const int carried = n.input_size() - 2;
    // Run trip by trip where every value it reads is known (an index list that a scripted exporter builds):
    // its outputs' values and extents, which the walk of its body below cannot give when they grow each trip.
    std::vector<std::optional<Value>> values = evaluateNode(n, ShapeWalker::scope());
    const bool evaluated
        = !values.empty() && std::all_of(values.begin(), values.end(), [](const auto& v) { return v.has_value(); });
    double trips = 1;
    bool tripsKnown = false;
    const std::string& m = n.input(0);
    auto known = m.empty() ? m_s.values.end() : m_s.values.find(m);
    if (known != m_s.values.end() && known->second.data.size() == 1) {
        trips = std::max(0.0, std::min(known->second.data[0], 1e12));
        tripsKnown = true;
        if (!n.input(1).empty())
            m_s.notes.push_back({ Severity::Info, m_file, nodeLabel(n, label),
                "counted for its trip count of " + count(trips) + "; its condition may end it sooner at run time" });
    } else {
        m_s.notes.push_back({ Severity::Warning, m_file, nodeLabel(n, label),
            "its trip count is not known before the run"
                + std::string(m.empty() ? "" : " (it depends on " + decidingInput(m) + ")")
                + "; its body is counted once. Bind the input's value to count it (--input-value NAME=N)" });
    }
    std::vector<Step> steps;
    setType(body->input(0).name(), scalarType(onnx::TensorProto::INT64));
    steps.push_back(Step { nullptr, 0, 1, {}, {}, body->input(0).name() });
    if (evaluated) // the body's rows are counted at the first trip's shapes
        storeIteration(body->input(0).name());
    setType(body->input(1).name(), scalarType(onnx::TensorProto::BOOL));
    steps.push_back(Step { nullptr, 0, 1, {}, n.input(1), body->input(1).name() });
    for (int k = 0; k < carried; ++k)
        linkOutput(n.input(2 + k), body->input(2 + k).name(), nullptr, steps);
    out.insert(out.end(), steps.begin(), steps.end());
    walk(*body, label, repeats * trips, scopeOf(n, label, scope, "body"), out);
    for (int o = 0; o < n.output_size() && 1 + o < body->output_size(); ++o) {
        const std::string& from = body->output(1 + o).name();
        if (o < carried) {
            linkOutput(from, n.output(o), nullptr, out);
        } else if (const onnx::TypeProto* t = typeOf(from)) {
            // Stacked along a new first axis, one slice a trip (unknown when the trip count is).
            const onnx::TypeProto stacked = restacked(*t, 0, tripsKnown ? std::int64_t(trips) : kUnknownExtent);
            linkOutput(from, n.output(o), &stacked, out);
        }
    }
    if (evaluated)
        storeValues(n, std::move(values));
}

void ShapeWalker::storeIteration(const std::string& name)
{
    Value zero { {}, { 0.0 }, true };
    m_computed.push_back(valueTensor(name, zero));
    m_dataOf[name] = &m_computed.back();
    m_s.values[name] = std::move(zero);
}

void ShapeWalker::scanNode(
    const onnx::NodeProto& n, int label, double repeats, const std::string& scope, std::vector<Step>& out)
{
    // Scan-8 has a batch axis first and the sequence second, and sequence_lens as input 0; from 9 on,
    // neither (the sequence axis is scan_input_axes', 0 by default).
    const bool batched = m_opset < 9;
    const int first = batched ? 1 : 0;
    const onnx::GraphProto* body = graphAttr(n, "body");
    const int scans = int(intAttr(n, "num_scan_inputs", 0));
    const int states = n.input_size() - first - scans;
    if (!body || scans < 1 || states < 0 || body->input_size() != n.input_size() - first)
        throw ImportError(
            m_file + ": " + nodeLabel(n, label) + ": the body does not match the Scan's states and scan inputs");
    const auto* inAxes = attribute(n, "scan_input_axes");
    const auto* outAxes = attribute(n, "scan_output_axes");
    std::int64_t length = -1, batch = 1;
    std::vector<Step> steps;
    for (int k = 0; k < states + scans; ++k) {
        const std::string& actual = n.input(first + k);
        const onnx::TypeProto* t = typeOf(actual);
        auto d = m_s.dims.find(actual);
        if (!t || d == m_s.dims.end() || (batched && d->second.empty()))
            throw ImportError(m_file + ": " + nodeLabel(n, label) + ": the shape of '" + actual + "' is not known");
        if (batched)
            batch = d->second[0];
        onnx::TypeProto slice = batched ? restacked(*t, 0, kRemove) : *t; // one batch element
        if (k >= states) {
            const std::int64_t axis = batched                ? 0
                : inAxes && inAxes->ints_size() > k - states ? inAxes->ints(k - states)
                                                             : 0;
            const auto& sd = batched ? std::vector<std::int64_t>(d->second.begin() + 1, d->second.end()) : d->second;
            const std::int64_t at = axis < 0 ? axis + std::int64_t(sd.size()) : axis;
            if (at < 0 || at >= std::int64_t(sd.size()))
                throw ImportError(
                    m_file + ": " + nodeLabel(n, label) + ": scan_input_axes: outside the input's dimensions");
            if (length < 0)
                length = sd[size_t(at)];
            slice = restacked(slice, at, kRemove);
        }
        linkOutput(actual, body->input(k).name(), &slice, steps);
    }
    out.insert(out.end(), steps.begin(), steps.end());
    const double runs = double(std::max<std::int64_t>(0, length)) * double(batch);
    walk(*body, label, repeats * runs, scopeOf(n, label, scope, "body"), out);
    for (int o = 0; o < n.output_size() && o < body->output_size(); ++o) {
        const std::string& from = body->output(o).name();
        const onnx::TypeProto* t = typeOf(from);
        if (!t)
            continue;
        onnx::TypeProto whole = *t;
        if (o >= states) {
            const int j = o - states;
            const std::int64_t axis = batched ? 0 : outAxes && outAxes->ints_size() > j ? outAxes->ints(j) : 0;
            whole = restacked(whole, axis, length);
        }
        if (batched)
            whole = restacked(whole, 0, batch);
        linkOutput(from, n.output(o), &whole, out);
    }
}

} // namespace rfx::onnximport
