#include "devices/device_loader.h"
#include "base/json_error.h"

#include "devices/interconnects.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>

namespace rfx {

namespace {

using json = nlohmann::json;

std::string describe(const json& v)
{
    switch (v.type()) {
    case json::value_t::null:
        return "null";
    case json::value_t::boolean:
        return "a boolean";
    case json::value_t::string:
        return "a string (\"" + v.get<std::string>().substr(0, 40) + "\")";
    case json::value_t::array:
        return "an array";
    case json::value_t::object:
        return "an object";
    default:
        return "a number";
    }
}

std::string formatNumber(double v)
{
    std::ostringstream s;
    s << v;
    return s.str();
}

class Validator {
public:
    explicit Validator(std::string file)
        : m_file(std::move(file))
    {
    }

    void error(const std::string& field, const std::string& message)
    {
        m_diagnostics.push_back({ Severity::Error, m_file, field, message });
    }
    void warning(const std::string& field, const std::string& message)
    {
        m_diagnostics.push_back({ Severity::Warning, m_file, field, message });
    }

    const json* get(const json& obj, const std::string& key, const std::string& field, bool required)
    {
        auto it = obj.find(key);
        if (it == obj.end()) {
            if (required)
                error(field, "required field is missing");
            return nullptr;
        }
        return &*it;
    }

    enum class Sign { Positive, NonNegative };

    // A finite number; `scale` converts the file's unit into SI.
    std::optional<double> number(const json& obj, const std::string& key, double scale, bool required,
        Sign sign = Sign::Positive, const std::string& prefix = {})
    {
        const std::string field = prefix + key;
        const json* v = get(obj, key, field, required);
        if (!v)
            return std::nullopt;
        if (!v->is_number()) {
            error(field, "must be a number, got " + describe(*v));
            return std::nullopt;
        }
        const double x = v->get<double>();
        if (!std::isfinite(x)) {
            error(field, "must be a finite number, got " + formatNumber(x));
            return std::nullopt;
        }
        if (sign == Sign::Positive && x <= 0) {
            error(field, "must be a positive number, got " + formatNumber(x));
            return std::nullopt;
        }
        if (sign == Sign::NonNegative && x < 0) {
            error(field, "must not be negative, got " + formatNumber(x));
            return std::nullopt;
        }
        return x * scale;
    }

    std::optional<std::string> string(const json& obj, const std::string& key, bool required)
    {
        const json* v = get(obj, key, key, required);
        if (!v)
            return std::nullopt;
        if (!v->is_string()) {
            error(key, "must be a string, got " + describe(*v));
            return std::nullopt;
        }
        auto s = v->get<std::string>();
        if (required && s.empty()) {
            error(key, "must not be empty");
            return std::nullopt;
        }
        return s;
    }

    std::vector<Diagnostic> take() { return std::move(m_diagnostics); }
    bool failed() const { return hasErrors(m_diagnostics); }

private:
    std::string m_file;
    std::vector<Diagnostic> m_diagnostics;
};

constexpr std::string_view kKnownFields[] = { "schema", "id", "name", "kind", "vendor", "architecture", "year", "cores",
    "peak", "dram_gbs", "memory_gib", "memory_type", "l1_kib", "l2_mib", "l3_mib", "l1_gbs", "l2_gbs", "l3_gbs",
    "tdp_w", "idle_w", "base_clock_mhz", "boost_clock_mhz", "launch_overhead_us", "scale_up_link", "scale_up_gpus",
    "price_per_hour_usd", "price_source", "sources", "notes" };

std::string knownPrecisionList()
{
    std::string s;
    for (std::string_view k : kPrecisionKeys) {
        if (!s.empty())
            s += ", ";
        s += k;
    }
    return s;
}

} // namespace

namespace {
DeviceLoad parseDeviceUnguarded(std::string_view text, const std::string& file);
}

DeviceLoad parseDevice(std::string_view text, const std::string& file)
{
    try {
        return parseDeviceUnguarded(text, file);
    } catch (const std::exception& e) {
        // Nothing may throw past the loader's boundary: a surprise becomes a diagnostic.
        DeviceLoad result;
        result.diagnostics.push_back({ Severity::Error, file, {}, std::string("cannot read device: ") + e.what() });
        return result;
    }
}

namespace {

/// schema, id, name, kind, vendor, architecture, notes, year, cores (unknown fields warned of).
void readIdentity(const json& doc, Validator& v, Device& d)
{
    for (const auto& [key, value] : doc.items()) {
        if (std::find(std::begin(kKnownFields), std::end(kKnownFields), key) == std::end(kKnownFields))
            v.warning(key, "unknown field, ignored");
    }
    if (auto schema = v.number(doc, "schema", 1, false); schema && *schema != 1)
        v.error("schema", "unsupported schema version " + formatNumber(*schema) + " (this version reads 1)");

    if (auto id = v.string(doc, "id", true)) {
        static const std::regex idPattern("[a-z0-9]+(-[a-z0-9]+)*");
        if (!std::regex_match(*id, idPattern))
            v.error("id", "must be lower-case letters, digits and single dashes, got \"" + *id + "\"");
        d.id = *id;
    }
    if (auto name = v.string(doc, "name", true))
        d.name = *name;
    if (auto kind = v.string(doc, "kind", true)) {
        if (*kind != "gpu" && *kind != "cpu")
            v.error("kind", "must be \"gpu\" or \"cpu\", got \"" + *kind + "\"");
        d.kind = *kind;
    }
    d.vendor = v.string(doc, "vendor", false).value_or("");
    d.architecture = v.string(doc, "architecture", false).value_or("");
    d.notes = v.string(doc, "notes", false).value_or("");
    v.number(doc, "year", 1, false);
    d.cores = int(std::min(1e7, v.number(doc, "cores", 1, false).value_or(0))); // a count: no overflow from 1e300
    v.string(doc, "memory_type", false);
}

/// The ceilings: <precision>_tflops or _tops, FP32 required.
void readPeak(const json& doc, Validator& v, Device& d)
{
    if (const json* peak = v.get(doc, "peak", "peak", true)) {
        if (!peak->is_object()) {
            v.error("peak", "must be an object of ceilings such as {\"fp32_tflops\": 7.18}, got " + describe(*peak));
        } else {
            for (const auto& [key, value] : peak->items()) {
                std::string precision;
                for (std::string_view suffix : { std::string_view("_tflops"), std::string_view("_tops") }) {
                    if (key.size() > suffix.size() && std::string_view(key).ends_with(suffix))
                        precision = key.substr(0, key.size() - suffix.size());
                }
                const bool known = std::find(std::begin(kPrecisionKeys), std::end(kPrecisionKeys), precision)
                    != std::end(kPrecisionKeys);
                if (!known) {
                    v.error("peak." + key,
                        "unknown precision \"" + (precision.empty() ? key : precision)
                            + "\"; use <precision>_tflops or <precision>_tops with a precision among: "
                            + knownPrecisionList());
                    continue;
                }
                if (auto x = v.number(*peak, key, 1e12, true, Validator::Sign::Positive, "peak."))
                    d.peak[precision] = *x;
            }
            if (!peak->contains("fp32_tflops") && !v.failed())
                v.error("peak.fp32_tflops", "required field is missing (every device needs an FP32 ceiling)");
        }
    }
}

/// DRAM and the caches, each level nearer the cores at least as fast as the one behind it.
void readMemory(const json& doc, Validator& v, Device& d)
{
    d.dramBandwidth = v.number(doc, "dram_gbs", 1e9, true).value_or(0);
    d.memoryBytes = v.number(doc, "memory_gib", 1024.0 * 1024 * 1024, true).value_or(0);
    d.l1Bytes = v.number(doc, "l1_kib", 1024.0, false).value_or(0);
    d.l2Bytes = v.number(doc, "l2_mib", 1024.0 * 1024, true).value_or(0);
    d.l3Bytes = v.number(doc, "l3_mib", 1024.0 * 1024, false, Validator::Sign::NonNegative).value_or(0);
    d.l1Bandwidth = v.number(doc, "l1_gbs", 1e9, false).value_or(0);
    d.l2Bandwidth = v.number(doc, "l2_gbs", 1e9, false).value_or(0);
    d.l3Bandwidth = v.number(doc, "l3_gbs", 1e9, false).value_or(0);
    if (d.l3Bandwidth > 0 && !(d.l3Bytes > 0))
        v.error("l3_gbs", "is given but l3_mib is not: give the L3's size in MiB too, or remove l3_gbs");
    if (d.l3Bandwidth > 0 && d.dramBandwidth > 0 && d.l3Bandwidth < d.dramBandwidth)
        v.error("l3_gbs",
            "must be at least dram_gbs (" + formatNumber(d.dramBandwidth / 1e9) + " GB/s), got "
                + formatNumber(d.l3Bandwidth / 1e9) + "; is it a per-core or TB/s figure?");
    if (d.l3Bandwidth > 0 && d.l2Bandwidth > 0 && d.l2Bandwidth < d.l3Bandwidth)
        v.error("l2_gbs",
            "must be at least l3_gbs (" + formatNumber(d.l3Bandwidth / 1e9) + " GB/s), got "
                + formatNumber(d.l2Bandwidth / 1e9) + "; give the aggregate over all cores, in GB/s");
    // Each level nearer the cores is at least as fast as the one behind it; otherwise a unit slipped
    // (TB/s written as GB/s, or a per-SM figure given for the whole chip).
    if (d.l2Bandwidth > 0 && d.dramBandwidth > 0 && d.l2Bandwidth < d.dramBandwidth)
        v.error("l2_gbs",
            "must be at least dram_gbs (" + formatNumber(d.dramBandwidth / 1e9) + " GB/s), got "
                + formatNumber(d.l2Bandwidth / 1e9) + "; is it a per-slice or TB/s figure?");
    if (d.l1Bandwidth > 0 && d.l1Bandwidth < std::max(d.l2Bandwidth, d.dramBandwidth))
        v.error("l1_gbs",
            "must be at least " + std::string(d.l2Bandwidth > 0 ? "l2_gbs" : "dram_gbs") + " ("
                + formatNumber(std::max(d.l2Bandwidth, d.dramBandwidth) / 1e9) + " GB/s), got "
                + formatNumber(d.l1Bandwidth / 1e9) + "; give the aggregate over all SMs or cores, in GB/s");
}

/// Board power, idle power, clocks and the launch overhead.
void readPowerAndClocks(const json& doc, Validator& v, Device& d)
{
    d.tdpWatts = v.number(doc, "tdp_w", 1, true).value_or(0);
    d.idleWatts = v.number(doc, "idle_w", 1, true, Validator::Sign::NonNegative).value_or(0);
    d.baseClockHz = v.number(doc, "base_clock_mhz", 1e6, false).value_or(0);
    d.boostClockHz = v.number(doc, "boost_clock_mhz", 1e6, true).value_or(0);
    d.launchOverhead = v.number(doc, "launch_overhead_us", 1e-6, false, Validator::Sign::NonNegative).value_or(0);
    if (d.tdpWatts > 0 && d.idleWatts >= d.tdpWatts)
        v.error("idle_w", "must be below tdp_w (" + formatNumber(d.tdpWatts) + " W), got " + formatNumber(d.idleWatts));
    if (d.baseClockHz > 0 && d.boostClockHz > 0 && d.baseClockHz > d.boostClockHz)
        v.error("base_clock_mhz", "must not exceed boost_clock_mhz");
}

/// The scale-up link and the GPUs it joins, and a price with its source.
void readLinkAndPrice(const json& doc, Validator& v, Device& d)
{
    // The scale-up link and how many GPUs it joins: both or neither.
    d.scaleUpLink = v.string(doc, "scale_up_link", false).value_or("");
    const std::optional<double> gpus = v.number(doc, "scale_up_gpus", 1, false);
    d.scaleUpGpus = gpus ? int(std::min(1e6, *gpus)) : 0;
    if (!d.scaleUpLink.empty())
        if (auto e = interconnectError(d.scaleUpLink))
            v.error("scale_up_link", *e);
    if (doc.contains("scale_up_link") != doc.contains("scale_up_gpus") && !v.failed())
        v.error(doc.contains("scale_up_link") ? "scale_up_gpus" : "scale_up_link",
            "give scale_up_link and scale_up_gpus together: the link that joins the GPUs and how many it joins");
    else if (gpus && (*gpus < 1 || *gpus > 1024 || *gpus != std::floor(*gpus)))
        v.error("scale_up_gpus",
            "must be a whole number from 1 to 1,024 (the GPUs the link joins: 8 on an HGX board, 2 over a bridge, 72 "
            "in an NVL72 rack)");
    // A price, where given, says where and when it was quoted: prices move, and a plan's cost is as old as they are.
    d.pricePerHour = v.number(doc, "price_per_hour_usd", 1, false).value_or(0);
    d.priceSource = v.string(doc, "price_source", false).value_or("");
    if (d.pricePerHour > 1000)
        v.error("price_per_hour_usd",
            "must be at most 1,000 (US dollars for one GPU or socket an hour), got " + formatNumber(d.pricePerHour));
    else if (doc.contains("price_per_hour_usd") && d.priceSource.empty() && !v.failed())
        v.error("price_source",
            "give where and when the price was quoted (\"Lambda on-demand, 2026-11\") with price_per_hour_usd");
}

/// Where the figures come from: a non-empty list of non-empty strings.
void readSources(const json& doc, Validator& v, Device& d)
{
    if (const json* sources = v.get(doc, "sources", "sources", true)) {
        if (!sources->is_array() || sources->empty()) {
            v.error("sources", "must be a non-empty list of the pages the figures come from");
        } else {
            for (size_t i = 0; i < sources->size(); ++i) {
                const json& s = (*sources)[i];
                if (!s.is_string() || s.get<std::string>().empty())
                    v.error("sources[" + std::to_string(i) + "]", "must be a non-empty string, got " + describe(s));
                else
                    d.sources.push_back(s.get<std::string>());
            }
        }
    }
}

DeviceLoad parseDeviceUnguarded(std::string_view text, const std::string& file)
{
    DeviceLoad result;
    if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) {
        result.diagnostics.push_back({ Severity::Error, file, {}, "file is empty; expected a JSON object" });
        return result;
    }
    json doc = json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
    if (doc.is_discarded()) {
        // Parse again with exceptions to get the position of the error for the message.
        std::string why = "not valid JSON";
        try {
            const json again = json::parse(text.begin(), text.end());
            (void)again;
        } catch (const json::exception& e) { // parse_error, or out_of_range for a number like 1e999
            why += ": ";
            why += describeJsonError(e);
        }
        result.diagnostics.push_back({ Severity::Error, file, {}, why });
        return result;
    }
    if (!doc.is_object()) {
        result.diagnostics.push_back({ Severity::Error, file, {}, "expected a JSON object, got " + describe(doc) });
        return result;
    }

    Validator v(file);
    Device d;
    d.file = file;

    readIdentity(doc, v, d);
    readPeak(doc, v, d);
    readMemory(doc, v, d);
    readPowerAndClocks(doc, v, d);
    readLinkAndPrice(doc, v, d);
    readSources(doc, v, d);

    const bool failed = v.failed();
    result.diagnostics = v.take();
    if (!failed)
        result.device = std::move(d);
    return result;
}
} // namespace

} // namespace rfx
