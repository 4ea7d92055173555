// The values of small tensors known without running the network: constants, initializers and shape
// computations (Shape, Gather, Slice, Concat, Cast, Unsqueeze, arithmetic, Range, Where, ReduceProd),
// evaluated as exporters emit them for crops and reshapes. Shape inference (onnx_shapes.cpp) reads
// them as constant data.
#include "onnx_internal.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>

namespace rfx::onnximport {

namespace {


template <typename T>
bool fromRaw(const std::string& raw, std::vector<double>& out)
{
    if (raw.size() % sizeof(T) != 0)
        return false;
    out.resize(raw.size() / sizeof(T));
    for (size_t i = 0; i < out.size(); ++i) {
        T v;
        std::memcpy(&v, raw.data() + i * sizeof(T), sizeof(T));
        out[i] = double(v);
    }
    return true;
}

// A value as a whole number, clamped into int64's range first (a cast of an out-of-range or NaN double
// is undefined behaviour).
std::int64_t whole(double x)
{
    if (!(x == x))
        return 0;
    return std::int64_t(std::clamp(x, -9.2e18, 9.2e18));
}

// The extents' product, or -1 when it overflows (a huge inferred shape must not be undefined behaviour).
std::int64_t productOrMinusOne(const std::vector<std::int64_t>& dims)
{
    std::int64_t p = 1;
    for (auto d : dims)
        if (__builtin_mul_overflow(p, d, &p))
            return -1;
    return p;
}

onnx::TensorProto toTensor(const std::string& name, const Value& v)
{
    onnx::TensorProto t;
    t.set_name(name);
    for (auto d : v.dims)
        t.add_dims(d);
    if (v.integer) {
        t.set_data_type(onnx::TensorProto::INT64);
        for (double x : v.data)
            t.add_int64_data(whole(x));
    } else {
        t.set_data_type(onnx::TensorProto::FLOAT);
        for (double x : v.data)
            t.add_float_data(float(x));
    }
    return t;
}

bool isIntegerType(int type)
{
    using T = onnx::TensorProto;
    return type == T::INT64 || type == T::INT32 || type == T::INT16 || type == T::INT8 || type == T::UINT8
        || type == T::UINT16 || type == T::UINT32 || type == T::UINT64 || type == T::BOOL;
}

// Elementwise arithmetic on known values, with numpy broadcasting of a scalar or a length-1 side.
std::optional<Value> binary(const Value& a, const Value& b, const std::string& op)
{
    const size_t n = std::max(a.data.size(), b.data.size());
    if (!(a.data.size() == n || a.data.size() == 1) || !(b.data.size() == n || b.data.size() == 1))
        return std::nullopt;
    Value r;
    r.dims = a.data.size() >= b.data.size() ? a.dims : b.dims;
    r.integer = a.integer && b.integer;
    for (size_t i = 0; i < n; ++i) {
        const double x = a.data[a.data.size() == 1 ? 0 : i], y = b.data[b.data.size() == 1 ? 0 : i];
        double z = 0;
        if (op == "Add")
            z = x + y;
        else if (op == "Sub")
            z = x - y;
        else if (op == "Mul")
            z = x * y;
        else if (op == "Div") {
            if (y == 0)
                return std::nullopt;
            z = r.integer ? std::trunc(x / y) : x / y;
        } else if (op == "Mod") {
            if (y == 0)
                return std::nullopt;
            z = std::fmod(x, y);
        } else if (op == "Min")
            z = std::min(x, y);
        else if (op == "Max")
            z = std::max(x, y);
        else if (op == "Pow")
            z = std::pow(x, y);
        else if (op == "Equal")
            z = x == y;
        else if (op == "Less")
            z = x < y;
        else if (op == "Greater")
            z = x > y;
        else
            return std::nullopt;
        r.data.push_back(z);
    }
    if (op == "Equal" || op == "Less" || op == "Greater")
        r.integer = true;
    return r;
}

// The elements of `a` at the chosen indices of each dimension (row-major), as a new value.
std::optional<Value> gathered(const Value& a, const std::vector<std::vector<std::int64_t>>& picks)
{
    Value v { {}, {}, a.integer };
    std::size_t count = 1;
    for (const auto& p : picks) {
        v.dims.push_back(std::int64_t(p.size()));
        count *= p.size();
    }
    if (count > kMaxValueElements || std::int64_t(a.data.size()) != productOrMinusOne(a.dims))
        return std::nullopt;
    const std::size_t rank = picks.size();
    std::vector<std::int64_t> stride(rank, 1);
    for (std::size_t d = rank; d-- > 1;)
        stride[d - 1] = stride[d] * a.dims[d];
    std::vector<std::size_t> index(rank, 0);
    for (std::size_t k = 0; k < count; ++k) {
        std::int64_t at = 0;
        for (std::size_t d = 0; d < rank; ++d)
            at += picks[d][index[d]] * stride[d];
        v.data.push_back(a.data[size_t(at)]);
        for (std::size_t d = rank; d-- > 0;) {
            if (++index[d] < picks[d].size())
                break;
            index[d] = 0;
        }
    }
    return v;
}

// Normalizes a possibly negative index into [0, size]; clamps as Slice does.
std::int64_t clampIndex(std::int64_t i, std::int64_t size)
{
    if (i < 0)
        i += size;
    return std::clamp<std::int64_t>(i, 0, size);
}

// The values of a node's first output when all that it reads is known (small tensors only).
std::optional<Value> evaluate(const onnx::NodeProto& n, const Shapes& s, int opset)
{
    const std::string& op = n.op_type();
    auto in = [&](int i) -> const Value* {
        if (i >= n.input_size() || n.input(i).empty())
            return nullptr;
        auto it = s.values.find(n.input(i));
        return it == s.values.end() ? nullptr : &it->second;
    };
    if (op == "Constant") {
        Value v;
        if (const auto* a = attribute(n, "value"))
            return readValue(a->t(), v) ? std::optional<Value>(v) : std::nullopt;
        if (const auto* a = attribute(n, "value_int"))
            return Value { {}, { double(a->i()) }, true };
        if (const auto* a = attribute(n, "value_ints"))
            return Value { { a->ints_size() }, std::vector<double>(a->ints().begin(), a->ints().end()), true };
        if (const auto* a = attribute(n, "value_float"))
            return Value { {}, { double(a->f()) }, false };
        return std::nullopt;
    }
    if (op == "Shape" || op == "Size") {
        auto it = s.dims.find(n.input(0));
        if (it == s.dims.end())
            return std::nullopt;
        const auto& d = it->second;
        if (op == "Size")
            return Value { {}, { double(productOrMinusOne(d)) }, true };
        const auto rank = std::int64_t(d.size());
        const std::int64_t start = clampIndex(intAttr(n, "start", 0), rank), end = clampIndex(intAttr(n, "end", rank), rank);
        Value v;
        for (auto i = start; i < end; ++i)
            v.data.push_back(double(d[size_t(i)]));
        v.dims = { std::int64_t(v.data.size()) };
        return v;
    }
    const Value* a = in(0);
    if (!a)
        return std::nullopt;
    if (op == "ConstantOfShape") { // [a...] extents, each element the value attribute's (0 by default)
        double fill = 0;
        bool integer = false;
        if (const auto* attr = attribute(n, "value")) {
            Value v;
            if (!readValue(attr->t(), v) || v.data.size() != 1)
                return std::nullopt;
            fill = v.data[0];
            integer = v.integer;
        }
        Value v { {}, {}, integer };
        std::int64_t count = 1;
        for (double x : a->data) {
            if (x < 0 || x > double(kMaxValueElements))
                return std::nullopt;
            v.dims.push_back(std::int64_t(x));
            count *= std::int64_t(x);
            if (count > std::int64_t(kMaxValueElements))
                return std::nullopt;
        }
        v.data.assign(size_t(count), fill);
        return v;
    }
    if (op == "Identity" || op == "Cast") {
        Value v = *a;
        if (op == "Cast") {
            v.integer = isIntegerType(int(intAttr(n, "to", onnx::TensorProto::INT64)));
            if (v.integer)
                for (double& x : v.data)
                    x = std::trunc(x);
        }
        return v;
    }
    if (op == "Reshape" || op == "Flatten") { // the same values, the extents shape inference gave
        auto it = s.dims.find(n.output(0));
        if (it == s.dims.end() || product(it->second) != std::int64_t(a->data.size()))
            return std::nullopt;
        Value v = *a;
        v.dims = it->second;
        return v;
    }
    if (op == "Unsqueeze" || op == "Squeeze") {
        Value v = *a;
        auto it = s.dims.find(n.output(0));
        if (it != s.dims.end())
            v.dims = it->second;
        else if (op == "Unsqueeze" && a->dims.empty())
            v.dims = { 1 };
        else if (op == "Squeeze" && a->data.size() == 1)
            v.dims = {};
        else
            return std::nullopt;
        return v;
    }
    if (op == "Neg" || op == "Abs" || op == "Floor" || op == "Ceil" || op == "Sqrt") {
        Value v = *a;
        for (double& x : v.data)
            x = op == "Neg" ? -x : op == "Abs" ? std::abs(x) : op == "Floor" ? std::floor(x) : op == "Ceil" ? std::ceil(x) : std::sqrt(x);
        return v;
    }
    if (op == "Gather") {
        const Value* idx = in(1);
        if (!idx || a->dims.size() != 1 || intAttr(n, "axis", 0) != 0)
            return std::nullopt;
        Value v { idx->dims, {}, a->integer };
        for (double i : idx->data) {
            const auto k = whole(i) < 0 ? whole(i) + std::int64_t(a->data.size()) : whole(i);
            if (k < 0 || k >= std::int64_t(a->data.size()))
                return std::nullopt;
            v.data.push_back(a->data[size_t(k)]);
        }
        return v;
    }
    if (op == "Concat") {
        Value v { {}, {}, true };
        for (int i = 0; i < n.input_size(); ++i) {
            const Value* x = in(i);
            if (!x || x->dims.size() > 1)
                return std::nullopt;
            v.data.insert(v.data.end(), x->data.begin(), x->data.end());
            v.integer = v.integer && x->integer;
        }
        v.dims = { std::int64_t(v.data.size()) };
        return v;
    }
    if (op == "Slice") {
        // Any rank and any step (PyTorch reverses pad lists with steps of -1), by ONNX's clamping rules.
        const std::size_t rank = a->dims.size();
        std::vector<std::int64_t> starts, ends, axes, steps;
        if (opset < 10) {
            const auto* st = attribute(n, "starts");
            const auto* en = attribute(n, "ends");
            const auto* ax = attribute(n, "axes");
            if (!st || !en)
                return std::nullopt;
            starts.assign(st->ints().begin(), st->ints().end());
            ends.assign(en->ints().begin(), en->ints().end());
            if (ax)
                axes.assign(ax->ints().begin(), ax->ints().end());
        } else {
            const Value *st = in(1), *en = in(2), *ax = in(3), *sp = in(4);
            if (!st || !en || (n.input_size() > 3 && !n.input(3).empty() && !ax) || (n.input_size() > 4 && !n.input(4).empty() && !sp))
                return std::nullopt;
            for (double x : st->data)
                starts.push_back(whole(x));
            for (double x : en->data)
                ends.push_back(whole(x));
            if (ax)
                for (double x : ax->data)
                    axes.push_back(whole(x));
            if (sp)
                for (double x : sp->data)
                    steps.push_back(whole(x));
        }
        if (axes.empty())
            for (std::size_t i = 0; i < starts.size(); ++i)
                axes.push_back(std::int64_t(i));
        if (steps.empty())
            steps.assign(starts.size(), 1);
        if (rank == 0 || starts.size() != ends.size() || axes.size() != starts.size() || steps.size() != starts.size())
            return std::nullopt;
        std::vector<std::vector<std::int64_t>> picks(rank);
        for (std::size_t d = 0; d < rank; ++d)
            for (std::int64_t i = 0; i < a->dims[d]; ++i)
                picks[d].push_back(i);
        for (std::size_t k = 0; k < axes.size(); ++k) {
            const std::int64_t axis = axes[k] < 0 ? axes[k] + std::int64_t(rank) : axes[k];
            if (axis < 0 || axis >= std::int64_t(rank) || steps[k] == 0)
                return std::nullopt;
            const std::int64_t size = a->dims[size_t(axis)], step = steps[k];
            std::int64_t start = starts[k] < 0 ? std::max<std::int64_t>(starts[k], -size - 1) + size : starts[k];
            std::int64_t end = ends[k] < 0 ? std::max<std::int64_t>(ends[k], -size - 1) + size : ends[k];
            if (step > 0) {
                start = std::clamp<std::int64_t>(start, 0, size);
                end = std::clamp<std::int64_t>(end, 0, size);
            } else {
                start = std::clamp<std::int64_t>(start, -1, size - 1);
                end = std::clamp<std::int64_t>(end, -1, size - 1);
            }
            std::vector<std::int64_t> chosen;
            for (std::int64_t i = start; step > 0 ? i < end : i > end; i += step) {
                chosen.push_back(i);
                if (chosen.size() > kMaxValueElements)
                    return std::nullopt;
            }
            picks[size_t(axis)] = std::move(chosen);
        }
        return gathered(*a, picks);
    }
    if (op == "Transpose") {
        const std::size_t rank = a->dims.size();
        std::vector<std::int64_t> perm;
        if (const auto* p = attribute(n, "perm"))
            perm.assign(p->ints().begin(), p->ints().end());
        else
            for (std::size_t i = 0; i < rank; ++i)
                perm.push_back(std::int64_t(rank - 1 - i));
        if (perm.size() != rank)
            return std::nullopt;
        Value v { {}, {}, a->integer };
        for (auto p : perm) {
            if (p < 0 || p >= std::int64_t(rank))
                return std::nullopt;
            v.dims.push_back(a->dims[size_t(p)]);
        }
        // Row-major strides of the input, visited in the output's order.
        std::vector<std::int64_t> stride(rank, 1);
        for (std::size_t d = rank; d-- > 1;)
            stride[d - 1] = stride[d] * a->dims[d];
        std::vector<std::int64_t> index(rank, 0);
        for (std::size_t count = 0; count < a->data.size(); ++count) {
            std::int64_t at = 0;
            for (std::size_t d = 0; d < rank; ++d)
                at += index[d] * stride[size_t(perm[d])];
            v.data.push_back(a->data[size_t(at)]);
            for (std::size_t d = rank; d-- > 0;) {
                if (++index[d] < v.dims[d])
                    break;
                index[d] = 0;
            }
        }
        return v;
    }
    if (op == "ReduceProd" || op == "ReduceSum") {
        if (a->dims.size() > 1)
            return std::nullopt;
        double r = op == "ReduceProd" ? 1 : 0;
        for (double x : a->data)
            r = op == "ReduceProd" ? r * x : r + x;
        return Value { intAttr(n, "keepdims", 1) ? std::vector<std::int64_t> { 1 } : std::vector<std::int64_t> {}, { r }, a->integer };
    }
    if (op == "Range") {
        const Value *l = in(1), *d = in(2);
        if (!l || !d || a->data.size() != 1 || l->data.size() != 1 || d->data.size() != 1 || d->data[0] == 0)
            return std::nullopt;
        const double count = std::max(0.0, std::ceil((l->data[0] - a->data[0]) / d->data[0]));
        if (count > double(kMaxValueElements))
            return std::nullopt;
        Value v { { std::int64_t(count) }, {}, a->integer };
        for (int i = 0; i < int(count); ++i)
            v.data.push_back(a->data[0] + i * d->data[0]);
        return v;
    }
    if (op == "Where") {
        const Value *x = in(1), *y = in(2);
        if (!x || !y)
            return std::nullopt;
        const size_t len = std::max({ a->data.size(), x->data.size(), y->data.size() });
        Value v { a->data.size() == len ? a->dims : x->data.size() == len ? x->dims : y->dims, {}, x->integer && y->integer };
        for (size_t i = 0; i < len; ++i) {
            auto at = [&](const Value& t) { return t.data[t.data.size() == 1 ? 0 : std::min(i, t.data.size() - 1)]; };
            v.data.push_back(at(*a) != 0 ? at(*x) : at(*y));
        }
        return v;
    }
    if (n.input_size() == 2)
        if (const Value* b = in(1))
            return binary(*a, *b, op);
    return std::nullopt;
}


} // namespace

bool readValue(const onnx::TensorProto& t, Value& v)
{
    using T = onnx::TensorProto;
    if (t.data_location() == T::EXTERNAL)
        return false;
    std::int64_t count = 1;
    for (auto d : t.dims()) {
        if (d < 0 || d > std::int64_t(kMaxValueElements))
            return false;
        count *= d;
        if (count > std::int64_t(kMaxValueElements))
            return false;
    }
    v.dims.assign(t.dims().begin(), t.dims().end());
    v.data.clear();
    v.integer = isIntegerType(t.data_type());
    const bool raw = t.has_raw_data();
    bool ok = true;
    switch (t.data_type()) {
    case T::INT64:
        ok = raw ? fromRaw<std::int64_t>(t.raw_data(), v.data) : (v.data.assign(t.int64_data().begin(), t.int64_data().end()), true);
        break;
    case T::INT32:
    case T::INT16:
    case T::INT8:
    case T::UINT8:
    case T::BOOL:
        ok = raw ? (t.data_type() == T::INT32 ? fromRaw<std::int32_t>(t.raw_data(), v.data)
                       : t.data_type() == T::INT16 ? fromRaw<std::int16_t>(t.raw_data(), v.data)
                       : t.data_type() == T::INT8  ? fromRaw<std::int8_t>(t.raw_data(), v.data)
                                                   : fromRaw<std::uint8_t>(t.raw_data(), v.data))
                 : (v.data.assign(t.int32_data().begin(), t.int32_data().end()), true);
        break;
    case T::FLOAT:
        ok = raw ? fromRaw<float>(t.raw_data(), v.data) : (v.data.assign(t.float_data().begin(), t.float_data().end()), true);
        break;
    case T::DOUBLE:
        ok = raw ? fromRaw<double>(t.raw_data(), v.data) : (v.data.assign(t.double_data().begin(), t.double_data().end()), true);
        break;
    default:
        return false;
    }
    return ok && std::int64_t(v.data.size()) == count;
}


std::int64_t product(const std::vector<std::int64_t>& dims) { return productOrMinusOne(dims); }

onnx::TensorProto valueTensor(const std::string& name, const Value& v) { return toTensor(name, v); }

std::optional<Value> evaluateNode(const onnx::NodeProto& n, const Shapes& s, int opset) { return evaluate(n, s, opset); }

} // namespace rfx::onnximport
