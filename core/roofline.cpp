#include "roofline.h"

#include "format.h"
#include "networks.h"

#include <algorithm>
#include <cmath>

namespace rfx {

std::string_view boundName(Bound b) { return b == Bound::Memory ? "memory" : "compute"; }

bool runsOnMatrixUnits(Op op) { return op == Op::Conv || op == Op::ConvTranspose || op == Op::Linear; }

namespace {

// Per-row costs do not depend on the device: compute them once for all devices.
struct RowCost {
    const Layer* layer = nullptr; // null for the optimizer row
    std::string name;
    Op op;
    Shape out;
    std::int64_t params;
    double flops;
    double bytes;
    int kernels;
};

std::vector<RowCost> rowCosts(const Network& net, const Config& config, std::int64_t& totalParams)
{
    const double e = elementBytes(config.bits);
    const bool training = config.mode == Mode::Training;
    std::vector<RowCost> rows;
    rows.reserve(net.layers.size() + 1);
    totalParams = 0;
    for (const Layer& l : net.layers) {
        const LayerCost c = layerCost(l, e);
        totalParams += c.params;
        RowCost r { &l, l.name, l.op, l.out, c.params, c.flopsForward, c.bytesForward, c.kernelsForward };
        if (training) {
            r.flops += c.flopsBackward;
            r.bytes += c.bytesBackward;
            r.kernels += c.kernelsBackward;
        }
        rows.push_back(std::move(r));
    }
    if (training) {
        const OptimizerCostPerParam o = optimizerCostPerParam(config.optimizer);
        const double p = double(totalParams);
        rows.push_back(RowCost { nullptr, "optimizer (" + std::string(optimizerName(config.optimizer)) + ")",
            Op::Optimizer, Shape {}, 0, o.flops * p, o.elements * p * e, 1 });
    }
    return rows;
}

} // namespace

Report analyze(const Network& net, const Config& config, const std::vector<Device>& devices)
{
    Report report;
    report.config = config;
    report.network = net.name;
    report.input = net.input;
    report.output = net.output();
    for (const Layer& l : net.layers)
        report.convolutions += (l.op == Op::Conv || l.op == Op::ConvTranspose) ? 1 : 0;

    std::int64_t totalParams = 0;
    const std::vector<RowCost> rows = rowCosts(net, config, totalParams);
    const MemoryFootprint memory = memoryFootprint(net, config);

    for (const Device& device : devices) {
        DeviceResult r;
        r.device = device;
        r.ceiling = chooseCeiling(device, config.bits, config.tensorCores);
        r.vectorCeiling = chooseCeiling(device, config.bits, false);
        for (const auto* c : { &r.ceiling, &r.vectorCeiling }) {
            if (!c->note.empty()
                && std::none_of(report.diagnostics.begin(), report.diagnostics.end(),
                    [&](const Diagnostic& d) { return d.message == c->note; }))
                report.diagnostics.push_back({ Severity::Warning, device.file, "peak", c->note });
        }
        r.bandwidth = device.dramBandwidth;
        r.ridge = r.bandwidth > 0 ? r.ceiling.flops / r.bandwidth : 0;

        Totals& t = r.totals;
        t.params = totalParams;
        double memoryBoundTime = 0;
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
            lr.intensity = row.bytes > 0 ? row.flops / row.bytes : 0;
            lr.peak = runsOnMatrixUnits(row.op) ? r.ceiling.flops : r.vectorCeiling.flops;
            lr.attainable = std::min(lr.peak, lr.intensity * r.bandwidth);
            const double computeTime = lr.peak > 0 ? row.flops / lr.peak : 0;
            const double memoryTime = r.bandwidth > 0 ? row.bytes / r.bandwidth : 0;
            // Memory-bound iff the row's intensity lies left of its own ridge (I < P_peak / B).
            lr.bound = (r.bandwidth > 0 && lr.intensity * r.bandwidth < lr.peak) ? Bound::Memory : Bound::Compute;
            lr.time = std::max(computeTime, memoryTime) + row.kernels * device.launchOverhead;
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
        t.capacity = device.memoryBytes;
        t.fits = memory.total() <= device.memoryBytes;
        t.largestBatch = largestBatchThatFits(memory, config.batch, device.memoryBytes);

        const bool memoryBound = t.memoryBoundTimeShare >= 0.5;
        const double share = memoryBound ? t.memoryBoundTimeShare : 1 - t.memoryBoundTimeShare;
        r.verdict = std::string(memoryBound ? "memory-bound: " : "compute-bound: ") + formatPercent(share)
            + " of time in layers " + (memoryBound ? "left" : "right") + " of the ridge";
        report.results.push_back(std::move(r));
    }
    return report;
}

AnalysisOutcome analyzeConfig(const Config& config, const std::vector<Device>& devices)
{
    AnalysisOutcome out;
    if (auto err = validate(config)) {
        out.error = *err;
        return out;
    }
    BuildResult built = buildNetwork(config);
    if (!built.network) {
        out.error = built.error;
        return out;
    }
    out.report = analyze(*built.network, config, devices);
    return out;
}

std::string conventionsText()
{
    return "FLOP = one floating-point operation, a fused multiply-add counts 2; "
           "bytes = compulsory DRAM traffic per layer (inputs and weights read once, outputs written once); "
           "time bound = max(FLOP / peak, bytes / DRAM bandwidth)";
}

} // namespace rfx
