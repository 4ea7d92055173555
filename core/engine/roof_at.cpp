#include "engine/roof_at.h"

#include <algorithm>
#include <cmath>

namespace rfx {

RoofAt roofAt(const std::vector<const DeviceResult*>& devices, double intensity, double flops, double tolerance)
{
    RoofAt at;
    double lowest = INFINITY;
    auto consider = [&](size_t device, double attainable, bool slope, std::string name) {
        if (attainable > 0 && attainable * tolerance >= flops && attainable < lowest) {
            lowest = attainable;
            at = { int(device), attainable, slope, std::move(name), flops > attainable };
        }
    };
    for (size_t i = 0; i < devices.size(); ++i) {
        const DeviceResult& d = *devices[i];
        const double P = d.ceiling.flops;
        bool levels = false;
        for (MemoryLevel level : { MemoryLevel::L3, MemoryLevel::L2, MemoryLevel::L1 })
            if (const double bw = levelBandwidth(d, level); bw > 0) {
                levels = true; // past its own ridge a level's roofline is the compute roof
                const bool slope = intensity * bw < P;
                consider(i, std::min(P, intensity * bw), slope,
                    slope ? std::string(memoryLevelName(level)) + " slope" : "compute roof");
            }
        const bool slope = intensity * d.bandwidth < P;
        consider(i, std::min(P, intensity * d.bandwidth), slope,
            slope ? (levels ? "DRAM slope" : "memory slope") : "compute roof");
        // The elementwise rows' lower ceiling, drawn from where it meets the DRAM slope.
        const double Pv = d.vectorCeiling.flops;
        if (Pv > 0 && Pv < P * (1 - 1e-9) && intensity * d.bandwidth >= Pv)
            consider(i, Pv, false, "elementwise roof");
        // Rows at their own precision (as in the file): that precision's compute roof.
        for (const CeilingChoice& c : d.rowCeilings)
            if (c.flops > 0 && intensity * d.bandwidth >= c.flops)
                consider(i, c.flops, false, precisionLabel(c.key) + " roof");
    }
    return at;
}

} // namespace rfx
