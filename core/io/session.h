#pragma once

#include "engine/layerfilter.h"
#include "model/config.h"

#include <optional>
#include <string>
#include <vector>

namespace rfx {

/// A saved session (.rfx.json): the configuration, the devices and the view, with a schema version.
struct Session {
    Config config;
    std::vector<std::string> devices;
    bool overlay = false;
    LayerFilter filter;
    std::string tableDevice; ///< the device whose layers the table shows ("" = the first)
    friend bool operator==(const Session&, const Session&) = default;
};

inline constexpr int kSessionSchema = 1;
inline constexpr std::size_t kMaxSessionBytes = 1 << 20;

std::string sessionToJson(const Session& session);

/// Reads a session document; nothing and `error` ("field: reason") when it is not one.
std::optional<Session> sessionFromJson(const std::string& json, std::string& error);

} // namespace rfx
