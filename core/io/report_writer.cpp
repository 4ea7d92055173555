// Reports as text: the terminal table and CSV (Markdown and LaTeX: report_paper.cpp; JSON: report_json.cpp).
#include "io/report_writer.h"

#include "base/format.h"
#include "engine/energy.h"
#include "io/csv.h"

#include <cctype>

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace rfx {

namespace {

// Pads to `width`; numbers are never cut (a column simply grows), only names are (see fitName).
std::string pad(const std::string& s, size_t width, bool right)
{
    if (s.size() >= width)
        return s;
    const std::string fill(width - s.size(), ' ');
    return right ? fill + s : s + fill;
}

std::string shapeNoBatch(const Shape& s)
{
    if (s == Shape {})
        return "-";
    const std::string full = shapeString(s);
    const size_t x = full.find('x');
    return x == std::string::npos ? full : full.substr(x + 1);
}

// ", 2 rows not counted (operators the tool does not know)" for imported networks that have such rows.
std::string uncountedNote(const Report& r)
{
    if (r.uncountedRows == 0)
        return {};
    return ", " + std::to_string(r.uncountedRows) + (r.uncountedRows == 1 ? " row" : " rows")
        + " not counted (operators the tool does not know: FLOPs 0, bytes counted)";
}

} // namespace

std::string energyLine(const DeviceResult& d, const Config& c)
{
    Config one = c;
    one.gpus = 1;
    const EnergyFigures e = energyFigures(d, one, 0);
    return "energy " + formatSI(e.energy, "J") + " per batch (" + formatSI(e.energyPerImage, "J") + " per image, "
        + formatNumber3(e.averagePower) + " W average, " + formatNumber3(e.flopsPerJoule / 1e9) + " GFLOP/s per W, "
        + formatNumber3(e.imagesPerJoule) + " images/J"
        + (c.clockPercent != 100 ? ", at " + std::to_string(c.clockPercent) + " % clock" : "") + ")";
}

namespace {
// Whether a device of the report runs rows on tensor (matrix) ceilings: asked for, a CPU without them
// runs on its vector roof (a language model asks every device; the title said "tensor cores" under a
// CPU-only chart).
bool onTensorCores(const Report& r)
{
    const auto tensor = [](const CeilingChoice& c) { return c.key.starts_with("tensor_"); };
    return std::any_of(r.results.begin(), r.results.end(), [&](const DeviceResult& d) {
        return tensor(d.ceiling) || std::any_of(d.rowCeilings.begin(), d.rowCeilings.end(), tensor);
    });
}
} // namespace

std::string reportTitle(const Report& r)
{
    const Config& c = r.config;
    // An image HxWxC; other ranks as their extents without the batch ([N, 1000] -> "1000").
    auto extents = [](const Shape& s) {
        return s.rank == 4 ? std::to_string(s.h) + "x" + std::to_string(s.w) + "x" + std::to_string(s.c)
                           : shapeNoBatch(s);
    };
    return r.network + " " + extents(r.input) + " -> " + extents(r.output) + ", batch " + std::to_string(c.batch) + ", "
        + (c.bitsAsInFile ? std::string("precision as in the file") : std::to_string(c.bits) + "-bit") + ", "
        + std::string(modeName(c.mode)) + (c.fusion ? ", fused" : "")
        + (c.tensorCores && onTensorCores(r) ? ", tensor cores" : "");
}

const std::vector<TableFormat>& tableFormats()
{
    static const std::vector<TableFormat> formats {
        { "table", { "txt" }, "Plain text table", reportToTable },
        { "json", { "json" }, "JSON", [](const Report& r) { return reportToJson(r); } },
        { "csv", { "csv" }, "CSV", reportToCsv },
        { "markdown", { "md", "markdown" }, "Markdown", reportToMarkdown },
        { "latex", { "tex" }, "LaTeX booktabs", reportToLatex },
    };
    return formats;
}

const TableFormat* tableFormatByName(std::string_view name)
{
    for (const TableFormat& f : tableFormats())
        if (f.name == name)
            return &f;
    return nullptr;
}

const TableFormat* tableFormatBySuffix(std::string_view suffix)
{
    std::string lower(suffix);
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    for (const TableFormat& f : tableFormats())
        if (std::find(f.suffixes.begin(), f.suffixes.end(), lower) != f.suffixes.end())
            return &f;
    return nullptr;
}

std::string tableFormatNames()
{
    std::string out;
    const auto& all = tableFormats();
    for (size_t i = 0; i < all.size(); ++i)
        out += (i == 0 ? "" : i + 1 == all.size() ? " or " : ", ") + all[i].name;
    return out;
}

std::string parametersPhrase(const Report& r)
{
    const std::int64_t counted = r.results.empty() ? 0 : r.results.front().totals.params;
    if (r.storedParameters < 0 || r.storedParameters == counted)
        return formatCount(counted) + " parameters";
    return formatCount(counted) + " parameters counted of " + formatCount(r.storedParameters) + " stored";
}

std::string networkTotalsLine(const Report& r)
{
    if (r.results.empty())
        return {};
    const DeviceResult& d = r.results.front();
    double macs = 0;
    for (const LayerResult& l : d.layers)
        if (runsOnMatrixUnits(l.op))
            macs += l.flops / 2;
    const bool ops = r.config.bits == 8 && !r.config.bitsAsInFile;
    const char* unit = ops ? "OP" : "FLOP";
    std::string line = parametersPhrase(r) + " \u00b7 " + formatSI(d.totals.flops, unit);
    if (macs > 0) {
        const double other = d.totals.flops - 2 * macs;
        line += " = " + formatSI(macs, "MAC") + " in products";
        // Said whenever there is any (not only above a share): a line whose parts come and go as a
        // slider moves reads as a changed network (issue 38: "+ ... MFLOP other" dropped at some filters).
        if (other > 1e-9 * d.totals.flops)
            line += " + " + formatSI(other, unit) + " other";
    }
    return line + " \u00b7 " + formatBytes(d.totals.bytes) + " moved \u00b7 peak memory "
        + formatMemory(d.totals.memory.total());
}

std::string reportToCsv(const Report& r)
{
    // A calibration adds a column, and a "(total)" line per device with the network's bound and
    // calibrated times (op "total"), so that a reader never sums it by mistake with the rows.
    const bool calibrated = std::any_of(
        r.results.begin(), r.results.end(), [](const DeviceResult& d) { return d.totals.calibratedTime >= 0; });
    std::string s
        = "device,layer,op,n,c,h,w,params,flops,bytes,intensity,peak_flops,attainable_flops,bound,time_s,share,"
          "algorithm,workspace_bytes,extra_bytes,bound_level,l2_bytes,l1_bytes,energy_j";
    s += calibrated ? ",calibrated_time_s\n" : "\n";
    for (const DeviceResult& d : r.results) {
        for (const LayerResult& l : d.layers) {
            s += csv::field(d.device.id) + ',' + csv::field(l.name) + ',' + std::string(opName(l.op)) + ','
                + std::to_string(l.out.n) + ',' + std::to_string(l.out.c) + ',' + std::to_string(l.out.h) + ','
                + std::to_string(l.out.w) + ',' + std::to_string(l.params) + ',' + csv::exactField(l.flops) + ','
                + csv::exactField(l.bytes) + ',' + csv::exactField(l.intensity) + ',' + csv::exactField(l.peak) + ','
                + csv::exactField(l.attainable) + ',' + std::string(boundName(l.bound)) + ','
                + csv::exactField(boundTimeOf(l)) + ',' + csv::exactField(l.share) + ','
                + (runsOnMatrixUnits(l.op) ? std::string(algorithmName(l.algorithm)) : std::string()) + ','
                + csv::exactField(l.workspace) + ',' + csv::exactField(l.extraBytes) + ','
                + (l.bound == Bound::Memory ? std::string(memoryLevelName(l.level)) : "") + ','
                + (d.l2Bandwidth > 0 ? csv::exactField(l.l2Bytes) : "") + ','
                + (d.l1Bandwidth > 0 ? csv::exactField(l.l1Bytes) : "") + ','
                + csv::exactField(rowEnergy(l, d, r.config.clockPercent));
            s += !calibrated ? "\n" : l.calibratedTime >= 0 ? ',' + csv::exactField(l.calibratedTime) + '\n' : ",\n";
        }
        if (calibrated) {
            const Totals& t = d.totals;
            s += csv::field(d.device.id) + ",(total),total,,,,," + std::to_string(t.params) + ','
                + csv::exactField(t.flops) + ',' + csv::exactField(t.bytes) + ',' + csv::exactField(t.intensity) + ','
                + csv::exactField(d.ceiling.flops) + ',' + csv::exactField(t.attained) + ",,"
                + csv::exactField(boundTimeOf(t)) + ",1,,,,,,,,"
                + (t.calibratedTime >= 0 ? csv::exactField(t.calibratedTime) : "") + '\n';
        }
    }
    return s;
}

std::string extrapolatedRowsNote(const DeviceResult& d)
{
    std::vector<std::string> names;
    size_t calibrated = 0;
    for (const LayerResult& l : d.layers) {
        calibrated += l.calibratedTime >= 0;
        if (l.calibratedTime >= 0 && l.calibrationExtrapolated)
            names.push_back(l.name);
    }
    if (names.empty())
        return {};
    std::string list;
    for (size_t i = 0; i < names.size() && i < 6; ++i)
        list += (i ? ", " : "") + names[i];
    if (names.size() > 6)
        list += ", " + std::to_string(names.size() - 6) + " more";
    return "extrapolated: " + std::to_string(names.size()) + " of " + std::to_string(calibrated)
        + " rows lie more than twice outside the sizes their class was fitted on (" + list
        + "): their calibrated times extend the fit's line; measure rows of their size to calibrate them";
}

std::string reportToTable(const Report& r)
{
    std::ostringstream o;
    o << reportTitle(r) << "\n"
      << r.convolutions << " convolutions, " << parametersPhrase(r) << uncountedNote(r) << "\n"
      << "FLOP: a multiply-add counts 2. Bytes: " << trafficDescription(r.config) << "."
      << (anyCacheAware(r) ? "\nTime: roofline bound, cache-aware: a row whose inputs, weights and outputs fit a cache "
                             "level (all\n"
                             "cores together) runs at that level's bandwidth, named in the bound column (--cache-aware "
                             "off: DRAM's).\n"
                           : " Time: roofline bound.\n");
    const bool algorithms = r.config.algorithm != ConvAlgorithm::Direct || !r.config.layerAlgorithms.empty();
    // Column widths: sum + separators = 98, fits a 100-column terminal.
    const size_t wName = 21, wShape = 13, wParams = 10, wFlop = 10, wBytes = 9, wI = 7, wBound = 7, wTime = 8,
                 wShare = 6;
    for (const DeviceResult& d : r.results) {
        o << "\n" << d.device.name << " (" << d.device.id << "): " << ceilingsLine(d) << "\n";
        o << pad("layer", wName, false) << ' ' << pad("output CxHxW", wShape, true) << ' '
          << pad("params", wParams, true) << ' ' << pad("FLOP", wFlop, true) << ' ' << pad("bytes", wBytes, true) << ' '
          << pad("FLOP/B", wI, true) << ' ' << pad("bound", wBound, true) << ' ' << pad("time", wTime, true) << ' '
          << pad("share", wShare, true) << "\n";
        for (const LayerResult& l : d.layers) {
            o << pad(fitName(l.name, wName), wName, false) << ' ' << pad(shapeNoBatch(l.out), wShape, true) << ' '
              << pad(l.params ? formatCount(l.params) : "-", wParams, true) << ' '
              << pad(formatSI(l.flops, "FLOP"), wFlop, true) << ' ' << pad(formatBytes(l.bytes), wBytes, true) << ' '
              << pad(formatNumber3(l.intensity), wI, true) << ' ' << pad(boundLabel(l), wBound, true) << ' '
              << pad(formatTime(boundTimeOf(l)), wTime, true) << ' ' << pad(formatPercent(l.share), wShare, true);
            if (d.l2Bandwidth > 0 && l.l2Bytes > 0 && l.l2Bytes != l.bytes && l.flops > 0)
                o << "  I(L2) " << formatNumber3(l.flops / l.l2Bytes);
            if (d.l1Bandwidth > 0 && l.l1Bytes > 0 && l.l1Bytes != l.bytes && l.flops > 0)
                o << "  I(L1) " << formatNumber3(l.flops / l.l1Bytes);
            if (l.calibratedTime >= 0)
                o << "  calibrated " << formatTime(l.calibratedTime)
                  << (l.calibrationExtrapolated ? " (extrapolated)" : "");
            if (algorithms && runsOnMatrixUnits(l.op))
                o << "  " << algorithmName(l.algorithm)
                  << (l.algorithmNote.empty() || l.algorithmNote.starts_with("auto") ? ""
                                                                                     : " (" + l.algorithmNote + ")");
            o << "\n";
        }
        const Totals& t = d.totals;
        o << pad("total", wName, false) << ' ' << pad("", wShape, true) << ' '
          << pad(formatCount(t.params), wParams, true) << ' ' << pad(formatSI(t.flops, "FLOP"), wFlop, true) << ' '
          << pad(formatBytes(t.bytes), wBytes, true) << ' ' << pad(formatNumber3(t.intensity), wI, true) << ' '
          << pad("", wBound, true) << ' ' << pad(formatTime(t.time), wTime, true) << ' ' << pad("100 %", wShare, true)
          << "\n";
        o << "time " << formatTime(t.time) << " per batch, " << formatNumber3(t.throughput) << " images/s; attained "
          << formatSI(t.attained, rateUnit(d.ceiling.key)) << " = " << peakShareText(d) << "\n";
        o << "memory " << formatMemory(t.memory.total()) << " of " << formatMemory(t.capacity) << ": "
          << (t.fits ? "fits" : "DOES NOT FIT") << "; largest batch that fits: " << formatCount(t.largestBatch) << "\n";
        o << energyLine(d, r.config) << "\n";
        o << d.verdict << "\n";
        if (t.calibratedTime >= 0) {
            o << "calibrated with " << d.calibration << ": " << formatTime(t.calibratedTime) << " per batch, "
              << formatNumber3(t.calibratedTime > 0 ? r.config.batch / t.calibratedTime : 0) << " images/s ("
              << formatNumber3(t.time > 0 ? t.calibratedTime / t.time : 0) << "x the roofline bound)\n";
            const std::string outside = extrapolatedRowsNote(d);
            if (!outside.empty())
                o << outside << "\n";
        }
    }
    return o.str();
}

std::string devicesToTable(const std::vector<Device>& devices)
{
    std::ostringstream o;
    auto peak = [](const Device& d, const char* key) {
        auto it = d.peak.find(key);
        return it == d.peak.end() ? std::string("-") : formatSI(it->second, "FLOP/s");
    };
    // The id and name columns as wide as their longest entry: a cut name made the 940MX's DDR3 and
    // GDDR5 parts look alike ("NVIDIA GeForce 940MX (D~").
    size_t wId = 2, wName = 4;
    for (const Device& d : devices) {
        wId = std::max(wId, d.id.size() + (d.userDevice ? 1 : 0));
        wName = std::max(wName, d.name.size());
    }
    const size_t wF = 12, wB = 10, wM = 9, wT = 6;
    o << pad("id", wId, false) << ' ' << pad("name", wName, false) << ' ' << pad("FP32", wF, true) << ' '
      << pad("FP16", wF, true) << ' ' << pad("DRAM", wB, true) << ' ' << pad("memory", wM, true) << ' '
      << pad("TDP", wT, true) << "\n";
    for (const Device& d : devices) {
        o << pad(d.id + (d.userDevice ? "*" : ""), wId, false) << ' ' << pad(d.name, wName, false) << ' '
          << pad(peak(d, "fp32"), wF, true) << ' ' << pad(peak(d, "fp16"), wF, true) << ' '
          << pad(formatSI(d.dramBandwidth, "B/s"), wB, true) << ' ' << pad(formatMemory(d.memoryBytes), wM, true) << ' '
          << pad(formatSI(d.tdpWatts, "W"), wT, true) << "\n";
    }
    if (std::any_of(devices.begin(), devices.end(), [](const Device& d) { return d.userDevice; }))
        o << "* from a user device folder\n";
    return o.str();
}

} // namespace rfx
