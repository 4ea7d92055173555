// The one way from a configuration to its network, whatever names it: a built-in network, a JSON layer
// list or an ONNX model. Here rather than in model/ because an ONNX model needs the importer.
#include "open/build_network.h"

#include "model/networks.h"
#include "onnx/onnx_model.h"

#include <algorithm>
#include <cctype>

namespace rfx {

BuildResult buildCheckedNetwork(const Config& config)
{
    if (auto err = validate(config)) {
        BuildResult refused;
        refused.error = *err;
        return refused;
    }
    return buildNetwork(config);
}

BuildResult buildNetwork(const Config& configIn)
{
    // The fused traffic model is compulsory traffic with the elementwise rows fused (DESIGN.md).
    Config config = configIn;
    config.fusion = config.fusion || config.traffic == TrafficModel::Fused;
    const UNetParams& u = config.unet;
    if (config.model == "unet")
        return buildUNet(u, config.batch, config.fusion);
    if (isOnnxFile(config.model)) {
        const OnnxLoad load = cachedOnnxModel(config.model);
        return load.model ? load.model->build(config) : BuildResult { std::nullopt, load.error };
    }
    if (isNetworkFile(config.model))
        return loadNetworkFile(config.model, config.batch, config.fusion);
    const Shape input { config.batch, u.inChannels, u.height, u.width };
    if (config.model == "alexnet")
        return buildAlexNet(input, u.classes, config.fusion);
    if (config.model == "vgg16")
        return buildVgg16(input, u.classes, config.fusion);
    if (config.model == "calibration-classes")
        return buildCalibrationClasses(input, config.fusion);
    if (config.model.starts_with("resnet")) {
        const std::string digits = config.model.substr(6);
        if (!digits.empty() && digits.size() <= 3 && std::all_of(digits.begin(), digits.end(), ::isdigit))
            return buildResNet(std::stoi(digits), input, u.classes, config.fusion);
    }
    std::string names;
    for (const ModelInfo& m : builtinModels())
        names += (names.empty() ? "" : ", ") + std::string(m.id);
    return { std::nullopt,
        "unknown model '" + config.model + "' (available: " + names + ", or a network file FILE.json or FILE.onnx)" };
}

} // namespace rfx
