#pragma once

#include "engine/roofline.h"

#include <vector>

namespace rfx {

/// Which layers the chart and the table show.
struct LayerFilter {
    bool convolutionsOnly = false; ///< conv and conv_transpose rows only
    int topN = 0; ///< only the N rows with the most time (0 = all)
    friend bool operator==(const LayerFilter&, const LayerFilter&) = default;
};

/// visible[i] says whether row i of `device` passes the filter.
std::vector<bool> visibleLayers(const DeviceResult& device, const LayerFilter& filter);

} // namespace rfx
