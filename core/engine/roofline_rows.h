#pragma once
// Internal to the roofline (roofline.cpp, roofline_rows.cpp): a row's costs that do not depend on the
// device, computed once per analysis, and a row's bound and algorithm on one device's ceilings.

#include "engine/algorithms.h"
#include "engine/roofline.h"
#include "model/config.h"
#include "model/network.h"

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rfx::rows {

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

// What a result row keeps of its layer: its ONNX node, the blocks it stands for and its runs (none
// for the optimizer row, `layer` null).
void takeLayerFacts(LayerResult& row, const Layer* layer);

struct GemmCost {
    std::array<AlgorithmCost, 5> algorithms {}; ///< index = ConvAlgorithm, Auto excluded; forward, elements
    double compulsoryElements = 0; ///< inputs + weights + outputs
    double outputElements = 0;
    double epilogueFlops = 0;
    ConvAlgorithm requested = ConvAlgorithm::Direct;
};

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

/// What each row runs against on the device: its ceilings, and the on-chip capacity the tiled model
/// reuses in (kept in `r`). Also the serving planner's, for the rows it joins (core/serving).
Ceilings rowCeilings(DeviceResult& r, const Config& config);

// max(F / P, Q_dram / B_dram, Q_L2 / B_L2, Q_L1 / B_L1) without launch overhead; `level` names the memory term
// that is largest, `memory` says whether it beats the compute term.
struct RowBound {
    double time = 0;
    bool memory = false;
    MemoryLevel level = MemoryLevel::Dram;
};

// A matrix-product row on one device: its algorithm (the requested one, the fastest one for Auto,
// direct with a note where the requested one does not apply) and its costs under the traffic model.
struct Chosen {
    ConvAlgorithm algorithm = ConvAlgorithm::Direct;
    double flops = 0, bytes = 0, workspace = 0, extraBytes = 0, l2Bytes = 0, l1Bytes = 0;
    int kernels = 1;
    std::string note;
};

/// The device-independent costs of every row of `net` under `config` (forward, plus backward and the
/// optimizer row in training); `totalParams` their parameters, `gemms` the matrix rows' per-algorithm
/// costs where the configuration asks for algorithms or a non-compulsory traffic model.
std::vector<RowCost> rowCosts(
    const Network& net, const Config& config, std::int64_t& totalParams, std::vector<GemmCost>& gemms);

/// Cache-aware: the smallest level that holds the working set (DRAM when none does) and the bandwidth
/// the row's bytes come at.
CacheSupply supplyOf(double workingSet, double l1, double l1Capacity, double l2, double l2Capacity, double l3,
    double l3Capacity, double dram);

/// A row's bound on one device's ceilings (workingSet < 0: not cache-aware).
RowBound rowBound(
    double flops, double bytes, double l2Bytes, double l1Bytes, const Ceilings& c, double peak, double workingSet = -1);

/// A matrix-product row on one device: its algorithm and its costs under the traffic model.
Chosen choose(const GemmCost& r, const Config& config, double e, const Ceilings& ceil);

} // namespace rfx::rows
