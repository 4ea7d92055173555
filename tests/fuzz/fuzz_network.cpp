// Custom network files: any bytes give a network or a message, never a crash, an exception or
// undefined behaviour (the fuzz preset builds with UBSan).
#include "model/networks.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const bool fusion = size > 0 && (data[0] & 1);
    const rfx::BuildResult b
        = rfx::parseNetworkJson(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.json", 2, fusion);
    if (!b.network && b.error.empty())
        __builtin_trap(); // a refused network must say why
    return 0;
}
