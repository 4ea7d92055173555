#include "roof_at.h"

#include <algorithm>
#include <cmath>

namespace rfx {

RoofAt roofAt(const std::vector<const DeviceResult*>& devices, double intensity, double flops, double tolerance)
{
    RoofAt at;
    double lowest = INFINITY;
    for (size_t i = 0; i < devices.size(); ++i) {
        const DeviceResult& d = *devices[i];
        const double a = std::min(d.ceiling.flops, intensity * d.bandwidth);
        if (a * tolerance >= flops && a < lowest) {
            lowest = a;
            at = { int(i), a, intensity < d.ridge };
        }
    }
    return at;
}

} // namespace rfx
