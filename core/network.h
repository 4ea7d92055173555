#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rfx {

/// A tensor shape in NCHW order; all extents are element counts.
struct Shape {
    std::int64_t n = 0, c = 0, h = 0, w = 0;
    std::int64_t elements() const { return n * c * h * w; }
    friend bool operator==(const Shape&, const Shape&) = default;
};

/// "1x64x570x570"
std::string shapeString(const Shape& s);

enum class Op { Conv, ConvTranspose, MaxPool, Concat, Bias, BatchNorm, ReLU, Optimizer, Linear, AvgPool, Add };

/// Short machine name used in reports: conv, conv_transpose, maxpool, concat, bias, batchnorm, relu, optimizer,
/// linear, avgpool, add.
std::string_view opName(Op op);

/// Elementwise ops are those that may be fused into the producing convolution.
bool isElementwise(Op op);

/// The elementwise rows after a convolution, in order, with their name suffixes:
/// bias ("bias"), batch norm ("bn"), ReLU ("relu"). Shared by the network builders.
std::vector<std::pair<Op, const char*>> epilogueOps(bool bias, bool batchNorm, bool relu);

/// One row of the network: a single operation with its input and output shapes.
struct Layer {
    std::string name;
    Op op = Op::Conv;
    std::vector<int> inputs; ///< producing layer indices; -1 is the network input
    std::vector<Shape> inShapes; ///< shapes actually read (a cropped skip connection reads only the crop)
    Shape out;
    int kh = 1, kw = 1; ///< kernel (convolutions) or window (pooling)
    int stride = 1;
    int padding = 0; ///< zero padding on each side (convolutions and pooling; shapes already include it)
    int groups = 1;
    std::vector<Op> epilogue; ///< elementwise ops fused into this row (fusion on), applied to `out`
};

struct Network {
    std::string name; ///< e.g. "U-Net"
    Shape input;
    std::vector<Layer> layers;
    Shape output() const { return layers.empty() ? input : layers.back().out; }
};

/// A row reading one tensor (row `input`, or -1 for the network input) of shape `in`; its output
/// starts with the same shape. Shared by the network builders.
Layer singleInputLayer(const std::string& name, Op op, int input, const Shape& in);

} // namespace rfx
