#include "network.h"

namespace rfx {

std::string shapeString(const Shape& s)
{
    return std::to_string(s.n) + "x" + std::to_string(s.c) + "x" + std::to_string(s.h) + "x" + std::to_string(s.w);
}

std::string_view opName(Op op)
{
    switch (op) {
    case Op::Conv:
        return "conv";
    case Op::ConvTranspose:
        return "conv_transpose";
    case Op::MaxPool:
        return "maxpool";
    case Op::Concat:
        return "concat";
    case Op::Bias:
        return "bias";
    case Op::BatchNorm:
        return "batchnorm";
    case Op::ReLU:
        return "relu";
    case Op::Optimizer:
        return "optimizer";
    case Op::Linear:
        return "linear";
    case Op::AvgPool:
        return "avgpool";
    case Op::Add:
        return "add";
    }
    return "conv";
}

bool isElementwise(Op op) { return op == Op::Bias || op == Op::BatchNorm || op == Op::ReLU; }

Layer singleInputLayer(const std::string& name, Op op, int input, const Shape& in)
{
    Layer l;
    l.name = name;
    l.op = op;
    l.inputs = { input };
    l.inShapes = { in };
    l.out = in;
    return l;
}

std::vector<std::pair<Op, const char*>> epilogueOps(bool bias, bool batchNorm, bool relu)
{
    std::vector<std::pair<Op, const char*>> ops;
    if (bias)
        ops.emplace_back(Op::Bias, "bias");
    if (batchNorm)
        ops.emplace_back(Op::BatchNorm, "bn");
    if (relu)
        ops.emplace_back(Op::ReLU, "relu");
    return ops;
}

} // namespace rfx
