// A configuration's analyses with its network built by the opener (analyses.h).
#include "open/analyses.h"

#include "model/networks.h"
#include "onnx/onnx_model.h"
#include "open/build_network.h"

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
