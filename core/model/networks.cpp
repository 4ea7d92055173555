// The network registry: the built-in networks by name, and buildNetwork(), which turns a
// configuration into its network, built in or from a file (JSON layer list or ONNX model).
#include "networks.h"

#include "onnx_model.h"

#include <algorithm>
#include <cctype>

namespace rfx {

const std::vector<ModelInfo>& builtinModels()
{
    static const std::vector<ModelInfo> models {
        { "unet", "U-Net (Ronneberger et al. 2015)", 572, 572, 1, 2 },
        { "alexnet", "AlexNet (torchvision)", 224, 224, 3, 1000 },
        { "vgg16", "VGG-16 (torchvision)", 224, 224, 3, 1000 },
        { "resnet18", "ResNet-18 (torchvision)", 224, 224, 3, 1000 },
        { "resnet34", "ResNet-34 (torchvision)", 224, 224, 3, 1000 },
        { "resnet50", "ResNet-50 (torchvision)", 224, 224, 3, 1000 },
        { "resnet101", "ResNet-101 (torchvision)", 224, 224, 3, 1000 },
        { "resnet152", "ResNet-152 (torchvision)", 224, 224, 3, 1000 },
        { "calibration-classes", "Calibration classes (1x1, dw, BN, FC)", 56, 56, 64, 1 },
    };
    return models;
}

const ModelInfo* findModel(std::string_view id)
{
    for (const ModelInfo& m : builtinModels())
        if (m.id == id)
            return &m;
    return nullptr;
}

bool isNetworkFile(std::string_view model) { return (model.size() > 5 && model.ends_with(".json")) || isOnnxFile(model); }

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
    return { std::nullopt, "unknown model '" + config.model + "' (available: " + names + ", or a network file FILE.json or FILE.onnx)" };
}

} // namespace rfx
