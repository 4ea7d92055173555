// The values of small tensors stored in the file (initializers, Constant nodes), and known values as
// tensors again, which shape inference (onnx_shapes.cpp) reads as constant data. What is computed from
// them before the run is onnx_evaluate.cpp's.
#include "onnx/onnx_internal.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>

namespace rfx::onnximport {

namespace {

template <typename T> bool fromRaw(const std::string& raw, std::vector<double>& out)
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
        ok = raw ? fromRaw<std::int64_t>(t.raw_data(), v.data)
                 : (v.data.assign(t.int64_data().begin(), t.int64_data().end()), true);
        break;
    case T::INT32:
    case T::INT16:
    case T::INT8:
    case T::UINT8:
    case T::BOOL:
        ok = raw ? (t.data_type() == T::INT32    ? fromRaw<std::int32_t>(t.raw_data(), v.data)
                     : t.data_type() == T::INT16 ? fromRaw<std::int16_t>(t.raw_data(), v.data)
                     : t.data_type() == T::INT8  ? fromRaw<std::int8_t>(t.raw_data(), v.data)
                                                 : fromRaw<std::uint8_t>(t.raw_data(), v.data))
                 : (v.data.assign(t.int32_data().begin(), t.int32_data().end()), true);
        break;
    case T::UINT16:
        ok = raw ? fromRaw<std::uint16_t>(t.raw_data(), v.data)
                 : (v.data.assign(t.int32_data().begin(), t.int32_data().end()), true);
        break;
    case T::UINT32:
    case T::UINT64:
        ok = raw ? (t.data_type() == T::UINT32 ? fromRaw<std::uint32_t>(t.raw_data(), v.data)
                                               : fromRaw<std::uint64_t>(t.raw_data(), v.data))
                 : (v.data.assign(t.uint64_data().begin(), t.uint64_data().end()), true);
        break;
    case T::FLOAT:
        ok = raw ? fromRaw<float>(t.raw_data(), v.data)
                 : (v.data.assign(t.float_data().begin(), t.float_data().end()), true);
        break;
    case T::DOUBLE:
        ok = raw ? fromRaw<double>(t.raw_data(), v.data)
                 : (v.data.assign(t.double_data().begin(), t.double_data().end()), true);
        break;
    default:
        return false;
    }
    return ok && std::int64_t(v.data.size()) == count;
}

std::int64_t product(const std::vector<std::int64_t>& dims) { return productOrMinusOne(dims); }

onnx::TensorProto valueTensor(const std::string& name, const Value& v) { return toTensor(name, v); }

} // namespace rfx::onnximport
