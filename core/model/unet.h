#pragma once

#include "model/config.h"
#include "model/network.h"

#include <optional>
#include <string>
#include <vector>

namespace rfx {

/// A built network or the reason it cannot be built.
struct BuildResult {
    std::optional<Network> network;
    std::string error; ///< set when network is empty: why, and what would work
};

/// Builds the U-Net of DESIGN.md ("U-Net builder") for a batch of `batch` images.
/// With `fusion` the bias/batch-norm/ReLU after each convolution are folded into its row.
/// Layer order is execution order; every convolution is followed by its own elementwise rows.
BuildResult buildUNet(const UNetParams& params, int batch, bool fusion);

/// Follows one spatial extent (height or width) through the U-Net. Returns the output extent,
/// or nothing and sets `reason` to why this extent does not work.
std::optional<int> unetOutputExtent(int extent, const UNetParams& params, std::string* reason = nullptr);

/// The nearest extents below and above `extent` (within kImageRange) that work; 0 where there is none.
struct NearestExtents {
    int below = 0;
    int above = 0;
};
NearestExtents nearestWorkingExtents(int extent, const UNetParams& params);

/// Where a dragged image-size control lands when `wanted` does not work: the nearest working extent,
/// in the drag's direction (from `previous`) when both neighbours are as near, so that a slow drag is not
/// held back at the same size; `wanted` itself when it works, 0 when nothing does.
int snappedExtent(int wanted, int previous, const UNetParams& params);
/// The sizes to offer when the U-Net's height or width does not work (the one that fails): its working
/// neighbours, below then above (none where the configuration fails for another reason).
std::vector<int> suggestedExtents(const UNetParams& params);

} // namespace rfx
