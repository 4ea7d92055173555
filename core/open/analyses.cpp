// A configuration's analyses with its network built by the opener (analyses.h).
#include "open/analyses.h"

#include "model/networks.h"
#include "onnx/onnx_model.h"
#include "open/build_network.h"

#include <algorithm>

namespace rfx {

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

EnergyOutcome analyzeEnergy(const Config& config, const std::vector<Device>& devices)
{
    BuildResult built = buildCheckedNetwork(config);
    if (!built.network) {
        EnergyOutcome out;
        out.error = built.error;
        return out;
    }
    return analyzeEnergy(*built.network, config, devices);
}

std::optional<ClockChoice> optimalClock(const Config& config, const Device& device, int minPercent)
{
    BuildResult built = buildCheckedNetwork(config);
    if (!built.network)
        return std::nullopt;
    return optimalClock(*built.network, config, device, minPercent);
}

TuneOutcome tune(const Config& config, const std::vector<Device>& devices, const TuneRanges& ranges)
{
    return tune(config, devices, ranges, buildNetwork); // tune validates the configuration and its ranges
}

EnergyStudy studyEnergy(const Config& config, const std::vector<Device>& devices, const TuneRanges& ranges)
{
    EnergyStudy out;
    out.grid = tune(config, devices, ranges);
    TuneRanges byBatch = ranges;
    byBatch.gpusMin = byBatch.gpusMax = config.gpus;
    byBatch.clockMin = byBatch.clockMax = config.clockPercent;
    TuneRanges byGpus = ranges;
    byGpus.batchMin = byGpus.batchMax = config.batch;
    byGpus.gpusMax = std::max(ranges.gpusMax, 2);
    byGpus.clockMin = byGpus.clockMax = config.clockPercent;
    out.byBatch = tune(config, devices, byBatch);
    out.byGpus = tune(config, devices, byGpus);
    for (const TuneOutcome* t : { &out.grid, &out.byBatch, &out.byGpus })
        if (out.error.empty())
            out.error = t->error;
    if (out.error.empty() && !devices.empty())
        if (const auto c = optimalClock(config, devices.front(), ranges.clockMin))
            out.optimalClockPercent = c->percent;
    return out;
}

std::optional<SweepModel> sweepModel(const Config& config, std::string* error)
{
    return SweepModel::make(config, buildCheckedNetwork, error);
}

std::string modelConventions(const Config& config)
{
    return isOnnxFile(config.model) ? onnxConventions() : std::string();
}

std::string reportConventions(const Config& config, bool cacheAware)
{
    return conventionsText(config, cacheAware, modelConventions(config));
}

} // namespace rfx
