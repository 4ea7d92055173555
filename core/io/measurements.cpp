#include "measurements.h"
#include "json_error.h"

#include "format.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <tuple>

namespace rfx {

namespace {

constexpr std::uintmax_t kMaxMeasurementBytes = 256u << 20; // traces of long runs are large; more is not a trace

std::string trim(std::string_view s)
{
    size_t a = 0, b = s.size();
    while (a < b && std::isspace(static_cast<unsigned char>(s[a])))
        ++a;
    while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1])))
        --b;
    return std::string(s.substr(a, b - a));
}

std::string lower(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return s;
}

// One RFC 4180 record from one line: quoted fields may hold commas and doubled quotes.
bool splitCsvLine(std::string_view line, std::vector<std::string>& out)
{
    out.clear();
    std::string field;
    bool quoted = false, wasQuoted = false;
    for (size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quoted) {
            if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
                field += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                field += c;
            }
        } else if (c == '"' && trim(field).empty()) {
            quoted = wasQuoted = true;
            field.clear();
        } else if (c == ',') {
            out.push_back(wasQuoted ? field : trim(field));
            field.clear();
            wasQuoted = false;
        } else {
            field += c;
        }
    }
    if (quoted)
        return false;
    out.push_back(wasQuoted ? field : trim(field));
    return true;
}

std::vector<std::string_view> lines(std::string_view text)
{
    std::vector<std::string_view> out;
    size_t start = 0;
    while (start <= text.size()) {
        size_t end = text.find('\n', start);
        if (end == std::string_view::npos)
            end = text.size();
        std::string_view l = text.substr(start, end - start);
        if (!l.empty() && l.back() == '\r')
            l.remove_suffix(1);
        out.push_back(l);
        if (end == text.size())
            break;
        start = end + 1;
    }
    return out;
}

// A finite number, "1,234.5" thousands separators allowed (ncu prints them).
std::optional<double> number(std::string s, bool thousands)
{
    if (thousands)
        s.erase(std::remove(s.begin(), s.end(), ','), s.end());
    s = trim(s);
    if (s.empty() || s.size() > 64)
        return std::nullopt;
    char* end = nullptr;
    const double v = std::strtod(s.c_str(), &end);
    if (end != s.c_str() + s.size() || !std::isfinite(v))
        return std::nullopt;
    return v;
}

std::string where(int line) { return "line " + std::to_string(line); }

// Figures beyond these are typing or unit errors, not measurements of one layer; refusing them also
// keeps every sum of them finite.
constexpr double kMaxSeconds = 1e6; // 11.6 days
constexpr double kMaxCount = 1e24; // FLOP or byte: a day at 10 EFLOP/s is 8.6e23
const char* kTooLongWhy = "is more than 1e6 s (11.6 days) for one layer; is the column in seconds?";
const char* kTooLongKernelWhy = "is more than 1e6 s (11.6 days) for one kernel";
const char* kTooManyWhy = "is more than 1e24, beyond any one layer's count; is the unit right?";

MeasurementSet parsePlain(const std::vector<std::string_view>& ls, size_t headerLine, const std::vector<std::string>& header,
    const std::string& file)
{
    MeasurementSet set;
    set.format = MeasurementFormat::PlainCsv;
    set.file = file;
    auto error = [&](int line, const std::string& field, const std::string& why) {
        set.diagnostics.push_back({ Severity::Error, file, where(line) + (field.empty() ? "" : ": " + field), why });
    };
    int layerCol = -1, timeCol = -1, flopsCol = -1, bytesCol = -1;
    for (size_t i = 0; i < header.size(); ++i) {
        const std::string h = lower(header[i]);
        int* col = h == "layer" ? &layerCol : h == "time_s" ? &timeCol : h == "flops" ? &flopsCol : h == "bytes" ? &bytesCol : nullptr;
        if (!col) {
            error(int(headerLine) + 1, header[i], "unknown column; a plain measurement file has layer,time_s[,flops,bytes]");
            return set;
        }
        if (*col >= 0) {
            error(int(headerLine) + 1, header[i], "column given twice");
            return set;
        }
        *col = int(i);
    }
    if (layerCol < 0 || timeCol < 0) {
        error(int(headerLine) + 1, layerCol < 0 ? "layer" : "time_s", "required column is missing (header: layer,time_s[,flops,bytes])");
        return set;
    }
    std::vector<std::string> f;
    for (size_t i = headerLine + 1; i < ls.size(); ++i) {
        const int line = int(i) + 1;
        const std::string t = trim(ls[i]);
        if (t.empty() || t[0] == '#')
            continue;
        if (!splitCsvLine(ls[i], f)) {
            error(line, "", "unterminated quoted field");
            continue;
        }
        if (f.size() != header.size()) {
            error(line, "", "has " + std::to_string(f.size()) + " fields, the header " + std::to_string(header.size()));
            continue;
        }
        Measurement m;
        m.line = line;
        m.name = f[size_t(layerCol)];
        if (m.name.empty())
            error(line, "layer", "must not be empty");
        const auto time = number(f[size_t(timeCol)], false);
        if (!time || *time <= 0)
            error(line, "time_s", "must be a positive number of seconds, got '" + f[size_t(timeCol)] + "'");
        else if (*time > kMaxSeconds)
            error(line, "time_s", f[size_t(timeCol)] + " " + kTooLongWhy);
        else
            m.time = *time;
        for (auto [col, target, what] : { std::tuple { flopsCol, &m.flops, "flops" }, std::tuple { bytesCol, &m.bytes, "bytes" } }) {
            if (col < 0 || f[size_t(col)].empty())
                continue;
            const auto v = number(f[size_t(col)], false);
            if (!v || *v < 0)
                error(line, what, "must be a non-negative number, got '" + f[size_t(col)] + "'");
            else if (*v > kMaxCount)
                error(line, what, f[size_t(col)] + " " + kTooManyWhy);
            else
                *target = *v;
        }
        set.rows.push_back(std::move(m));
    }
    if (set.ok() && set.rows.empty())
        error(int(headerLine) + 1, "", "no measurement rows after the header");
    return set;
}

double timeUnit(const std::string& unit)
{
    const std::string u = lower(unit);
    if (u == "nsecond" || u == "ns")
        return 1e-9;
    if (u == "usecond" || u == "us")
        return 1e-6;
    if (u == "msecond" || u == "ms")
        return 1e-3;
    if (u == "second" || u == "s")
        return 1;
    return 0;
}

double byteUnit(const std::string& unit)
{
    const std::string u = lower(unit);
    if (u == "byte")
        return 1;
    if (u == "kbyte")
        return 1e3;
    if (u == "mbyte")
        return 1e6;
    if (u == "gbyte")
        return 1e9;
    if (u == "tbyte")
        return 1e12;
    return 0;
}

MeasurementSet parseNcu(const std::vector<std::string_view>& ls, size_t headerLine, const std::vector<std::string>& header,
    const std::string& file)
{
    MeasurementSet set;
    set.format = MeasurementFormat::NsightCompute;
    set.file = file;
    auto error = [&](int line, const std::string& field, const std::string& why) {
        set.diagnostics.push_back({ Severity::Error, file, where(line) + (field.empty() ? "" : ": " + field), why });
    };
    auto column = [&](const char* name) {
        const auto it = std::find(header.begin(), header.end(), name);
        return it == header.end() ? -1 : int(it - header.begin());
    };
    const int id = column("ID"), kernel = column("Kernel Name"), metric = column("Metric Name"), unit = column("Metric Unit"),
              value = column("Metric Value");
    if (id < 0 || kernel < 0 || metric < 0 || unit < 0 || value < 0) {
        error(int(headerLine) + 1, "", "an Nsight Compute CSV needs the columns ID, Kernel Name, Metric Name, Metric Unit and "
                                       "Metric Value (ncu --csv, details page)");
        return set;
    }
    struct Kernel {
        std::string name;
        int line = 0;
        double time = -1, dram = -1, dramRead = -1, dramWrite = -1, flops = 0;
        bool anyFlops = false;
    };
    std::vector<Kernel> kernels;
    std::map<std::string, size_t> byId;
    std::vector<std::string> f;
    for (size_t i = headerLine + 1; i < ls.size(); ++i) {
        const int line = int(i) + 1;
        if (trim(ls[i]).empty())
            continue;
        if (!splitCsvLine(ls[i], f)) {
            error(line, "", "unterminated quoted field");
            continue;
        }
        if (f.size() < header.size()) {
            error(line, "", "has " + std::to_string(f.size()) + " fields, the header " + std::to_string(header.size()));
            continue;
        }
        auto [it, fresh] = byId.try_emplace(f[size_t(id)], kernels.size());
        if (fresh)
            kernels.push_back({ f[size_t(kernel)], line });
        Kernel& k = kernels[it->second];
        const std::string& name = f[size_t(metric)];
        const std::string& u = f[size_t(unit)];
        auto v = number(f[size_t(value)], true);
        static const std::string flopPrefix = "smsp__sass_thread_inst_executed_op_";
        const bool wanted = name == "gpu__time_duration.sum" || name == "dram__bytes.sum" || name == "dram__bytes_read.sum"
            || name == "dram__bytes_write.sum" || name.rfind(flopPrefix, 0) == 0;
        if (!wanted)
            continue;
        if (!v || *v < 0) {
            error(line, name, "must be a non-negative number, got '" + f[size_t(value)] + "'");
            continue;
        }
        if (name == "gpu__time_duration.sum") {
            const double s = timeUnit(u);
            if (s == 0)
                error(line, name, "unknown time unit '" + u + "' (nsecond, usecond, msecond, second)");
            else if (*v * s > kMaxSeconds)
                error(line, name, f[size_t(value)] + " " + u + " " + kTooLongKernelWhy);
            k.time = *v * s;
        } else if (name == "dram__bytes.sum" || name == "dram__bytes_read.sum" || name == "dram__bytes_write.sum") {
            const double s = byteUnit(u);
            if (s == 0)
                error(line, name, "unknown byte unit '" + u + "' (byte, Kbyte, Mbyte, Gbyte)");
            else if (*v * s > kMaxCount)
                error(line, name, f[size_t(value)] + " " + u + " " + kTooManyWhy);
            (name == "dram__bytes.sum" ? k.dram : name == "dram__bytes_read.sum" ? k.dramRead : k.dramWrite) = *v * s;
        } else if (*v > kMaxCount) {
            error(line, name, f[size_t(value)] + " " + kTooManyWhy);
        } else {
            // smsp__sass_thread_inst_executed_op_{d,f,h}{add,mul,fma}_pred_on.sum: thread instructions.
            const std::string op = name.substr(flopPrefix.size());
            for (const char* p : { "dadd", "fadd", "hadd", "dmul", "fmul", "hmul" })
                if (op.rfind(p, 0) == 0)
                    k.flops += *v, k.anyFlops = true;
            for (const char* p : { "dfma", "ffma", "hfma" })
                if (op.rfind(p, 0) == 0)
                    k.flops += 2 * *v, k.anyFlops = true;
        }
    }
    for (const Kernel& k : kernels) {
        if (k.time < 0) {
            error(k.line, k.name, "kernel has no gpu__time_duration.sum (profile with --metrics gpu__time_duration.sum,...)");
            continue;
        }
        Measurement m;
        m.name = k.name;
        m.line = k.line;
        m.time = k.time;
        m.bytes = k.dram >= 0 ? k.dram : (k.dramRead >= 0 && k.dramWrite >= 0 ? k.dramRead + k.dramWrite : -1);
        m.flops = k.anyFlops ? k.flops : -1;
        set.rows.push_back(std::move(m));
    }
    if (set.ok() && set.rows.empty())
        error(int(headerLine) + 1, "", "no kernels with a duration");
    return set;
}

// A string member of a trace event, or `otherwise` when it is missing or not a string (json::value
// would throw on a number where a string belongs).
std::string member(const nlohmann::json& e, const char* key, const char* otherwise = "")
{
    const auto it = e.find(key);
    return it != e.end() && it->is_string() ? it->get<std::string>() : std::string(otherwise);
}

MeasurementSet parseTrace(std::string_view text, const std::string& file)
{
    MeasurementSet set;
    set.format = MeasurementFormat::PyTorchTrace;
    set.file = file;
    auto error = [&](const std::string& field, const std::string& why) {
        set.diagnostics.push_back({ Severity::Error, file, field, why });
    };
    nlohmann::json doc;
    try {
        doc = nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception& e) {
        error("", "not valid JSON: " + describeJsonError(e));
        return set;
    }
    const nlohmann::json* events = doc.is_array() ? &doc : (doc.is_object() && doc.contains("traceEvents") ? &doc["traceEvents"] : nullptr);
    if (!events || !events->is_array()) {
        error("traceEvents", "a PyTorch profiler trace has a \"traceEvents\" list (prof.export_chrome_trace)");
        return set;
    }
    struct Ev {
        double ts;
        Measurement m;
    };
    // Operators (cpu_op events) by their "External id": a kernel that carries the same id was launched
    // by that operator, and its device time is counted as the operator's (per-operator device time).
    std::map<double, size_t> opIndex;
    std::vector<Ev> ops;
    for (size_t i = 0; i < events->size(); ++i) {
        const nlohmann::json& e = (*events)[i];
        if (!e.is_object() || member(e, "ph") != "X" || lower(member(e, "cat")) != "cpu_op")
            continue;
        const auto args = e.find("args");
        if (args == e.end() || !args->is_object() || !args->contains("External id") || !(*args)["External id"].is_number())
            continue;
        const auto ts = e.find("ts");
        Measurement m;
        m.name = member(e, "name", "operator");
        m.line = int(i);
        opIndex.emplace((*args)["External id"].get<double>(), ops.size());
        ops.push_back({ ts != e.end() && ts->is_number() ? ts->get<double>() : double(i), std::move(m) });
    }
    std::vector<bool> opUsed(ops.size(), false);
    std::vector<Ev> kernels;
    for (size_t i = 0; i < events->size(); ++i) {
        const nlohmann::json& e = (*events)[i];
        if (!e.is_object() || member(e, "ph") != "X" || lower(member(e, "cat")) != "kernel")
            continue;
        const std::string field = "traceEvents[" + std::to_string(i) + "]";
        const auto dur = e.find("dur");
        const auto ts = e.find("ts");
        if (dur == e.end() || !dur->is_number() || dur->get<double>() < 0 || !std::isfinite(dur->get<double>())) {
            error(field + ".dur", "a kernel event needs a non-negative duration in microseconds");
            continue;
        }
        if (dur->get<double>() * 1e-6 > kMaxSeconds) {
            error(field + ".dur", dur->dump() + " us " + kTooLongKernelWhy);
            continue;
        }
        const auto args = e.find("args");
        if (args != e.end() && args->is_object() && args->contains("External id") && (*args)["External id"].is_number()) {
            if (auto op = opIndex.find((*args)["External id"].get<double>()); op != opIndex.end()) {
                ops[op->second].m.time += dur->get<double>() * 1e-6;
                opUsed[op->second] = true;
                continue;
            }
        }
        Measurement m;
        m.name = member(e, "name", "kernel");
        m.time = dur->get<double>() * 1e-6;
        m.line = int(i);
        kernels.push_back({ ts != e.end() && ts->is_number() ? ts->get<double>() : double(i), std::move(m) });
    }
    for (size_t k = 0; k < ops.size(); ++k)
        if (opUsed[k])
            kernels.push_back(std::move(ops[k]));
    std::stable_sort(kernels.begin(), kernels.end(), [](const Ev& a, const Ev& b) { return a.ts < b.ts; });
    for (Ev& k : kernels)
        set.rows.push_back(std::move(k.m));
    if (set.ok() && set.rows.empty())
        error("traceEvents", "no GPU kernel events (\"ph\": \"X\", \"cat\": \"kernel\"); was the profiler run with "
                             "ProfilerActivity.CUDA?");
    return set;
}

} // namespace

std::string_view measurementFormatName(MeasurementFormat f)
{
    switch (f) {
    case MeasurementFormat::NsightCompute:
        return "Nsight Compute CSV";
    case MeasurementFormat::PyTorchTrace:
        return "PyTorch trace";
    case MeasurementFormat::PlainCsv:
        break;
    }
    return "plain CSV";
}

MeasurementSet parseMeasurements(std::string_view text, const std::string& file)
{
    const std::string start = trim(text.substr(0, std::min<size_t>(text.size(), 4096)));
    if (!start.empty() && (start[0] == '{' || start[0] == '['))
        return parseTrace(text, file);
    const std::vector<std::string_view> ls = lines(text);
    // The header: the first line that is neither empty nor a comment (ncu prints "==PROF==" lines first).
    size_t h = 0;
    while (h < ls.size()) {
        const std::string t = trim(ls[h]);
        if (!t.empty() && t[0] != '#' && t.rfind("==", 0) != 0)
            break;
        ++h;
    }
    MeasurementSet set;
    set.file = file;
    std::vector<std::string> header;
    if (h == ls.size() || !splitCsvLine(ls[h], header)) {
        set.diagnostics.push_back({ Severity::Error, file, "", h == ls.size() ? "file is empty" : "line " + std::to_string(h + 1) + ": unterminated quoted field" });
        return set;
    }
    if (std::find(header.begin(), header.end(), "Metric Name") != header.end())
        return parseNcu(ls, h, header, file);
    return parsePlain(ls, h, header, file);
}

MeasurementSet loadMeasurements(const std::filesystem::path& path)
{
    MeasurementSet set;
    set.file = path.string();
    std::error_code ec;
    const auto size = std::filesystem::file_size(path, ec);
    if (ec) {
        set.diagnostics.push_back({ Severity::Error, set.file, "", "cannot read: " + ec.message() });
        return set;
    }
    if (size > kMaxMeasurementBytes) {
        set.diagnostics.push_back({ Severity::Error, set.file, "", "file is " + std::to_string(size) + " bytes; at most 256 MiB" });
        return set;
    }
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    if (!in) {
        set.diagnostics.push_back({ Severity::Error, set.file, "", "cannot read" });
        return set;
    }
    return parseMeasurements(s.str(), set.file);
}

Comparison compareMeasurements(const MeasurementSet& set, const DeviceResult& r)
{
    Comparison c;
    std::map<std::string, size_t> index;
    for (size_t i = 0; i < r.layers.size(); ++i)
        index.emplace(r.layers[i].name, i);
    size_t named = 0;
    for (const Measurement& m : set.rows)
        named += index.count(m.name);
    std::vector<int> target(set.rows.size(), -1);
    if (!set.rows.empty() && 2 * named >= set.rows.size()) {
        c.mapping = "by name";
        for (size_t k = 0; k < set.rows.size(); ++k)
            if (auto it = index.find(set.rows[k].name); it != index.end())
                target[k] = int(it->second);
    } else {
        c.mapping = "by order";
        for (size_t k = 0; k < set.rows.size() && k < r.layers.size(); ++k)
            target[k] = int(k);
    }
    std::vector<int> slot(r.layers.size(), -1);
    for (size_t k = 0; k < set.rows.size(); ++k) {
        const Measurement& m = set.rows[k];
        if (target[k] < 0) {
            c.unmatched.push_back(m.name + " (" + (set.format == MeasurementFormat::PyTorchTrace ? "event " : "line ")
                + std::to_string(m.line) + ")");
            continue;
        }
        const size_t l = size_t(target[k]);
        if (slot[l] < 0) {
            slot[l] = int(c.layers.size());
            LayerComparison lc;
            lc.layer = l;
            c.layers.push_back(lc);
        }
        LayerComparison& lc = c.layers[size_t(slot[l])];
        lc.measured += m.time;
        if (m.flops >= 0)
            lc.measuredFlops = std::max(0.0, lc.measuredFlops) + m.flops;
        if (m.bytes >= 0)
            lc.measuredBytes = std::max(0.0, lc.measuredBytes) + m.bytes;
        lc.sources.push_back(m.name);
    }
    std::sort(c.layers.begin(), c.layers.end(), [](const LayerComparison& a, const LayerComparison& b) { return a.layer < b.layer; });
    for (LayerComparison& lc : c.layers) {
        lc.bound = r.layers[lc.layer].time;
        lc.efficiency = lc.measured > 0 ? lc.bound / lc.measured : 0;
        lc.error = lc.bound > 0 ? lc.measured / lc.bound - 1 : 0;
        lc.aboveRoof = lc.measured > 0 && lc.measured < lc.bound / 1.05;
        c.measuredTotal += lc.measured;
        c.boundTotal += lc.bound;
    }
    if (c.mapping == "by name")
        for (size_t i = 0; i < r.layers.size(); ++i)
            if (slot[i] < 0 && r.layers[i].time > 0)
                c.unmeasured.push_back(r.layers[i].name);
    return c;
}

std::string comparisonToTable(const Comparison& c, const DeviceResult& r, const MeasurementSet& set)
{
    std::ostringstream o;
    o << set.file << " (" << measurementFormatName(set.format) << ", " << set.rows.size() << " rows), mapped " << c.mapping
      << " onto " << r.device.name << " (" << r.device.id << ")\n";
    char line[256];
    std::snprintf(line, sizeof line, "%-24s %11s %11s %10s %9s\n", "layer", "measured", "bound", "of bound", "error");
    o << line;
    for (const LayerComparison& lc : c.layers) {
        std::string name = r.layers[lc.layer].name;
        if (name.size() > 24)
            name = name.substr(0, 23) + "~";
        std::snprintf(line, sizeof line, "%-24s %11s %11s %10s %8s%s\n", name.c_str(), formatTime(lc.measured).c_str(),
            formatTime(lc.bound).c_str(), formatPercent(lc.efficiency).c_str(),
            ((lc.error >= 0 ? "+" : "-") + formatPercent(std::abs(lc.error))).c_str(),
            lc.aboveRoof ? "  ABOVE THE ROOF: check units and the FLOP convention" : "");
        o << line;
    }
    o << "total " << formatTime(c.measuredTotal) << " measured against a bound of " << formatTime(c.boundTotal) << ": "
      << formatPercent(c.measuredTotal > 0 ? c.boundTotal / c.measuredTotal : 0) << " of the bound reached\n";
    if (!c.unmatched.empty()) {
        o << c.unmatched.size() << " measured row(s) did not map:";
        for (size_t i = 0; i < c.unmatched.size() && i < 10; ++i)
            o << (i ? ", " : " ") << c.unmatched[i];
        o << (c.unmatched.size() > 10 ? ", ..." : "") << "\n";
    }
    if (!c.unmeasured.empty())
        o << c.unmeasured.size() << " model row(s) without a measurement\n";
    return o.str();
}

std::string comparisonToCsv(const Comparison& c, const DeviceResult& r)
{
    auto num = [](double v) {
        std::ostringstream s;
        s.precision(17);
        s << v;
        return s.str();
    };
    auto quote = [](const std::string& s) {
        if (s.find_first_of(",\"\n") == std::string::npos)
            return s;
        std::string q = "\"";
        for (char ch : s)
            q += ch == '"' ? std::string("\"\"") : std::string(1, ch);
        return q + "\"";
    };
    std::string s = "layer,measured_s,bound_s,efficiency,error,above_roof,measured_flops,measured_bytes,sources\n";
    for (const LayerComparison& lc : c.layers) {
        std::string sources;
        for (const std::string& src : lc.sources)
            sources += (sources.empty() ? "" : ";") + src;
        s += quote(r.layers[lc.layer].name) + ',' + num(lc.measured) + ',' + num(lc.bound) + ',' + num(lc.efficiency) + ','
            + num(lc.error) + ',' + (lc.aboveRoof ? "true" : "false") + ',' + (lc.measuredFlops >= 0 ? num(lc.measuredFlops) : "")
            + ',' + (lc.measuredBytes >= 0 ? num(lc.measuredBytes) : "") + ',' + quote(sources) + '\n';
    }
    return s;
}

} // namespace rfx
