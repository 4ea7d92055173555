#include "base/json_error.h"
#include "io/session.h"

#include "io/json_config.h"

#include "base/version.h"
#include "io/options.h"

#include <nlohmann/json.hpp>

namespace rfx {

std::string sessionToJson(const Session& s)
{
    nlohmann::ordered_json args = nlohmann::ordered_json::array();
    for (const std::string& a : configToArgs(s.config))
        args.push_back(a);
    const nlohmann::ordered_json doc {
        { "schema", kSessionSchema },
        { "kind", "roofline-explorer session" },
        { "generator", std::string("Roofline Explorer ") + kVersion },
        { "config_args", args },
        { "devices", s.devices },
        { "view",
            { { "overlay", s.overlay }, { "convolutions_only", s.filter.convolutionsOnly }, { "top_n", s.filter.topN },
                { "table_device", s.tableDevice } } },
    };
    return doc.dump(2) + "\n";
}

std::optional<Session> sessionFromJson(const std::string& text, std::string& error)
{
    using json = nlohmann::json;
    if (text.size() > kMaxSessionBytes) {
        error = "file is larger than 1 MiB; not a session";
        return std::nullopt;
    }
    const json doc = json::parse(text, nullptr, false);
    if (doc.is_discarded()) {
        error = "not valid JSON";
        try { // again with exceptions, for the place and the reason
            const json again = json::parse(text);
            (void)again;
        } catch (const json::exception& e) {
            error += ": " + describeJsonError(e);
        }
        return std::nullopt;
    }
    if (!doc.is_object()) {
        error = "expected a JSON object";
        return std::nullopt;
    }
    auto field = [&](const json& obj, const char* key, const std::string& path) -> const json* {
        auto it = obj.find(key);
        if (it == obj.end()) {
            error = path + key + ": missing";
            return nullptr;
        }
        return &*it;
    };
    const json* schema = field(doc, "schema", "");
    if (!schema)
        return std::nullopt;
    if (!schema->is_number_integer()) {
        error = "schema: must be a whole number";
        return std::nullopt;
    }
    if (schema->get<long long>() != kSessionSchema) {
        error = "schema: version " + std::to_string(schema->get<long long>()) + " is not supported (this version reads "
            + std::to_string(kSessionSchema) + ")";
        return std::nullopt;
    }
    Session s;
    const json* args = field(doc, "config_args", "");
    if (!args)
        return std::nullopt;
    const auto config = configFromJsonArgs(*args, error);
    if (!config)
        return std::nullopt;
    s.config = *config;
    const json* devices = field(doc, "devices", "");
    if (!devices)
        return std::nullopt;
    if (!devices->is_array()) {
        error = "devices: must be a list of device ids";
        return std::nullopt;
    }
    for (const json& v : *devices) {
        if (!v.is_string() || v.get<std::string>().empty()) {
            error = "devices: every entry must be a device id";
            return std::nullopt;
        }
        s.devices.push_back(v.get<std::string>());
    }
    const json* view = field(doc, "view", "");
    if (!view)
        return std::nullopt;
    if (!view->is_object()) {
        error = "view: must be an object";
        return std::nullopt;
    }
    struct Flag {
        const char* key;
        bool* target;
    };
    for (Flag f : { Flag { "overlay", &s.overlay }, Flag { "convolutions_only", &s.filter.convolutionsOnly } }) {
        const json* v = field(*view, f.key, "view.");
        if (!v)
            return std::nullopt;
        if (!v->is_boolean()) {
            error = std::string("view.") + f.key + ": must be true or false";
            return std::nullopt;
        }
        *f.target = v->get<bool>();
    }
    const json* top = field(*view, "top_n", "view.");
    if (!top)
        return std::nullopt;
    if (!top->is_number_integer() || top->get<long long>() < 0 || top->get<long long>() > 9999) {
        error = "view.top_n: must be a whole number from 0 to 9999";
        return std::nullopt;
    }
    s.filter.topN = int(top->get<long long>());
    if (auto it = view->find("table_device"); it != view->end()) {
        if (!it->is_string()) {
            error = "view.table_device: must be a device id";
            return std::nullopt;
        }
        s.tableDevice = it->get<std::string>();
    }
    return s;
}

} // namespace rfx
