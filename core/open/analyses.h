#pragma once
// A configuration's analyses, its network built by the opener (build_network.h): the built-in networks,
// a JSON layer list or an ONNX model. The engine (core/engine) takes networks and never knows where
// they came from; this folder is the one that joins the two.

#include "engine/energy.h"
#include "engine/roofline.h"
#include "engine/sweep.h"
#include "engine/tuning.h"

#include <optional>
#include <string>
#include <vector>

namespace rfx {

/// Validates the configuration, builds the network and analyses it; `error` says why not.
struct AnalysisOutcome {
    std::optional<Report> report;
    std::string error;
};
AnalysisOutcome analyzeConfig(const Config& config, const std::vector<Device>& devices);

/// The energy figures per device of `config`'s network (engine/energy.h); `error` when it does not build.
EnergyOutcome analyzeEnergy(const Config& config, const std::vector<Device>& devices);

/// The clock with the least energy per image for `config`'s network on `device` (engine/energy.h);
/// nothing when it does not build.
std::optional<ClockChoice> optimalClock(const Config& config, const Device& device, int minPercent = 30);

/// Tuning over batch, GPUs and clock (engine/tuning.h), the network built at each batch.
TuneOutcome tune(const Config& config, const std::vector<Device>& devices, const TuneRanges& ranges);

/// The window's energy study of a configuration: the whole grid of `ranges` (batch x GPUs x clock),
/// the batch range at the configuration's GPUs and clock, the GPU counts (1 to at least 2) at its
/// batch and clock, and the clock with the least energy per image on the first device (at or above
/// ranges.clockMin; 0 when none). `error` is the first of the three sweeps' errors.
struct EnergyStudy {
    TuneOutcome grid;
    TuneOutcome byBatch;
    TuneOutcome byGpus;
    int optimalClockPercent = 0;
    std::string error;
};
EnergyStudy studyEnergy(const Config& config, const std::vector<Device>& devices, const TuneRanges& ranges);

/// The closed-form sweep model of `config`'s network (engine/sweep.h).
std::optional<SweepModel> sweepModel(const Config& config, std::string* error = nullptr);

/// The model file's own counting conventions, for conventionsText: an ONNX model's (onnx/onnx_model.h
/// onnxConventions()); empty for the built-in networks and JSON layer lists.
std::string modelConventions(const Config& config);

/// conventionsText (engine/roofline.h) with the model file's conventions: what every report and
/// export is stamped with.
std::string reportConventions(const Config& config, bool cacheAware = false);

} // namespace rfx
