#pragma once

#include <optional>
#include <string>

namespace rfx {

struct Device;

/// The clock under load may drift this far from the one a machine's ceilings were measured at before
/// they are measured again (a VM's host moves it by 10 % in an hour; every ceiling but DRAM's follows it).
inline constexpr double kClockDrift = 0.03;

/// Why this machine's ceilings must be measured (again) before a network's rows are held against them,
/// in words, or nothing: no device `id` yet (`mine` null), or `clockNow` (the clock under load, Hz; 0:
/// not known) more than kClockDrift from the clock they were measured at (a bound from another clock is
/// no bound). The one rule of `roofline-cli measure --network` and the window's Measure this network.
std::optional<std::string> ceilingsOutOfDate(
    const Device* mine, double clockNow, const std::string& id = "this-machine");

} // namespace rfx
