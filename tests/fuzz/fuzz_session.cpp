// Session files: a session or an error message; a session read back writes itself identically.
#include "io/session.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    std::string error;
    const auto session = rfx::sessionFromJson(std::string(reinterpret_cast<const char*>(data), size), error);
    if (!session && error.empty())
        __builtin_trap();
    if (session) {
        std::string again;
        const auto back = rfx::sessionFromJson(rfx::sessionToJson(*session), again);
        if (!back || !(*back == *session))
            __builtin_trap(); // what we write we must read back unchanged
    }
    return 0;
}
