#pragma once
// Internal to onnx_evaluate*.cpp (tensor operators and the dispatch; _shape, _index: more tensor
// operators; _flow: sequences, If, Loop): the evaluation of one node and the helpers they share.

#include "onnx/onnx_internal.h"

#include <algorithm>
#include <map>

namespace rfx::onnximport::evaluation {

using Dims = std::vector<std::int64_t>;
using Result = std::vector<std::optional<Value>>;

// A value as a whole number, clamped into int64's range first (a cast of an out-of-range or NaN double
// is undefined behaviour).
inline std::int64_t whole(double x)
{
    if (!(x == x))
        return 0;
    return std::int64_t(std::clamp(x, -9.2e18, 9.2e18));
}

inline bool isIntegerType(int type)
{
    using T = onnx::TensorProto;
    return type == T::INT64 || type == T::INT32 || type == T::INT16 || type == T::INT8 || type == T::UINT8
        || type == T::UINT16 || type == T::UINT32 || type == T::UINT64 || type == T::BOOL || type == 21 || type == 22;
}

// The number of elements of `dims`, or -1 when it is negative, overflows or exceeds the limit.
inline std::int64_t elementsOf(const Dims& dims)
{
    std::int64_t p = 1;
    for (auto d : dims)
        if (d < 0 || __builtin_mul_overflow(p, d, &p) || p > std::int64_t(kMaxComputedElements))
            return -1;
    return p;
}

inline Dims stridesOf(const Dims& dims)
{
    Dims s(dims.size(), 1);
    for (size_t d = dims.size(); d-- > 1;)
        s[d - 1] = s[d] * dims[d];
    return s;
}

// An axis in [-rank, rank) as one in [0, rank), or -1 when outside.
inline std::int64_t axisIn(std::int64_t axis, std::int64_t rank)
{
    if (axis < 0)
        axis += rank;
    return axis >= 0 && axis < rank ? axis : -1;
}

inline bool isTensor(const Value* v) { return v && !v->sequence && std::int64_t(v->data.size()) == product(v->dims); }

/// The slices of `a` along `axis`, `sizes` long each (Split, SplitToSequence).
std::optional<std::vector<Value>> pieces(const Value& a, std::int64_t axis, const Dims& sizes);
/// The elements of `a` at the chosen indices of each dimension (row-major), as a new value (Slice, Tile).
std::optional<Value> gathered(const Value& a, const std::vector<Dims>& picks);
/// Broadcasts the inputs' extents (numpy's rule), or nothing when they do not broadcast.
std::optional<Dims> broadcastDims(const std::vector<const Value*>& ins);

// For each output element (row-major over `out`), the flat index into `v` under broadcasting.
template <typename F> void forEachBroadcast(const Dims& out, const std::vector<const Value*>& ins, F f)
{
    const size_t rank = out.size(), k = ins.size();
    std::vector<Dims> strides(k, Dims(rank, 0));
    for (size_t j = 0; j < k; ++j) {
        const Dims s = stridesOf(ins[j]->dims);
        const size_t off = rank - ins[j]->dims.size();
        for (size_t i = 0; i < ins[j]->dims.size(); ++i)
            strides[j][off + i] = ins[j]->dims[i] == 1 ? 0 : s[i];
    }
    const std::int64_t total = product(out);
    Dims index(rank, 0);
    std::vector<std::int64_t> at(k, 0);
    for (std::int64_t e = 0; e < total; ++e) {
        f(at);
        for (size_t d = rank; d-- > 0;) {
            for (size_t j = 0; j < k; ++j)
                at[j] += strides[j][d];
            if (++index[d] < out[d])
                break;
            for (size_t j = 0; j < k; ++j)
                at[j] -= strides[j][d] * out[d];
            index[d] = 0;
        }
    }
}

// The evaluation of one node: its inputs through the scope, the budget charged for what it makes.
class Eval {
public:
    Eval(const onnx::NodeProto& n, const ValueScope& s)
        : m_n(n)
        , m_s(s)
        , m_op(n.op_type())
    {
    }

    Result run();

    using Method = Result (Eval::*)();
    using Table = std::map<std::string, Method, std::less<>>;
    /// The operators computed, each with its method (also what evaluatedOperators() lists).
    static const Table& table();

private:
    const Value* in(int i) const
    {
        if (i >= m_n.input_size() || m_n.input(i).empty())
            return nullptr;
        const Value* v = m_s.value(m_n.input(i));
        return v && (v->sequence || isTensor(v)) ? v : nullptr;
    }
    bool has(int i) const { return i < m_n.input_size() && !m_n.input(i).empty(); }
    std::int64_t attrInt(const char* name, std::int64_t fallback) const { return intAttr(m_n, name, fallback); }
    std::optional<Dims> attrInts(const char* name) const
    {
        const auto* a = attribute(m_n, name);
        if (!a)
            return std::nullopt;
        return Dims(a->ints().begin(), a->ints().end());
    }
    // A new tensor of `dims`, if the limits allow it (the budget is charged).
    std::optional<Value> make(const Dims& dims, bool integer) const
    {
        const std::int64_t count = elementsOf(dims);
        if (count < 0 || (m_s.budget && (*m_s.budget -= std::max<std::int64_t>(count, 1)) < 0))
            return std::nullopt;
        Value v { dims, {}, integer };
        v.data.reserve(size_t(count));
        return v;
    }
    static Result one(std::optional<Value> v) { return Result { std::move(v) }; }
    /// One output a value, or nothing when there are none.
    static Result many(std::optional<std::vector<Value>> values)
    {
        Result r;
        if (values)
            for (auto& v : *values)
                r.emplace_back(std::move(v));
        return r;
    }
    /// Input `i` as a known tensor of rank 1 or more, with its `axis` attribute (0 when absent) in range;
    /// nothing otherwise (Split, SplitToSequence, Gather).
    std::optional<std::pair<const Value*, std::int64_t>> tensorAndAxis(int i) const
    {
        const Value* a = in(i);
        if (!isTensor(a) || a->dims.empty())
            return std::nullopt;
        const std::int64_t axis = axisIn(attrInt("axis", 0), std::int64_t(a->dims.size()));
        if (axis < 0)
            return std::nullopt;
        return std::pair { a, axis };
    }
    /// Every input as a known tensor, or nothing when one is not.
    std::optional<std::vector<const Value*>> allTensors() const
    {
        std::vector<const Value*> ins;
        for (int i = 0; i < m_n.input_size(); ++i) {
            const Value* v = in(i);
            if (!isTensor(v))
                return std::nullopt;
            ins.push_back(v);
        }
        return ins;
    }

    // An integer list operand: input `i` (from `version` on) or attribute `name` (before it).
    std::optional<Dims> listOperand(int i, const char* name, int version) const
    {
        if (m_s.opset >= version || has(i)) {
            if (!has(i))
                return std::nullopt;
            const Value* v = in(i);
            if (!v || v->sequence)
                return std::nullopt;
            Dims out;
            for (double x : v->data)
                out.push_back(whole(x));
            return out;
        }
        return attrInts(name);
    }

    Result unary();
    Result nary();
    Result cast();
    Result shapeOps();
    Result reshapeOps();
    Result concat();
    Result split();
    Result slice();
    Result gather();
    Result gatherElements();
    Result scatterND();
    Result transpose();
    Result expandTile();
    Result reduce();
    Result range();
    Result cumSum();
    Result nonZero();
    Result trilu();
    Result oneHot();
    Result sequenceOps();
    Result ifNode();
    Result loopNode();

    const onnx::NodeProto& m_n;
    const ValueScope& m_s;
    const std::string& m_op;
};

} // namespace rfx::onnximport::evaluation
