#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rfx {

/// A GPU-to-GPU link (resources/interconnects.json, compiled in).
struct Interconnect {
    std::string id; ///< "pcie3-x16"
    std::string name; ///< "PCIe 3.0 x16"
    double bandwidth = 0; ///< byte/s per direction between ring neighbours
    std::string source;
};
const std::vector<Interconnect>& interconnects();
const Interconnect* findInterconnect(std::string_view id);
/// "NVLink 4, 450 GB/s per direction": its name and bandwidth, as captions and reports say it.
std::string linkDescription(const Interconnect& link);
/// Nothing if `id` names a known link, else a message listing the known ones.
std::optional<std::string> interconnectError(std::string_view id);

} // namespace rfx
