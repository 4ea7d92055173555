#include "model/network.h"

#include <algorithm>

namespace rfx {

std::string shapeString(const Shape& s)
{
    const std::int64_t four[] = { s.n, s.c, s.h, s.w }, five[] = { s.n, s.c, s.d, s.h, s.w };
    const std::int64_t* e = s.rank >= 5 ? five : four; // ranks 6-8: the middle extents folded
    std::string text;
    for (int i = 0; i < std::clamp(s.rank, 1, 5); ++i)
        text += (i ? "x" : "") + std::to_string(e[i]);
    return text;
}

std::string_view opName(Op op) { return enumName(kOpWords, op); }

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

bool runsOnMatrixUnits(Op op)
{
    return op == Op::Conv || op == Op::ConvTranspose || op == Op::Linear || op == Op::MatMul;
}

} // namespace rfx
