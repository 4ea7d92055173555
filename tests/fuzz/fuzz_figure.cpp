// Figure sidecars: a figure description or an error message; round trips are exact.
#include "io/figure.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    std::string error;
    const auto spec = rfx::figureFromJson(std::string(reinterpret_cast<const char*>(data), size), error);
    if (!spec && error.empty())
        __builtin_trap();
    if (spec) {
        std::string again;
        const auto back = rfx::figureFromJson(rfx::figureToJson(*spec), again);
        if (!back || !(*back == *spec))
            __builtin_trap();
    }
    return 0;
}
