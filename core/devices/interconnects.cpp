#include "devices/interconnects.h"

#include "devices/interconnects_data.h"

#include "base/format.h"

#include <nlohmann/json.hpp>

namespace rfx {

const std::vector<Interconnect>& interconnects()
{
    // Parsed once from the compiled-in resources/interconnects.json; tst_energy checks every entry.
    static const std::vector<Interconnect> links = [] {
        std::vector<Interconnect> out;
        const nlohmann::json doc = nlohmann::json::parse(kInterconnectsJson);
        for (const auto& l : doc.at("interconnects"))
            out.push_back({ l.at("id").get<std::string>(), l.at("name").get<std::string>(),
                l.at("bandwidth_gbs").get<double>() * 1e9, l.at("source").get<std::string>() });
        return out;
    }();
    return links;
}

std::string linkDescription(const Interconnect& link)
{
    return link.name + ", " + formatSI(link.bandwidth, "B/s") + " per direction";
}

const Interconnect* findInterconnect(std::string_view id)
{
    for (const Interconnect& l : interconnects())
        if (l.id == id)
            return &l;
    return nullptr;
}

std::optional<std::string> interconnectError(std::string_view id)
{
    if (findInterconnect(id))
        return std::nullopt;
    std::string known;
    for (const Interconnect& l : interconnects())
        known += (known.empty() ? "" : ", ") + l.id;
    return "unknown interconnect '" + std::string(id) + "' (available: " + known + ")";
}

} // namespace rfx
