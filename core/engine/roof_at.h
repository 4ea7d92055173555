#pragma once

#include "roofline.h"

#include <vector>

namespace rfx {

/// The roof over a point of a roofline chart (intensity, performance): the lowest attainable
/// performance, min(compute ceiling, intensity x bandwidth), among the devices drawn that is still
/// at or above the point. A point up to a factor `tolerance` (>= 1) under a roof counts as on it:
/// the chart passes what 3 pixels are at its scale, so that a point drawn on its roof is not read
/// as above it. It is what the chart's read-out says when the cursor is at that point.
struct RoofAt {
    int device = -1; ///< index into the devices given; -1: the point is above every roof
    double attainable = 0; ///< FLOP/s of that roof at this intensity
    bool memorySlope = false; ///< left of that device's ridge: the memory slope, not the compute roof
};
RoofAt roofAt(const std::vector<const DeviceResult*>& devices, double intensity, double flops, double tolerance = 1.0);

} // namespace rfx
