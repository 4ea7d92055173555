#include "engine/roofline.h"

#include "base/format.h"
#include "engine/calibration.h"
#include "engine/precision.h"
#include "engine/roofline_rows.h"
#include "model/networks.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>

namespace rfx {

std::string_view boundName(Bound b) { return enumName(kBoundWords, b); }

std::string_view memoryLevelName(MemoryLevel level) { return enumName(kMemoryLevelWords, level); }

std::string boundLabel(const LayerResult& row)
{
    if (row.bound == Bound::Compute)
        return "compute";
    return row.level == MemoryLevel::Dram ? "memory" : std::string(memoryLevelName(row.level));
}

double levelBandwidth(const DeviceResult& d, MemoryLevel level)
{
    switch (level) {
    case MemoryLevel::L1:
        return d.l1Bandwidth;
    case MemoryLevel::L2:
        return d.l2Bandwidth;
    case MemoryLevel::L3:
        return d.l3Bandwidth;
    case MemoryLevel::Dram:
        break;
    }
    return d.bandwidth;
}

double levelTraffic(const LayerResult& row)
{
    const double tiled = row.level == MemoryLevel::L2 ? row.l2Bytes : row.level == MemoryLevel::L1 ? row.l1Bytes : 0;
    return tiled > 0 ? tiled : row.bytes;
}

bool cacheAwareFor(const Config& config, const Device& device)
{
    if (config.traffic == TrafficModel::Tiled || config.cacheAware == CacheAware::Off)
        return false;
    if (!(device.l1Bandwidth > 0 || device.l2Bandwidth > 0 || device.l3Bandwidth > 0))
        return false;
    return config.cacheAware == CacheAware::On || device.kind == "cpu";
}

std::string ceilingsLine(const DeviceResult& d)
{
    std::string s = precisionLabel(d.ceiling.key) + " " + formatSI(d.ceiling.flops, rateUnit(d.ceiling.key)) + ", DRAM "
        + formatSI(d.bandwidth, "B/s");
    if (d.l3Bandwidth > 0)
        s += ", L3 " + formatSI(d.l3Bandwidth, "B/s");
    if (d.l2Bandwidth > 0)
        s += ", L2 " + formatSI(d.l2Bandwidth, "B/s");
    if (d.l1Bandwidth > 0)
        s += ", L1 " + formatSI(d.l1Bandwidth, "B/s");
    return s + ", ridge " + formatNumber3(d.ridge) + " FLOP/B";
}

std::string peakShareText(const DeviceResult& d)
{
    const Totals& t = d.totals;
    const std::string unit = rateUnit(d.ceiling.key);
    if (d.rowCeilings.empty() || !(t.peakShare > 0))
        return formatPercent(t.peakShare) + " of " + precisionLabel(d.ceiling.key) + " "
            + formatSI(d.ceiling.flops, unit);
    return formatPercent(t.peakShare) + " of the rows' own ceilings, " + formatSI(t.attained / t.peakShare, unit)
        + " together";
}

using namespace rows;

CacheSupply cacheSupply(const DeviceResult& d, double workingSet)
{
    return supplyOf(
        workingSet, d.l1Bandwidth, d.l1Capacity, d.l2Bandwidth, d.l2Capacity, d.l3Bandwidth, d.l3Capacity, d.bandwidth);
}

namespace {

// A device's ceilings under the configuration: the roof of the precision doing most of the matrix
// FLOPs and the vector roof beside it, DRAM, and the cache levels the traffic model uses.
DeviceResult deviceCeilings(const Device& device, const Config& config, NumberType dominant)
{
    DeviceResult r;
    r.device = device;
    r.ceiling = chooseCeiling(device, dominant, config.tensorCores);
    r.vectorCeiling = chooseCeiling(device, dominant, false);
    // The core clock scales the arithmetic and the on-chip caches; DRAM keeps its own clock.
    const double clock = config.clockPercent / 100.0;
    r.ceiling.flops *= clock;
    r.vectorCeiling.flops *= clock;
    r.bandwidth = device.dramBandwidth;
    r.ridge = r.bandwidth > 0 ? r.ceiling.flops / r.bandwidth : 0;
    const bool tiled = config.traffic == TrafficModel::Tiled;
    r.l2Bandwidth = tiled && device.l2Bytes > 0 ? device.l2Bandwidth * clock : 0;
    r.l1Bandwidth = tiled ? device.l1Bandwidth * clock : 0;
    r.cacheAware = cacheAwareFor(config, device);
    if (r.cacheAware) {
        // Each level with both a bandwidth and a size. L1 is per core: all cores together hold
        // L1 x cores (a GPU file's "cores" counts CUDA cores, not SMs: its L1 level is left out).
        const int cores = device.kind == "cpu" ? device.cores : 0;
        r.l1Capacity = device.l1Bandwidth > 0 && cores > 0 ? device.l1Bytes * cores : 0;
        r.l2Capacity = device.l2Bandwidth > 0 ? device.l2Bytes : 0;
        r.l3Capacity = device.l3Bandwidth > 0 ? device.l3Bytes : 0;
        r.l1Bandwidth = r.l1Capacity > 0 ? device.l1Bandwidth * clock : 0;
        r.l2Bandwidth = r.l2Capacity > 0 ? device.l2Bandwidth * clock : 0;
        r.l3Bandwidth = r.l3Capacity > 0 ? device.l3Bandwidth * clock : 0;
    }
    return r;
}

// The report's description of the network, before any device: name, input and output, origins, notes,
// and its row counts.
Report reportOf(const Network& net, const Config& config)
{
    Report report;
    report.config = config;
    report.network = net.name;
    report.input = net.input;
    report.output = net.output();
    report.origins = net.origins;
    report.diagnostics = net.diagnostics;
    report.storedParameters = net.storedParameters;
    for (const Layer& l : net.layers)
        report.uncountedRows += l.op == Op::Uncounted ? 1 : 0;
    for (const Layer& l : net.layers)
        report.convolutions += (l.op == Op::Conv || l.op == Op::ConvTranspose) ? 1 : 0;
    return report;
}

// A device's totals from its rows (time, FLOPs and bytes summed in analyze()): shares, throughput,
// memory and whether it fits, the ceilings of rows at other precisions, the share of peak.
void sumUp(DeviceResult& r, const Config& config, const MemoryFootprint& memory, double workspace,
    double memoryBoundTime, const std::map<std::pair<NumberType, bool>, CeilingChoice>& own)
{
    const Device& device = r.device;
    Totals& t = r.totals;
    for (LayerResult& lr : r.layers)
        lr.share = t.time > 0 ? lr.time / t.time : 0;
    t.intensity = t.bytes > 0 ? t.flops / t.bytes : 0;
    t.throughput = t.time > 0 ? config.batch / t.time : 0;
    t.attained = t.time > 0 ? t.flops / t.time : 0;
    t.peakShare = r.ceiling.flops > 0 ? t.attained / r.ceiling.flops : 0;
    t.memoryBoundTimeShare = t.time > 0 ? memoryBoundTime / t.time : 0;
    t.memory = memory;
    t.memory.workspace = workspace; // the largest algorithm workspace: buffers are reused row to row
    t.capacity = device.memoryBytes;
    t.fits = t.memory.total() <= device.memoryBytes;
    // Workspaces grow with the batch (lowered matrices, transformed inputs): count them with the activations.
    MemoryFootprint perBatch = t.memory;
    perBatch.activations += perBatch.workspace;
    perBatch.workspace = 0;
    t.largestBatch = largestBatchThatFits(perBatch, config.batch, device.memoryBytes);

    // The ceilings rows at another precision ran against (as in the file), each once: the chart draws
    // and names them (an fp16 file's fp32 rows sat above the only roof drawn, the FP16 one).
    for (const auto& entry : own) {
        const CeilingChoice& c = entry.second; // not a structured binding: clang 14 cannot capture one
        auto same = [&](double flops) { return std::abs(flops - c.flops) <= 1e-9 * c.flops; };
        const bool used = std::any_of(
            r.layers.begin(), r.layers.end(), [&](const LayerResult& l) { return l.flops > 0 && same(l.peak); });
        if (used && !same(r.ceiling.flops) && !same(r.vectorCeiling.flops)
            && std::none_of(
                r.rowCeilings.begin(), r.rowCeilings.end(), [&](const CeilingChoice& o) { return same(o.flops); }))
            r.rowCeilings.push_back(c);
    }
    std::sort(r.rowCeilings.begin(), r.rowCeilings.end(),
        [](const CeilingChoice& a, const CeilingChoice& b) { return a.flops > b.flops; });
    // Rows at several precisions: the share of peak is of the rows' own ceilings together (the FLOPs
    // over the time they take at their own peaks), not of the roof's alone: an fp16 file's fp32 rows on
    // the MX230 made it "147 % of FP16 12.2 GFLOP/s".
    if (!r.rowCeilings.empty()) {
        double atPeaks = 0;
        for (const LayerResult& l : r.layers)
            atPeaks += l.peak > 0 ? l.flops / l.peak : 0;
        t.peakShare = atPeaks > 0 && t.flops > 0 ? t.attained / (t.flops / atPeaks) : 0;
    }
}

} // namespace

Report analyze(const Network& net, const Config& requested, const std::vector<Device>& devices)
{
    // A file that fixes the batch wins over the configuration's: throughput, energy per image and the
    // report's batch are the rows' (a 1x3x1024x1024 model analysed "at batch 16" is still one image).
    Config config = requested;
    if (net.fixedBatch > 0)
        config.batch = net.fixedBatch;
    Report report = reportOf(net, config);

    std::int64_t totalParams = 0;
    std::vector<GemmCost> gemms;
    const std::vector<RowCost> rows = rowCosts(net, config, totalParams, gemms);
    for (const auto& choice : config.layerAlgorithms) {
        // A named variable, not a structured binding: clang 14 refuses to capture a binding in a lambda.
        const std::string& layer = choice.first;
        const bool conv = std::any_of(net.layers.begin(), net.layers.end(),
            [&](const Layer& l) { return l.name == layer && runsOnMatrixUnits(l.op); });
        if (!conv)
            report.diagnostics.push_back({ Severity::Warning, "", "layer-algorithm",
                "no convolution or linear layer named '" + layer + "' in " + net.name
                    + "; its algorithm choice is ignored" });
    }
    const MemoryFootprint memory = memoryFootprint(net, config);
    // Precision as in the file: each row's own arithmetic; the chart's roof is that of the precision
    // doing most of the matrix FLOPs.
    const PrecisionMix mix = precisionMix(net, config);
    if (mix.rowsAt.size() > 1) {
        std::string said;
        for (const auto& [type, count] : mix.rowsAt)
            said += (said.empty() ? "" : ", ") + std::to_string(count) + " at " + std::string(numberWord(type));
        report.diagnostics.push_back(
            { Severity::Info, "", "bits", "precision as in the file: rows run at their own precision (" + said + ")" });
    }

    const bool tiled = config.traffic == TrafficModel::Tiled;
    for (const Device& device : devices) {
        DeviceResult r = deviceCeilings(device, config, mix.dominant);
        // Rows at another precision than the roof's (as in the file): their ceilings, chosen once per device.
        std::map<std::pair<NumberType, bool>, CeilingChoice> own;
        auto ceilingOf = [&](NumberType type, bool matrix) -> const CeilingChoice& {
            auto it = own.find({ type, matrix });
            if (it == own.end()) {
                CeilingChoice c = chooseCeiling(device, type, matrix && config.tensorCores);
                c.flops *= config.clockPercent / 100.0;
                if (!c.note.empty()
                    && std::none_of(report.diagnostics.begin(), report.diagnostics.end(),
                        [&](const Diagnostic& d) { return d.message == c.note; }))
                    report.diagnostics.push_back({ Severity::Warning, device.file, "peak", c.note });
                it = own.emplace(std::make_pair(type, matrix), std::move(c)).first;
            }
            return it->second;
        };
        for (const auto* c : { &r.ceiling, &r.vectorCeiling }) {
            if (!c->note.empty()
                && std::none_of(report.diagnostics.begin(), report.diagnostics.end(),
                    [&](const Diagnostic& d) { return d.message == c->note; }))
                report.diagnostics.push_back({ Severity::Warning, device.file, "peak", c->note });
        }
        Totals& t = r.totals;
        t.params = totalParams;
        double memoryBoundTime = 0;
        double workspace = 0;
        const double e = elementBytes(config.bits);
        const Ceilings ceil = rowCeilings(r, config);
        r.layers.reserve(rows.size());
        for (const RowCost& row : rows) {
            LayerResult lr;
            lr.name = row.name;
            lr.op = row.op;
            lr.out = row.out;
            lr.params = row.params;
            lr.flops = row.flops;
            lr.bytes = row.bytes;
            lr.kernels = row.kernels;
            takeLayerFacts(lr, row.layer);
            lr.opClass = row.opClass;
            lr.usefulShare = row.usefulShare;
            lr.workingSet = row.workingSet;
            // Streaming rows move the same bytes through every level (tiled model).
            lr.l2Bytes = tiled && r.l2Bandwidth > 0 ? row.bytes : 0;
            lr.l1Bytes = tiled && r.l1Bandwidth > 0 ? row.bytes : 0;
            if (row.gemm >= 0) {
                const Chosen c = choose(gemms[size_t(row.gemm)], config, e, ceil);
                lr.flops = c.flops;
                lr.bytes = c.bytes;
                lr.l2Bytes = c.l2Bytes;
                lr.l1Bytes = c.l1Bytes;
                lr.kernels = c.kernels;
                lr.algorithm = c.algorithm;
                lr.algorithmNote = c.note;
                lr.workspace = c.workspace;
                lr.extraBytes = c.extraBytes;
                workspace = std::max(workspace, c.workspace);
            }
            lr.intensity = lr.bytes > 0 ? lr.flops / lr.bytes : 0;
            lr.peak = runsOnMatrixUnits(row.op) ? r.ceiling.flops : r.vectorCeiling.flops;
            lr.bits = rowPrecision(row.layer, config);
            lr.type = rowNumberType(row.layer, config);
            if (lr.type != mix.dominant)
                lr.peak = ceilingOf(lr.type, runsOnMatrixUnits(row.op)).flops;
            // Memory-bound iff some level's traffic takes longer than the arithmetic; with DRAM alone that is
            // iff the row's intensity lies left of its own ridge (I < P_peak / B).
            const RowBound b = rowBound(
                lr.flops, lr.bytes, lr.l2Bytes, lr.l1Bytes, ceil, lr.peak, r.cacheAware ? lr.workingSet : -1);
            lr.bound = (r.bandwidth > 0 && b.memory) ? Bound::Memory : Bound::Compute;
            lr.level = b.level;
            lr.attainable = b.time > 0 ? lr.flops / b.time : 0;
            lr.time = b.time + lr.kernels * device.launchOverhead;
            t.flops += lr.flops;
            t.bytes += lr.bytes;
            t.time += lr.time;
            if (lr.bound == Bound::Memory)
                memoryBoundTime += lr.time;
            r.layers.push_back(std::move(lr));
        }
        sumUp(r, config, memory, workspace, memoryBoundTime, own);
        r.verdict = verdictText(t.memoryBoundTimeShare);
        report.results.push_back(std::move(r));
    }
    return report;
}

std::string verdictText(double memoryBoundTimeShare)
{
    const bool memoryBound = memoryBoundTimeShare >= 0.5;
    const double share = memoryBound ? memoryBoundTimeShare : 1 - memoryBoundTimeShare;
    return std::string(memoryBound ? "memory-bound: " : "compute-bound: ") + formatPercent(share)
        + " of time in layers " + (memoryBound ? "left" : "right") + " of the ridge";
}

std::string trafficDescription(const Config& c)
{
    switch (c.traffic) {
    case TrafficModel::Compulsory:
        return c.fusion ? "compulsory DRAM traffic per row, elementwise rows fused"
                        : "compulsory DRAM traffic per layer";
    case TrafficModel::Fused:
        return "compulsory DRAM traffic per row, elementwise rows fused";
    case TrafficModel::Naive:
        return "naive traffic (no on-chip reuse: both operands of every multiply-add from DRAM)";
    case TrafficModel::Tiled:
        return (c.onchipKiB > 0 ? "tiled traffic, reuse in " + std::to_string(c.onchipKiB) + " KiB of shared memory"
                                : std::string("tiled traffic, reuse in each device's L1/shared memory"))
            + " (and in L2, with L2 and L1 ceilings, where the device file gives their bandwidths)";
    }
    return "compulsory DRAM traffic per layer";
}

namespace {
constexpr const char* kCacheAwareRule
    = "cache-aware: a row whose working set (inputs, weights, outputs) fits a cache "
      "level, all cores together, runs against that level's bandwidth, the share the next "
      "smaller level holds against its own";
}

bool anyCacheAware(const Report& report)
{
    return std::any_of(
        report.results.begin(), report.results.end(), [](const DeviceResult& d) { return d.cacheAware; });
}

std::string timeBoundText(const Config& config, bool cacheAware)
{
    return config.traffic == TrafficModel::Tiled ? "time = max(FLOP/peak, bytes/bandwidth at each modelled level)"
        : cacheAware ? std::string("time = max(FLOP/peak, bytes/bandwidth); ") + kCacheAwareRule
                     : "time = max(FLOP/peak, bytes/bandwidth)";
}

std::string conventionsText(const Config& config, bool cacheAware, const std::string& modelConventions)
{
    std::string bytes = trafficDescription(config);
    if (config.traffic == TrafficModel::Compulsory && !config.fusion)
        bytes += " (inputs and weights read once, outputs written once)";
    std::string algorithm;
    if (config.algorithm != ConvAlgorithm::Direct || !config.layerAlgorithms.empty())
        algorithm = "; convolutions computed " + std::string(algorithmName(config.algorithm))
            + (config.layerAlgorithms.empty() ? "" : " (some layers their own way)");
    return "FLOP = one floating-point operation, a fused multiply-add counts 2; bytes = " + bytes
        + (config.traffic == TrafficModel::Tiled
                ? "; time bound = max(FLOP / peak, bytes / bandwidth at each modelled level)"
                : cacheAware ? std::string("; time bound = max(FLOP / peak, bytes / bandwidth); ") + kCacheAwareRule
                             : "; time bound = max(FLOP / peak, bytes / DRAM bandwidth)")
        + algorithm + (modelConventions.empty() ? std::string() : "; " + modelConventions);
}

} // namespace rfx
