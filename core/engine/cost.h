#pragma once

#include "model/config.h"
#include "model/network.h"

#include <cstdint>

namespace rfx {

/// The cost of one row, forward and backward, under the "compulsory per layer" traffic model:
/// a pass reads its inputs and weights once from DRAM and writes its outputs once.
/// FLOPs count a fused multiply-add as 2. Bytes are element counts times bits/8.
struct LayerCost {
    std::int64_t params = 0; ///< learnable parameters of this row (weights, bias, BN scale and shift)
    double flopsForward = 0; ///< FLOP
    double bytesForward = 0; ///< byte
    double flopsBackward = 0; ///< FLOP (training only)
    double bytesBackward = 0; ///< byte (training only)
    int kernelsForward = 1; ///< kernel launches of the forward pass
    int kernelsBackward = 1; ///< kernel launches of the backward pass
};

/// Learnable parameters of a row:
///  conv            Cout * (Cin / groups) * Kh * Kw   (3-D: * Kd; spatial extents D * H * W)
///  conv_transpose  Cin * (Cout / groups) * Kh * Kw
///  linear          Cout * (Cin * Hin * Win)   (the input is flattened)
///  bias            C;  batchnorm 2 C (scale and shift);  others 0.
/// An imported row's parameters are what the file stores for it (Layer::storedParams).
std::int64_t layerParams(const Layer& layer);

/// Forward FLOPs of a row (DESIGN.md conventions):
///  conv            2 * N * Cout * Hout * Wout * (Cin / groups) * Kh * Kw
///  conv_transpose  2 * N * Cin * Hin * Win * (Cout / groups) * Kh * Kw   (counted at input positions)
///  linear          2 * N * Cout * (Cin * Hin * Win)
///  bias 1, relu 1, add 1, batchnorm 2 per output element; maxpool (Kh*Kw - 1) and avgpool Kh*Kw
///  (Kh*Kw - 1 additions and one scaling) per output element; concat 0.
///  matmul, eltwise, reduce, copy, uncounted: Layer::opsPerElement per output element (core/onnx/onnx_ops.cpp).
/// Fused elementwise epilogues add their own per-element FLOPs.
double forwardFlops(const Layer& layer);
/// The share of a convolution's counted multiply-adds whose input tap lies inside the input, not in
/// its zero padding (1 for other rows and unpadded convolutions). The FLOP convention counts every
/// tap, as PyTorch's counter does; oneDNN's kernels skip the padded ones, so a padded convolution
/// on a small map can finish faster than its compute bound by the rest: 8 % at 16 x 16 with 3 x 3
/// and padding 1 ((46 / 48)^2 = 0.918), 16 % at 8 x 8.
double usefulTapShare(const Layer& layer);

/// Forward and backward cost of a row at `elementBytes` bytes per element.
/// Backward: a convolution computes the data gradient and the weight gradient, each as many FLOPs as
/// the forward pass and each reading the output gradient, the weights/input and writing its result
/// (2 kernels, 2x the forward bytes). Other rows cost their forward FLOPs again and move
/// grad_out + 2 * input + 2 * params elements (concat: grad_out + input, a split).
/// With `asInFile` (Config::bitsAsInFile), each tensor moves bytes at the width the file gives it
/// (Layer::inBits, weightBits, outBits), `elementBytes` where it gives none.
LayerCost layerCost(const Layer& layer, double elementBytes, bool asInFile = false);

/// The bytes of a row's inputs, and the bytes per element of its weights and its output, at the widths
/// layerCost uses.
struct RowWidths {
    double inputBytes = 0;
    double weight = 4;
    double output = 4;
};
RowWidths rowWidths(const Layer& layer, double elementBytes, bool asInFile);

/// Per-parameter cost of one optimizer step, an elementwise pass over the parameters:
///  sgd       w -= lr*g                                   2 FLOP, 3 elements (read w, g; write w)
///  momentum  v = mu*v + g; w -= lr*v                      4 FLOP, 5 elements (read w, g, v; write w, v)
///  adam      m, v moments; w -= lr*m/(sqrt(v)+eps)       12 FLOP, 7 elements (read w, g, m, v; write w, m, v)
struct OptimizerCostPerParam {
    double flops;
    double elements;
    int stateCopies; ///< optimizer state kept per parameter (0, 1 or 2)
};
OptimizerCostPerParam optimizerCostPerParam(Optimizer optimizer);

/// Memory needed to run the network, in bytes.
/// Inference: weights + the peak live set of activations (each row writes a new tensor; a tensor lives
/// from its producer to its last consumer; the network input counts).
/// Training: weights + gradients + optimizer state + every activation saved for the backward pass
/// (the input and all row outputs) + the largest gradient pair in flight (one row's grad_in + grad_out).
struct MemoryFootprint {
    double weights = 0;
    double gradients = 0;
    double optimizerState = 0;
    double activations = 0;
    double workspace = 0; ///< convolution algorithm workspace (0 for direct convolution)
    double total() const { return weights + gradients + optimizerState + activations + workspace; }
    /// Activations scale with the batch, everything else does not.
    double fixedBytes() const { return weights + gradients + optimizerState + workspace; }
};
MemoryFootprint memoryFootprint(const Network& network, const Config& config);

/// The largest batch whose footprint fits in `capacityBytes` (0 if even one image does not fit).
/// Activations are exactly proportional to the batch, so this is
/// floor((capacity - fixed) / (activations / batch)).
std::int64_t largestBatchThatFits(const MemoryFootprint& footprint, int batch, double capacityBytes);

} // namespace rfx
