#pragma once

#include "model/config.h"
#include "model/network.h"

#include <map>
#include <string>

namespace rfx {

/// The precision (8, 16, 32 or 64 bits) a row's arithmetic runs at: with Config::bitsAsInFile, its own
/// where the file gives one (Layer::computeBits; 4-bit and other widths take the next ceiling up),
/// else the configuration's bits. A null row (the optimizer) takes the configuration's.
int rowPrecision(const Layer* layer, const Config& config);

/// The arithmetic type of a row (the ceiling it runs against): with Config::bitsAsInFile, the file's
/// Layer::computeType where it gives one (fp8, bf16), else numberTypeOfBits(rowPrecision(...)).
NumberType rowNumberType(const Layer* layer, const Config& config);

struct PrecisionMix {
    /// The arithmetic of most matrix FLOPs: the chart's roof (the configuration's bits when not as in the file).
    NumberType dominant = NumberType::Fp32;
    std::map<NumberType, int> rowsAt; ///< rows per arithmetic type (as in the file only)
};
/// How a network's rows divide among precisions.
PrecisionMix precisionMix(const Network& network, const Config& config);

} // namespace rfx
