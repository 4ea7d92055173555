#include "precision.h"

#include "cost.h"

namespace rfx {

int rowPrecision(const Layer* layer, const Config& config)
{
    if (!config.bitsAsInFile || !layer || layer->computeBits == 0)
        return config.bits;
    const int b = layer->computeBits;
    return b <= 8 ? 8 : b <= 16 ? 16 : b <= 32 ? 32 : 64;
}

std::string precisionWord(int bits) { return bits == 8 ? "int8" : bits == 16 ? "fp16" : bits == 64 ? "fp64" : "fp32"; }

PrecisionMix precisionMix(const Network& net, const Config& config)
{
    PrecisionMix m;
    m.dominant = config.bits;
    if (!config.bitsAsInFile)
        return m;
    std::map<int, double> flops;
    for (const Layer& l : net.layers) {
        const int bits = rowPrecision(&l, config);
        ++m.rowsAt[bits];
        if (runsOnMatrixUnits(l.op))
            flops[bits] += forwardFlops(l);
    }
    if (flops.empty()) // no matrix rows: the precision of the most rows
        for (const auto& [bits, count] : m.rowsAt)
            flops[bits] += count;
    double most = -1;
    for (const auto& [bits, f] : flops)
        if (f > most) {
            most = f;
            m.dominant = bits;
        }
    return m;
}

} // namespace rfx
