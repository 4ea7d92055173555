#pragma once

#include "base/enum_words.h"
#include "engine/energy.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rfx {

/// Tuning: every combination of batch (powers of two within the range, plus its ends), GPU count and
/// clock (steps of `clockStep` percent) for each device.
struct TuneRanges {
    int batchMin = 16;
    int batchMax = 256;
    int gpusMin = 1;
    int gpusMax = 8;
    int clockMin = 50; ///< percent
    int clockMax = 100;
    int clockStep = 5;
};
enum class Objective { Time, Energy, Edp };
inline constexpr EnumWord<Objective> kObjectiveWords[]
    = { { Objective::Time, "time" }, { Objective::Energy, "energy" }, { Objective::Edp, "edp" } };
std::string_view objectiveName(Objective o); ///< time, energy, edp
std::optional<Objective> parseObjective(std::string_view s);
struct TunePoint {
    int batch = 0; ///< per GPU
    int gpus = 1;
    int clockPercent = 100;
    bool fits = true; ///< the per-GPU footprint fits in the device's memory
    double memory = 0; ///< per-GPU footprint, byte
    EnergyFigures e;
};
struct TuneResult {
    Device device;
    std::vector<TunePoint> points;
    std::vector<std::size_t> front; ///< Pareto front (time per image vs energy per image), fitting points, by time
    std::optional<std::size_t> bestTime, bestEnergy, bestEdp; ///< among the points that fit
    std::optional<std::size_t> best(Objective o) const;
};
struct TuneOutcome {
    std::vector<TuneResult> results; ///< per device
    std::string error;
};
/// Ranges are checked (message names the range); batch, GPU count and clock of `config` are replaced;
/// `build` gives the network at each batch (open/analyses.h: the opener's).
TuneOutcome tune(
    const Config& config, const std::vector<Device>& devices, const TuneRanges& ranges, const NetworkBuilder& build);
/// Why point k is where it is, in sentences comparing it with its neighbours in the sweep: the same
/// point at 100 % clock (or the next lower clock), the next smaller and larger batch (or that it does
/// not fit), one GPU against two. For the recommendations' reasoning (CLI and window).
std::vector<std::string> recommendationReasons(const TuneResult& result, std::size_t k);
/// The batches a range sweeps: powers of two inside it, and both ends.
std::vector<int> tuneBatches(int lo, int hi);

} // namespace rfx
