#pragma once
// What the tst_onnx_values* tests share: values and one-node cases built by hand, run through the
// importer's evaluator (onnx_internal.h), as ONNX's operator documentation writes its examples.
#include "onnx/onnx_internal.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace rfx::valuetest {

using namespace rfx::onnximport;

inline Value tensor(std::vector<std::int64_t> dims, std::vector<double> data, bool integer = true)
{
    return Value(std::move(dims), std::move(data), integer);
}
inline Value scalar(double x, bool integer = true) { return Value({}, { x }, integer); }

struct NodeCase {
    onnx::NodeProto node;
    std::map<std::string, Value> values;
    int opset = 17;
};

// A node `op` reading inputs "a", "b", ... (empty names stay empty) and writing `outputs` outputs.
inline onnx::NodeProto node(const std::string& op, std::vector<std::string> inputs, int outputs = 1)
{
    onnx::NodeProto n;
    n.set_op_type(op);
    for (const auto& i : inputs)
        n.add_input(i);
    for (int o = 0; o < outputs; ++o)
        n.add_output("y" + std::to_string(o));
    return n;
}

inline void setInt(onnx::NodeProto& n, const char* name, std::int64_t v)
{
    auto* a = n.add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::INT);
    a->set_i(v);
}

inline void setInts(onnx::NodeProto& n, const char* name, std::vector<std::int64_t> v)
{
    auto* a = n.add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::INTS);
    for (auto x : v)
        a->add_ints(x);
}

inline void setString(onnx::NodeProto& n, const char* name, const std::string& v)
{
    auto* a = n.add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::STRING);
    a->set_s(v);
}

inline std::vector<std::optional<Value>> run(const NodeCase& c, std::int64_t* budget = nullptr)
{
    ValueScope s;
    s.value = [&](const std::string& name) -> const Value* {
        auto it = c.values.find(name);
        return it == c.values.end() ? nullptr : &it->second;
    };
    s.dims = [&](const std::string& name) -> const std::vector<std::int64_t>* {
        auto it = c.values.find(name);
        return it == c.values.end() ? nullptr : &it->second.dims;
    };
    s.elemType = [](const std::string& name) {
        return name == "like_int" ? int(onnx::TensorProto::INT32) : int(onnx::TensorProto::FLOAT);
    };
    s.opset = c.opset;
    s.budget = budget;
    return evaluateNode(c.node, s);
}

// A body or branch graph from nodes, its inputs and outputs by name.
inline onnx::GraphProto graph(
    std::vector<onnx::NodeProto> nodes, std::vector<std::string> inputs, std::vector<std::string> outputs)
{
    onnx::GraphProto g;
    for (auto& n : nodes)
        *g.add_node() = std::move(n);
    for (const auto& i : inputs)
        g.add_input()->set_name(i);
    for (const auto& o : outputs)
        g.add_output()->set_name(o);
    return g;
}

inline onnx::NodeProto named(onnx::NodeProto n, std::vector<std::string> outputs)
{
    n.clear_output();
    for (const auto& o : outputs)
        n.add_output(o);
    return n;
}

} // namespace rfx::valuetest
