#include "engine/precision.h"

#include "engine/cost.h"

namespace rfx {

int rowPrecision(const Layer* layer, const Config& config)
{
    if (!config.bitsAsInFile || !layer || layer->computeBits == 0)
        return config.bits;
    const int b = layer->computeBits;
    return b <= 8 ? 8 : b <= 16 ? 16 : b <= 32 ? 32 : 64;
}

NumberType rowNumberType(const Layer* layer, const Config& config)
{
    if (config.bitsAsInFile && layer && layer->computeType != NumberType::Unset)
        return layer->computeType;
    return numberTypeOfBits(rowPrecision(layer, config));
}

PrecisionMix precisionMix(const Network& net, const Config& config)
{
    PrecisionMix m;
    m.dominant = numberTypeOfBits(config.bits);
    if (!config.bitsAsInFile)
        return m;
    std::map<NumberType, double> flops;
    for (const Layer& l : net.layers) {
        const NumberType type = rowNumberType(&l, config);
        ++m.rowsAt[type];
        if (runsOnMatrixUnits(l.op))
            flops[type] += forwardFlops(l);
    }
    if (flops.empty()) // no matrix rows: the precision of the most rows
        for (const auto& [type, count] : m.rowsAt)
            flops[type] += count;
    double most = -1;
    for (const auto& [type, f] : flops)
        if (f > most) {
            most = f;
            m.dominant = type;
        }
    return m;
}

} // namespace rfx
