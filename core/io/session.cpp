#include "io/session.h"
#include "base/json_error.h"

#include "io/json_config.h"

#include "base/version.h"
#include "io/llm_json.h"
#include "io/options.h"

#include <nlohmann/json.hpp>

#include <cmath>

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
            { { "overlay", s.view.overlay }, { "convolutions_only", s.view.filter.convolutionsOnly },
                { "top_n", s.view.filter.topN }, { "table_device", s.tableDevice },
                { "shared_axes", s.view.sharedAxes }, { "power_ticks", s.view.powerTicks },
                { "layer_labels", s.view.layerLabels }, { "selected_layer", s.selectedLayer } } },
    };
    nlohmann::ordered_json out = doc;
    if (!s.measurements.empty())
        out["measurements"] = s.measurements;
    if (!s.calibration.empty())
        out["calibration"] = { { "file", s.calibration }, { "shown", s.calibrated } };
    if (!s.modelInputs.empty()) {
        nlohmann::ordered_json models = nlohmann::ordered_json::object();
        for (const auto& [path, bound] : s.modelInputs)
            models[path] = { { "values", bound.values }, { "branches", bound.branches } };
        out["model_inputs"] = models;
    }
    if (s.llm)
        out["language_model"] = llmWorkToJson(*s.llm);
    return out.dump(2) + "\n";
}

namespace {

using json = nlohmann::json;

/// obj[key], or nothing and `error` ("view.top_n: missing").
const json* field(const json& obj, const char* key, const std::string& path, std::string& error)
{
    auto it = obj.find(key);
    if (it == obj.end()) {
        error = path + key + ": missing";
        return nullptr;
    }
    return &*it;
}

/// An optional text field into `target`; false and `error` when it is there and not text. Sessions
/// written before a field existed open with its default.
bool optionalText(const json& obj, const char* key, const std::string& path, const char* what, std::string& target,
    std::string& error)
{
    auto it = obj.find(key);
    if (it == obj.end())
        return true;
    if (!it->is_string()) {
        error = path + key + ": must be " + what;
        return false;
    }
    target = it->get<std::string>();
    return true;
}

/// The document as one JSON object of at most kMaxSessionBytes, or nothing and `error`.
std::optional<json> sessionDocument(const std::string& text, std::string& error)
{
    if (text.size() > kMaxSessionBytes) {
        error = "file is larger than 1 MiB; not a session";
        return std::nullopt;
    }
    json doc = json::parse(text, nullptr, false);
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
    return doc;
}

bool readSchema(const json& doc, std::string& error)
{
    const json* schema = field(doc, "schema", "", error);
    if (!schema)
        return false;
    if (!schema->is_number_integer()) {
        error = "schema: must be a whole number";
        return false;
    }
    if (schema->get<long long>() != kSessionSchema) {
        error = "schema: version " + std::to_string(schema->get<long long>()) + " is not supported (this version reads "
            + std::to_string(kSessionSchema) + ")";
        return false;
    }
    return true;
}

/// config_args (as roofline-cli options) and the device ids.
bool readConfigAndDevices(const json& doc, Session& s, std::string& error)
{
    const json* args = field(doc, "config_args", "", error);
    if (!args)
        return false;
    const auto config = configFromJsonArgs(*args, error);
    if (!config)
        return false;
    s.config = *config;
    const json* devices = field(doc, "devices", "", error);
    if (!devices)
        return false;
    if (!devices->is_array()) {
        error = "devices: must be a list of device ids";
        return false;
    }
    for (const json& v : *devices) {
        if (!v.is_string() || v.get<std::string>().empty()) {
            error = "devices: every entry must be a device id";
            return false;
        }
        s.devices.push_back(v.get<std::string>());
    }
    return true;
}

/// "view": the view settings, the table's device and the selected row.
bool readView(const json& doc, Session& s, std::string& error)
{
    const json* view = field(doc, "view", "", error);
    if (!view)
        return false;
    if (!view->is_object()) {
        error = "view: must be an object";
        return false;
    }
    struct Flag {
        const char* key;
        bool* target;
    };
    for (Flag f :
        { Flag { "overlay", &s.view.overlay }, Flag { "convolutions_only", &s.view.filter.convolutionsOnly } }) {
        const json* v = field(*view, f.key, "view.", error);
        if (!v)
            return false;
        if (!v->is_boolean()) {
            error = std::string("view.") + f.key + ": must be true or false";
            return false;
        }
        *f.target = v->get<bool>();
    }
    const json* top = field(*view, "top_n", "view.", error);
    if (!top)
        return false;
    if (!top->is_number_integer() || top->get<long long>() < 0 || top->get<long long>() > 9999) {
        error = "view.top_n: must be a whole number from 0 to 9999";
        return false;
    }
    s.view.filter.topN = int(top->get<long long>());
    auto optionalFlag = [&](const char* key, bool& target) {
        auto it = view->find(key);
        if (it == view->end())
            return true;
        if (!it->is_boolean()) {
            error = std::string("view.") + key + ": must be true or false";
            return false;
        }
        target = it->get<bool>();
        return true;
    };
    if (!optionalText(*view, "table_device", "view.", "a device id", s.tableDevice, error)
        || !optionalText(*view, "selected_layer", "view.", "a layer's name", s.selectedLayer, error)
        || !optionalFlag("shared_axes", s.view.sharedAxes) || !optionalFlag("power_ticks", s.view.powerTicks))
        return false;
    if (auto it = view->find("layer_labels"); it != view->end()) {
        if (!it->is_number() || !(it->get<double>() >= 0 && it->get<double>() <= 1)) {
            error = "view.layer_labels: must be a share of the time from 0 to 1 (0: no labels)";
            return false;
        }
        s.view.layerLabels = it->get<double>();
    }
    return true;
}

/// "calibration": its file and whether its times are shown (optional).
bool readCalibration(const json& doc, Session& s, std::string& error)
{
    auto it = doc.find("calibration");
    if (it == doc.end())
        return true;
    if (!it->is_object()) {
        error = "calibration: must be an object with \"file\" and \"shown\"";
        return false;
    }
    const json* file = field(*it, "file", "calibration.", error);
    const json* shown = file ? field(*it, "shown", "calibration.", error) : nullptr;
    if (!shown)
        return false;
    if (!file->is_string() || file->get<std::string>().empty()) {
        error = "calibration.file: must be the path of a calibration file";
        return false;
    }
    if (!shown->is_boolean()) {
        error = "calibration.shown: must be true or false";
        return false;
    }
    s.calibration = file->get<std::string>();
    s.calibrated = shown->get<bool>();
    return true;
}

/// One model file's bound inputs: "values" (input names and numbers) and "branches" (If nodes).
bool readBoundInputs(const json& bound, const std::string& at, BoundInputs& b, std::string& error)
{
    if (!bound.is_object()) {
        error = at + ": must be an object with \"values\" and \"branches\"";
        return false;
    }
    if (auto v = bound.find("values"); v != bound.end()) {
        if (!v->is_object()) {
            error = at + ".values: must be an object of input names and numbers";
            return false;
        }
        for (const auto& [name, value] : v->items()) {
            if (!value.is_number() || !std::isfinite(value.get<double>())) {
                error = at + ".values." + name + ": must be a number";
                return false;
            }
            b.values[name] = value.get<double>();
        }
    }
    if (auto v = bound.find("branches"); v != bound.end()) {
        if (!v->is_object()) {
            error = at + ".branches: must be an object of If nodes and true (then) or false (else)";
            return false;
        }
        for (const auto& [name, value] : v->items()) {
            if (!value.is_boolean()) {
                error = at + ".branches." + name + ": must be true (then) or false (else)";
                return false;
            }
            b.branches[name] = value.get<bool>();
        }
    }
    return true;
}

/// "model_inputs": what was bound for each model file shown in this work (optional).
bool readModelInputs(const json& doc, Session& s, std::string& error)
{
    auto it = doc.find("model_inputs");
    if (it == doc.end())
        return true;
    if (!it->is_object()) {
        error = "model_inputs: must be an object of model files, each with \"values\" and \"branches\"";
        return false;
    }
    for (const auto& [path, bound] : it->items()) {
        BoundInputs b;
        if (!readBoundInputs(bound, "model_inputs." + path, b, error))
            return false;
        s.modelInputs[path] = std::move(b);
    }
    return true;
}

} // namespace

std::optional<Session> sessionFromJson(const std::string& text, std::string& error)
{
    const std::optional<json> doc = sessionDocument(text, error);
    if (!doc || !readSchema(*doc, error))
        return std::nullopt;
    Session s;
    if (!readConfigAndDevices(*doc, s, error) || !readView(*doc, s, error))
        return std::nullopt;
    if (!optionalText(*doc, "measurements", "", "the path of a measurement file", s.measurements, error))
        return std::nullopt;
    if (!readCalibration(*doc, s, error) || !readModelInputs(*doc, s, error))
        return std::nullopt;
    if (auto it = doc->find("language_model"); it != doc->end()) {
        s.llm = llmWorkFromJson(*it, error);
        if (!s.llm)
            return std::nullopt;
    }
    return s;
}

} // namespace rfx
