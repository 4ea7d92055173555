#include "engine/energy.h"

#include "base/format.h"
#include "model/networks.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace rfx {

double voltageKnee(const Device& d)
{
    if (d.baseClockHz > 0 && d.boostClockHz > 0)
        return std::clamp(d.baseClockHz / d.boostClockHz, 0.1, 1.0);
    return kDefaultVoltageKnee;
}

double dynamicPowerScale(const Device& d, double clock)
{
    const double v = std::max(clock, voltageKnee(d));
    return clock * v * v;
}

namespace {

double optimizerTime(const DeviceResult& r)
{
    for (auto it = r.layers.rbegin(); it != r.layers.rend(); ++it)
        if (it->op == Op::Optimizer)
            return it->time;
    return 0;
}

} // namespace

double rowEnergy(const LayerResult& l, const DeviceResult& r, int clockPercent)
{
    const Device& d = r.device;
    const double clock = clockPercent / 100.0;
    const double v = std::max(clock, voltageKnee(d));
    const double dynamic = std::max(0.0, d.tdpWatts - d.idleWatts);
    const double dm = kMemoryPowerShare * dynamic, dc = dynamic - dm;
    // Peaks in the report are at this clock; the compute energy uses the boost-clock peak.
    const double boostPeak = l.peak / clock;
    double e = d.idleWatts * l.time;
    if (boostPeak > 0)
        e += dc * v * v * l.flops / boostPeak;
    if (r.bandwidth > 0)
        e += dm * l.bytes / r.bandwidth;
    return e;
}

EnergyFigures energyFigures(const DeviceResult& r, const Config& c, double forwardTime)
{
    EnergyFigures e;
    const Device& d = r.device;
    double energy = 0;
    for (const LayerResult& l : r.layers)
        energy += rowEnergy(l, r, c.clockPercent);
    e.time = r.totals.time;
    e.energy = energy;
    e.averagePower = e.time > 0 ? energy / e.time : 0;
    e.flopsPerJoule = energy > 0 ? r.totals.flops / energy : 0;

    e.gpus = std::max(1, c.gpus);
    const bool training = c.mode == Mode::Training;
    e.gradientBytes = training ? double(r.totals.params) * elementBytes(c.bits) : 0;
    const Interconnect* link = findInterconnect(c.interconnect);
    const double G = e.gpus;
    e.allReduceTime = (G > 1 && link && link->bandwidth > 0) ? 2 * (G - 1) / G * e.gradientBytes / link->bandwidth : 0;
    e.backwardTime = training ? std::max(0.0, e.time - optimizerTime(r) - forwardTime) : 0;
    e.exposedTime = c.overlap ? std::max(0.0, e.allReduceTime - e.backwardTime) : e.allReduceTime;
    e.stepTime = e.time + e.exposedTime;
    e.stepEnergy = G * (energy + d.idleWatts * e.exposedTime);
    const double images = G * c.batch;
    e.throughput = e.stepTime > 0 ? images / e.stepTime : 0;
    e.speedup = e.stepTime > 0 ? G * e.time / e.stepTime : 1;
    e.efficiency = e.speedup / G;
    e.timePerImage = e.stepTime / images;
    e.energyPerImage = e.stepEnergy / images;
    e.imagesPerJoule = e.stepEnergy > 0 ? images / e.stepEnergy : 0;
    e.edp = e.energyPerImage * e.timePerImage;
    return e;
}

std::optional<Analysed> analyseWithForward(const Network& net, const Config& c, const std::vector<Device>& devices)
{
    Analysed a { analyze(net, c, devices), {} };
    a.forward.assign(devices.size(), 0);
    if (c.mode == Mode::Training) {
        Config f = c;
        f.mode = Mode::Inference;
        const Report fr = analyze(net, f, devices);
        for (size_t i = 0; i < devices.size(); ++i)
            a.forward[i] = fr.results[i].totals.time;
    }
    return a;
}

EnergyOutcome analyzeEnergy(const Network& network, const Config& config, const std::vector<Device>& devices)
{
    EnergyOutcome out;
    auto a = analyseWithForward(network, config, devices);
    for (size_t i = 0; i < devices.size(); ++i)
        out.figures.push_back(energyFigures(a->report.results[i], config, a->forward[i]));
    out.report = std::move(a->report);
    return out;
}

ClockChoice optimalClock(const Network& network, const Config& config, const Device& device, int minPercent)
{
    ClockChoice best;
    double bestEnergy = std::numeric_limits<double>::infinity();
    for (int p = 100; p >= std::clamp(minPercent, kClockRange.min, 100); --p) {
        Config c = config;
        c.clockPercent = p;
        auto a = analyseWithForward(network, c, { device });
        const EnergyFigures e = energyFigures(a->report.results[0], c, a->forward[0]);
        if (p == 100)
            best.atBoost = e;
        if (e.energyPerImage < bestEnergy * (1 - 1e-12)) {
            bestEnergy = e.energyPerImage;
            best.percent = p;
            best.figures = e;
        }
    }
    return best;
}

} // namespace rfx
