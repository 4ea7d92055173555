// Values known before the run, the operators that pick, scatter and reduce elements (Slice, Gather,
// GatherElements, ScatterND, the Reduce family, CumSum, Trilu, OneHot), by ONNX's reference semantics;
// the dispatch is onnx_evaluate.cpp's.
#include "onnx/onnx_evaluate.h"

#include <cmath>
#include <numeric>

namespace rfx::onnximport::evaluation {

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
            x = reduction == "add"   ? x + u
                : reduction == "mul" ? x * u
                : reduction == "max" ? std::max(x, u)
                : reduction == "min" ? std::min(x, u)
                                     : u;
        }
    }
    return one(std::move(v));
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
    const double start = m_op == "ReduceProd" ? 1
        : m_op == "ReduceMin"                 ? INFINITY
        : m_op == "ReduceMax"                 ? -INFINITY
                                              : 0;
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
        r = m_op == "ReduceProd"  ? r * x
            : m_op == "ReduceMin" ? std::min(r, x)
            : m_op == "ReduceMax" ? std::max(r, x)
                                  : r + x;
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

} // namespace rfx::onnximport::evaluation
