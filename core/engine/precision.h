#pragma once

#include "config.h"
#include "network.h"

#include <map>
#include <string>

namespace rfx {

/// The precision (8, 16, 32 or 64 bits) a row's arithmetic runs at: with Config::bitsAsInFile, its own
/// where the file gives one (Layer::computeBits; 4-bit and other widths take the next ceiling up),
/// else the configuration's bits. A null row (the optimizer) takes the configuration's.
int rowPrecision(const Layer* layer, const Config& config);

/// "int8", "fp16", "fp32", "fp64".
std::string precisionWord(int bits);

struct PrecisionMix {
    int dominant = 32; ///< the precision of most matrix FLOPs: the chart's roof (the configuration's bits when not as in the file)
    std::map<int, int> rowsAt; ///< rows per precision (as in the file only)
};
/// How a network's rows divide among precisions.
PrecisionMix precisionMix(const Network& network, const Config& config);

} // namespace rfx
