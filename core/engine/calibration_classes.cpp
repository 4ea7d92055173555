// Which calibration class a row is in, the group that predicts it, and what a group says of a row
// (the overhead's source, its efficiency at M rows, whether it extrapolates); the fit is calibration.cpp.
#include "engine/calibration.h"

#include <cmath>

namespace rfx {
std::string_view calibrationClass(Op op)
{
    switch (op) {
    case Op::Conv:
        return "conv";
    case Op::ConvTranspose:
        return "conv_transpose";
    case Op::Linear:
    case Op::MatMul:
        return "matrix";
    case Op::MaxPool:
    case Op::AvgPool:
    case Op::Reduce:
        return "pool";
    case Op::Concat:
    case Op::Copy:
    case Op::Uncounted:
        return "data";
    case Op::BatchNorm:
        return "batch_norm";
    case Op::Bias:
    case Op::ReLU:
    case Op::Add:
    case Op::Eltwise:
    case Op::Optimizer:
        return "elementwise";
    }
    return "elementwise";
}

std::string_view calibrationClass(const Layer& l)
{
    if (l.attention)
        return "attention";
    if (l.op != Op::Conv || l.inShapes.empty())
        return calibrationClass(l.op);
    const std::int64_t inChannels = l.inShapes.front().c;
    if (l.groups > 1 && l.groups == inChannels)
        return "depthwise";
    if (l.groups == 1 && std::int64_t(l.kd) * l.kh * l.kw == 1)
        return "conv1x1";
    return "conv";
}

std::string_view parentClass(std::string_view opClass)
{
    if (opClass == "conv1x1" || opClass == "depthwise")
        return "conv";
    if (opClass == "batch_norm")
        return "elementwise";
    if (opClass == "attention")
        return "matrix";
    return {};
}

const std::vector<std::string>& calibrationClasses()
{
    static const std::vector<std::string> names { "conv", "conv1x1", "depthwise", "conv_transpose", "matrix",
        "attention", "batch_norm", "elementwise", "pool", "data" };
    return names;
}

const CalibrationGroup* Calibration::ownGroup(std::string_view opClass, Bound bound) const
{
    for (const CalibrationGroup& g : groups)
        if (g.bound == bound && g.opClass == opClass)
            return &g;
    return nullptr;
}

const CalibrationGroup* Calibration::groupFor(std::string_view opClass, Bound bound) const
{
    if (const CalibrationGroup* own = ownGroup(opClass, bound))
        return own;
    if (const std::string_view parent = parentClass(opClass); !parent.empty())
        if (const CalibrationGroup* g = ownGroup(parent, bound))
            return g;
    return ownGroup("all", bound);
}

std::string_view overheadSourceName(OverheadSource source) { return enumName(kOverheadSourceWords, source); }

std::optional<OverheadSource> overheadSourceFromName(std::string_view name)
{
    return parseEnum(kOverheadSourceWords, name);
}

double matrixRowsOf(const Shape& out)
{
    if (out.rank == 3)
        return double(out.n) * double(out.c);
    if (out.rank == 2)
        return double(out.n);
    return 0;
}

double CalibrationGroup::efficiencyAtRows(double rows) const
{
    if (byRows.empty() || !(rows > 0) || rows > 2 * byRows.back().rows)
        return 0;
    if (rows <= byRows.front().rows)
        return byRows.front().efficiency;
    if (rows >= byRows.back().rows)
        return byRows.back().efficiency;
    size_t i = 1;
    while (i + 1 < byRows.size() && byRows[i].rows < rows)
        ++i;
    const RowsPoint &a = byRows[i - 1], &b = byRows[i];
    const double t = std::log(rows / a.rows) / std::log(b.rows / a.rows);
    return 1 / ((1 - t) / a.efficiency + t / b.efficiency);
}

bool CalibrationGroup::extrapolates(double flops, double bytes) const
{
    // Compute-bound fits by FLOPs, memory-bound ones by bytes; a factor of two either way is still
    // the size the fit saw (rows of one layer at another batch).
    const bool byFlops = bound == Bound::Compute;
    const double lo = byFlops ? minFlops : minBytes, hi = byFlops ? maxFlops : maxBytes, x = byFlops ? flops : bytes;
    if (!(hi > 0) || !(x > 0))
        return false;
    return x < lo / 2 || x > hi * 2;
}

} // namespace rfx
