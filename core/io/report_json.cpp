// Reports and device lists as JSON: every figure of every row, with the configuration, the
// conventions and the version that made them (the text formats: report_writer.cpp).
#include "io/report_json.h"
#include "io/report_writer.h"

#include "base/format.h"
#include "base/version.h"
#include "engine/energy.h"
#include "open/analyses.h"

#include <nlohmann/json.hpp>

namespace rfx {

namespace {

using ojson = nlohmann::ordered_json;

ojson configJson(const Config& c)
{
    const UNetParams& u = c.unet;
    return ojson {
        { "model", c.model },
        { "height", u.height },
        { "width", u.width },
        { "in_channels", u.inChannels },
        { "classes", u.classes },
        { "filters", u.baseFilters },
        { "depth", u.depth },
        { "padding", paddingName(u.padding) },
        { "stride", u.stride },
        { "downsample", downsampleName(u.downsample) },
        { "conv", convTypeName(u.conv) },
        { "batch_norm", u.batchNorm },
        { "batch", c.batch },
        { "bits", c.bits },
        { "bits_as_in_file", c.bitsAsInFile },
        { "mode", modeName(c.mode) },
        { "optimizer", optimizerName(c.optimizer) },
        { "fusion", c.fusion },
        { "tensor_cores", c.tensorCores },
        { "algorithm", algorithmName(c.algorithm) },
        { "traffic", trafficName(c.traffic) },
        { "cache_aware", cacheAwareName(c.cacheAware) },
        { "onchip_kib", c.onchipKiB },
        { "clock", c.clockPercent / 100.0 },
        { "gpus", c.gpus },
        { "interconnect", c.interconnect },
        { "overlap", c.overlap },
    };
}

ojson shapeJson(const Shape& s)
{
    if (s == Shape {})
        return ojson::array();
    const std::int64_t four[] = { s.n, s.c, s.h, s.w }, five[] = { s.n, s.c, s.d, s.h, s.w };
    const std::int64_t* e = s.rank >= 5 ? five : four; // ranks 6-8: the middle extents folded
    return ojson(std::vector<std::int64_t>(e, e + std::clamp(s.rank, 1, 5)));
}

ojson deviceJson(const Device& d)
{
    ojson peaks = ojson::object();
    for (const auto& [key, flops] : d.peak)
        peaks[key] = flops;
    ojson j {
        { "id", d.id },
        { "name", d.name },
        { "kind", d.kind },
        { "vendor", d.vendor },
        { "architecture", d.architecture },
        { "peak_flops_by_precision", peaks },
        { "dram_bandwidth", d.dramBandwidth },
        { "memory_bytes", d.memoryBytes },
        { "l2_bytes", d.l2Bytes },
        { "tdp_w", d.tdpWatts },
        { "idle_w", d.idleWatts },
        { "boost_clock_hz", d.boostClockHz },
        { "sources", d.sources },
        { "file", d.file },
        { "user_device", d.userDevice },
    };
    // what the serving plan reads: the scale-up link and its GPUs, a price (where the file gives them)
    if (!d.scaleUpLink.empty()) {
        j["scale_up_link"] = d.scaleUpLink;
        j["scale_up_gpus"] = d.scaleUpGpus;
    }
    if (d.pricePerHour > 0) {
        j["price_per_hour_usd"] = d.pricePerHour;
        j["price_source"] = d.priceSource;
    }
    return j;
}

} // namespace

std::string configToJson(const Config& config) { return configJson(config).dump(); }

ojson layerJson(const LayerResult& l, const DeviceResult& d, const Report& r)
{
    ojson row {
        { "name", l.name },
        { "op", opName(l.op) },
        { "output_shape", shapeJson(l.out) },
        { "params", l.params },
        { "flops", l.flops },
        { "bytes", l.bytes },
        { "intensity", l.intensity },
        { "peak_flops", l.peak },
        { "bits", l.bits },
        { "arithmetic", numberWord(l.type) }, // "fp8" where bits alone (8) would read int8
        { "attainable_flops", l.attainable },
        { "bound", boundName(l.bound) },
        { "time_s", boundTimeOf(l) }, // the bound, also when the window shows calibrated times
        { "share", l.share },
        { "kernels", l.kernels },
        { "energy_j", rowEnergy(l, d, r.config.clockPercent) },
    };
    if (d.l2Bandwidth > 0 && !d.cacheAware) {
        row["l2_bytes"] = l.l2Bytes;
        row["l2_intensity"] = l.l2Bytes > 0 ? l.flops / l.l2Bytes : 0;
    }
    if (d.l1Bandwidth > 0 && !d.cacheAware) {
        row["l1_bytes"] = l.l1Bytes;
        row["l1_intensity"] = l.l1Bytes > 0 ? l.flops / l.l1Bytes : 0;
    }
    if (l.bound == Bound::Memory)
        row["bound_level"] = memoryLevelName(l.level);
    if (d.cacheAware)
        row["working_set_bytes"] = l.workingSet;
    if (l.origin >= 0 && size_t(l.origin) < r.origins.size()) {
        const RowOrigin& o = r.origins[size_t(l.origin)];
        row["onnx_op"] = o.onnxOp;
        row["onnx_node"] = o.node;
        if (!o.uncounted.empty())
            row["uncounted"] = o.uncounted;
    }
    if (l.calibratedTime >= 0) {
        row["calibrated_time_s"] = l.calibratedTime;
        // The fit that predicted it (the row's class, the parent it borrows, or the side's "all"), and
        // whether the row's size lies outside what that fit saw (issue 51).
        row["calibrated_by"] = std::string(l.calibratedBy);
        row["calibration_extrapolated"] = l.calibrationExtrapolated;
    }
    if (runsOnMatrixUnits(l.op)) {
        row["algorithm"] = algorithmName(l.algorithm);
        row["workspace_bytes"] = l.workspace;
        row["extra_bytes"] = l.extraBytes;
        if (!l.algorithmNote.empty())
            row["algorithm_note"] = l.algorithmNote;
    }
    return row;
}

std::string reportToJson(const Report& r, int indent)
{
    ojson results = ojson::array();
    for (const DeviceResult& d : r.results) {
        ojson dev = deviceJson(d.device);
        dev["precision"] = d.ceiling.key;
        dev["peak_flops"] = d.ceiling.flops;
        dev["vector_precision"] = d.vectorCeiling.key;
        dev["vector_peak_flops"] = d.vectorCeiling.flops;
        dev["ridge"] = d.ridge;
        ojson layers = ojson::array();
        dev["onchip_bytes"] = d.onchipBytes;
        if (d.l2Bandwidth > 0)
            dev["l2_bandwidth"] = d.l2Bandwidth;
        if (d.l1Bandwidth > 0)
            dev["l1_bandwidth"] = d.l1Bandwidth;
        if (d.l3Bandwidth > 0)
            dev["l3_bandwidth"] = d.l3Bandwidth;
        dev["cache_aware"] = d.cacheAware;
        if (d.cacheAware)
            dev["cache_capacity_bytes"]
                = ojson { { "l1", d.l1Capacity }, { "l2", d.l2Capacity }, { "l3", d.l3Capacity } };
        for (const LayerResult& l : d.layers)
            layers.push_back(layerJson(l, d, r));
        const Totals& t = d.totals;
        ojson totals {
            { "params", t.params },
            { "flops", t.flops },
            { "bytes", t.bytes },
            { "intensity", t.intensity },
            { "time_s", boundTimeOf(t) },
            { "throughput_per_s", t.throughput },
            { "attained_flops", t.attained },
            { "peak_share", t.peakShare },
            { "memory_bound_time_share", t.memoryBoundTimeShare },
            { "memory_bytes", t.memory.total() },
            { "memory",
                ojson { { "weights", t.memory.weights }, { "gradients", t.memory.gradients },
                    { "optimizer_state", t.memory.optimizerState }, { "activations", t.memory.activations },
                    { "workspace", t.memory.workspace } } },
            { "capacity_bytes", t.capacity },
            { "fits", t.fits },
            { "largest_batch", t.largestBatch },
        };
        if (t.calibratedTime >= 0) {
            totals["calibrated_time_s"] = t.calibratedTime;
            totals["calibrated_throughput_per_s"] = t.calibratedTime > 0 ? r.config.batch / t.calibratedTime : 0;
        }
        if (!d.calibration.empty())
            dev["calibration"] = d.calibration;
        Config one = r.config;
        one.gpus = 1;
        const EnergyFigures e = energyFigures(d, one, 0);
        totals["energy_j"] = e.energy;
        totals["energy_per_image_j"] = e.energyPerImage;
        totals["images_per_joule"] = e.imagesPerJoule;
        totals["average_power_w"] = e.averagePower;
        totals["flops_per_joule"] = e.flopsPerJoule;
        results.push_back(
            ojson { { "device", dev }, { "layers", layers }, { "totals", totals }, { "verdict", d.verdict } });
    }
    ojson diagnostics = ojson::array();
    for (const Diagnostic& d : r.diagnostics)
        diagnostics.push_back(ojson { { "severity", severityName(d.severity) }, { "file", d.file },
            { "field", d.field }, { "message", d.message } });
    ojson network { { "name", r.network }, { "input_shape", shapeJson(r.input) },
        { "output_shape", shapeJson(r.output) }, { "convolutions", r.convolutions } };
    if (!r.origins.empty())
        network["uncounted_rows"] = r.uncountedRows;
    if (r.storedParameters >= 0) { // an imported model: what the rows count and what the file stores
        network["counted_params"] = r.results.empty() ? 0 : r.results.front().totals.params;
        network["stored_params"] = r.storedParameters;
    }
    ojson doc {
        { "config", configJson(r.config) },
        { "network", network },
        { "conventions", reportConventions(r.config, anyCacheAware(r)) },
        { "results", results },
        { "diagnostics", diagnostics },
    };
    return doc.dump(indent) + "\n";
}

std::string devicesToJson(const std::vector<Device>& devices)
{
    ojson list = ojson::array();
    for (const Device& d : devices)
        list.push_back(deviceJson(d));
    return ojson { { "devices", list } }.dump(2) + "\n";
}

} // namespace rfx
