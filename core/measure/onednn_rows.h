#pragma once
// Internal to measure/: one row of a network as oneDNN primitives (layer_bench.cpp times them).
// Only this header and onednn_rows.cpp include oneDNN's.

#include "model/network.h"

#include <oneapi/dnnl/dnnl.hpp>

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace rfx::onednn {

/// Why a row cannot run; the message says what and why ("conv_transpose: 3-D ...").
struct Unsupported {
    std::string reason;
};

/// How a framework's CPU path lays out the activations between oneDNN primitives, for 4- and
/// 5-dimensional maps: channels last (PyTorch's channels_last), oneDNN's own blocked layout of 16
/// channels (nChw16c: what its convolutions pick with format_tag::any on AVX-512, what OpenVINO and
/// IPEX keep between layers), its blocked layout of 8 (nChw8c: what they pick and keep on AVX2-only
/// CPUs, where oneDNN 2.6 pools 2x2 maps in nhwc at 5-7 % of the bound; a Zen 2 and a Zen 3 showed it),
/// or plain (PyTorch's default contiguous NCHW). Other ranks are plain in all four.
enum class Layout { ChannelsLast, Blocked, Blocked8, Plain };

/// A reorder from the plain layout a framework keeps into the one the primitive chose, or back.
struct Reorder {
    dnnl::reorder primitive;
    dnnl::memory from, to;
};

/// A row ready to run: the primitive with its (filled) arguments and the reorders its formats cost.
struct PreparedRow {
    dnnl::primitive primitive;
    std::unordered_map<int, dnnl::memory> args;
    std::vector<Reorder> reorders;
    std::string name; ///< "convolution (brg:avx2)"
    Layout layout = Layout::Plain; ///< of a data row's activations (compute rows choose theirs)
    /// Copies of one argument that the runs take in turn (a language model's block row: its weights),
    /// so that each run reads them from memory, as a pass through the blocks does, not from the cache
    /// the run before left them in; empty: the arguments stay.
    std::vector<dnnl::memory> rotation;
    int rotated = 0; ///< the argument the copies stand in for (DNNL_ARG_WEIGHTS)
    size_t next = 0; ///< the copy the next run takes
    /// The arguments of the next run: the next copy in place where there are copies.
    std::unordered_map<int, dnnl::memory>& nextArgs()
    {
        if (!rotation.empty())
            args[rotated] = rotation[next++ % rotation.size()];
        return args;
    }
};

/// How many copies of a block row's weights (or cache) of `bytes` the runs take in turn
/// (PreparedRow::rotation): as many as stream what a pass streams between two runs of the row
/// (Layer::passBytes, at least one per block), up to 512 MiB, more than any CPU's last-level cache,
/// and 4,096 copies; 1 for a row of no block.
int weightCopies(const Layer& layer, double bytes);

// Shared by onednn_rows.cpp (convolutions and matrix products) and onednn_data_rows.cpp (the rest).
dnnl::memory::dims dimsOf(const Shape& s);
dnnl::memory::desc plain(const dnnl::memory::dims& dims, dnnl::memory::data_type type);
/// "nhwc", "nChw16c", "nchw" (and the 3-D and other ranks' names).
std::string layoutName(Layout layout, size_t rank);
/// The layouts a data row is tried in, the fastest timed (measureNetwork): all three for 4- and
/// 5-dimensional maps, where oneDNN's kernels differ by layout (in plain NCHW it pools on
/// `simple_nchw`, 38x the bound on the EPYC; in NHWC a per-channel bias of 16 channels broadcast
/// ran at 7 % of its bound, concat along channels copies 256-byte pieces); plain alone otherwise.
/// Compute rows choose their own formats (format_tag::any) and are run once.
std::vector<Layout> layoutsToTry(const Layer& layer);
dnnl::memory::desc activations(
    const dnnl::memory::dims& dims, dnnl::memory::data_type type, Layout layout = Layout::ChannelsLast);
dnnl::memory::desc chosenByLibrary(const dnnl::memory::dims& dims, dnnl::memory::data_type type);
/// Small pseudo-random values in [-0.5, 0.5), the same on every run; `constant` >= 0 fills that value.
void fill(const dnnl::memory& m, float constant = -1);
dnnl::memory filled(const dnnl::memory::desc& desc, const dnnl::engine& engine, float constant = -1);
/// The last real extent of a shape (its features): [N, F] -> F, [N, L, F] -> F.
std::int64_t lastExtent(const Shape& s);

/// Kernel, strides and paddings of a convolution, transposed convolution or pool over 1 to 3
/// spatial extents; the right padding is what gives the row's output extent.
struct Window {
    dnnl::memory::dims kernel, strides, padL, padR;
};
Window windowOf(const Layer& layer, const Shape& in, bool transposed);

PreparedRow pooling(const Layer& layer, const dnnl::engine& engine, dnnl::memory::data_type type, Layout layout);
PreparedRow batchNorm(const Layer& layer, const dnnl::engine& engine, dnnl::memory::data_type type, Layout layout);
/// ReLU, bias and add rows, and imported elementwise rows whose ONNX operator is one eltwise or
/// binary algorithm.
PreparedRow elementwise(const Layer& layer, const dnnl::engine& engine, dnnl::memory::data_type type,
    const std::string& onnxOp, Layout layout);
/// A language model's rows (onednn_llm_rows.cpp): RMS or layer norm (`shift`: the layer norm's bias)
/// over the last extent; the softmax over the last extent; SiLU (or GELU) of the first input times
/// the second.
PreparedRow layerNorm(const Layer& layer, const dnnl::engine& engine, dnnl::memory::data_type type, bool shift);
PreparedRow softmax(const Layer& layer, const dnnl::engine& engine, dnnl::memory::data_type type);
PreparedRow gatedActivation(const Layer& layer, const dnnl::engine& engine, dnnl::memory::data_type type, bool gelu);
PreparedRow concatenation(const Layer& layer, const dnnl::engine& engine, dnnl::memory::data_type type, Layout layout);
PreparedRow copy(const Layer& layer, const dnnl::engine& engine, dnnl::memory::data_type type, Layout layout);

/// Bytes of the buffers the row allocates (plain and reordered copies), estimated from its shapes
/// before anything is allocated.
double rowBytes(const Layer& layer, double elementBytes);

/// The row as primitives at `type`, on `engine`, its activations in `layout` (data rows; compute
/// rows choose theirs); throws Unsupported. `onnxOp` names the imported operator of elementwise
/// rows ("Sigmoid"), empty for built-in rows. A data row's name ends in its layout
/// ("pooling (jit:avx512_core) on nChw16c").
PreparedRow prepareRow(const Layer& layer, const dnnl::engine& engine, dnnl::memory::data_type type,
    const std::string& onnxOp, Layout layout = Layout::ChannelsLast);

} // namespace rfx::onednn
