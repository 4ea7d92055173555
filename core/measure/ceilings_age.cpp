#include "measure/ceilings_age.h"

#include "base/format.h"
#include "devices/device.h"

#include <cmath>

namespace rfx {

std::optional<std::string> ceilingsOutOfDate(const Device* mine, double clockNow, const std::string& id)
{
    if (!mine)
        return "no device '" + id + "' yet: measuring this CPU's ceilings first";
    if (clockNow > 0 && mine->boostClockHz > 0 && std::abs(clockNow / mine->boostClockHz - 1) > kClockDrift)
        return "the clock under load is " + formatSI(clockNow, "Hz") + ", " + id + "'s ceilings were measured at "
            + formatSI(mine->boostClockHz, "Hz") + ": measuring them again";
    return std::nullopt;
}

} // namespace rfx
