// The measurement importers: plain CSV, Nsight Compute's --csv details page, PyTorch profiler
// traces; the format is recognised from the content.
#include "io/measurements.h"

#include "base/json_error.h"
#include "io/csv.h"
#include "io/measurement_trace.h"

#include "base/format.h"

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

using csv::lines;
using csv::lower;
using csv::number;
using csv::splitCsvLine;
using csv::trim;

namespace {

constexpr std::uintmax_t kMaxMeasurementBytes = 256u << 20; // traces of long runs are large; more is not a trace

std::string where(int line) { return "line " + std::to_string(line); }

// Figures beyond these are typing or unit errors, not measurements of one layer; refusing them also
// keeps every sum of them finite.
constexpr double kMaxCount = 1e24; // FLOP or byte: a day at 10 EFLOP/s is 8.6e23
const char* kTooLongWhy = "is more than 1e6 s (11.6 days) for one layer; is the column in seconds?";
const char* kTooManyWhy = "is more than 1e24, beyond any one layer's count; is the unit right?";

MeasurementSet parsePlain(const std::vector<std::string_view>& ls, size_t headerLine,
    const std::vector<std::string>& header, const std::string& file)
{
    MeasurementSet set;
    set.format = MeasurementFormat::PlainCsv;
    set.file = file;
    for (size_t i = 0; i < headerLine; ++i) // roofline-cli measure's "# configuration: --llm --model ..."
        if (const std::string t = trim(ls[i]); t.starts_with("# configuration:")) {
            std::istringstream words(t.substr(16));
            for (std::string w; words >> w;)
                set.configuration.push_back(w);
        } else if (t.starts_with("# noisy:") && set.noise.empty()) { // its verdict on its own run
            set.noise = trim(t.substr(8));
            if (set.noise.size() > 300) // a line of a hand-edited file: said in part
                set.noise = set.noise.substr(0, 300) + "...";
        }
    auto error = [&](int line, const std::string& field, const std::string& why) {
        set.diagnostics.push_back({ Severity::Error, file, where(line) + (field.empty() ? "" : ": " + field), why });
    };
    // roofline-cli measure --network adds best_s, median_s, spread, runs, reorder_s and primitive.
    int layerCol = -1, timeCol = -1, flopsCol = -1, bytesCol = -1, bestCol = -1, medianCol = -1, spreadCol = -1,
        runsCol = -1, reorderCol = -1, primitiveCol = -1;
    const std::pair<const char*, int*> columns[] = { { "layer", &layerCol }, { "time_s", &timeCol },
        { "flops", &flopsCol }, { "bytes", &bytesCol }, { "best_s", &bestCol }, { "median_s", &medianCol },
        { "spread", &spreadCol }, { "runs", &runsCol }, { "reorder_s", &reorderCol }, { "primitive", &primitiveCol } };
    for (size_t i = 0; i < header.size(); ++i) {
        const std::string h = lower(header[i]);
        int* col = nullptr;
        for (const auto& [name, where] : columns)
            if (h == name)
                col = where;
        if (!col) {
            error(int(headerLine) + 1, header[i],
                "unknown column; a plain measurement file has layer,time_s[,flops,bytes] (and from roofline-cli "
                "measure "
                "--network best_s,median_s,spread,runs,reorder_s,primitive)");
            return set;
        }
        if (*col >= 0) {
            error(int(headerLine) + 1, header[i], "column given twice");
            return set;
        }
        *col = int(i);
    }
    if (layerCol < 0 || timeCol < 0) {
        error(int(headerLine) + 1, layerCol < 0 ? "layer" : "time_s",
            "required column is missing (header: layer,time_s[,flops,bytes])");
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
        for (auto [col, target, what] :
            { std::tuple { flopsCol, &m.flops, "flops" }, std::tuple { bytesCol, &m.bytes, "bytes" } }) {
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
        // The network measurement's statistics: seconds (and a ratio, a count) within the same limits.
        for (auto [col, target, what] : { std::tuple { bestCol, &m.best, "best_s" },
                 std::tuple { medianCol, &m.median, "median_s" }, std::tuple { spreadCol, &m.spread, "spread" },
                 std::tuple { runsCol, &m.runs, "runs" }, std::tuple { reorderCol, &m.reorder, "reorder_s" } }) {
            if (col < 0 || f[size_t(col)].empty())
                continue;
            const auto v = number(f[size_t(col)], false);
            if (!v || *v < 0 || *v > kMaxSeconds)
                error(line, what, "must be a number from 0 to 1e6, got '" + f[size_t(col)] + "'");
            else
                *target = *v;
        }
        if (primitiveCol >= 0)
            m.primitive = f[size_t(primitiveCol)];
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

MeasurementSet parseNcu(const std::vector<std::string_view>& ls, size_t headerLine,
    const std::vector<std::string>& header, const std::string& file)
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
    const int id = column("ID"), kernel = column("Kernel Name"), metric = column("Metric Name"),
              unit = column("Metric Unit"), value = column("Metric Value");
    if (id < 0 || kernel < 0 || metric < 0 || unit < 0 || value < 0) {
        error(int(headerLine) + 1, "",
            "an Nsight Compute CSV needs the columns ID, Kernel Name, Metric Name, Metric Unit and "
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
        const bool wanted = name == "gpu__time_duration.sum" || name == "dram__bytes.sum"
            || name == "dram__bytes_read.sum" || name == "dram__bytes_write.sum" || name.rfind(flopPrefix, 0) == 0;
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
            error(k.line, k.name,
                "kernel has no gpu__time_duration.sum (profile with --metrics gpu__time_duration.sum,...)");
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

} // namespace

MeasurementSet parseMeasurements(std::string_view text, const std::string& file)
{
    const std::string start = trim(text.substr(0, std::min<size_t>(text.size(), 4096)));
    if (!start.empty() && (start[0] == '{' || start[0] == '['))
        return parsePyTorchTrace(text, file);
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
        set.diagnostics.push_back({ Severity::Error, file, "",
            h == ls.size() ? "file is empty" : "line " + std::to_string(h + 1) + ": unterminated quoted field" });
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
        set.diagnostics.push_back(
            { Severity::Error, set.file, "", "file is " + std::to_string(size) + " bytes; at most 256 MiB" });
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

} // namespace rfx
