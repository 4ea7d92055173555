#pragma once
// Internal to the shape functions of onnx_adapted_shapes.cpp, onnx_contrib_shapes.cpp and
// onnx_missing_shapes.cpp: one node's inputs as the walk knows them (types, shapes, values), and the
// helpers they share.

#include "onnx/onnx_internal.h"

#include <onnx/defs/schema.h>
#include <onnx/shape_inference/implementation.h>

#include <functional>

namespace rfx::onnximport::shapes {

using Dims = std::vector<std::int64_t>;

struct Context {
    const onnx::NodeProto& n;
    const TypeMap& types;
    const DataMap& data;
    const Shapes& s;

    const onnx::TypeProto* type(int i) const
    {
        if (i >= n.input_size() || n.input(i).empty())
            return nullptr;
        auto it = types.find(n.input(i));
        return it == types.end() ? nullptr : it->second;
    }
    const Dims* dims(int i) const
    {
        if (i >= n.input_size())
            return nullptr;
        auto it = s.dims.find(n.input(i));
        return it == s.dims.end() ? nullptr : &it->second;
    }
    const Value* value(int i) const
    {
        if (i >= n.input_size() || n.input(i).empty())
            return nullptr;
        auto it = s.values.find(n.input(i));
        return it == s.values.end() ? nullptr : &it->second;
    }
    int elemType(int i) const
    {
        const auto* t = type(i);
        return t && t->has_tensor_type() ? t->tensor_type().elem_type() : onnx::TensorProto::FLOAT;
    }
};

inline onnx::TypeProto tensorType(int elemType, const Dims& dims)
{
    onnx::TypeProto t;
    t.mutable_tensor_type()->set_elem_type(elemType);
    auto* shape = t.mutable_tensor_type()->mutable_shape();
    for (auto d : dims)
        shape->add_dim()->set_dim_value(d);
    return t;
}

inline std::int64_t normalized(std::int64_t axis, size_t rank) { return axis < 0 ? axis + std::int64_t(rank) : axis; }

inline Dims axesOf(const Value* v, size_t rank)
{
    Dims axes;
    if (v)
        for (double x : v->data)
            axes.push_back(normalized(std::int64_t(x), rank));
    return axes;
}

inline bool validAxes(const Dims& axes, size_t rank)
{
    return std::all_of(axes.begin(), axes.end(), [&](std::int64_t a) { return a >= 0 && a < std::int64_t(rank); });
}

// A node's outputs by another schema's shape function (the copy's op_type and attributes set by `edit`).
inline Outputs delegated(
    const Context& c, const char* op, int version, const std::function<void(onnx::NodeProto&)>& edit)
{
    const onnx::OpSchema* schema = onnx::OpSchemaRegistry::Schema(op, version, "");
    if (!schema || !schema->has_type_and_shape_inference_function())
        return {};
    onnx::NodeProto copy = c.n;
    copy.set_op_type(op);
    copy.set_domain("");
    edit(copy);
    onnx::shape_inference::InferenceContextImpl ctx(copy, c.types, c.data, {});
    schema->GetTypeAndShapeInferenceFunction()(ctx);
    Outputs out(size_t(copy.output_size()));
    for (int o = 0; o < copy.output_size(); ++o)
        if (const auto* t = ctx.getOutputType(size_t(o)))
            out[size_t(o)] = *t;
    return out;
}

inline void keepAttributes(onnx::NodeProto& n, std::initializer_list<const char*> names)
{
    google::protobuf::RepeatedPtrField<onnx::AttributeProto> kept;
    for (const auto& a : n.attribute())
        if (std::any_of(names.begin(), names.end(), [&](const char* k) { return a.name() == k; }))
            *kept.Add() = a;
    n.mutable_attribute()->Swap(&kept);
}

} // namespace rfx::onnximport::shapes
