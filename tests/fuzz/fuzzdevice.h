#pragma once
// The one device the fuzz targets analyse on: any figures will do, as long as they are fixed.
#include "devices/device.h"

namespace rfx::fuzz {

inline Device device()
{
    Device d;
    d.id = "fuzz";
    d.name = "Fuzz";
    d.peak["fp32"] = 1e13;
    d.dramBandwidth = 1e11;
    d.memoryBytes = 8e9;
    d.tdpWatts = 250;
    d.idleWatts = 30;
    return d;
}

} // namespace rfx::fuzz
