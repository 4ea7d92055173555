#pragma once

#include "model/config.h"
#include "model/network.h"

#include <optional>
#include <string>
#include <string_view>

namespace rfx {

/// One convolution computed one way. Counts are elements (bytes = elements x bits/8) and FLOPs of
/// the forward pass, batch included.
struct AlgorithmCost {
    bool applies = true;
    std::string whyNot; ///< when it does not apply: "Winograd needs a 3x3 kernel at stride 1"
    double flops = 0; ///< every stage: transforms, products, inverse transforms
    double gemmMacs = 0; ///< multiply-accumulates of its matrix-product stage (what on-chip reuse acts on)
    double extraElements = 0; ///< DRAM traffic beyond reading input and weights and writing output
    double workspaceElements = 0; ///< temporary buffers (lowered matrix, transforms)
    int kernels = 1;
};

/// The forward cost of a convolution row (Op::Conv) under `algorithm` (not Auto).
///  direct    2 * N * Cout * Hout * Wout * (Cin/g) * Kh * Kw FLOPs; no workspace.
///  im2col    Chetlur et al. 2014 (cuDNN): the input is lowered to an (N Hout Wout) x (Cin Kh Kw) matrix L
///            and multiplied by the (Cin Kh Kw) x Cout weights. Same FLOPs; L is written once and read once:
///            2 L extra elements, workspace L. A 1x1 stride-1 unpadded convolution needs no lowering.
///  fft       Mathieu et al. 2014, Vasilache et al. 2015 (fbfft): inputs, kernels and outputs move to the
///            frequency domain on an n x n grid, n the smallest 2^a 3^b 5^c 7^d >= the padded input extent.
///            A real 2-D FFT of n x n costs 2.5 n^2 log2(n^2) FLOPs; there are N Cin + Cout Cin + N Cout of
///            them; the products are N Cout Cin n (n/2+1) complex multiply-accumulates, 8 FLOPs each.
///            Workspace: the three transformed tensors (complex: 2 elements each), written and read once.
///            Stride 1 and ungrouped only.
///  winograd  Lavin & Gray 2016, F(m x m, 3 x 3) with m = 2 or 4 and alpha = m + 2: per tile of m x m outputs,
///            alpha^2 products instead of 9 m^2; tiles T = N ceil(Hout/m) ceil(Wout/m). FLOPs: 2 T Cin Cout
///            alpha^2 (products) + transforms of inputs (T Cin), outputs (T Cout) and kernels (Cin Cout),
///            each counted from the transform matrices' non-zeros (F(2,3): 32 and 24 per tile, as the paper
///            gives). Workspace: transformed kernels, inputs and products, written and read once ("non-fused").
///            3x3 kernels, stride 1, ungrouped only.
AlgorithmCost convolutionCost(const Layer& conv, ConvAlgorithm algorithm);

/// Operation counts of Winograd F(m x m, 3 x 3) transforms per tile (m = 2 or 4), from the matrices.
struct WinogradTransformOps {
    int input; ///< B^T d B
    int kernel; ///< G g G^T
    int output; ///< A^T M A
};
WinogradTransformOps winogradTransformOps(int m);

/// The smallest 2^a 3^b 5^c 7^d >= n (sizes FFT libraries handle fast).
std::int64_t smoothFftSize(std::int64_t n);

/// DRAM elements of a matrix-product row under a traffic model, given its compulsory elements
/// (inputs, weights, outputs, plus the algorithm's extra traffic), its multiply-accumulates and its
/// output elements:
///  compulsory, fused  compulsory
///  naive              max(compulsory, 2 MACs + outputs): both operands of every multiply-add come from DRAM
///  tiled              max(compulsory, 2 MACs / b + outputs), b = floor(sqrt(S / 3)) for an on-chip
///                     capacity of S elements holding a b x b output tile and two b-wide operand panels
///                     (the blocked-GEMM analysis of Goto & van de Geijn 2008; Hong & Kung 1981 show
///                     MACs / sqrt(S) is the order of the minimum), at most the naive traffic.
double trafficElements(TrafficModel model, double compulsory, double macs, double outputs, double onchipElements);

/// The traffic of a product blocked with b x b output tiles: 2 MACs / b + outputs, clamped between the
/// compulsory and the naive traffic (elements).
double tileTrafficElements(double compulsory, double macs, double outputs, double b);

/// Register tile edge that sets the L1/shared-memory traffic of a matrix-product row: every operand
/// element read from shared memory feeds b multiply-adds. CUTLASS's default configurations: an 8 x 8
/// thread tile for CUDA-core (SIMT) GEMM, a 64 x 64 warp tile for tensor-core GEMM.
inline constexpr double kRegisterTileSimt = 8;
inline constexpr double kRegisterTileTensor = 64;

/// Elements a matrix-product row moves at each level of the memory hierarchy under the tiled model
/// (the hierarchical roofline of Yang, Kurth & Williams 2020: one intensity per level, F / Q_level).
/// Traffic into a level is what the tiling of the level nearer the cores leaves over:
///  L1/shared  (registers <- L1)     tiled with the register tile b_reg
///  L2         (L1/shared <- L2)     tiled with the shared-memory capacity S
///  DRAM       (L2 <- DRAM)          tiled with the L2 capacity when the L2 level is modelled, else as L2
/// Each level carries at least the traffic of the level behind it. A level that is not modelled is 0.
struct LevelTraffic {
    double dram = 0;
    double l2 = 0;
    double l1 = 0;
};
LevelTraffic tiledLevelTraffic(double compulsory, double macs, double outputs, double sharedElements, double l2Elements,
    bool l2Modelled, bool l1Modelled, double registerTile);

} // namespace rfx
