#include "io/json_config.h"

#include "io/options.h"

namespace rfx {

std::optional<Config> configFromJsonArgs(const nlohmann::json& args, std::string& error)
{
    if (!args.is_array()) {
        error = "config_args: must be a list of command-line arguments";
        return std::nullopt;
    }
    std::vector<std::string> list;
    for (const auto& v : args) {
        if (!v.is_string()) {
            error = "config_args: every entry must be a string";
            return std::nullopt;
        }
        list.push_back(v.get<std::string>());
    }
    return configFromArgList(list, error);
}

} // namespace rfx
