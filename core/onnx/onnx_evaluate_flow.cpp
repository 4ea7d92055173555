// Values known before the run, continued: the sequence operators (SequenceEmpty, SequenceInsert,
// SequenceAt, ConcatFromSequence, SplitToSequence, ...), and If and Loop run on known values, a Loop trip by
// trip, each subgraph in a scope of its own over the enclosing one (torchlib's as_strided builds its
// indices so).
#include "onnx/onnx_evaluate.h"

#include <unordered_map>

namespace rfx::onnximport::evaluation {

Result Eval::sequenceOps()
{
    Value seq;
    seq.sequence = true;
    if (m_op == "SequenceEmpty")
        return one(seq);
    if (m_op == "SequenceConstruct") {
        for (int i = 0; i < m_n.input_size(); ++i) {
            const Value* v = in(i);
            if (!isTensor(v))
                return {};
            seq.items.push_back(*v);
        }
        return one(std::move(seq));
    }
    if (m_op == "SplitToSequence") {
        const auto operand = tensorAndAxis(0);
        if (!operand)
            return {};
        const auto [a, axis] = *operand;
        const std::int64_t extent = a->dims[size_t(axis)];
        Dims sizes;
        const bool given = has(1);
        if (given) {
            const Value* s = in(1);
            if (!isTensor(s))
                return {};
            if (s->dims.empty()) { // a scalar: pieces of that size, the last smaller
                const std::int64_t each = whole(s->data[0]);
                if (each < 1)
                    return {};
                for (std::int64_t left = extent; left > 0; left -= each)
                    sizes.push_back(std::min(left, each));
            } else
                for (double x : s->data)
                    sizes.push_back(whole(x));
        } else
            sizes.assign(size_t(extent), 1);
        auto parts = pieces(*a, axis, sizes);
        if (!parts)
            return {};
        if (!given && attrInt("keepdims", 1) == 0)
            for (Value& p : *parts)
                p.dims.erase(p.dims.begin() + axis);
        seq.items = std::move(*parts);
        return one(std::move(seq));
    }
    const Value* s = in(0);
    if (!s || !s->sequence)
        return {};
    auto position = [&](int i, std::int64_t size, bool insert) -> std::optional<std::int64_t> {
        if (!has(i))
            return insert ? size : size - 1;
        const Value* p = in(i);
        if (!isTensor(p) || p->data.size() != 1)
            return std::nullopt;
        std::int64_t at = whole(p->data[0]);
        if (at < 0)
            at += size;
        if (at < 0 || at > (insert ? size : size - 1))
            return std::nullopt;
        return at;
    };
    const auto size = std::int64_t(s->items.size());
    if (m_op == "SequenceLength")
        return one(Value { {}, { double(size) }, true });
    if (m_op == "SequenceAt") {
        const auto at = has(1) ? position(1, size, false) : std::nullopt;
        return at ? one(s->items[size_t(*at)]) : Result {};
    }
    if (m_op == "SequenceInsert") {
        const Value* t = in(1);
        const auto at = position(2, size, true);
        if (!isTensor(t) || !at || (m_s.budget && (*m_s.budget -= std::int64_t(t->data.size()) + 1) < 0))
            return {};
        seq = *s;
        seq.items.insert(seq.items.begin() + *at, *t);
        return one(std::move(seq));
    }
    if (m_op == "SequenceErase") {
        const auto at = position(1, size, false);
        if (!at)
            return {};
        seq = *s;
        seq.items.erase(seq.items.begin() + *at);
        return one(std::move(seq));
    }
    if (m_op == "ConcatFromSequence") {
        if (s->items.empty())
            return {};
        const bool newAxis = attrInt("new_axis", 0) != 0;
        const auto rank = std::int64_t(s->items.front().dims.size()) + (newAxis ? 1 : 0);
        const std::int64_t axis = axisIn(attrInt("axis", 0), rank);
        if (axis < 0)
            return {};
        // As Concat of the items (each given the new axis first when asked).
        std::vector<Value> items = s->items;
        if (newAxis)
            for (Value& v : items)
                v.dims.insert(v.dims.begin() + axis, 1);
        onnx::NodeProto concatNode;
        concatNode.set_op_type("Concat");
        auto* ax = concatNode.add_attribute();
        ax->set_name("axis");
        ax->set_type(onnx::AttributeProto::INT);
        ax->set_i(axis);
        std::unordered_map<std::string, const Value*> named;
        for (size_t i = 0; i < items.size(); ++i) {
            concatNode.add_input("item" + std::to_string(i));
            named["item" + std::to_string(i)] = &items[i];
        }
        concatNode.add_output("out");
        ValueScope local = m_s;
        local.value = [&](const std::string& name) -> const Value* {
            auto it = named.find(name);
            return it == named.end() ? nullptr : it->second;
        };
        return Eval(concatNode, local).run();
    }
    return {};
}

// Runs a subgraph with values: its inputs bound, each node evaluated in order in a scope of its own over
// the enclosing one; its outputs' values, or nothing when one is not computable.
static std::optional<std::vector<Value>> runGraph(
    const onnx::GraphProto& g, const std::vector<Value>& inputs, const ValueScope& outer)
{
    if (int(inputs.size()) != g.input_size())
        return std::nullopt;
    std::unordered_map<std::string, Value> local;
    for (int i = 0; i < g.input_size(); ++i)
        local[g.input(i).name()] = inputs[size_t(i)];
    for (const auto& t : g.initializer()) {
        Value v;
        if (readValue(t, v))
            local[t.name()] = std::move(v);
    }
    ValueScope scope = outer;
    scope.value = [&](const std::string& name) -> const Value* {
        auto it = local.find(name);
        return it != local.end() ? &it->second : outer.value(name);
    };
    scope.dims = [&](const std::string& name) -> const Dims* {
        auto it = local.find(name);
        return it != local.end() ? &it->second.dims : outer.dims ? outer.dims(name) : nullptr;
    };
    for (const auto& node : g.node()) {
        Result r = evaluateNode(node, scope);
        for (int o = 0; o < node.output_size(); ++o) {
            if (node.output(o).empty())
                continue;
            if (size_t(o) >= r.size() || !r[size_t(o)])
                return std::nullopt;
            local[node.output(o)] = std::move(*r[size_t(o)]);
        }
    }
    std::vector<Value> out;
    for (const auto& o : g.output()) {
        const Value* v = scope.value(o.name());
        if (!v)
            return std::nullopt;
        out.push_back(*v);
    }
    return out;
}

static const onnx::GraphProto* graphAttribute(const onnx::NodeProto& n, const char* name)
{
    const auto* a = attribute(n, name);
    return a && a->has_g() ? &a->g() : nullptr;
}

Result Eval::ifNode()
{
    const Value* cond = in(0);
    if (!isTensor(cond) || cond->data.size() != 1)
        return {};
    const onnx::GraphProto* branch = graphAttribute(m_n, cond->data[0] != 0 ? "then_branch" : "else_branch");
    if (!branch)
        return {};
    return many(runGraph(*branch, {}, m_s));
}

// Loop: trip by trip while the trip count and the condition allow, the carried values passed on, each
// trip's scan outputs stacked along a new first axis.
Result Eval::loopNode()
{
    const onnx::GraphProto* body = graphAttribute(m_n, "body");
    if (!body || m_n.input_size() < 2 || body->input_size() != m_n.input_size()
        || body->output_size() < m_n.input_size() - 1)
        return {};
    std::int64_t trips = kMaxEvaluatedTrips + 1;
    if (has(0)) {
        const Value* m = in(0);
        if (!isTensor(m) || m->data.size() != 1)
            return {};
        trips = std::max<std::int64_t>(0, whole(m->data[0]));
    }
    bool cond = true;
    if (has(1)) {
        const Value* c = in(1);
        if (!isTensor(c) || c->data.size() != 1)
            return {};
        cond = c->data[0] != 0;
    } else if (!has(0))
        return {}; // neither a count nor a condition: runs for ever
    const int carried = m_n.input_size() - 2;
    std::vector<Value> state;
    for (int k = 0; k < carried; ++k) {
        const Value* v = in(2 + k);
        if (!v)
            return {};
        state.push_back(*v);
    }
    const int scans = body->output_size() - 1 - carried;
    auto scanned = std::vector<std::vector<Value>>(size_t(std::max(scans, 0)));
    std::int64_t trip = 0;
    for (; trip < trips && cond; ++trip) {
        if (trip >= kMaxEvaluatedTrips)
            return {};
        std::vector<Value> inputs { Value { {}, { double(trip) }, true }, Value { {}, { 1.0 }, true } };
        inputs.insert(inputs.end(), state.begin(), state.end());
        auto out = runGraph(*body, inputs, m_s);
        if (!out || out->front().data.size() != 1)
            return {};
        cond = out->front().data[0] != 0;
        for (int k = 0; k < carried; ++k)
            state[size_t(k)] = std::move((*out)[size_t(1 + k)]);
        for (int j = 0; j < scans; ++j)
            scanned[size_t(j)].push_back(std::move((*out)[size_t(1 + carried + j)]));
    }
    Result r;
    for (auto& v : state)
        r.emplace_back(std::move(v));
    for (auto& slices : scanned) {
        if (slices.empty() || slices.front().sequence) {
            r.emplace_back(std::nullopt); // no trip: the slices' extents are not known
            continue;
        }
        Dims dims = slices.front().dims;
        dims.insert(dims.begin(), std::int64_t(slices.size()));
        auto v = make(dims, slices.front().integer);
        bool same = v.has_value();
        for (const Value& s : slices) {
            same = same && s.dims == slices.front().dims;
            if (same)
                v->data.insert(v->data.end(), s.data.begin(), s.data.end());
        }
        r.emplace_back(same ? std::move(v) : std::nullopt);
    }
    return r;
}

} // namespace rfx::onnximport::evaluation
