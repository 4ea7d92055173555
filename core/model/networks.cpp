// The built-in networks by name, and which model values name a file (buildNetwork(), which turns a
// configuration into its network, built in or from a file, is onnx/build_network.cpp: it needs the importer).
#include "model/networks.h"

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

bool isOnnxFile(std::string_view model) { return model.size() > 5 && model.ends_with(".onnx"); }

bool isNetworkFile(std::string_view model)
{
    return (model.size() > 5 && model.ends_with(".json")) || isOnnxFile(model);
}

} // namespace rfx
