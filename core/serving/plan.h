#pragma once
// The serving planner: over devices, tensor parallelism, weight and cache precisions and the
// number of users a replica serves, the steady states (serving.h), each device's Pareto front of
// tokens/s per user against tokens/s per GPU, and the configurations meeting latency targets,
// ranked; for a load (users or requests/s), the GPUs it needs.

#include "serving/disaggregated.h"
#include "serving/serving.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace rfx {

struct PlanSettings {
    LlmSettings llm; ///< P, G and the attention; the widths and tensor parallelism are searched
    int gpusPerNode = 8; ///< the most GPUs a replica's tensor parallelism spans
    double usableMemory = 0.9;
    int chunkTokens = 2048;
    double ttft = 0; ///< target, second (0: none)
    double tpot = 0; ///< target, second (0: none)
    int users = 0; ///< a load: users served at once (0: none)
    double rate = 0; ///< a load: requests per second (0: none)
    /// US dollars per GPU-hour by device id, over the device files' price_per_hour_usd (--price ID=USD).
    std::map<std::string, double, std::less<>> prices;
    /// Also plan disaggregated serving (disaggregated.h): prefill and decode pools, the caches moved
    /// over `kvLink` (an interconnect id; empty: each device's scale-up link, else PCIe 4.0 x16).
    bool disaggregated = false;
    std::string kvLink;
    /// Speculative decoding (--draft, --accept, --lookahead): every configuration also with it, a lever
    /// the search weighs (no draft: plain decoding only).
    Speculation speculation;
    /// The most prompt tokens a prefill replica's batch holds (its batch: 1, 2, 4, ... prompts within it).
    int prefillBatchTokens = 16384;
    /// A calibration (--calibration CAL.json; not owned): the device it is for is planned a second time
    /// with each row at its calibrated time (ServingSettings::calibration), beside the bound: Plan::calibrated.
    const Calibration* calibration = nullptr;
    std::string calibrationLabel; ///< how the plan names it (its file)
};

/// One configuration of one device, at its steady state.
struct PlanPoint {
    std::string device; ///< its id
    int tensorParallel = 1;
    double weightBits = 16; ///< 16, 8 or 4
    NumberType arithmetic = NumberType::Fp16; ///< the matrix rows': fp16, fp8 or int8 (8-bit weights)
    int kvBits = 16;
    int lookahead = 0; ///< speculative decoding's K (0: plain decoding)
    ServingPoint point;
    bool meets = true; ///< within the targets
    int replicas = 0, gpus = 0; ///< for the load (0 without one)
    double pricePerHour = 0; ///< one GPU's, US dollars (0: no price known)
    /// US dollars per million output tokens: price x 10^6 / (3,600 x tokens/s per GPU); 0 without a price.
    double costPerMillion = 0;
    double costPerHour = 0; ///< the load's GPUs x the price, US dollars (0 without a load or a price)
};

/// One disaggregated configuration of one device: a decode pool's replica, the prefill replica that
/// feeds it best, the two balanced.
struct SplitPoint {
    std::string device;
    double weightBits = 16; ///< both pools'
    NumberType arithmetic = NumberType::Fp16;
    int kvBits = 16;
    PoolBalance pools;
    bool meets = true;
    double pricePerHour = 0, costPerMillion = 0, costPerHour = 0; ///< as PlanPoint's
};

struct DevicePlan {
    std::string device, name; ///< id and name
    std::vector<PlanPoint> points; ///< every configuration that fits, by TP, widths and N
    std::vector<size_t> front; ///< indices into points: the Pareto front, by tokens/s per user
    std::optional<size_t>
        best; ///< the point meeting the targets with the most tokens/s per GPU (fewest GPUs for a load)
    std::string none; ///< why no point is best: what to relax
    // disaggregated serving (PlanSettings::disaggregated)
    std::vector<SplitPoint> split; ///< for each decode configuration that fits, its best prefill
    std::vector<size_t> splitFront; ///< the Pareto front of `split`
    std::optional<size_t> splitBest; ///< as `best`
    std::string splitNone; ///< why no split point is best
    std::string kvLink; ///< the link the caches cross, as linkDescription says it
    bool kvLinkAssumed = false; ///< the device names no link and --kv-link was not given: PCIe 4.0 x16
};

struct Plan {
    std::vector<DevicePlan> devices;
    std::vector<PlanPoint> ranked; ///< every device's points meeting the targets, best first
    std::string model; ///< the model's title
    std::string error; ///< settings no configuration can take
    bool byCost = false; ///< every device has a price: ranked by cost per million tokens (per hour, for a load)
    std::vector<std::string> unpriced; ///< the devices without one, by name
    bool disaggregated = false; ///< the devices' split halves were planned too
    /// The devices the calibration is for, planned again at calibrated times (same search, targets and
    /// load; ranked apart: `ranked` holds bounds only), and the calibration's label.
    std::vector<DevicePlan> calibrated;
    std::string calibration;
    /// The calibrated plan of a device, or null.
    const DevicePlan* calibratedOf(const std::string& device) const;
};

/// Ranking: with a price for every device, by cost per million output tokens (with a load, by its
/// cost per hour); else by tokens/s per GPU (with a load, the fewest GPUs first), and `unpriced`
/// names the devices that lack one.
/// Searches TP in {1, 2, 4, 8} up to min(gpusPerNode, the device's scale-up GPUs) over its scale-up
/// link (1 without one), weights at 16 bits (fp16), 8 (fp8 arithmetic where the device has tensor FP8,
/// else int8) and 4 (int4 with fp16 arithmetic), the cache at 16 and 8 bits, and N = 1, 2, 4, ... up to
/// the most sequences that fit, that largest included.
Plan planServing(const LlmModel& model, const PlanSettings& settings, const std::vector<Device>& devices);

/// The Pareto front of tokens/s per user against tokens/s per GPU (both the more the better): the
/// indices of the points no other point beats on both, fastest per user first.
std::vector<size_t> paretoFront(const std::vector<PlanPoint>& points);
std::vector<size_t> paretoFront(const std::vector<SplitPoint>& points);

/// The replicas a load needs at this point: ceil(users / N), or ceil(rate / the replica's requests/s);
/// 0 without a load.
int replicasFor(const PlanSettings& settings, const ServingPoint& point);

/// "TP 8, 4-bit weights (fp16), 8-bit cache, N = 64" (", draft K = 4" with speculative decoding).
std::string planPointLabel(const PlanPoint& p);
/// "prefill TP 2 x 4 prompts, decode TP 4, N = 128; 8-bit weights (fp8), 8-bit cache".
std::string splitPointLabel(const SplitPoint& p);

} // namespace rfx
