// Values known before the run, the operators that reshape, join, split, reorder and repeat values and
// make index ranges (Shape, Size, Reshape, Flatten, Squeeze, Unsqueeze, ConstantOfShape, Concat, Split,
// Transpose, Expand, Tile, Range, NonZero), by ONNX's reference semantics; the dispatch is onnx_evaluate.cpp's.
#include "onnx/onnx_evaluate.h"

#include <cmath>
#include <numeric>

namespace rfx::onnximport::evaluation {

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
            return one(
                Value { { a->floats_size() }, std::vector<double>(a->floats().begin(), a->floats().end()), false });
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
    if (std::int64_t(sizes->size()) != m_n.output_size()
        || (m_s.budget && (*m_s.budget -= std::int64_t(a->data.size())) < 0))
        return {};
    return many(pieces(*a, axis, *sizes));
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
        forEachBroadcast(
            *dims, { a }, [&](const std::vector<std::int64_t>& at) { v->data.push_back(a->data[size_t(at[0])]); });
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

Result Eval::range()
{
    const Value *s = in(0), *l = in(1), *d = in(2);
    if (!isTensor(s) || !isTensor(l) || !isTensor(d) || s->data.size() != 1 || l->data.size() != 1
        || d->data.size() != 1 || d->data[0] == 0)
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

} // namespace rfx::onnximport::evaluation
