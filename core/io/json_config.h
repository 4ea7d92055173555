#pragma once

#include "model/config.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace rfx {

/// A configuration stored in JSON as its command-line argument list ("config_args" of sessions and
/// figure sidecars): a list of strings, parsed and validated. Errors start with "config_args: ".
std::optional<Config> configFromJsonArgs(const nlohmann::json& args, std::string& error);

} // namespace rfx
