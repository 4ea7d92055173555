// Calibration files: the fit as JSON, read back with every field checked (file, field, reason), and the
// fit as a table for people.
#include "io/calibration_file.h"

#include "base/format.h"
#include "base/json_error.h"
#include "base/version.h"
#include "io/options.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace rfx {

namespace {

using ojson = nlohmann::ordered_json;
using json = nlohmann::json;

struct Bad {
    std::string field, why;
};

const json& member(const json& obj, const std::string& key, const std::string& path)
{
    auto it = obj.find(key);
    if (it == obj.end())
        throw Bad { path + key, "missing" };
    return *it;
}

std::string text(const json& obj, const std::string& key, const std::string& path, bool required = true)
{
    auto it = obj.find(key);
    if (it == obj.end()) {
        if (required)
            throw Bad { path + key, "missing" };
        return {};
    }
    if (!it->is_string())
        throw Bad { path + key, "must be text" };
    return it->get<std::string>();
}

double number(const json& obj, const std::string& key, const std::string& path, double lo, double hi, bool loOpen)
{
    const json& v = member(obj, key, path);
    if (!v.is_number())
        throw Bad { path + key, "must be a number" };
    const double d = v.get<double>();
    if (!std::isfinite(d) || d < lo || (loOpen && d == lo) || d > hi) {
        char range[96];
        std::snprintf(range, sizeof range, "must be a number %s %g and at most %g", loOpen ? "above" : "from", lo, hi);
        throw Bad { path + key, std::string(range) + ", got " + v.dump() };
    }
    return d;
}

} // namespace

std::string calibrationToJson(const Calibration& c)
{
    ojson groups = ojson::array();
    for (const CalibrationGroup& g : c.groups)
        groups.push_back(ojson {
            { "class", g.opClass },
            { "bound", boundName(g.bound) },
            { "overhead_s", g.overhead },
            { "efficiency", g.efficiency },
            { "samples", g.samples },
            { "rms_relative_error", g.rmsError },
            { "r2_log_time", g.r2 },
            { "min_bound_s", g.samples > 0 ? g.minBound : 0 },
            { "max_bound_s", g.samples > 0 ? g.maxBound : 0 },
            { "min_flops", g.samples > 0 ? g.minFlops : 0 },
            { "max_flops", g.samples > 0 ? g.maxFlops : 0 },
            { "min_bytes", g.samples > 0 ? g.minBytes : 0 },
            { "max_bytes", g.samples > 0 ? g.maxBytes : 0 },
            { "overhead_from", overheadSourceName(g.overheadSource) },
            { "overhead_rows", g.overheadRows },
        });
    for (size_t i = 0; i < c.groups.size(); ++i) { // written where set: files without them read as before
        if (c.groups[i].arithmeticEfficiency > 0)
            groups[i]["arithmetic_efficiency"] = c.groups[i].arithmeticEfficiency;
        if (!c.groups[i].byRows.empty()) {
            ojson points = ojson::array();
            for (const RowsPoint& p : c.groups[i].byRows)
                points.push_back(
                    ojson { { "rows", p.rows }, { "efficiency", p.efficiency }, { "samples", p.samples } });
            groups[i]["by_rows"] = points;
        }
    }
    const ojson doc {
        { "schema", kCalibrationSchema },
        { "kind", "roofline-explorer calibration" },
        { "model",
            "measured_s = runs x overhead_s + bound_s / efficiency (+ flops / peak / arithmetic_efficiency where a "
            "memory-bound fit gives it), per operator class and bound side; runs: a row's kernel runs (a language "
            "model's block row: its blocks); class 'all' is a "
            "side pooled over every class, used where neither a class nor its parent (conv for conv1x1 and depthwise, "
            "elementwise for batch_norm, matrix for attention) has a fit of its own. overhead_from: 'rows' measured on "
            "overhead_rows rows "
            "with a bound under 20 us, 'parent' lent by the parent class's, "
            "'none' (no row small enough), 'joint' (every row small: fitted with the efficiency; a row more than twice "
            "larger takes the parent's or the pooled fit). min_/max_flops "
            "and _bytes: the sizes fitted on; a row more than twice outside them is extrapolated. by_rows "
            "(memory-bound "
            "matrix): the efficiency measured at each number of rows M of the products (measure --llm's batch probes), "
            "used instead of efficiency and arithmetic_efficiency for a product of M up to twice the last, "
            "interpolated "
            "in log M" },
        { "device", c.deviceId },
        { "device_name", c.deviceName },
        { "measurements", c.measurements },
        { "fitted_on", c.fittedOn },
        { "created", c.created },
        { "generator", c.tool },
        { "groups", groups },
    };
    return doc.dump(2) + "\n";
}

CalibrationLoad parseCalibration(std::string_view textIn, const std::string& file)
{
    CalibrationLoad out;
    auto fail = [&](const std::string& field, const std::string& why) {
        out.diagnostics.push_back({ Severity::Error, file, field, why });
        return out;
    };
    if (textIn.size() > kMaxCalibrationBytes)
        return fail("", "larger than 1 MiB; not a calibration file");
    json doc;
    try {
        doc = json::parse(textIn);
    } catch (const json::exception& e) {
        return fail("", "not valid JSON: " + describeJsonError(e));
    }
    if (!doc.is_object())
        return fail("", "expected a JSON object (a calibration file from roofline-cli calibrate)");
    try {
        Calibration c;
        const json& schema = member(doc, "schema", "");
        if (!schema.is_number_integer())
            throw Bad { "schema", "must be a whole number" };
        if (schema.get<long long>() != kCalibrationSchema)
            throw Bad { "schema",
                "version " + schema.dump() + " is not supported (this version reads "
                    + std::to_string(kCalibrationSchema) + ")" };
        if (text(doc, "kind", "") != "roofline-explorer calibration")
            throw Bad { "kind", "must be \"roofline-explorer calibration\"" };
        c.deviceId = text(doc, "device", "");
        if (c.deviceId.empty())
            throw Bad { "device", "must name the device the fit is relative to" };
        c.deviceName = text(doc, "device_name", "", false);
        c.measurements = text(doc, "measurements", "", false);
        c.fittedOn = text(doc, "fitted_on", "", false);
        c.created = text(doc, "created", "", false);
        c.tool = text(doc, "generator", "", false);
        const json& groups = member(doc, "groups", "");
        if (!groups.is_array() || groups.empty())
            throw Bad { "groups", "must be a non-empty list of fits" };
        if (groups.size() > 1000)
            throw Bad { "groups", "more than 1000 fits; not a calibration file" };
        for (size_t i = 0; i < groups.size(); ++i) {
            const std::string path = "groups[" + std::to_string(i) + "].";
            const json& g = groups[i];
            if (!g.is_object())
                throw Bad { "groups[" + std::to_string(i) + "]", "must be an object" };
            CalibrationGroup f;
            f.opClass = text(g, "class", path);
            const auto& classes = calibrationClasses();
            if (f.opClass != "all" && std::find(classes.begin(), classes.end(), f.opClass) == classes.end()) {
                std::string names;
                for (const std::string& known : classes)
                    names += known + ", ";
                throw Bad { path + "class", "'" + f.opClass + "' is not a class (" + names + "or all)" };
            }
            const std::string side = text(g, "bound", path);
            if (side != "memory" && side != "compute")
                throw Bad { path + "bound", "must be \"memory\" or \"compute\", got \"" + side + "\"" };
            f.bound = side == "memory" ? Bound::Memory : Bound::Compute;
            f.overhead = number(g, "overhead_s", path, 0, 3600, false);
            f.efficiency = number(g, "efficiency", path, 0, 1e6, true);
            f.samples = int(number(g, "samples", path, 0, 1e9, false));
            f.rmsError = g.contains("rms_relative_error") ? number(g, "rms_relative_error", path, 0, 1e12, false) : 0;
            f.r2 = g.contains("r2_log_time") ? number(g, "r2_log_time", path, -1e12, 1, false) : 0;
            f.minBound = g.contains("min_bound_s") ? number(g, "min_bound_s", path, 0, 1e9, false) : 0;
            f.maxBound = g.contains("max_bound_s") ? number(g, "max_bound_s", path, 0, 1e9, false) : 0;
            // Written since issue 51; a file without them knows no size range and no overhead's source.
            f.minFlops = g.contains("min_flops") ? number(g, "min_flops", path, 0, 1e30, false) : 0;
            f.maxFlops = g.contains("max_flops") ? number(g, "max_flops", path, 0, 1e30, false) : 0;
            f.minBytes = g.contains("min_bytes") ? number(g, "min_bytes", path, 0, 1e30, false) : 0;
            f.maxBytes = g.contains("max_bytes") ? number(g, "max_bytes", path, 0, 1e30, false) : 0;
            if (f.minFlops > f.maxFlops || f.minBytes > f.maxBytes)
                throw Bad { path + (f.minFlops > f.maxFlops ? "min_flops" : "min_bytes"),
                    "is larger than its maximum" };
            f.overheadSource = f.overhead > 0 ? OverheadSource::Joint : OverheadSource::None;
            if (g.contains("overhead_from")) {
                const std::string from = text(g, "overhead_from", path);
                const auto source = overheadSourceFromName(from);
                if (!source)
                    throw Bad { path + "overhead_from", "'" + from + "' is not one of rows, parent, none, joint" };
                f.overheadSource = *source;
            }
            f.overheadRows = g.contains("overhead_rows") ? int(number(g, "overhead_rows", path, 0, 1e9, false)) : 0;
            // Written since issue 50, by memory-bound fits of classes with a compute-bound fit too.
            f.arithmeticEfficiency
                = g.contains("arithmetic_efficiency") ? number(g, "arithmetic_efficiency", path, 0, 1e6, false) : 0;
            // Written since issue 50's batch probes, by a memory-bound matrix fit that measured two Ms or more.
            if (g.contains("by_rows")) {
                const json& points = g["by_rows"];
                if (!points.is_array() || points.size() < 2 || points.size() > 64)
                    throw Bad { path + "by_rows", "must be a list of 2 to 64 points {rows, efficiency, samples}" };
                for (size_t k = 0; k < points.size(); ++k) {
                    const std::string at = path + "by_rows[" + std::to_string(k) + "].";
                    if (!points[k].is_object())
                        throw Bad { path + "by_rows[" + std::to_string(k) + "]",
                            "must be an object {rows, efficiency, samples}" };
                    RowsPoint p;
                    p.rows = number(points[k], "rows", at, 1, kMaxRowsPoint, false);
                    p.efficiency = number(points[k], "efficiency", at, 0, 1e6, true);
                    p.samples = int(number(points[k], "samples", at, 0, 1e9, false));
                    if (!f.byRows.empty() && !(p.rows > f.byRows.back().rows))
                        throw Bad { at + "rows", "must be larger than the point's before it (ascending M)" };
                    f.byRows.push_back(p);
                }
            }
            for (const CalibrationGroup& other : c.groups)
                if (other.opClass == f.opClass && other.bound == f.bound)
                    throw Bad { path + "class", "a second fit for " + f.opClass + " (" + side + "-bound)" };
            c.groups.push_back(f);
        }
        for (Bound b : { Bound::Memory, Bound::Compute })
            if (!c.groupFor("all", b))
                throw Bad { "groups",
                    std::string("no pooled fit (class \"all\") for ") + std::string(boundName(b))
                        + "-bound rows, which rows of other classes need" };
        c.file = file;
        out.calibration = std::move(c);
    } catch (const Bad& b) {
        return fail(b.field, b.why);
    } catch (const json::exception& e) { // a number out of a whole number's range, and the like
        return fail("", e.what());
    }
    return out;
}

CalibrationLoad loadCalibration(const std::filesystem::path& path)
{
    std::error_code ec;
    const auto size = std::filesystem::file_size(path, ec);
    if (ec) {
        CalibrationLoad out;
        out.diagnostics.push_back({ Severity::Error, path.string(), "", "cannot read: " + ec.message() });
        return out;
    }
    if (size > kMaxCalibrationBytes) {
        CalibrationLoad out;
        out.diagnostics.push_back({ Severity::Error, path.string(), "", "larger than 1 MiB; not a calibration file" });
        return out;
    }
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    if (!in && !in.eof()) {
        CalibrationLoad out;
        out.diagnostics.push_back({ Severity::Error, path.string(), "", "cannot read the file" });
        return out;
    }
    return parseCalibration(s.str(), path.string());
}

Calibration calibrateFrom(const Comparison& comparison, const DeviceResult& result, const Config& config,
    const std::vector<std::string>& measured, const std::string& measurementFile, const std::string& date,
    const std::vector<CalibrationSample>& probes)
{
    Calibration c = fitCalibration(calibrationSamples(comparison, result), probes);
    c.deviceId = result.device.id;
    c.deviceName = result.device.name;
    c.measurements = measurementFile;
    const bool llm = !measured.empty() && measured.front() == "--llm"; // a language model's options, not a network's
    for (const std::string& a : llm ? measured : configToArgs(config))
        c.fittedOn += (c.fittedOn.empty() ? "" : " ") + a;
    c.created = date;
    c.tool = std::string("Roofline Explorer ") + kVersion;
    return c;
}

namespace {
// "1.70 us from 6 rows", "7.9 us, conv's", "none: no row under 20 us".
std::string overheadCell(const CalibrationGroup& g)
{
    switch (g.overheadSource) {
    case OverheadSource::Rows:
        return formatTime(g.overhead) + " (" + std::to_string(g.overheadRows) + " small)";
    case OverheadSource::Parent:
        return formatTime(g.overhead) + " (parent's)";
    case OverheadSource::Joint:
        return formatTime(g.overhead) + " (joint)";
    case OverheadSource::None:
        break;
    }
    return "0 (no small row)";
}
// "0.46-3.7 GFLOP", "12 kB-38 MB": the side's measure of the rows fitted on.
std::string rangeCell(const CalibrationGroup& g)
{
    const bool flops = g.bound == Bound::Compute;
    const double lo = flops ? g.minFlops : g.minBytes, hi = flops ? g.maxFlops : g.maxBytes;
    if (!(hi > 0))
        return "-";
    return flops ? formatSI(lo, "FLOP") + " to " + formatSI(hi, "FLOP") : formatBytes(lo) + " to " + formatBytes(hi);
}
} // namespace

std::string calibrationToTable(const Calibration& c)
{
    std::ostringstream o;
    o << "calibration for " << (c.deviceName.empty() ? c.deviceId : c.deviceName + " (" + c.deviceId + ")");
    if (!c.measurements.empty())
        o << ", fitted on " << c.measurements;
    o << "\nmodel: measured = runs x overhead + bound / efficiency, per operator class and bound side"
      << (std::any_of(
              c.groups.begin(), c.groups.end(), [](const CalibrationGroup& g) { return g.arithmeticEfficiency > 0; })
                 ? "; memory-bound rows marked * also pay their arithmetic at their class's compute-bound efficiency"
                 : "")
      << "\n";
    char line[260];
    std::snprintf(line, sizeof line, "%-14s %-7s %4s %-20s %10s %9s %7s  %s\n", "class", "bound", "rows", "overhead",
        "efficiency", "fit error", "R2 log", "sizes fitted on");
    o << line;
    for (const CalibrationGroup& g : c.groups) {
        std::snprintf(line, sizeof line, "%-14s %-7s %4d %-20s %10s %9s %7s  %s\n", g.opClass.c_str(),
            (std::string(boundName(g.bound)) + (g.arithmeticEfficiency > 0 ? "*" : "")).c_str(), g.samples,
            overheadCell(g).c_str(), formatPercent(g.efficiency).c_str(),
            g.samples > 0 ? formatPercent(g.rmsError).c_str() : "borrowed",
            g.samples > 1 ? formatNumber3(g.r2).c_str() : "-", rangeCell(g).c_str());
        o << line;
    }
    for (const CalibrationGroup& g : c.groups)
        if (!g.byRows.empty()) {
            o << g.opClass << " " << boundName(g.bound)
              << "-bound, by the products' rows M (batch probes; used for M up to "
              << std::llround(2 * g.byRows.back().rows) << "):";
            for (const RowsPoint& p : g.byRows)
                o << " M " << std::llround(p.rows) << " " << formatPercent(p.efficiency)
                  << (&p == &g.byRows.back() ? "\n" : ",");
        }
    o << "efficiency: the share of the roofline bound that large rows reach (above 100 %: faster than the bound,\n"
         "as cached tensors are beside a DRAM roof); overhead: measured on the class's rows with a bound under\n"
         "20 us ('N small'), else lent by its parent class, else none; fit error: root\n"
         "mean square of the relative error on the rows fitted; sizes: FLOPs (compute-bound) or bytes moved\n"
         "(memory-bound) of those rows, a row more than twice outside them is extrapolated; a class not listed\n"
         "borrows its parent's fit (conv for conv1x1 and depthwise, elementwise for batch_norm, matrix for\n"
         "attention), else its side's 'all'\n";
    return o.str();
}

} // namespace rfx
