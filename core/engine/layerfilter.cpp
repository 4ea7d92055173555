#include "engine/layerfilter.h"

#include <algorithm>
#include <numeric>

namespace rfx {

std::vector<bool> visibleLayers(const DeviceResult& d, const LayerFilter& f)
{
    const size_t n = d.layers.size();
    std::vector<bool> visible(n, true);
    if (f.convolutionsOnly) {
        for (size_t i = 0; i < n; ++i)
            visible[i] = d.layers[i].op == Op::Conv || d.layers[i].op == Op::ConvTranspose;
    }
    if (f.topN > 0) {
        std::vector<size_t> order;
        for (size_t i = 0; i < n; ++i) {
            if (visible[i])
                order.push_back(i);
        }
        if (order.size() > size_t(f.topN)) {
            std::stable_sort(
                order.begin(), order.end(), [&](size_t a, size_t b) { return d.layers[a].time > d.layers[b].time; });
            std::fill(visible.begin(), visible.end(), false);
            for (size_t k = 0; k < size_t(f.topN); ++k)
                visible[order[k]] = true;
        }
    }
    return visible;
}

} // namespace rfx
