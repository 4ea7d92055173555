#pragma once

#include "devices/device.h"
#include "devices/interconnects.h"
#include "engine/roofline.h"
#include "model/config.h"

#include <optional>
#include <string>
#include <vector>

namespace rfx {

/// The power model (documented in README "Energy, clocks and multi-GPU"):
///
///   P(row) = P_idle + D_c * u_c * s(f) + D_m * u_m
///
/// with u_c = (F / P_peak(f)) / t the share of the row's time the arithmetic units are busy,
/// u_m = (Q / B) / t the share the DRAM is busy, D = TDP - P_idle the dynamic budget, split into a
/// memory part D_m = kMemoryPowerShare * D and a compute part D_c = D - D_m. A row busy at once on
/// both at the boost clock draws the TDP; an idle GPU draws P_idle.
///
/// Clock law: the core clock f (fraction of boost) scales the compute ceilings and the on-chip
/// bandwidths; DRAM bandwidth does not change. Dynamic power is C V^2 f with the voltage falling with
/// the clock down to a floor reached at the knee k: s(f) = f * max(f, k)^2 (s(1) = 1). Below the knee
/// only the frequency term falls. The knee is the base clock (base / boost) where the device file gives
/// it, else 0.7.
///
/// Energy of a row: E = P * t = P_idle * t + D_c * max(f, k)^2 * F / P_peak(boost) + D_m * Q / B.
inline constexpr double kMemoryPowerShare = 0.3;
inline constexpr double kDefaultVoltageKnee = 0.7;
double voltageKnee(const Device& device);
/// s(f) = f * max(f, k)^2: dynamic power at full compute use, relative to the boost clock's.
double dynamicPowerScale(const Device& device, double clock);

/// One row's energy on one GPU, joule (the formula above; `result` carries the device and bandwidth).
double rowEnergy(const LayerResult& row, const DeviceResult& result, int clockPercent);

/// Energy and multi-GPU figures of one device's result (the Report's clock already applied).
struct EnergyFigures {
    double time = 0; ///< one GPU's step: the roofline time of the batch, second
    double energy = 0; ///< one GPU's energy for that step, joule
    double averagePower = 0; ///< energy / time, watt
    double flopsPerJoule = 0; ///< = FLOP/s per watt
    // Data parallel over `gpus` GPUs, each with the configured batch; gradients all-reduced in a ring.
    int gpus = 1;
    double gradientBytes = 0; ///< parameters x element size (training), byte
    double allReduceTime = 0; ///< 2 (G - 1) / G x gradient bytes / link bandwidth, second
    double backwardTime = 0; ///< the part of the step the all-reduce may hide behind, second
    double exposedTime = 0; ///< all-reduce time not hidden, second
    double stepTime = 0; ///< time + exposed all-reduce, second
    double stepEnergy = 0; ///< all GPUs, joule (GPUs idle while they wait on the link)
    double throughput = 0; ///< images per second, all GPUs
    double speedup = 1; ///< throughput / one GPU's throughput
    double efficiency = 1; ///< speedup / gpus
    double timePerImage = 0; ///< stepTime / (gpus x batch), second
    double energyPerImage = 0; ///< joule
    double imagesPerJoule = 0;
    double edp = 0; ///< energy per image x time per image, joule second
};

/// `forwardTime` is the forward pass's share of the step (the time of the same configuration in
/// inference mode); in training the all-reduce can overlap the rest of the backward pass.
EnergyFigures energyFigures(const DeviceResult& result, const Config& config, double forwardTime);

/// A built network analysed on `devices`, with each device's forward time (the same configuration in
/// inference mode; equal to the step's time in inference): what energyFigures() needs.
struct Analysed {
    Report report;
    std::vector<double> forward; // per device
};
std::optional<Analysed> analyseWithForward(
    const Network& net, const Config& config, const std::vector<Device>& devices);

/// The network analysed as `config` (training or inference) on `devices`, and the energy figures per
/// device, in device order (open/analyses.h: from a configuration, its network built; `error` when it
/// does not build).
struct EnergyOutcome {
    std::optional<Report> report;
    std::vector<EnergyFigures> figures;
    std::string error;
};
EnergyOutcome analyzeEnergy(const Network& network, const Config& config, const std::vector<Device>& devices);

/// The core clock (percent of boost, within [minPercent, 100]) with the least energy per image for
/// the network at `config` on `device`, scanned in 1 % steps (open/analyses.h: from a configuration).
struct ClockChoice {
    int percent = 100;
    EnergyFigures figures;
    EnergyFigures atBoost;
};
ClockChoice optimalClock(const Network& network, const Config& config, const Device& device, int minPercent = 30);

} // namespace rfx
