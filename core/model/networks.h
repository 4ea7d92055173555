#pragma once

#include "model/config.h"
#include "model/network.h"
#include "model/unet.h"

#include <string>
#include <string_view>
#include <vector>

namespace rfx {

/// A network the tool can build by name, with the input it was published for.
struct ModelInfo {
    std::string_view id; ///< "--model" value, e.g. "resnet50"
    std::string_view title; ///< "ResNet-50 (He et al. 2016, torchvision)"
    int height, width, channels, classes; ///< default input and classes
};

/// The built-in networks: unet, alexnet, vgg16, resnet18, resnet34, resnet50, resnet101, resnet152,
/// calibration-classes.
const std::vector<ModelInfo>& builtinModels();
const ModelInfo* findModel(std::string_view id);

/// A model value naming a network file rather than a built-in network: our JSON layer list (".json")
/// or an ONNX model (".onnx", read by core/onnx/; buildNetwork() in open/build_network.h builds either).
bool isNetworkFile(std::string_view model);
/// A model value naming an ONNX file rather than a built-in network (it ends in ".onnx").
bool isOnnxFile(std::string_view model);

/// torchvision's AlexNet (Krizhevsky et al. 2012, the "one weird trick" variant torchvision ships):
/// 5 convolutions, 3 max-pools, adaptive average pool to 6x6, 3 fully connected layers.
/// 61,100,840 parameters at 1000 classes.
BuildResult buildAlexNet(const Shape& input, int classes, bool fusion);
/// torchvision's VGG-16 (Simonyan & Zisserman 2015, configuration D, no batch norm):
/// 13 3x3 convolutions, 5 max-pools, adaptive average pool to 7x7, 3 fully connected layers.
/// 138,357,544 parameters at 1000 classes.
BuildResult buildVgg16(const Shape& input, int classes, bool fusion);
/// The rows a calibration needs beside networks that lack them (U-Net, VGG): at four sizes, 56 x 56
/// down to 7 x 7 from the input's channels (64 by default) doubling, an inverted residual's 1x1
/// expand (x4 channels), 3x3 depthwise and 1x1 project, then a strided 1x1 down; batch norm after
/// each convolution, ReLU after all but the project. 11 pointwise and 4 depthwise convolutions,
/// 15 batch norms (README "Calibration").
BuildResult buildCalibrationClasses(const Shape& input, bool fusion);
/// The two rows "measure this machine" runs with oneDNN to hold its ceilings against the library's own
/// kernels (issue 72), on an input of 512 x 30 x 30: "probe.conv", a 3x3 convolution to 512 channels
/// without padding (28 x 28 out: every tap it computes counts, 2 x 512 x 28 x 28 x 512 x 9 = 3.70
/// GFLOP), and "probe.stream", a matrix-vector product of the flattened input (460,800 values) to
/// `streamOutputs` features, whose weights (460,800 x streamOutputs elements) stream from memory.
BuildResult buildCeilingProbes(std::int64_t streamOutputs);
/// torchvision's ResNet (He et al. 2016; v1.5: the stride sits on the bottleneck's 3x3 convolution).
/// depth 18 or 34: basic blocks [2,2,2,2] / [3,4,6,3]; 50, 101, 152: bottlenecks [3,4,6,3],
/// [3,4,23,3], [3,8,36,3]. Every convolution is followed by batch norm and has no bias.
/// ResNet-50: 25,557,032 parameters at 1000 classes.
BuildResult buildResNet(int depth, const Shape& input, int classes, bool fusion);

/// A custom network from the JSON layer-list format (see networkFormatHelp()). `file` names the
/// source in messages: "FILE: layers[3] (conv2): kernel: must be a whole number from 1 to 64".
BuildResult parseNetworkJson(std::string_view text, const std::string& file, int batch, bool fusion);
/// Reads and parses a network file (parsed files are cached by path and modification time).
BuildResult loadNetworkFile(const std::string& path, int batch, bool fusion);

/// The JSON network format, documented for users (also in README).
std::string networkFormatHelp();

} // namespace rfx
