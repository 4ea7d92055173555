#include "roofline.h"

#include "calibration.h"

#include "format.h"
#include "networks.h"
#include "onnx_model.h"
#include "precision.h"

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
        return formatPercent(t.peakShare) + " of " + precisionLabel(d.ceiling.key) + " " + formatSI(d.ceiling.flops, unit);
    return formatPercent(t.peakShare) + " of the rows' own ceilings, " + formatSI(t.attained / t.peakShare, unit)
        + " together";
}

namespace {

// Per-row costs that do not depend on the device, computed once for all devices.
struct RowCost {
    const Layer* layer = nullptr; // null for the optimizer row
    std::string name;
    Op op;
    Shape out;
    std::int64_t params;
    double flops;
    double bytes;
    int kernels;
    double workingSet = 0; // forward inputs + weights + outputs, byte
    // Of the row, not of a device: found once here, not once per device in analyze().
    std::string_view opClass = "elementwise"; // calibrationClass
    double usefulShare = 1; // usefulTapShare
    // Matrix-product rows under a convolution algorithm or a non-compulsory traffic model: index into
    // the side table of per-algorithm costs (kept apart: most rows never need them, and a row that
    // carried them was five strings heavier, which doubled the time of a plain analysis).
    int gemm = -1;
};

struct GemmCost {
    std::array<AlgorithmCost, 5> algorithms {}; ///< index = ConvAlgorithm, Auto excluded; forward, elements
    double compulsoryElements = 0; ///< inputs + weights + outputs
    double outputElements = 0;
    double epilogueFlops = 0;
    ConvAlgorithm requested = ConvAlgorithm::Direct;
};

bool usesAlgorithmsOrTraffic(const Config& c)
{
    return c.algorithm != ConvAlgorithm::Direct || !c.layerAlgorithms.empty()
        || (c.traffic != TrafficModel::Compulsory && c.traffic != TrafficModel::Fused);
}

std::vector<RowCost> rowCosts(const Network& net, const Config& config, std::int64_t& totalParams, std::vector<GemmCost>& gemms)
{
    const double e = elementBytes(config.bits);
    const bool training = config.mode == Mode::Training;
    const bool advanced = usesAlgorithmsOrTraffic(config);
    std::vector<RowCost> rows;
    rows.reserve(net.layers.size() + 1);
    totalParams = 0;
    for (const Layer& l : net.layers) {
        const LayerCost c = layerCost(l, e, config.bitsAsInFile);
        totalParams += c.params;
        RowCost r { &l, l.name, l.op, l.out, c.params, c.flopsForward, c.bytesForward, c.kernelsForward, c.bytesForward,
            calibrationClass(l), usefulTapShare(l) };
        if (training) {
            r.flops += c.flopsBackward;
            r.bytes += c.bytesBackward;
            r.kernels += c.kernelsBackward;
        }
        if (advanced && runsOnMatrixUnits(l.op)) {
            GemmCost g;
            for (int k = 0; k < 5; ++k)
                g.algorithms[size_t(k)] = convolutionCost(l, ConvAlgorithm(k));
            g.compulsoryElements = c.bytesForward / e;
            g.outputElements = double(l.out.elements());
            g.epilogueFlops = c.flopsForward - g.algorithms[0].flops;
            auto it = config.layerAlgorithms.find(l.name);
            g.requested = it != config.layerAlgorithms.end() ? it->second : config.algorithm;
            r.gemm = int(gemms.size());
            gemms.push_back(std::move(g));
        }
        rows.push_back(std::move(r));
    }
    if (training) {
        const OptimizerCostPerParam o = optimizerCostPerParam(config.optimizer);
        const double p = double(totalParams);
        rows.push_back(RowCost { nullptr, "optimizer (" + std::string(optimizerName(config.optimizer)) + ")",
            Op::Optimizer, Shape {}, 0, o.flops * p, o.elements * p * e, 1, o.elements * p * e, calibrationClass(Op::Optimizer) });
    }
    return rows;
}

// The ceilings a row runs against on one device: compute, DRAM and, under the tiled model where the
// device file gives them, L2 and L1 (0 = not modelled).
struct Ceilings {
    double peak = 0;
    double dram = 0;
    double l2 = 0;
    double l1 = 0;
    double onchipBytes = 0; // shared memory / L1 capacity the tiling uses
    double l2Bytes = 0; // L2 capacity
    // Cache-aware: the levels a working set may fit, all cores together, and their bandwidths (0 = not used).
    double l3 = 0;
    double l1Capacity = 0, l2Capacity = 0, l3Capacity = 0;
};

// max(F / P, Q_dram / B_dram, Q_L2 / B_L2, Q_L1 / B_L1) without launch overhead; `level` names the memory term
// that is largest, `memory` says whether it beats the compute term.
struct RowBound {
    double time = 0;
    bool memory = false;
    MemoryLevel level = MemoryLevel::Dram;
};

// Cache-aware: the smallest level that holds the working set W (DRAM when none does), and the
// bandwidth the row's bytes come at. The next smaller level holds its capacity C of W at best: the
// share C / W comes at its speed, the rest at the level's, so a bound stays a bound where W just
// misses a cache (U-Net's 33.6 MB rows ran at L3 speed beside a 32 MiB L3, 2.5x "above" DRAM's roof).
CacheSupply supplyOf(double workingSet, double l1, double l1Capacity, double l2, double l2Capacity, double l3, double l3Capacity,
    double dram)
{
    struct Level {
        MemoryLevel level;
        double capacity, bandwidth;
    };
    const Level levels[] = { { MemoryLevel::L1, l1Capacity, l1 }, { MemoryLevel::L2, l2Capacity, l2 },
        { MemoryLevel::L3, l3Capacity, l3 }, { MemoryLevel::Dram, INFINITY, dram } };
    const Level* inner = nullptr;
    for (const Level& l : levels) {
        if (!(l.bandwidth > 0) || !(l.capacity > 0))
            continue;
        if (workingSet <= l.capacity || l.level == MemoryLevel::Dram) {
            CacheSupply s { l.level, l.bandwidth };
            if (inner && inner->bandwidth > l.bandwidth && workingSet > 0) {
                s.inner = inner->level;
                s.innerShare = std::min(1.0, inner->capacity / workingSet);
                s.bandwidth = 1 / (s.innerShare / inner->bandwidth + (1 - s.innerShare) / l.bandwidth);
            }
            return s;
        }
        inner = &l;
    }
    return { MemoryLevel::Dram, dram };
}

RowBound rowBound(double flops, double bytes, double l2Bytes, double l1Bytes, const Ceilings& c, double peak,
    double workingSet = -1)
{
    RowBound b;
    const double compute = peak > 0 ? flops / peak : 0;
    double memory = c.dram > 0 ? bytes / c.dram : 0;
    if (workingSet >= 0) {
        const CacheSupply supply = supplyOf(workingSet, c.l1, c.l1Capacity, c.l2, c.l2Capacity, c.l3, c.l3Capacity, c.dram);
        b.level = supply.level;
        memory = supply.bandwidth > 0 ? bytes / supply.bandwidth : 0;
    }
    if (c.l2 > 0 && l2Bytes / c.l2 > memory) {
        memory = l2Bytes / c.l2;
        b.level = MemoryLevel::L2;
    }
    if (c.l1 > 0 && l1Bytes / c.l1 > memory) {
        memory = l1Bytes / c.l1;
        b.level = MemoryLevel::L1;
    }
    b.memory = compute < memory;
    b.time = std::max(compute, memory);
    return b;
}

// A matrix-product row on one device: its algorithm (the requested one, the fastest one for Auto,
// direct with a note where the requested one does not apply) and its costs under the traffic model.
struct Chosen {
    ConvAlgorithm algorithm = ConvAlgorithm::Direct;
    double flops = 0, bytes = 0, workspace = 0, extraBytes = 0, l2Bytes = 0, l1Bytes = 0;
    int kernels = 1;
    std::string note;
};

Chosen choose(const GemmCost& r, const Config& config, double e, const Ceilings& ceil)
{
    const bool training = config.mode == Mode::Training;
    const double passes = training ? 3 : 1; // training: data and weight gradients, each as the forward pass (see layerCost())
    auto cost = [&](ConvAlgorithm a) {
        const AlgorithmCost& c = r.algorithms[size_t(a)];
        Chosen x;
        x.algorithm = a;
        const double compulsory = r.compulsoryElements + c.extraElements;
        if (config.traffic == TrafficModel::Tiled) {
            const LevelTraffic t = tiledLevelTraffic(compulsory, c.gemmMacs, r.outputElements, ceil.onchipBytes / e,
                ceil.l2Bytes / e, ceil.l2 > 0, ceil.l1 > 0, config.tensorCores ? kRegisterTileTensor : kRegisterTileSimt);
            x.bytes = passes * t.dram * e;
            x.l2Bytes = passes * t.l2 * e;
            x.l1Bytes = passes * t.l1 * e;
        } else {
            x.bytes = passes * trafficElements(config.traffic, compulsory, c.gemmMacs, r.outputElements, 0) * e;
        }
        x.flops = passes * c.flops + (training ? 2 : 1) * r.epilogueFlops;
        x.kernels = int(passes) * c.kernels;
        x.workspace = c.workspaceElements * e;
        x.extraBytes = passes * c.extraElements * e;
        return x;
    };
    auto timeOf = [&](const Chosen& c) { return rowBound(c.flops, c.bytes, c.l2Bytes, c.l1Bytes, ceil, ceil.peak).time; };
    if (r.requested == ConvAlgorithm::Auto) {
        Chosen best = cost(ConvAlgorithm::Direct);
        double bestTime = timeOf(best);
        for (ConvAlgorithm a : { ConvAlgorithm::Im2col, ConvAlgorithm::Fft, ConvAlgorithm::Winograd2, ConvAlgorithm::Winograd4 }) {
            if (!r.algorithms[size_t(a)].applies)
                continue;
            const Chosen c = cost(a);
            const double t = timeOf(c);
            if (t < bestTime) {
                best = c;
                bestTime = t;
            }
        }
        best.note = "auto: fastest predicted";
        return best;
    }
    const AlgorithmCost& wanted = r.algorithms[size_t(r.requested)];
    if (!wanted.applies) {
        Chosen d = cost(ConvAlgorithm::Direct);
        d.note = wanted.whyNot + "; computed direct";
        return d;
    }
    return cost(r.requested);
}

} // namespace

CacheSupply cacheSupply(const DeviceResult& d, double workingSet)
{
    return supplyOf(workingSet, d.l1Bandwidth, d.l1Capacity, d.l2Bandwidth, d.l2Capacity, d.l3Bandwidth, d.l3Capacity, d.bandwidth);
}

Report analyze(const Network& net, const Config& requested, const std::vector<Device>& devices)
{
    // A file that fixes the batch wins over the configuration's: throughput, energy per image and the
    // report's batch are the rows' (a 1x3x1024x1024 model analysed "at batch 16" is still one image).
    Config config = requested;
    if (net.fixedBatch > 0)
        config.batch = net.fixedBatch;
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
                "no convolution or linear layer named '" + layer + "' in " + net.name + "; its algorithm choice is ignored" });
    }
    const MemoryFootprint memory = memoryFootprint(net, config);
    // Precision as in the file: each row's own arithmetic; the chart's roof is that of the precision
    // doing most of the matrix FLOPs.
    const PrecisionMix mix = precisionMix(net, config);
    if (mix.rowsAt.size() > 1) {
        std::string said;
        for (const auto& [type, count] : mix.rowsAt)
            said += (said.empty() ? "" : ", ") + std::to_string(count) + " at " + std::string(numberWord(type));
        report.diagnostics.push_back({ Severity::Info, "", "bits", "precision as in the file: rows run at their own precision (" + said + ")" });
    }

    for (const Device& device : devices) {
        DeviceResult r;
        r.device = device;
        r.ceiling = chooseCeiling(device, mix.dominant, config.tensorCores);
        r.vectorCeiling = chooseCeiling(device, mix.dominant, false);
        // Rows at another precision than the roof's (as in the file): their ceilings, chosen once per device.
        std::map<std::pair<NumberType, bool>, CeilingChoice> own;
        auto ceilingOf = [&](NumberType type, bool matrix) -> const CeilingChoice& {
            auto it = own.find({ type, matrix });
            if (it == own.end()) {
                CeilingChoice c = chooseCeiling(device, type, matrix && config.tensorCores);
                c.flops *= config.clockPercent / 100.0;
                if (!c.note.empty() && std::none_of(report.diagnostics.begin(), report.diagnostics.end(),
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

        Totals& t = r.totals;
        t.params = totalParams;
        double memoryBoundTime = 0;
        double workspace = 0;
        const double e = elementBytes(config.bits);
        const double onchip = config.onchipKiB > 0 ? config.onchipKiB * 1024.0
            : device.l1Bytes > 0                 ? device.l1Bytes
                                                 : 48 * 1024.0;
        r.onchipBytes = onchip;
        Ceilings ceil { r.ceiling.flops, r.bandwidth, r.l2Bandwidth, r.l1Bandwidth, onchip, device.l2Bytes };
        if (r.cacheAware) {
            ceil.l3 = r.l3Bandwidth;
            ceil.l1Capacity = r.l1Capacity;
            ceil.l2Capacity = r.l2Capacity;
            ceil.l3Capacity = r.l3Capacity;
        }
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
            lr.origin = row.layer ? row.layer->origin : -1;
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
            const RowBound b
                = rowBound(lr.flops, lr.bytes, lr.l2Bytes, lr.l1Bytes, ceil, lr.peak, r.cacheAware ? lr.workingSet : -1);
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
            const bool used = std::any_of(r.layers.begin(), r.layers.end(), [&](const LayerResult& l) { return l.flops > 0 && same(l.peak); });
            if (used && !same(r.ceiling.flops) && !same(r.vectorCeiling.flops)
                && std::none_of(r.rowCeilings.begin(), r.rowCeilings.end(), [&](const CeilingChoice& o) { return same(o.flops); }))
                r.rowCeilings.push_back(c);
        }
        std::sort(r.rowCeilings.begin(), r.rowCeilings.end(), [](const CeilingChoice& a, const CeilingChoice& b) { return a.flops > b.flops; });
        // Rows at several precisions: the share of peak is of the rows' own ceilings together (the FLOPs
        // over the time they take at their own peaks), not of the roof's alone: an fp16 file's fp32 rows on
        // the MX230 made it "147 % of FP16 12.2 GFLOP/s".
        if (!r.rowCeilings.empty()) {
            double atPeaks = 0;
            for (const LayerResult& l : r.layers)
                atPeaks += l.peak > 0 ? l.flops / l.peak : 0;
            t.peakShare = atPeaks > 0 && t.flops > 0 ? t.attained / (t.flops / atPeaks) : 0;
        }
        r.verdict = verdictText(t.memoryBoundTimeShare);
        report.results.push_back(std::move(r));
    }
    return report;
}

std::string verdictText(double memoryBoundTimeShare)
{
    const bool memoryBound = memoryBoundTimeShare >= 0.5;
    const double share = memoryBound ? memoryBoundTimeShare : 1 - memoryBoundTimeShare;
    return std::string(memoryBound ? "memory-bound: " : "compute-bound: ") + formatPercent(share) + " of time in layers "
        + (memoryBound ? "left" : "right") + " of the ridge";
}

AnalysisOutcome analyzeConfig(const Config& config, const std::vector<Device>& devices)
{
    AnalysisOutcome out;
    BuildResult built = buildCheckedNetwork(config);
    if (!built.network) {
        out.error = built.error;
        return out;
    }
    out.report = analyze(*built.network, config, devices);
    return out;
}

std::string trafficDescription(const Config& c)
{
    switch (c.traffic) {
    case TrafficModel::Compulsory:
        return c.fusion ? "compulsory DRAM traffic per row, elementwise rows fused" : "compulsory DRAM traffic per layer";
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
constexpr const char* kCacheAwareRule = "cache-aware: a row whose working set (inputs, weights, outputs) fits a cache "
                                        "level, all cores together, runs against that level's bandwidth, the share the next "
                                        "smaller level holds against its own";
}

bool anyCacheAware(const Report& report)
{
    return std::any_of(report.results.begin(), report.results.end(), [](const DeviceResult& d) { return d.cacheAware; });
}

std::string timeBoundText(const Config& config, bool cacheAware)
{
    return config.traffic == TrafficModel::Tiled ? "time = max(FLOP/peak, bytes/bandwidth at each modelled level)"
        : cacheAware ? std::string("time = max(FLOP/peak, bytes/bandwidth); ") + kCacheAwareRule
                     : "time = max(FLOP/peak, bytes/bandwidth)";
}

std::string conventionsText(const Config& config, bool cacheAware)
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
        + algorithm + (isOnnxFile(config.model) ? "; " + onnxConventions() : std::string());
}

} // namespace rfx
