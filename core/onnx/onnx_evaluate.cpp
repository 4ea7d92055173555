// Values known before the run, computed node by node by ONNX's reference semantics (onnx/reference/ops,
// the operator docs of onnx/defs): here the elementwise operators (numpy broadcasting) and Cast, with
// which models compute shapes, pads, indices and conditions, and the dispatch of every operator
// evaluated (reshaping and joining: onnx_evaluate_shape.cpp; picking and reducing:
// onnx_evaluate_index.cpp; the sequence operators, If and Loop: onnx_evaluate_flow.cpp). Shape inference
// (onnx_shapes.cpp) reads the results as constant data. Bounded: outputs of at most kMaxComputedElements,
// kEvaluationBudget elements a build, kMaxEvaluatedTrips trips a Loop; beyond them a value is unknown.
#include "onnx/onnx_evaluate.h"

#include <cmath>
#include <numeric>

namespace rfx::onnximport {

namespace evaluation {

// Broadcasts the inputs' extents (numpy's rule), or nothing when they do not broadcast.
std::optional<Dims> broadcastDims(const std::vector<const Value*>& ins)
{
    size_t rank = 0;
    for (const Value* v : ins)
        rank = std::max(rank, v->dims.size());
    Dims out(rank, 1);
    for (const Value* v : ins)
        for (size_t i = 0; i < v->dims.size(); ++i) {
            std::int64_t& o = out[rank - v->dims.size() + i];
            const std::int64_t d = v->dims[i];
            if (d == o || d == 1)
                continue;
            if (o != 1)
                return std::nullopt;
            o = d;
        }
    return out;
}

Result Eval::unary()
{
    const Value* a = in(0);
    if (!isTensor(a))
        return {};
    const bool keepsType = m_op == "Neg" || m_op == "Abs" || m_op == "Floor" || m_op == "Ceil" || m_op == "Round"
        || m_op == "Sign" || m_op == "Relu" || m_op == "Identity";
    auto v = make(a->dims, m_op == "Not" || m_op == "IsNaN" || m_op == "IsInf" || (keepsType && a->integer));
    if (!v)
        return {};
    for (double x : a->data) {
        double y = x;
        if (m_op == "Neg")
            y = -x;
        else if (m_op == "Abs")
            y = std::abs(x);
        else if (m_op == "Floor")
            y = std::floor(x);
        else if (m_op == "Ceil")
            y = std::ceil(x);
        else if (m_op == "Round")
            y = std::nearbyint(x); // halves to even, as numpy.round
        else if (m_op == "Sign")
            y = double((x > 0) - (x < 0));
        else if (m_op == "Relu")
            y = std::max(x, 0.0);
        else if (m_op == "Not")
            y = x == 0;
        else if (m_op == "Sqrt")
            y = std::sqrt(x);
        else if (m_op == "Reciprocal")
            y = 1 / x;
        else if (m_op == "Exp")
            y = std::exp(x);
        else if (m_op == "Log")
            y = std::log(x);
        else if (m_op == "IsNaN")
            y = std::isnan(x);
        else if (m_op == "IsInf")
            y = std::isinf(x);
        v->data.push_back(y);
    }
    return one(std::move(v));
}

// Elementwise operators of two or more inputs, broadcast: arithmetic, comparisons, logic, Where.
Result Eval::nary()
{
    const auto known = allTensors();
    if (!known)
        return {};
    const std::vector<const Value*>& ins = *known;
    if (ins.empty()
        || (m_op != "Min" && m_op != "Max" && m_op != "Sum" && m_op != "Mean"
            && ins.size() != (m_op == "Where" ? 3u : 2u)))
        return {};
    const auto dims = broadcastDims(ins);
    if (!dims)
        return {};
    static const char* logical[] = { "Equal", "Less", "Greater", "LessOrEqual", "GreaterOrEqual", "And", "Or", "Xor" };
    const bool boolean = std::find(std::begin(logical), std::end(logical), m_op) != std::end(logical);
    bool integer = true;
    for (size_t j = m_op == "Where" ? 1 : 0; j < ins.size(); ++j)
        integer = integer && ins[j]->integer;
    auto v = make(*dims, boolean || (integer && m_op != "Mean"));
    if (!v)
        return {};
    const bool fmod = attrInt("fmod", 0) != 0;
    bool ok = true;
    forEachBroadcast(*dims, ins, [&](const std::vector<std::int64_t>& at) {
        const double x = ins[0]->data[size_t(at[0])];
        const double y = ins.size() > 1 ? ins[1]->data[size_t(at[1])] : 0;
        double z = 0;
        if (m_op == "Add")
            z = x + y;
        else if (m_op == "Sub")
            z = x - y;
        else if (m_op == "Mul")
            z = x * y;
        else if (m_op == "Div") {
            if (integer && y == 0)
                ok = false;
            z = y == 0 ? 0 : integer ? std::trunc(x / y) : x / y;
            if (!integer && y == 0)
                z = x == 0 ? NAN : std::copysign(INFINITY, x) * std::copysign(1.0, y);
        } else if (m_op == "Mod") {
            if (y == 0) {
                ok = false;
                return;
            }
            z = std::fmod(x, y);
            if (!fmod && z != 0 && ((z < 0) != (y < 0))) // the sign of the divisor, as Python's %
                z += y;
        } else if (m_op == "Pow")
            z = std::pow(x, y);
        else if (m_op == "Min" || m_op == "Max" || m_op == "Sum" || m_op == "Mean") {
            z = x;
            for (size_t j = 1; j < ins.size(); ++j) {
                const double w = ins[j]->data[size_t(at[j])];
                z = m_op == "Min" ? std::min(z, w) : m_op == "Max" ? std::max(z, w) : z + w;
            }
            if (m_op == "Mean")
                z /= double(ins.size());
        } else if (m_op == "Equal")
            z = x == y;
        else if (m_op == "Less")
            z = x < y;
        else if (m_op == "Greater")
            z = x > y;
        else if (m_op == "LessOrEqual")
            z = x <= y;
        else if (m_op == "GreaterOrEqual")
            z = x >= y;
        else if (m_op == "And")
            z = (x != 0) && (y != 0);
        else if (m_op == "Or")
            z = (x != 0) || (y != 0);
        else if (m_op == "Xor")
            z = (x != 0) != (y != 0);
        else if (m_op == "Where")
            z = x != 0 ? y : ins[2]->data[size_t(at[2])];
        if (integer && !boolean && !std::isfinite(z))
            ok = false;
        v->data.push_back(z);
    });
    if (!ok)
        return {};
    return one(std::move(v));
}

Result Eval::cast()
{
    const Value* a = in(0);
    if (!isTensor(a))
        return {};
    int to = int(attrInt("to", onnx::TensorProto::FLOAT));
    if (m_op == "CastLike") {
        if (!has(1) || !m_s.elemType)
            return {};
        to = m_s.elemType(m_n.input(1));
        if (to == 0)
            return {};
    }
    Value v = *a;
    v.integer = isIntegerType(to);
    for (double& x : v.data) {
        if (to == onnx::TensorProto::BOOL)
            x = x != 0;
        else if (v.integer) {
            if (!std::isfinite(x))
                return {};
            x = std::trunc(x);
        } else if (to == onnx::TensorProto::FLOAT)
            x = double(float(x));
    }
    return one(std::move(v));
}

const Eval::Table& Eval::table()
{
    static const Table t = [] {
        Table m;
        auto add = [&m](Method method, std::initializer_list<const char*> ops) {
            for (const char* op : ops)
                m.emplace(op, method);
        };
        add(&Eval::unary,
            { "Neg", "Abs", "Floor", "Ceil", "Round", "Sign", "Relu", "Not", "Sqrt", "Reciprocal", "Exp", "Log",
                "IsNaN", "IsInf", "Identity" });
        add(&Eval::nary,
            { "Add", "Sub", "Mul", "Div", "Mod", "Pow", "Min", "Max", "Sum", "Mean", "Equal", "Less", "Greater",
                "LessOrEqual", "GreaterOrEqual", "And", "Or", "Xor", "Where" });
        add(&Eval::cast, { "Cast", "CastLike" });
        add(&Eval::shapeOps, { "Constant", "Shape", "Size" });
        add(&Eval::reshapeOps, { "Reshape", "Flatten", "Squeeze", "Unsqueeze", "ConstantOfShape" });
        add(&Eval::concat, { "Concat" });
        add(&Eval::split, { "Split" });
        add(&Eval::slice, { "Slice" });
        add(&Eval::gather, { "Gather" });
        add(&Eval::gatherElements, { "GatherElements" });
        add(&Eval::scatterND, { "ScatterND" });
        add(&Eval::transpose, { "Transpose" });
        add(&Eval::expandTile, { "Expand", "Tile" });
        add(&Eval::reduce, { "ReduceSum", "ReduceProd", "ReduceMin", "ReduceMax", "ReduceMean" });
        add(&Eval::range, { "Range" });
        add(&Eval::cumSum, { "CumSum" });
        add(&Eval::nonZero, { "NonZero" });
        add(&Eval::trilu, { "Trilu" });
        add(&Eval::oneHot, { "OneHot" });
        add(&Eval::sequenceOps,
            { "SequenceEmpty", "SequenceConstruct", "SequenceInsert", "SequenceAt", "SequenceErase", "SequenceLength",
                "ConcatFromSequence", "SplitToSequence" });
        add(&Eval::ifNode, { "If" });
        add(&Eval::loopNode, { "Loop" });
        return m;
    }();
    return t;
}

Result Eval::run()
{
    if (!isStandard(m_n))
        return {};
    if (m_op == "Identity" && in(0) && in(0)->sequence)
        return one(*in(0));
    const auto it = table().find(m_op);
    return it == table().end() ? Result {} : (this->*(it->second))();
}

} // namespace evaluation

using evaluation::Eval;
using evaluation::Result;

std::vector<std::optional<Value>> evaluateNode(const onnx::NodeProto& node, const ValueScope& scope)
{
    if (node.output_size() == 0 || !scope.value)
        return {};
    Result r = Eval(node, scope).run();
    for (auto& v : r)
        if (v && !v->sequence
            && (v->data.size() > kMaxComputedElements || std::int64_t(v->data.size()) != product(v->dims)))
            v.reset();
    r.resize(size_t(node.output_size()));
    return r;
}

const std::vector<std::string>& evaluatedOperators()
{
    static const std::vector<std::string> ops = [] {
        std::vector<std::string> names;
        for (const auto& [op, method] : Eval::table())
            names.push_back(op);
        return names;
    }();
    return ops;
}

} // namespace rfx::onnximport