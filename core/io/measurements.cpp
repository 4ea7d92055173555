// Measurements held against the model: mapping measured rows onto the report's layers, and the
// comparison as a table or CSV (the importers are in measurement_formats.cpp).
#include "measurements.h"

#include "format.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

namespace rfx {

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
