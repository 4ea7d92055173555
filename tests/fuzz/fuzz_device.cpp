// Device files: any bytes give a device or diagnostics, never a crash or an exception.
#include "devices/device_loader.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const rfx::DeviceLoad load
        = rfx::parseDevice(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.json");
    if (!load.device && load.diagnostics.empty())
        __builtin_trap(); // a refused device must say why
    return 0;
}
