// A row's costs that do not depend on the device (computed once per analysis), and its bound and
// algorithm on one device's ceilings: the pieces roofline.cpp's analyze() puts together per device.
#include "engine/roofline_rows.h"

#include "engine/calibration.h"
#include "engine/cost.h"
#include "engine/precision.h"

#include <algorithm>
#include <cmath>

namespace rfx::rows {

namespace {
bool usesAlgorithmsOrTraffic(const Config& c)
{
    return c.algorithm != ConvAlgorithm::Direct || !c.layerAlgorithms.empty()
        || (c.traffic != TrafficModel::Compulsory && c.traffic != TrafficModel::Fused);
}
} // namespace

std::vector<RowCost> rowCosts(
    const Network& net, const Config& config, std::int64_t& totalParams, std::vector<GemmCost>& gemms)
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
        // A language model's row that reads weights or the KV cache reads them once a pass, and all the
        // others stream through the caches between its runs: its working set is the pass's (issue 50:
        // decode's projections and attention come from DRAM). Its activations may still be in cache
        // from the row before; in a decode step they are a small part of its bytes.
        if (!l.block.empty() && l.repeats > 1)
            r.workingSet = c.bytesForward / l.repeats; // each block's own tensors: one run's
        if (l.passBytes > 0)
            r.workingSet = std::max(r.workingSet, l.passBytes);
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
        rows.push_back(
            RowCost { nullptr, "optimizer (" + std::string(optimizerName(config.optimizer)) + ")", Op::Optimizer,
                Shape {}, 0, o.flops * p, o.elements * p * e, 1, o.elements * p * e, calibrationClass(Op::Optimizer) });
    }
    return rows;
}

// Cache-aware: the smallest level that holds the working set W (DRAM when none does), and the
// bandwidth the row's bytes come at. The next smaller level holds its capacity C of W at best: the
// share C / W comes at its speed, the rest at the level's, so a bound stays a bound where W just
// misses a cache (U-Net's 33.6 MB rows ran at L3 speed beside a 32 MiB L3, 2.5x "above" DRAM's roof).
CacheSupply supplyOf(double workingSet, double l1, double l1Capacity, double l2, double l2Capacity, double l3,
    double l3Capacity, double dram)
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

// What each row runs against on the device: its ceilings, and the on-chip capacity the tiled model
// reuses in (the configuration's, else the device's L1, else 48 KiB), also kept in `r`.
Ceilings rowCeilings(DeviceResult& r, const Config& config)
{
    const Device& device = r.device;
    const double onchip = config.onchipKiB > 0 ? config.onchipKiB * 1024.0
        : device.l1Bytes > 0                   ? device.l1Bytes
                                               : 48 * 1024.0;
    r.onchipBytes = onchip;
    Ceilings ceil { r.ceiling.flops, r.bandwidth, r.l2Bandwidth, r.l1Bandwidth, onchip, device.l2Bytes };
    if (r.cacheAware) {
        ceil.l3 = r.l3Bandwidth;
        ceil.l1Capacity = r.l1Capacity;
        ceil.l2Capacity = r.l2Capacity;
        ceil.l3Capacity = r.l3Capacity;
    }
    return ceil;
}

RowBound rowBound(
    double flops, double bytes, double l2Bytes, double l1Bytes, const Ceilings& c, double peak, double workingSet)
{
    RowBound b;
    const double compute = peak > 0 ? flops / peak : 0;
    double memory = c.dram > 0 ? bytes / c.dram : 0;
    if (workingSet >= 0) {
        const CacheSupply supply
            = supplyOf(workingSet, c.l1, c.l1Capacity, c.l2, c.l2Capacity, c.l3, c.l3Capacity, c.dram);
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

Chosen choose(const GemmCost& r, const Config& config, double e, const Ceilings& ceil)
{
    const bool training = config.mode == Mode::Training;
    const double passes
        = training ? 3 : 1; // training: data and weight gradients, each as the forward pass (see layerCost())
    auto cost = [&](ConvAlgorithm a) {
        const AlgorithmCost& c = r.algorithms[size_t(a)];
        Chosen x;
        x.algorithm = a;
        const double compulsory = r.compulsoryElements + c.extraElements;
        if (config.traffic == TrafficModel::Tiled) {
            const LevelTraffic t
                = tiledLevelTraffic(compulsory, c.gemmMacs, r.outputElements, ceil.onchipBytes / e, ceil.l2Bytes / e,
                    ceil.l2 > 0, ceil.l1 > 0, config.tensorCores ? kRegisterTileTensor : kRegisterTileSimt);
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
    auto timeOf
        = [&](const Chosen& c) { return rowBound(c.flops, c.bytes, c.l2Bytes, c.l1Bytes, ceil, ceil.peak).time; };
    if (r.requested == ConvAlgorithm::Auto) {
        Chosen best = cost(ConvAlgorithm::Direct);
        double bestTime = timeOf(best);
        for (ConvAlgorithm a :
            { ConvAlgorithm::Im2col, ConvAlgorithm::Fft, ConvAlgorithm::Winograd2, ConvAlgorithm::Winograd4 }) {
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

void takeLayerFacts(LayerResult& row, const Layer* layer)
{
    row.origin = layer ? layer->origin : -1;
    if (layer) {
        row.block = layer->block;
        row.repeats = layer->repeats;
    }
}

} // namespace rfx::rows
