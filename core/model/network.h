#pragma once

#include "base/diagnostic.h"
#include "base/enum_words.h"
#include "base/number_type.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rfx {

/// A tensor shape in NCHW order; all extents are element counts. Imported models (core/onnx/onnx_model.h)
/// also have tensors of rank 1 to 3 and 5 to 8. Ranks 1 to 3 fill n, c, h in order, the rest are 1
/// ([batch, tokens, features] is {batch, tokens, features, 1}, rank 3); rank 5 is [N, C, D, H, W]
/// with the depth D in `d` (3-D convolutions, video); ranks 6 to 8 (a PixelShuffle's or window
/// attention's reshapes) keep the first two and the last two extents and fold the middle ones into `d`.
/// `rank` says how many extents are real.
struct Shape {
    std::int64_t n = 0, c = 0, h = 0, w = 0;
    int rank = 4;
    std::int64_t d = 1; ///< depth, rank 5 only
    std::int64_t elements() const { return n * c * d * h * w; }
    /// The spatial extents' product: D x H x W (H x W for an image).
    std::int64_t spatial() const { return d * h * w; }
    friend bool operator==(const Shape&, const Shape&) = default;
};

/// "1x64x570x570" (as many extents as the rank)
std::string shapeString(const Shape& s);

enum class Op {
    Conv,
    ConvTranspose,
    MaxPool,
    Concat,
    Bias,
    BatchNorm,
    ReLU,
    Optimizer,
    Linear,
    AvgPool,
    Add,
    // Rows of imported models (core/onnx/onnx_ops.cpp); their FLOPs are Layer::opsPerElement per output element.
    MatMul, ///< a (batched) matrix product: opsPerElement = 2 K
    Eltwise, ///< elementwise arithmetic, activations, normalizations, softmax
    Reduce, ///< reductions (ReduceMean, ReduceSum)
    Copy, ///< data movement: slice, pad, transpose, gather, split, resize (nearest), ...
    Uncounted, ///< an operator the tool does not know: it moves its inputs and outputs, FLOPs unknown (0)
};

/// Short machine names used in reports.
inline constexpr EnumWord<Op> kOpWords[] = { { Op::Conv, "conv" }, { Op::ConvTranspose, "conv_transpose" },
    { Op::MaxPool, "maxpool" }, { Op::Concat, "concat" }, { Op::Bias, "bias" }, { Op::BatchNorm, "batchnorm" },
    { Op::ReLU, "relu" }, { Op::Optimizer, "optimizer" }, { Op::Linear, "linear" }, { Op::AvgPool, "avgpool" },
    { Op::Add, "add" }, { Op::MatMul, "matmul" }, { Op::Eltwise, "eltwise" }, { Op::Reduce, "reduce" },
    { Op::Copy, "copy" }, { Op::Uncounted, "uncounted" } };
std::string_view opName(Op op);
/// Convolutions and matrix products run against the (tensor-core) matrix ceiling; every other row
/// against the vector one.
bool runsOnMatrixUnits(Op op);

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
    int kd = 1; ///< kernel or window depth (3-D convolutions and pools of imported models)
    int stride = 1;
    int padding = 0; ///< zero padding on each side (convolutions and pooling; shapes already include it)
    int groups = 1;
    std::vector<Op> epilogue; ///< elementwise ops fused into this row (fusion on), applied to `out`
    // Imported rows (core/onnx/onnx_ops.cpp) only:
    double opsPerElement = 0; ///< FLOPs per output element of MatMul, Eltwise, Reduce and Copy rows
    std::int64_t storedParams = -1; ///< parameters the file stores for this row (-1: from the formula)
    int origin = -1; ///< index into Network::origins (the ONNX node), -1 for built-in rows
    double repeats = 1; ///< times the row runs per pass: the trip count of an imported Loop's body, a Scan's steps
    /// Language-model rows (core/llm): the identical blocks the row stands for ("blk0-31"), one row run
    /// `repeats` times; empty elsewhere. The layer table groups consecutive rows of one block.
    std::string block;
    /// Bytes of weights one run of the row reads, where that is not its parameters at the weights' width
    /// (language-model rows, core/llm: a quantized file's blocks and scales, the experts a batch's tokens
    /// touch, the embedding rows gathered); -1: params x the weights' width.
    double weightBytes = -1;
    /// A language model's attention product (core/llm: the scores and the context, or FlashAttention's
    /// fused kernel; the softmax between them is elementwise): a calibration fits it apart from the
    /// weights' products ("attention").
    bool attention = false;
    /// Bytes a pass streams between two runs of the row that read the same weights or cache (a language
    /// model's rows that read more weights and cached entries than activations: each is read once a
    /// pass); 0: the row's own bytes. The cache-aware model holds the row's working set to at least this.
    double passBytes = 0;
    // Precision as the file stores it (imported rows; 0 = not given, the configuration's bits): the element
    // width of each input in inShapes, of the weights and of the output, and the arithmetic's precision
    // (which compute ceiling the row runs against when Config::bitsAsInFile is set).
    std::vector<std::uint8_t> inBits;
    std::uint8_t weightBits = 0, outBits = 0, computeBits = 0;
    /// The arithmetic's type where its width does not say it: fp8 and bf16 (Unset: numberTypeOfBits(computeBits)).
    NumberType computeType = NumberType::Unset;
};

/// Where an imported row came from: the ONNX node and why it was not counted, if it was not.
struct RowOrigin {
    std::string node; ///< the node's name in the file
    std::string onnxOp; ///< "Conv", "Gemm", "com.microsoft:FusedConv"
    std::string uncounted; ///< empty, or why the row's FLOPs are not counted
};

struct Network {
    std::string name; ///< e.g. "U-Net"
    Shape input;
    std::vector<Layer> layers;
    std::vector<RowOrigin> origins; ///< imported networks: one per ONNX node that became rows
    std::vector<Diagnostic> diagnostics; ///< warnings from the import (missing weights, uncounted operators)
    /// Imported models: the parameters the file stores, each initializer once, whether or not its rows are
    /// counted (an If's other branch); -1 for the built-in networks, whose rows are the whole network.
    std::int64_t storedParameters = -1;
    /// Imported models whose file fixes the batch: that batch, which the rows are built with and every
    /// per-image figure divides by whatever the configuration says; 0 where the configuration sets it.
    int fixedBatch = 0;
    Shape output() const { return layers.empty() ? input : layers.back().out; }
};

/// A row reading one tensor (row `input`, or -1 for the network input) of shape `in`; its output
/// starts with the same shape. Shared by the network builders.
Layer singleInputLayer(const std::string& name, Op op, int input, const Shape& in);

} // namespace rfx
