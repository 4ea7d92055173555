#pragma once

#include "base/diagnostic.h"
#include "base/enum_words.h"
#include "devices/device.h"
#include "engine/algorithms.h"
#include "engine/cost.h"
#include "model/config.h"
#include "model/network.h"
#include "model/unet.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rfx {

enum class Bound { Memory, Compute };
inline constexpr EnumWord<Bound> kBoundWords[] = { { Bound::Memory, "memory" }, { Bound::Compute, "compute" } };
std::string_view boundName(Bound b);

/// The memory level whose traffic bounds a memory-bound row (DRAM unless the hierarchy is modelled, or
/// the row's working set fits a cache in the cache-aware model).
enum class MemoryLevel { Dram, L2, L1, L3 };
inline constexpr EnumWord<MemoryLevel> kMemoryLevelWords[] = { { MemoryLevel::Dram, "DRAM" }, { MemoryLevel::L2, "L2" },
    { MemoryLevel::L1, "L1" }, { MemoryLevel::L3, "L3" } };
std::string_view memoryLevelName(MemoryLevel level); ///< "DRAM", "L2", "L1", "L3"

/// One row of the analysis on one device. In training, FLOPs and bytes are forward + backward.
struct LayerResult {
    std::string name;
    Op op = Op::Conv;
    Shape out; ///< all zero for the optimizer row
    std::int64_t params = 0;
    double flops = 0; ///< FLOP
    double bytes = 0; ///< byte
    double intensity = 0; ///< FLOP/byte; 0 for rows that compute nothing
    double peak = 0; ///< compute ceiling this row runs against, FLOP/s
    int bits = 32; ///< the precision of its arithmetic (the configuration's, or the file's with Config::bitsAsInFile)
    NumberType type = NumberType::Fp32; ///< its arithmetic's type, which chose `peak` (bits alone: int8 or fp8?)
    double attainable = 0; ///< min(peak, intensity * bandwidth), FLOP/s
    Bound bound = Bound::Memory;
    double time = 0; ///< max(flops / peak, bytes / bandwidth) + kernels * launch overhead, second
    double share = 0; ///< time / network time, 0..1
    int kernels = 1;
    ConvAlgorithm algorithm = ConvAlgorithm::Direct; ///< how a convolution is computed (direct for other rows)
    std::string algorithmNote; ///< why the requested algorithm was not used, or "auto: fastest predicted"
    double workspace = 0; ///< algorithm workspace, byte
    double extraBytes = 0; ///< the algorithm's DRAM traffic beyond inputs, weights and outputs, byte
    /// Traffic at the inner levels under the tiled model, byte (0 = level not modelled; see
    /// DeviceResult::l2Bandwidth). `bytes` stays the DRAM traffic.
    double l2Bytes = 0;
    double l1Bytes = 0;
    MemoryLevel level = MemoryLevel::Dram; ///< the level that bounds the row when bound == Memory
    /// Inputs, weights and outputs of the forward pass, byte: what must stay in a cache for the
    /// cache-aware model to bound the row by that cache's bandwidth (DeviceResult::cacheAware).
    double workingSet = 0;
    int origin = -1; ///< imported rows: index into Report::origins (the ONNX node)
    std::string block; ///< Layer::block: the identical blocks the row stands for ("blk0-31"), or empty
    double repeats = 1; ///< Layer::repeats: its figures are this many runs' (a block's rows: the blocks')
    /// The class a calibration fits and predicts it in (calibrationClass: "conv", "depthwise", ...).
    std::string_view opClass = "elementwise";
    /// The share of its counted FLOPs a kernel must do (usefulTapShare: padded convolutions' taps
    /// in the zero padding can be skipped); a measurement may beat a compute bound by the rest.
    double usefulShare = 1;
    double calibratedTime = -1; ///< the calibration's prediction, second; negative: not calibrated
    double boundTime = -1; ///< the roofline bound when `time` holds the calibrated time (calibratedView)
    /// The calibration class whose fit predicted calibratedTime ("conv" for a depthwise row that
    /// borrows it, "all" for the side's pooled fit); empty when not calibrated.
    std::string_view calibratedBy;
    /// The row's size lies outside what that fit was fitted on (CalibrationGroup::extrapolates).
    bool calibrationExtrapolated = false;
};

struct Totals {
    std::int64_t params = 0;
    double flops = 0;
    double bytes = 0;
    double intensity = 0; ///< flops / bytes
    double time = 0; ///< sum of row times, second
    double throughput = 0; ///< images per second = batch / time
    double attained = 0; ///< flops / time, FLOP/s
    double peakShare = 0; ///< attained / peak, 0..1
    double memoryBoundTimeShare = 0; ///< share of time in memory-bound rows, 0..1
    MemoryFootprint memory;
    double capacity = 0; ///< device memory, byte
    bool fits = true;
    std::int64_t largestBatch = 0; ///< largest batch that fits in device memory
    double calibratedTime = -1; ///< sum of the rows' calibrated times, second; negative: not calibrated
    double boundTime = -1; ///< the roofline bound when `time` holds the calibrated time (calibratedView)
};

struct DeviceResult {
    Device device;
    CeilingChoice ceiling; ///< for convolutions (tensor cores when enabled)
    CeilingChoice vectorCeiling; ///< for elementwise rows, pooling and the optimizer
    /// With the precision as in the file: the other ceilings rows ran against (their precision is not
    /// the roof's), each once, the fastest first; empty otherwise.
    std::vector<CeilingChoice> rowCeilings;
    double bandwidth = 0; ///< byte/s
    double ridge = 0; ///< ceiling.flops / bandwidth, FLOP/byte
    double onchipBytes = 0; ///< on-chip capacity the tiled traffic model used, byte
    /// Inner-level ceilings in force, byte/s: the device's L2 / L1 bandwidth under the tiled traffic
    /// model where its file gives one, else 0 (the level is not modelled; rows then carry no l2Bytes/l1Bytes).
    double l2Bandwidth = 0;
    double l1Bandwidth = 0;
    /// Cache-aware model (Config::cacheAware): a row whose working set fits a cache level runs against
    /// that level's bandwidth instead of DRAM's. The levels in force carry their bandwidth above (and
    /// L3's here) and their capacity, all cores together (0 = the level is not used).
    bool cacheAware = false;
    double l3Bandwidth = 0;
    double l1Capacity = 0, l2Capacity = 0, l3Capacity = 0;
    std::vector<LayerResult> layers;
    Totals totals;
    std::string verdict; ///< "memory-bound: 78 % of time in layers left of the ridge"
    std::string calibration; ///< the calibration applied (its label: the file), or empty
    bool timesCalibrated = false; ///< `time` holds calibrated times (calibratedView)
};

/// The roofline bound of a row or of the totals, also in a calibrated view (where `time` is calibrated).
inline double boundTimeOf(const LayerResult& l) { return l.boundTime >= 0 ? l.boundTime : l.time; }
inline double boundTimeOf(const Totals& t) { return t.boundTime >= 0 ? t.boundTime : t.time; }

/// Where a row's point sits on a roofline chart, FLOP/s: its attainable rate, or in a calibrated view
/// the rate its calibrated time gives (below the roof where kernels fall short of it).
inline double plottedRate(const LayerResult& l)
{
    return l.boundTime >= 0 && l.time > 0 ? l.flops / l.time : l.attainable;
}

/// A row's bound in a word: "compute", "memory" (DRAM), or "L3" / "L2" / "L1" when an inner level binds.
std::string boundLabel(const LayerResult& row);
/// The bandwidth of a level on a device (DRAM, or a cache level in force; 0 = not modelled).
double levelBandwidth(const DeviceResult& d, MemoryLevel level);
/// The bytes a row moves at the level that bounds it: its tiled traffic there, else its own bytes.
double levelTraffic(const LayerResult& row);
/// Where a cache-aware row's bytes come from: the smallest level holding its working set W, the
/// next smaller one holding `innerShare` = C / W of it at best (none: share 0), and the bandwidth the
/// bytes come at, 1 / (s / B_inner + (1 - s) / B_level) (README "Cache-aware ceilings").
struct CacheSupply {
    MemoryLevel level = MemoryLevel::Dram;
    double bandwidth = 0;
    MemoryLevel inner = MemoryLevel::Dram;
    double innerShare = 0;
};
/// The supply of a working set on a device whose analysis is cache-aware (DeviceResult::cacheAware).
CacheSupply cacheSupply(const DeviceResult& d, double workingSet);
/// Whether the configuration's cache-aware choice applies to a device: "auto" for CPUs with cache
/// bandwidths, "on" for every device with them, never under the tiled model (its own hierarchy).
bool cacheAwareFor(const Config& config, const Device& device);
/// The ceilings line of a device: "FP32 7.18 TFLOP/s, DRAM 448 GB/s, ridge 16.0 FLOP/B", plus the
/// L2 and L1 bandwidths when the analysis models them.
std::string ceilingsLine(const DeviceResult& d);

/// A share of peak, in the one wording the table, the window, Markdown and LaTeX use: "62.0 % of FP32
/// 7.18 TFLOP/s", or with rows at several precisions (Totals::peakShare is then of their own ceilings
/// together) "62.0 % of the rows' own ceilings, 1.00 TFLOP/s together".
std::string peakShareText(const DeviceResult& d);

/// "memory-bound: 78 % of time in layers left of the ridge" (or compute-bound, from the other side).
std::string verdictText(double memoryBoundTimeShare);

/// Rows of a report drawn with marks of their own: a language model's prefill and decode on one
/// chart (core/llm/llm_both.h). Each part runs from its first row to the next part's.
struct ReportPart {
    std::string name; ///< "prefill"
    int first = 0; ///< its first row, an index into each device's layers
};

/// The whole analysis, handed over as one value.
struct Report {
    Config config;
    std::string network;
    Shape input;
    Shape output;
    int convolutions = 0; ///< conv + conv_transpose rows (a separable conv counts 2)
    std::vector<DeviceResult> results;
    std::vector<Diagnostic> diagnostics;
    std::vector<RowOrigin> origins; ///< imported networks: the ONNX node of each row (LayerResult::origin)
    int uncountedRows = 0; ///< rows of operators the tool does not count (imported networks)
    std::int64_t storedParameters = -1; ///< Network::storedParameters
    std::vector<ReportPart> parts; ///< two or more: the rows' parts, in order; else the rows are one
};

/// Holds the network's per-layer cost against each device's roofline:
/// attainable P(I) = min(P_peak, I * B); ridge I* = P_peak / B; memory-bound iff I < I*;
/// row time t = max(F / P_peak, Q / B) (+ launch overhead per kernel); network time = sum of t.
/// Under the tiled traffic model with L2/L1 bandwidths known, each level adds its term:
/// t = max(F / P_peak, Q_dram / B_dram, Q_L2 / B_L2, Q_L1 / B_L1) (hierarchical roofline).
/// Cache-aware (DeviceResult::cacheAware): the row is bound by the smallest cache level whose
/// capacity, all cores together, holds its working set W (inputs + weights + outputs): L1 if
/// W <= L1 x cores, else L2 if W <= L2, else L3 if W <= L3, else DRAM (Intel Advisor's cache-aware
/// roofline; Ilic, Pratas & Sousa 2014). The next smaller level holds its capacity C of W at best,
/// so the bytes come C / W at its bandwidth and the rest at the level's:
/// t_mem = Q (s / B_inner + (1 - s) / B_level), s = C_inner / W.
Report analyze(const Network& network, const Config& config, const std::vector<Device>& devices);

/// A configuration's network where a study builds it again (the tuning's batches, the sweep's two):
/// the engine takes networks and never knows where they come from; the opener's buildCheckedNetwork
/// (open/build_network.h) is the one the tools pass.
using NetworkBuilder = std::function<BuildResult(const Config&)>;

/// The configuration's traffic model in words ("compulsory DRAM traffic per layer", "tiled traffic, ...").
std::string trafficDescription(const Config& config);
/// "time = max(FLOP/peak, bytes/bandwidth)", naming the levels under the tiled model (for captions),
/// and the cache-aware rule where a device of the report uses it.
std::string timeBoundText(const Config& config, bool cacheAware = false);
/// Conventions stamped on every report and export, for this configuration's traffic model and algorithm
/// (and the cache-aware rule where a device of the report uses it), then the model file's own
/// (`modelConventions`: the importer's counting rules, open/analyses.h modelConventions()).
std::string conventionsText(const Config& config, bool cacheAware = false, const std::string& modelConventions = {});
/// Whether any device of the report runs the cache-aware model.
bool anyCacheAware(const Report& report);

} // namespace rfx
