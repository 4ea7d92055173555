#pragma once

#include "engine/roofline.h"

#include <string>
#include <vector>

namespace rfx {

/// The roof over a point of a roofline chart (intensity, performance): the lowest attainable
/// performance, min(compute ceiling, intensity x bandwidth), among the devices drawn that is still
/// at or above the point. A point up to a factor `tolerance` (>= 1) under a roof counts as on it:
/// the chart passes what 3 pixels are at its scale, so that a point drawn on its roof is not read
/// as above it. It is what the chart's read-out says when the cursor is at that point.
///
/// The roofs are the ones the chart draws: each device's DRAM slope and compute roof, its elementwise
/// roof where that ceiling differs, and the slopes of the cache levels in force (levelBandwidth: the
/// tiled model's L2 / L1, the cache-aware model's L3 / L2 / L1), each min(compute ceiling, I x its
/// bandwidth), and the compute roof of each other precision rows run at (DeviceResult::rowCeilings,
/// "FP32 roof"). A point between the DRAM slope and the L2 one is under the L2 slope: attainable where
/// its tensors stay in L2, as the point's tooltip says ("L2-bound").
struct RoofAt {
    int device = -1; ///< index into the devices given; -1: the point is above every roof
    double attainable = 0; ///< FLOP/s of that roof at this intensity
    bool memorySlope = false; ///< a slope (DRAM's or a cache level's), not a flat roof
    std::string roof; ///< "DRAM slope", "L2 slope", "compute roof", "elementwise roof" ("memory slope" with no cache
                      ///< level drawn)
    bool on = false; ///< above that roof by no more than the tolerance: on it, not under it
};
RoofAt roofAt(const std::vector<const DeviceResult*>& devices, double intensity, double flops, double tolerance = 1.0);

} // namespace rfx
