// Measurements held against the model: mapping measured rows onto the report's layers, and the
// comparison as a table or CSV (the importers are in measurement_formats.cpp).
#include "io/measurements.h"

#include "io/report_writer.h"

#include "base/format.h"
#include "engine/precision.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

namespace rfx {

std::string_view measurementFormatName(MeasurementFormat f) { return enumName(kMeasurementFormatWords, f); }

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
        if (m.spread >= 0)
            lc.spread = std::max(lc.spread, m.spread);
        if (lc.referenceKernel.empty() && isReferenceKernel(m.primitive))
            lc.referenceKernel = m.primitive;
    }
    std::sort(c.layers.begin(), c.layers.end(),
        [](const LayerComparison& a, const LayerComparison& b) { return a.layer < b.layer; });
    bool calibrated = !c.layers.empty();
    for (LayerComparison& lc : c.layers) {
        const LayerResult& row = r.layers[lc.layer];
        lc.bound = row.boundTime >= 0 ? row.boundTime : row.time; // a calibrated view keeps the bound there
        if (row.calibratedTime >= 0) {
            lc.calibrated = row.calibratedTime;
            lc.calibratedError = lc.measured > 0 ? lc.calibrated / lc.measured - 1 : 0;
            c.calibratedTotal = std::max(0.0, c.calibratedTotal) + lc.calibrated;
        } else {
            calibrated = false;
        }
        lc.efficiency = lc.measured > 0 ? lc.bound / lc.measured : 0;
        lc.error = lc.bound > 0 ? lc.measured / lc.bound - 1 : 0;
        // Faster than the bound by more than 5 %, after the padded taps a kernel may skip.
        const double floor = row.bound == Bound::Compute ? lc.bound * row.usefulShare : lc.bound;
        lc.aboveRoof = lc.measured > 0 && lc.measured < floor / 1.05;
        lc.beyondSpread = lc.aboveRoof && lc.spread >= 0 && lc.measured < floor / (1 + lc.spread);
        lc.skipsPadding = !lc.aboveRoof && lc.measured > 0 && lc.measured < lc.bound / 1.05;
        c.measuredTotal += lc.measured;
        c.boundTotal += lc.bound;
    }
    if (!calibrated)
        c.calibratedTotal = -1;
    // A matrix row faster than the vector roof may simply have run on the tensor cores.
    for (const LayerComparison& lc : c.layers) {
        const LayerResult& row = r.layers[lc.layer];
        if (!lc.aboveRoof || row.bound != Bound::Compute || row.peak <= 0)
            continue;
        const CeilingChoice tc = chooseCeiling(r.device, row.type, true);
        if (!tc.key.starts_with("tensor") || tc.flops <= row.peak * 1.05)
            continue;
        const double tensorBound = lc.bound * row.peak / tc.flops;
        if (lc.measured >= tensorBound / 1.05) {
            ++c.withinTensorRoof;
            c.tensorPeak = tc.flops;
        }
    }
    if (c.mapping == "by name")
        for (size_t i = 0; i < r.layers.size(); ++i)
            if (slot[i] < 0 && r.layers[i].time > 0)
                c.unmeasured.push_back(r.layers[i].name);
    return c;
}

std::vector<CalibrationSample> calibrationSamples(const Comparison& c, const DeviceResult& r)
{
    std::vector<CalibrationSample> samples;
    for (const LayerComparison& lc : c.layers) {
        const LayerResult& row = r.layers[lc.layer];
        if (lc.measured > 0 && lc.bound > 0)
            samples.push_back({ row.name, std::string(row.opClass), row.bound, lc.bound, lc.measured, row.flops,
                row.bytes, row.repeats, row.peak > 0 ? row.flops / row.peak : 0,
                row.opClass == "matrix" ? matrixRowsOf(row.out) : 0 });
    }
    return samples;
}

bool isReferenceKernel(std::string_view primitive)
{
    // The implementation is in the parentheses: "kind (impl:isa)". oneDNN names its reference
    // kernels "ref" ("ref:any", "ref_int8:any", "ref_fused_convolution:any").
    const size_t open = primitive.find('(');
    const std::string_view impl = open == std::string_view::npos ? primitive : primitive.substr(open + 1);
    return impl.starts_with("ref") || impl.starts_with("simple_nchw");
}

std::string tensorRoofHint(const Comparison& c, const DeviceResult& r)
{
    if (c.withinTensorRoof == 0)
        return {};
    const LayerResult* row = nullptr;
    for (const LayerComparison& lc : c.layers)
        if (!row && lc.aboveRoof && r.layers[lc.layer].bound == Bound::Compute)
            row = &r.layers[lc.layer];
    if (!row)
        return {};
    const std::string precision = precisionLabel(numberWord(row->type)); // "FP16", as the chart's subtitle says it
    return std::to_string(c.withinTensorRoof) + (c.withinTensorRoof == 1 ? " row beats" : " rows beat") + " the "
        + precision + " roof of the vector units (" + formatSI(row->peak, "FLOP/s") + ") but not the tensor cores' ("
        + formatSI(c.tensorPeak, "FLOP/s") + "): frameworks run " + precision
        + " matrix work on the tensor cores; compare with --tensor-cores (in the window: Tensor cores for "
          "convolutions)";
}

std::string comparisonToTable(const Comparison& c, const DeviceResult& r, const MeasurementSet& set)
{
    std::ostringstream o;
    o << set.file << " (" << measurementFormatName(set.format) << ", " << set.rows.size() << " rows), mapped "
      << c.mapping << " onto " << r.device.name << " (" << r.device.id << ")\n";
    const bool cal = c.calibratedTotal >= 0;
    char line[320];
    std::snprintf(line, sizeof line, "%-24s %11s %11s %10s %9s", "layer", "measured", "bound", "of bound", "error");
    o << line;
    if (cal) {
        std::snprintf(line, sizeof line, " %11s %9s", "calibrated", "cal. err");
        o << line;
    }
    o << "\n";
    for (const LayerComparison& lc : c.layers) {
        std::string name = r.layers[lc.layer].name;
        if (name.size() > 24)
            name = name.substr(0, 23) + "~";
        std::snprintf(line, sizeof line, "%-24s %11s %11s %10s %9s", name.c_str(), formatTime(lc.measured).c_str(),
            formatTime(lc.bound).c_str(), formatPercent(lc.efficiency).c_str(), formatSignedPercent(lc.error).c_str());
        o << line;
        if (cal) {
            std::snprintf(line, sizeof line, " %11s %9s", formatTime(lc.calibrated).c_str(),
                formatSignedPercent(lc.calibratedError).c_str());
            o << line;
        }
        // Faster than DRAM allows is what a cache does for tensors that stay in it; faster than the compute
        // roof means the counting or the ceilings are wrong for the row.
        const LayerResult& row = r.layers[lc.layer];
        if (lc.beyondSpread && (row.bound == Bound::Compute || row.level == MemoryLevel::Dram))
            o << "  ABOVE THE ROOF by more than its runs' spread (" << formatPercent(lc.spread)
              << (r.device.kind == "cpu" ? "): the ceiling is low, measure the machine again (roofline-cli measure)"
                                         : "): the ceiling is low, check the device file's figures")
              << (row.bound == Bound::Compute ? "" : ", or its tensors stayed in cache");
        else if (lc.aboveRoof)
            o << (row.bound == Bound::Compute
                    ? std::string("  ABOVE THE ROOF: check units, the FLOP convention or the ceilings")
                    : row.level == MemoryLevel::Dram
                    ? std::string("  ABOVE THE ROOF (DRAM): its tensors stayed in cache, or units")
                    : "  ABOVE THE ROOF (" + std::string(memoryLevelName(row.level))
                        + "): check the cache ceilings and units");
        else if (lc.skipsPadding)
            o << "  within the taps it computes: " << formatPercent(1 - row.usefulShare)
              << " of them read zero padding";
        if (!lc.referenceKernel.empty())
            o << "  REFERENCE KERNEL: " << lc.referenceKernel << " is not what a framework runs";
        if (cal && row.calibrationExtrapolated)
            o << "  extrapolated (" << row.calibratedBy << " fit)";
        o << "\n";
    }
    o << "total " << formatTime(c.measuredTotal) << " measured against a bound of " << formatTime(c.boundTotal) << ": "
      << formatPercent(c.measuredTotal > 0 ? c.boundTotal / c.measuredTotal : 0) << " of the bound reached\n";
    if (cal)
        o << "calibrated (" << r.calibration << "): " << formatTime(c.calibratedTotal) << " predicted, "
          << formatSignedPercent(c.measuredTotal > 0 ? c.calibratedTotal / c.measuredTotal - 1 : 0)
          << " against the measured total\n";
    if (!c.unmatched.empty()) {
        o << c.unmatched.size() << " measured row(s) did not map:";
        for (size_t i = 0; i < c.unmatched.size() && i < 10; ++i)
            o << (i ? ", " : " ") << c.unmatched[i];
        o << (c.unmatched.size() > 10 ? ", ..." : "") << "\n";
    }
    if (!c.unmeasured.empty())
        o << c.unmeasured.size() << " model row(s) without a measurement\n";
    if (cal)
        if (const std::string outside = extrapolatedRowsNote(r); !outside.empty())
            o << outside << "\n";
    if (const std::string hint = tensorRoofHint(c, r); !hint.empty())
        o << hint << "\n";
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
    const bool cal = c.calibratedTotal >= 0;
    std::string s = "layer,measured_s,bound_s,efficiency,error,above_roof,measured_flops,measured_bytes,sources";
    s += cal ? ",calibrated_s,calibrated_error\n" : "\n";
    for (const LayerComparison& lc : c.layers) {
        std::string sources;
        for (const std::string& src : lc.sources)
            sources += (sources.empty() ? "" : ";") + src;
        s += quote(r.layers[lc.layer].name) + ',' + num(lc.measured) + ',' + num(lc.bound) + ',' + num(lc.efficiency)
            + ',' + num(lc.error) + ',' + (lc.aboveRoof ? "true" : "false") + ','
            + (lc.measuredFlops >= 0 ? num(lc.measuredFlops) : "") + ','
            + (lc.measuredBytes >= 0 ? num(lc.measuredBytes) : "") + ',' + quote(sources);
        s += cal ? ',' + num(lc.calibrated) + ',' + num(lc.calibratedError) + '\n' : "\n";
    }
    if (cal) // the network's total, named so that no layer can be mistaken for it
        s += "(total)," + num(c.measuredTotal) + ',' + num(c.boundTotal) + ','
            + num(c.measuredTotal > 0 ? c.boundTotal / c.measuredTotal : 0) + ','
            + num(c.boundTotal > 0 ? c.measuredTotal / c.boundTotal - 1 : 0) + ",false,,,," + num(c.calibratedTotal)
            + ',' + num(c.measuredTotal > 0 ? c.calibratedTotal / c.measuredTotal - 1 : 0) + '\n';
    return s;
}

} // namespace rfx
