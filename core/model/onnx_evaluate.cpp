// Values known before the run, computed node by node by ONNX's reference semantics (onnx/reference/ops,
// the operator docs of onnx/defs): the tensor-manipulation and arithmetic operators with which models
// compute shapes, pads, indices and conditions (numpy broadcasting throughout), and the dispatch of every
// operator evaluated (the sequence operators, If and Loop are onnx_evaluate_flow.cpp's). Shape inference
// (onnx_shapes.cpp) reads the results as constant data. Bounded: outputs of at most kMaxComputedElements,
// kEvaluationBudget elements a build, kMaxEvaluatedTrips trips a Loop; beyond them a value is unknown.
#include "onnx_evaluate.h"

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

// For each output element (row-major over `out`), the flat index into `v` under broadcasting.
template <typename F>
void forEachBroadcast(const Dims& out, const std::vector<const Value*>& ins, F f)
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

Result Eval::unary()
{
    const Value* a = in(0);
    if (!isTensor(a))
        return {};
    const bool keepsType = m_op == "Neg" || m_op == "Abs" || m_op == "Floor" || m_op == "Ceil" || m_op == "Round" || m_op == "Sign"
        || m_op == "Relu" || m_op == "Identity";
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
    if (ins.empty() || (m_op != "Min" && m_op != "Max" && m_op != "Sum" && m_op != "Mean" && ins.size() != (m_op == "Where" ? 3u : 2u)))
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

Result Eval::shapeOps()
{
    if (m_op == "Constant") {
        Value v;
        if (const auto* a = attribute(m_n, "value"))
            return readValue(a->t(), v) ? one(v) : Result {};
        if (const auto* a = attribute(m_n, "value_int"))
            return one(Value { {}, { double(a->i()) }, true });
        if (const auto* a = attribute(m_n, "value_ints"))
            return one(Value { { a->ints_size() }, std::vector<double>(a->ints().begin(), a->ints().end()), true });
        if (const auto* a = attribute(m_n, "value_float"))
            return one(Value { {}, { double(a->f()) }, false });
        if (const auto* a = attribute(m_n, "value_floats"))
            return one(Value { { a->floats_size() }, std::vector<double>(a->floats().begin(), a->floats().end()), false });
        return {};
    }
    // Shape and Size need the extents only.
    const Dims* d = nullptr;
    if (const Value* v = in(0); isTensor(v))
        d = &v->dims;
    else if (has(0) && m_s.dims)
        d = m_s.dims(m_n.input(0));
    if (!d)
        return {};
    if (m_op == "Size")
        return one(Value { {}, { double(product(*d)) }, true });
    const auto rank = std::int64_t(d->size());
    auto clampIndex = [&](std::int64_t i) { return std::clamp<std::int64_t>(i < 0 ? i + rank : i, 0, rank); };
    const std::int64_t start = clampIndex(attrInt("start", 0)), end = clampIndex(attrInt("end", rank));
    Value v;
    for (auto i = start; i < end; ++i)
        v.data.push_back(double((*d)[size_t(i)]));
    v.dims = { std::int64_t(v.data.size()) };
    return one(std::move(v));
}

// Reshape, Flatten, Squeeze, Unsqueeze: the same values under new extents; and ConstantOfShape.
Result Eval::reshapeOps()
{
    const Value* a = in(0);
    if (m_op == "ConstantOfShape") {
        if (!isTensor(a))
            return {};
        double fill = 0;
        bool integer = false;
        if (const auto* attr = attribute(m_n, "value")) {
            Value f;
            if (!readValue(attr->t(), f) || f.data.size() != 1)
                return {};
            fill = f.data[0];
            integer = f.integer;
        }
        Dims dims;
        for (double x : a->data)
            dims.push_back(whole(x));
        auto v = make(dims, integer);
        if (!v)
            return {};
        v->data.assign(size_t(product(dims)), fill);
        return one(std::move(v));
    }
    if (!isTensor(a))
        return {};
    const auto rank = std::int64_t(a->dims.size());
    Dims dims;
    if (m_op == "Reshape") {
        const Value* shape = in(1);
        if (!isTensor(shape))
            return {};
        const bool allowZero = attrInt("allowzero", 0) != 0;
        std::int64_t known = 1, inferred = -1;
        for (size_t i = 0; i < shape->data.size(); ++i) {
            std::int64_t d = whole(shape->data[i]);
            if (d == 0 && !allowZero) {
                if (std::int64_t(i) >= rank)
                    return {};
                d = a->dims[i];
            }
            if (d == -1) {
                if (inferred >= 0)
                    return {};
                inferred = std::int64_t(i);
                dims.push_back(1);
                continue;
            }
            if (d < 0)
                return {};
            if (__builtin_mul_overflow(known, d, &known))
                return {};
            dims.push_back(d);
        }
        if (inferred >= 0) {
            if (known == 0 || std::int64_t(a->data.size()) % known != 0)
                return {};
            dims[size_t(inferred)] = std::int64_t(a->data.size()) / known;
        }
    } else if (m_op == "Flatten") {
        std::int64_t axis = attrInt("axis", 1);
        if (axis < 0)
            axis += rank;
        if (axis < 0 || axis > rank)
            return {};
        std::int64_t outer = 1;
        for (std::int64_t i = 0; i < axis; ++i)
            outer *= a->dims[size_t(i)];
        dims = { outer, outer == 0 ? 0 : std::int64_t(a->data.size()) / outer };
    } else if (m_op == "Squeeze") {
        const auto axes = listOperand(1, "axes", 13);
        std::vector<bool> drop(size_t(rank), false);
        if (axes) {
            for (auto x : *axes) {
                const std::int64_t ax = axisIn(x, rank);
                if (ax < 0 || a->dims[size_t(ax)] != 1)
                    return {};
                drop[size_t(ax)] = true;
            }
        } else
            for (std::int64_t i = 0; i < rank; ++i)
                drop[size_t(i)] = a->dims[size_t(i)] == 1;
        for (std::int64_t i = 0; i < rank; ++i)
            if (!drop[size_t(i)])
                dims.push_back(a->dims[size_t(i)]);
    } else { // Unsqueeze
        const auto axes = listOperand(1, "axes", 13);
        if (!axes)
            return {};
        const std::int64_t outRank = rank + std::int64_t(axes->size());
        std::vector<bool> added(size_t(outRank), false);
        for (auto x : *axes) {
            const std::int64_t ax = axisIn(x, outRank);
            if (ax < 0 || added[size_t(ax)])
                return {};
            added[size_t(ax)] = true;
        }
        size_t k = 0;
        for (std::int64_t i = 0; i < outRank; ++i)
            dims.push_back(added[size_t(i)] ? 1 : a->dims[k++]);
    }
    if (product(dims) != std::int64_t(a->data.size()))
        return {};
    Value v = *a;
    v.dims = std::move(dims);
    return one(std::move(v));
}

Result Eval::concat()
{
    const auto known = allTensors();
    if (!known)
        return {};
    const std::vector<const Value*>& ins = *known;
    if (ins.empty())
        return {};
    // A 1-D operand with nothing in it joins anything (PyTorch concatenates empty lists of pads).
    std::vector<const Value*> parts;
    for (const Value* v : ins)
        if (!(v->data.empty() && v->dims.size() == 1))
            parts.push_back(v);
    if (parts.empty())
        return one(*ins.front());
    const auto rank = std::int64_t(parts.front()->dims.size());
    const std::int64_t axis = axisIn(attrInt("axis", 0), rank);
    if (axis < 0)
        return {};
    Dims dims = parts.front()->dims;
    dims[size_t(axis)] = 0;
    bool integer = true;
    for (const Value* v : parts) {
        if (std::int64_t(v->dims.size()) != rank)
            return {};
        for (std::int64_t i = 0; i < rank; ++i)
            if (i != axis && v->dims[size_t(i)] != dims[size_t(i)])
                return {};
        dims[size_t(axis)] += v->dims[size_t(axis)];
        integer = integer && v->integer;
    }
    auto out = make(dims, integer);
    if (!out)
        return {};
    const std::int64_t outer = product(Dims(dims.begin(), dims.begin() + axis));
    for (std::int64_t o = 0; o < outer; ++o)
        for (const Value* v : parts) {
            const std::int64_t inner = product(Dims(v->dims.begin() + axis, v->dims.end()));
            out->data.insert(out->data.end(), v->data.begin() + o * inner, v->data.begin() + (o + 1) * inner);
        }
    return one(std::move(out));
}

// The slices of `a` along `axis`, `sizes` long each.
std::optional<std::vector<Value>> pieces(const Value& a, std::int64_t axis, const Dims& sizes)
{
    std::int64_t sum = 0;
    for (auto s : sizes) {
        if (s < 0)
            return std::nullopt;
        sum += s;
    }
    if (sum != a.dims[size_t(axis)])
        return std::nullopt;
    const std::int64_t outer = product(Dims(a.dims.begin(), a.dims.begin() + axis));
    const std::int64_t inner = product(Dims(a.dims.begin() + axis + 1, a.dims.end()));
    std::vector<Value> out;
    std::int64_t start = 0;
    for (auto s : sizes) {
        Value v { a.dims, {}, a.integer };
        v.dims[size_t(axis)] = s;
        for (std::int64_t o = 0; o < outer; ++o) {
            const auto from = a.data.begin() + (o * a.dims[size_t(axis)] + start) * inner;
            v.data.insert(v.data.end(), from, from + s * inner);
        }
        start += s;
        out.push_back(std::move(v));
    }
    return out;
}

Result Eval::split()
{
    const auto operand = tensorAndAxis(0);
    if (!operand)
        return {};
    const auto [a, axis] = *operand;
    const std::int64_t extent = a->dims[size_t(axis)];
    auto sizes = listOperand(1, "split", 13);
    if (has(1) && !sizes)
        return {};
    if (!sizes) {
        // Equal parts, one an output (num_outputs from opset 18); the last smaller when they do not divide.
        const std::int64_t parts = attrInt("num_outputs", m_n.output_size());
        if (parts <= 0)
            return {};
        const std::int64_t each = (extent + parts - 1) / parts;
        sizes.emplace();
        for (std::int64_t i = 0, left = extent; i < parts; ++i, left -= each)
            sizes->push_back(std::clamp<std::int64_t>(left, 0, each));
    }
    if (std::int64_t(sizes->size()) != m_n.output_size() || (m_s.budget && (*m_s.budget -= std::int64_t(a->data.size())) < 0))
        return {};
    return many(pieces(*a, axis, *sizes));
}

// The elements of `a` at the chosen indices of each dimension (row-major), as a new value.
std::optional<Value> gathered(const Value& a, const std::vector<Dims>& picks)
{
    Value v { {}, {}, a.integer };
    std::int64_t count = 1;
    for (const auto& p : picks) {
        v.dims.push_back(std::int64_t(p.size()));
        count *= std::int64_t(p.size());
        if (count > std::int64_t(kMaxComputedElements))
            return std::nullopt;
    }
    const size_t rank = picks.size();
    const Dims stride = stridesOf(a.dims);
    Dims index(rank, 0);
    for (std::int64_t k = 0; k < count; ++k) {
        std::int64_t at = 0;
        for (size_t d = 0; d < rank; ++d)
            at += picks[d][size_t(index[d])] * stride[d];
        v.data.push_back(a.data[size_t(at)]);
        for (size_t d = rank; d-- > 0;) {
            if (++index[d] < std::int64_t(picks[d].size()))
                break;
            index[d] = 0;
        }
    }
    return v;
}

Result Eval::slice()
{
    // Any rank and any step (PyTorch reverses pad lists with steps of -1), by ONNX's clamping rules.
    const Value* a = in(0);
    if (!isTensor(a))
        return {};
    const auto rank = std::int64_t(a->dims.size());
    std::optional<Dims> starts, ends, axes, steps;
    if (m_s.opset < 10 && !has(1)) {
        starts = attrInts("starts");
        ends = attrInts("ends");
        axes = attrInts("axes");
    } else {
        starts = listOperand(1, "starts", 10);
        ends = listOperand(2, "ends", 10);
        axes = listOperand(3, "axes", 10);
        steps = listOperand(4, "steps", 10);
        if ((has(3) && !axes) || (has(4) && !steps))
            return {};
    }
    if (!starts || !ends || rank == 0 || starts->size() != ends->size())
        return {};
    if (!axes) {
        axes.emplace();
        for (size_t i = 0; i < starts->size(); ++i)
            axes->push_back(std::int64_t(i));
    }
    if (!steps)
        steps = Dims(starts->size(), 1);
    if (axes->size() != starts->size() || steps->size() != starts->size())
        return {};
    auto picks = std::vector<Dims>(size_t(rank));
    for (std::int64_t d = 0; d < rank; ++d) {
        picks[size_t(d)].resize(size_t(a->dims[size_t(d)]));
        std::iota(picks[size_t(d)].begin(), picks[size_t(d)].end(), 0);
    }
    for (size_t k = 0; k < axes->size(); ++k) {
        const std::int64_t axis = axisIn((*axes)[k], rank), step = (*steps)[k];
        if (axis < 0 || step == 0)
            return {};
        const std::int64_t size = a->dims[size_t(axis)];
        std::int64_t start = (*starts)[k] < 0 ? std::max<std::int64_t>((*starts)[k], -size - 1) + size : (*starts)[k];
        std::int64_t end = (*ends)[k] < 0 ? std::max<std::int64_t>((*ends)[k], -size - 1) + size : (*ends)[k];
        if (step > 0) {
            start = std::clamp<std::int64_t>(start, 0, size);
            end = std::clamp<std::int64_t>(end, 0, size);
        } else {
            start = std::clamp<std::int64_t>(start, -1, size - 1);
            end = std::clamp<std::int64_t>(end, -1, size - 1);
        }
        Dims chosen;
        for (std::int64_t i = start; step > 0 ? i < end : i > end; i += step)
            chosen.push_back(i);
        picks[size_t(axis)] = std::move(chosen);
    }
    return one(gathered(*a, picks));
}

Result Eval::gather()
{
    const auto operand = tensorAndAxis(0);
    const Value* idx = in(1);
    if (!operand || !isTensor(idx))
        return {};
    const auto [a, axis] = *operand;
    const std::int64_t extent = a->dims[size_t(axis)];
    Dims dims(a->dims.begin(), a->dims.begin() + axis);
    dims.insert(dims.end(), idx->dims.begin(), idx->dims.end());
    dims.insert(dims.end(), a->dims.begin() + axis + 1, a->dims.end());
    auto v = make(dims, a->integer);
    if (!v)
        return {};
    const std::int64_t outer = product(Dims(a->dims.begin(), a->dims.begin() + axis));
    const std::int64_t inner = product(Dims(a->dims.begin() + axis + 1, a->dims.end()));
    for (std::int64_t o = 0; o < outer; ++o)
        for (double i : idx->data) {
            std::int64_t k = whole(i);
            if (k < 0)
                k += extent;
            if (k < 0 || k >= extent)
                return {};
            const auto from = a->data.begin() + (o * extent + k) * inner;
            v->data.insert(v->data.end(), from, from + inner);
        }
    return one(std::move(v));
}

// GatherElements: out[i][j][k] = data[index[i][j][k]][j][k] (axis 0), the indices' extents.
Result Eval::gatherElements()
{
    const Value *a = in(0), *idx = in(1);
    if (!isTensor(a) || !isTensor(idx) || a->dims.empty() || idx->dims.size() != a->dims.size())
        return {};
    const auto rank = std::int64_t(a->dims.size());
    const std::int64_t axis = axisIn(attrInt("axis", 0), rank);
    if (axis < 0)
        return {};
    auto v = make(idx->dims, a->integer);
    if (!v)
        return {};
    const Dims as = stridesOf(a->dims);
    Dims index(size_t(rank), 0);
    for (double i : idx->data) {
        std::int64_t k = whole(i);
        if (k < 0)
            k += a->dims[size_t(axis)];
        if (k < 0 || k >= a->dims[size_t(axis)])
            return {};
        std::int64_t at = 0;
        for (std::int64_t d = 0; d < rank; ++d) {
            const std::int64_t c = d == axis ? k : index[size_t(d)];
            if (c >= a->dims[size_t(d)])
                return {};
            at += c * as[size_t(d)];
        }
        v->data.push_back(a->data[size_t(at)]);
        for (std::int64_t d = rank; d-- > 0;) {
            if (++index[size_t(d)] < idx->dims[size_t(d)])
                break;
            index[size_t(d)] = 0;
        }
    }
    return one(std::move(v));
}

// ScatterND: a copy of data with the slices the last axis of indices names replaced by (or reduced with)
// the updates.
Result Eval::scatterND()
{
    const Value *a = in(0), *idx = in(1), *upd = in(2);
    if (!isTensor(a) || !isTensor(idx) || !isTensor(upd) || idx->dims.empty())
        return {};
    const std::int64_t k = idx->dims.back();
    const auto rank = std::int64_t(a->dims.size());
    if (k < 1 || k > rank)
        return {};
    const std::int64_t slices = product(Dims(idx->dims.begin(), idx->dims.end() - 1));
    const std::int64_t sliceSize = product(Dims(a->dims.begin() + k, a->dims.end()));
    if (std::int64_t(upd->data.size()) != slices * sliceSize)
        return {};
    const std::string reduction = [&] {
        const auto* r = attribute(m_n, "reduction");
        return r ? r->s() : std::string("none");
    }();
    auto v = make(a->dims, a->integer);
    if (!v)
        return {};
    v->data = a->data;
    const Dims as = stridesOf(a->dims);
    for (std::int64_t s = 0; s < slices; ++s) {
        std::int64_t at = 0;
        for (std::int64_t j = 0; j < k; ++j) {
            std::int64_t c = whole(idx->data[size_t(s * k + j)]);
            if (c < 0)
                c += a->dims[size_t(j)];
            if (c < 0 || c >= a->dims[size_t(j)])
                return {};
            at += c * as[size_t(j)];
        }
        for (std::int64_t e = 0; e < sliceSize; ++e) {
            double& x = v->data[size_t(at + e)];
            const double u = upd->data[size_t(s * sliceSize + e)];
            x = reduction == "add" ? x + u : reduction == "mul" ? x * u : reduction == "max" ? std::max(x, u)
                : reduction == "min"                                                          ? std::min(x, u)
                                                                                              : u;
        }
    }
    return one(std::move(v));
}

Result Eval::transpose()
{
    const Value* a = in(0);
    if (!isTensor(a))
        return {};
    const size_t rank = a->dims.size();
    Dims perm;
    if (auto p = attrInts("perm"))
        perm = *p;
    else
        for (size_t i = 0; i < rank; ++i)
            perm.push_back(std::int64_t(rank - 1 - i));
    if (perm.size() != rank)
        return {};
    std::vector<Dims> picks;
    Value v { {}, {}, a->integer };
    std::vector<bool> seen(rank, false);
    for (auto p : perm) {
        if (p < 0 || p >= std::int64_t(rank) || seen[size_t(p)])
            return {};
        seen[size_t(p)] = true;
        v.dims.push_back(a->dims[size_t(p)]);
    }
    const Dims stride = stridesOf(a->dims);
    Dims index(rank, 0);
    for (size_t count = 0; count < a->data.size(); ++count) {
        std::int64_t at = 0;
        for (size_t d = 0; d < rank; ++d)
            at += index[d] * stride[size_t(perm[d])];
        v.data.push_back(a->data[size_t(at)]);
        for (size_t d = rank; d-- > 0;) {
            if (++index[d] < v.dims[d])
                break;
            index[d] = 0;
        }
    }
    return one(std::move(v));
}

Result Eval::expandTile()
{
    const Value *a = in(0), *b = in(1);
    if (!isTensor(a) || !isTensor(b))
        return {};
    if (m_op == "Expand") {
        Value shape { {}, {}, true };
        for (double x : b->data)
            shape.dims.push_back(whole(x));
        if (elementsOf(shape.dims) < 0)
            return {};
        shape.data.assign(size_t(product(shape.dims)), 0);
        const auto dims = broadcastDims({ a, &shape });
        if (!dims)
            return {};
        auto v = make(*dims, a->integer);
        if (!v)
            return {};
        forEachBroadcast(*dims, { a }, [&](const std::vector<std::int64_t>& at) { v->data.push_back(a->data[size_t(at[0])]); });
        return one(std::move(v));
    }
    // Tile: repeats per axis.
    if (b->data.size() != a->dims.size())
        return {};
    std::vector<Dims> picks;
    for (size_t d = 0; d < a->dims.size(); ++d) {
        const std::int64_t r = whole(b->data[d]);
        std::int64_t tiled = 0;
        if (r < 0 || __builtin_mul_overflow(a->dims[d], r, &tiled) || tiled > std::int64_t(kMaxComputedElements))
            return {};
        Dims p;
        for (std::int64_t k = 0; k < r; ++k)
            for (std::int64_t i = 0; i < a->dims[d]; ++i)
                p.push_back(i);
        picks.push_back(std::move(p));
    }
    Dims dims;
    for (const auto& p : picks)
        dims.push_back(std::int64_t(p.size()));
    if (!make(dims, a->integer)) // the budget
        return {};
    return one(gathered(*a, picks));
}

// ReduceSum, ReduceProd, ReduceMin, ReduceMax, ReduceMean over axes (an attribute, or an input: ReduceSum
// from opset 13, the others from 18), keepdims, noop_with_empty_axes.
Result Eval::reduce()
{
    const Value* a = in(0);
    if (!isTensor(a))
        return {};
    const auto rank = std::int64_t(a->dims.size());
    const auto axesList = listOperand(1, "axes", m_op == "ReduceSum" ? 13 : 18);
    if (has(1) && !axesList)
        return {};
    std::vector<bool> reduced(size_t(rank), false);
    if (!axesList || axesList->empty()) {
        if (attrInt("noop_with_empty_axes", 0))
            return one(*a);
        reduced.assign(size_t(rank), true);
    } else
        for (auto x : *axesList) {
            const std::int64_t ax = axisIn(x, rank);
            if (ax < 0)
                return {};
            reduced[size_t(ax)] = true;
        }
    const bool keep = attrInt("keepdims", 1) != 0;
    Dims dims, kept; // kept: the output's extents with reduced axes as 1
    for (std::int64_t d = 0; d < rank; ++d) {
        kept.push_back(reduced[size_t(d)] ? 1 : a->dims[size_t(d)]);
        if (!reduced[size_t(d)] || keep)
            dims.push_back(kept.back());
    }
    if ((m_op == "ReduceMin" || m_op == "ReduceMax") && a->data.empty())
        return {};
    auto v = make(dims, a->integer && m_op != "ReduceMean");
    if (!v)
        return {};
    const double start = m_op == "ReduceProd" ? 1 : m_op == "ReduceMin" ? INFINITY : m_op == "ReduceMax" ? -INFINITY : 0;
    v->data.assign(size_t(product(kept)), start);
    std::vector<std::int64_t> count(v->data.size(), 0);
    const Dims ks = stridesOf(kept);
    Dims index(size_t(rank), 0);
    for (double x : a->data) {
        std::int64_t at = 0;
        for (std::int64_t d = 0; d < rank; ++d)
            if (!reduced[size_t(d)])
                at += index[size_t(d)] * ks[size_t(d)];
        double& r = v->data[size_t(at)];
        r = m_op == "ReduceProd" ? r * x : m_op == "ReduceMin" ? std::min(r, x) : m_op == "ReduceMax" ? std::max(r, x) : r + x;
        ++count[size_t(at)];
        for (std::int64_t d = rank; d-- > 0;) {
            if (++index[size_t(d)] < a->dims[size_t(d)])
                break;
            index[size_t(d)] = 0;
        }
    }
    if (m_op == "ReduceMean")
        for (size_t i = 0; i < v->data.size(); ++i)
            v->data[i] = count[i] ? v->data[i] / double(count[i]) : NAN;
    return one(std::move(v));
}

Result Eval::range()
{
    const Value *s = in(0), *l = in(1), *d = in(2);
    if (!isTensor(s) || !isTensor(l) || !isTensor(d) || s->data.size() != 1 || l->data.size() != 1 || d->data.size() != 1
        || d->data[0] == 0)
        return {};
    const double count = std::max(0.0, std::ceil((l->data[0] - s->data[0]) / d->data[0]));
    if (!(count <= double(kMaxComputedElements)))
        return {};
    auto v = make({ std::int64_t(count) }, s->integer && l->integer && d->integer);
    if (!v)
        return {};
    for (int i = 0; i < int(count); ++i)
        v->data.push_back(s->data[0] + i * d->data[0]);
    return one(std::move(v));
}

// CumSum along the axis input, exclusive and reverse as the attributes say.
Result Eval::cumSum()
{
    const Value *a = in(0), *ax = in(1);
    if (!isTensor(a) || !isTensor(ax) || ax->data.size() != 1 || a->dims.empty())
        return {};
    const auto rank = std::int64_t(a->dims.size());
    const std::int64_t axis = axisIn(whole(ax->data[0]), rank);
    if (axis < 0)
        return {};
    const bool exclusive = attrInt("exclusive", 0) != 0, reverse = attrInt("reverse", 0) != 0;
    auto v = make(a->dims, a->integer);
    if (!v)
        return {};
    v->data.assign(a->data.size(), 0);
    const std::int64_t n = a->dims[size_t(axis)];
    const std::int64_t inner = product(Dims(a->dims.begin() + axis + 1, a->dims.end()));
    const std::int64_t outer = product(Dims(a->dims.begin(), a->dims.begin() + axis));
    for (std::int64_t o = 0; o < outer; ++o)
        for (std::int64_t i = 0; i < inner; ++i) {
            double sum = 0;
            for (std::int64_t k = 0; k < n; ++k) {
                const std::int64_t j = reverse ? n - 1 - k : k;
                const size_t at = size_t((o * n + j) * inner + i);
                if (exclusive) {
                    v->data[at] = sum;
                    sum += a->data[at];
                } else {
                    sum += a->data[at];
                    v->data[at] = sum;
                }
            }
        }
    return one(std::move(v));
}

// NonZero: the indices of the nonzero elements, [rank, count], in row-major order.
Result Eval::nonZero()
{
    const Value* a = in(0);
    if (!isTensor(a))
        return {};
    const size_t rank = a->dims.size();
    std::vector<std::int64_t> hits;
    for (size_t i = 0; i < a->data.size(); ++i)
        if (a->data[i] != 0)
            hits.push_back(std::int64_t(i));
    auto v = make({ std::int64_t(std::max<size_t>(rank, 1)), std::int64_t(hits.size()) }, true);
    if (!v)
        return {};
    if (rank == 0) { // a scalar: [1, 0 or 1] of zeros (numpy's nonzero of a 0-d array after atleast_1d)
        v->data.assign(hits.size(), 0);
        return one(std::move(v));
    }
    v->dims[0] = std::int64_t(rank);
    const Dims stride = stridesOf(a->dims);
    for (size_t d = 0; d < rank; ++d)
        for (auto h : hits)
            v->data.push_back(double((h / stride[d]) % a->dims[d]));
    return one(std::move(v));
}

// Trilu: keeps the upper (upper=1) or lower triangle of the last two axes, from diagonal k.
Result Eval::trilu()
{
    const Value* a = in(0);
    if (!isTensor(a) || a->dims.size() < 2)
        return {};
    std::int64_t k = 0;
    if (has(1)) {
        const Value* kv = in(1);
        if (!isTensor(kv) || kv->data.size() != 1)
            return {};
        k = whole(kv->data[0]);
    }
    const bool upper = attrInt("upper", 1) != 0;
    Value v = *a;
    const std::int64_t rows = a->dims[a->dims.size() - 2], cols = a->dims.back();
    for (size_t e = 0; e < v.data.size(); ++e) {
        const std::int64_t j = std::int64_t(e) % cols, i = (std::int64_t(e) / cols) % rows;
        if (upper ? j - i < k : j - i > k)
            v.data[e] = 0;
    }
    return one(std::move(v));
}

// OneHot(indices, depth, values [off, on]): a new axis of `depth` (axis -1: last).
Result Eval::oneHot()
{
    const Value *idx = in(0), *depth = in(1), *values = in(2);
    if (!isTensor(idx) || !isTensor(depth) || !isTensor(values) || depth->data.size() != 1 || values->data.size() != 2)
        return {};
    const std::int64_t d = whole(depth->data[0]);
    const auto outRank = std::int64_t(idx->dims.size()) + 1;
    const std::int64_t axis = axisIn(attrInt("axis", -1), outRank);
    if (d < 1 || axis < 0)
        return {};
    Dims dims = idx->dims;
    dims.insert(dims.begin() + axis, d);
    auto v = make(dims, values->integer);
    if (!v)
        return {};
    const std::int64_t inner = product(Dims(idx->dims.begin() + axis, idx->dims.end()));
    const std::int64_t outer = product(Dims(idx->dims.begin(), idx->dims.begin() + axis));
    for (std::int64_t o = 0; o < outer; ++o)
        for (std::int64_t c = 0; c < d; ++c)
            for (std::int64_t i = 0; i < inner; ++i) {
                std::int64_t hot = whole(idx->data[size_t(o * inner + i)]);
                if (hot < 0)
                    hot += d;
                v->data.push_back(values->data[hot == c ? 1 : 0]);
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
        add(&Eval::unary, { "Neg", "Abs", "Floor", "Ceil", "Round", "Sign", "Relu", "Not", "Sqrt", "Reciprocal", "Exp", "Log", "IsNaN",
                              "IsInf", "Identity" });
        add(&Eval::nary, { "Add", "Sub", "Mul", "Div", "Mod", "Pow", "Min", "Max", "Sum", "Mean", "Equal", "Less", "Greater",
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
        add(&Eval::sequenceOps, { "SequenceEmpty", "SequenceConstruct", "SequenceInsert", "SequenceAt", "SequenceErase",
                                    "SequenceLength", "ConcatFromSequence", "SplitToSequence" });
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
        if (v && !v->sequence && (v->data.size() > kMaxComputedElements || std::int64_t(v->data.size()) != product(v->dims)))
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
