// The configuration options of roofline-cli and the window, as one table: each option's name, what
// it sets and its help (configOptionsHelp prints the table in its order).
#include "io/option_table.h"
#include "io/options.h"

#include "model/networks.h"
#include "onnx/onnx_model.h"

#include <cmath>
#include <cstdlib>

namespace rfx {

namespace {

using ConfigIn = OptionInput<ConfigOptions>;

UNetParams& unet(const ConfigIn& in) { return in.target.config.unet; }
Config& config(const ConfigIn& in) { return in.target.config; }

// The input's size: given, it stays when --model names a network with a published one.
OptionStatus inputExtent(const ConfigIn& in, int& out)
{
    in.target.inputGiven = true;
    return in.wholeNumber(out);
}

OptionStatus setModel(const ConfigIn& in)
{
    Config& c = config(in);
    UNetParams& u = c.unet;
    c.model = in.value;
    if (!in.target.bitsGiven) // an imported model runs as its file stores it unless --bits says otherwise
        c.bitsAsInFile = isOnnxFile(in.value);
    if (const ModelInfo* m = findModel(in.value); m && !in.target.inputGiven) {
        u.height = m->height;
        u.width = m->width;
        u.inChannels = m->channels;
        u.classes = m->classes;
    } else if (isOnnxFile(in.value) && !in.target.inputGiven) {
        if (const OnnxLoad load = cachedOnnxModel(in.value); load.model)
            u.height = u.width = load.model->defaultImageSize(); // else the build says why
    }
    return OptionStatus::Consumed;
}

OptionStatus setBits(const ConfigIn& in)
{
    Config& c = config(in);
    in.target.bitsGiven = true;
    c.bitsAsInFile = in.value == "file";
    if (!c.bitsAsInFile)
        return in.wholeNumber(c.bits);
    c.bits = 32; // what a row the file gives no width takes
    return OptionStatus::Consumed;
}

OptionStatus setClock(const ConfigIn& in)
{
    if (const auto percent = parseClockPercent(in.value)) {
        config(in).clockPercent = *percent;
        return OptionStatus::Consumed;
    }
    return in.fail(
        "--clock: expected a fraction of the boost clock (0.1 to 1) or a percentage (80%), got '" + in.value + "'");
}

OptionStatus setLayerAlgorithm(const ConfigIn& in)
{
    const auto a = splitAssignment(in.value);
    const auto algorithm = a ? parseAlgorithm(a->value) : std::nullopt;
    if (!algorithm)
        return in.fail(
            "--layer-algorithm: expected LAYER=direct|im2col|fft|winograd2|winograd4|auto, got '" + in.value + "'");
    config(in).layerAlgorithms[a->name] = *algorithm;
    return OptionStatus::Consumed;
}

OptionStatus setInputValue(const ConfigIn& in) // NAME=V: a value for a one-element input of an ONNX model
{
    const auto a = splitAssignment(in.value);
    const auto v = a ? parseDecimal(a->value) : std::nullopt;
    if (!v)
        return in.fail(
            "--input-value: expected INPUT=NUMBER (a value for a one-element input of the model, as 'flag=1'), got '"
            + in.value + "'");
    config(in).inputValues[a->name] = *v;
    return OptionStatus::Consumed;
}

OptionStatus setDim(const ConfigIn& in) // NAME=N: an extent for a symbolic dimension of an ONNX model's inputs
{
    const auto a = splitAssignment(in.value);
    const auto v = a ? parseWholeNumber(a->value) : std::nullopt;
    // At most 2^24, 16,777,216: two extents of 2^31 summed by a Concat wrapped to a negative one in
    // shape inference.
    if (!v || *v < 0 || *v > (1 << 24))
        return in.fail(
            "--dim: expected NAME=N (a symbolic dimension of the model's inputs, as the model names it, and a "
            "whole number from 0 to 16,777,216, as 'sequence_length=128'; 0 for an empty past), got '"
            + in.value + "'");
    config(in).dims[a->name] = *v;
    return OptionStatus::Consumed;
}

OptionStatus setBranch(const ConfigIn& in) // NODE=then|else: the branch an If on the data takes
{
    const auto a = splitAssignment(in.value);
    if (!a || (a->value != "then" && a->value != "else"))
        return in.fail(
            "--branch: expected NODE=then or NODE=else (an If node of the model, as the note about it names it), got '"
            + in.value + "'");
    config(in).branches[a->name] = a->value == "then";
    return OptionStatus::Consumed;
}

OptionStatus setDevice(const ConfigIn& in)
{
    if (in.value.empty())
        return in.fail("--device: expected a device id");
    in.target.devices.push_back(in.value);
    return OptionStatus::Consumed;
}

// clang-format off
constexpr OptionSpec<ConfigOptions> kConfigOptions[] = {
    { "--model", true, setModel, "--model NAME|FILE",
      "network: unet (default, the classic 2015 U-Net), alexnet, vgg16,\n"
      "resnet18, resnet34, resnet50, resnet101, resnet152,\n"
      "calibration-classes (rows for a calibration), a custom\n"
      "network file FILE.json (roofline-cli networks --format-help) or an\n"
      "ONNX model FILE.onnx; a built-in network brings its published\n"
      "input unless --image etc. are given; an ONNX model's symbolic\n"
      "batch and image extents take --batch and --image (default 224)" },
    { "--input-value", true, setInputValue, "--input-value NAME=V",
      "an ONNX model's one-element input (a flag an If tests, a Loop's trip\n"
      "count) bound to V; unbound, the heavier branch is counted, with a note" },
    { "--dim", true, setDim, "--dim NAME=N",
      "an ONNX model's symbolic input dimension NAME (as the model names it:\n"
      "a decoder's sequence_length, past_sequence_length) bound to N, over\n"
      "the batch and image extents it would otherwise take" },
    { "--branch", true, setBranch, "--branch NODE=then|else",
      "the branch an ONNX model's If takes where its condition depends on\n"
      "the data (the note about the If names NODE)" },
    { "--image", true, [](const ConfigIn& in) {
          const OptionStatus s = inputExtent(in, unet(in).height);
          if (s == OptionStatus::Consumed)
              unet(in).width = unet(in).height;
          return s;
      }, "--image N", "square input image, N x N pixels (default 572)" },
    { "--height", true, [](const ConfigIn& in) { return inputExtent(in, unet(in).height); },
      "--height H, --width W", "input image height and width" },
    { "--width", true, [](const ConfigIn& in) { return inputExtent(in, unet(in).width); } },
    { "--in-channels", true, [](const ConfigIn& in) { return inputExtent(in, unet(in).inChannels); },
      "--in-channels C", "input channels (default 1)" },
    { "--classes", true, [](const ConfigIn& in) { return inputExtent(in, unet(in).classes); },
      "--classes K", "output classes (default 2)" },
    { "--filters", true, [](const ConfigIn& in) { return in.wholeNumber(unet(in).baseFilters); },
      "--filters F", "base filters; level d has F * 2^d (default 64)" },
    { "--depth", true, [](const ConfigIn& in) { return in.wholeNumber(unet(in).depth); },
      "--depth D", "number of downsamplings (default 4)" },
    { "--padding", true, [](const ConfigIn& in) { return in.word(kPaddingWords, unet(in).padding); },
      "--padding valid|same", "3x3 convolution padding (default valid)" },
    { "--stride", true, [](const ConfigIn& in) { return in.wholeNumber(unet(in).stride); },
      "--stride S", "downsampling factor per level (default 2)" },
    { "--downsample", true, [](const ConfigIn& in) { return in.word(kDownsampleWords, unet(in).downsample); },
      "--downsample maxpool|strided", "pooling, or a strided first convolution per level" },
    { "--conv", true, [](const ConfigIn& in) { return in.word(kConvTypeWords, unet(in).conv); },
      "--conv standard|separable", "3x3 convolutions, or depthwise 3x3 + pointwise 1x1" },
    { "--batch-norm", false, [](const ConfigIn& in) { unet(in).batchNorm = true; return OptionStatus::Consumed; },
      "--batch-norm", "batch norm after every 3x3 convolution (drops its bias)" },
    { "--no-batch-norm", false, [](const ConfigIn& in) { unet(in).batchNorm = false; return OptionStatus::Consumed; } },
    { "--fusion", false, [](const ConfigIn& in) { config(in).fusion = true; return OptionStatus::Consumed; },
      "--fusion", "fuse bias, batch norm and ReLU into the convolution" },
    { "--no-fusion", false, [](const ConfigIn& in) { config(in).fusion = false; return OptionStatus::Consumed; } },
    { "--batch", true, [](const ConfigIn& in) { return in.wholeNumber(config(in).batch); },
      "--batch N", "images per batch (default 1)" },
    { "--bits", true, setBits, "--bits 8|16|32|64|file",
      "element size and compute precision (default 32); file: an ONNX\n"
      "model's own (the default for one): each tensor at its stored width,\n"
      "each row on the ceiling of its arithmetic (int8, fp16, fp32)" },
    { "--tensor-cores", false, [](const ConfigIn& in) { config(in).tensorCores = true; return OptionStatus::Consumed; },
      "--tensor-cores", "use tensor-core ceilings for convolutions where present" },
    { "--no-tensor-cores", false, [](const ConfigIn& in) { config(in).tensorCores = false; return OptionStatus::Consumed; } },
    { "--mode", true, [](const ConfigIn& in) { return in.word(kModeWords, config(in).mode); },
      "--mode inference|training", "forward only, or forward + backward + optimizer step" },
    { "--optimizer", true, [](const ConfigIn& in) { return in.word(kOptimizerWords, config(in).optimizer); },
      "--optimizer sgd|momentum|adam", "optimizer step in training (default momentum)" },
    { "--algorithm", true, [](const ConfigIn& in) { return in.word(kAlgorithmWords, config(in).algorithm); },
      "--algorithm A",
      "convolution algorithm: direct (default), im2col, fft, winograd2,\n"
      "winograd4 (= winograd), or auto (the fastest predicted per layer and\n"
      "device); one that does not apply to a layer is noted, direct is used" },
    { "--layer-algorithm", true, setLayerAlgorithm,
      "--layer-algorithm L=A", "the algorithm of one layer (by row name); repeatable" },
    { "--traffic", true, [](const ConfigIn& in) { return in.word(kTrafficWords, config(in).traffic); },
      "--traffic T",
      "DRAM traffic model: compulsory (default), fused (elementwise rows\n"
      "fused), naive (no on-chip reuse), tiled (reuse in --onchip-kib)" },
    { "--onchip-kib", true, [](const ConfigIn& in) { return in.wholeNumber(config(in).onchipKiB); },
      "--onchip-kib N", "on-chip capacity for tiled traffic, KiB (default: the device's L1)" },
    { "--cache-aware", true, [](const ConfigIn& in) { return in.word(kCacheAwareWords, config(in).cacheAware); },
      "--cache-aware auto|on|off",
      "a row whose inputs, weights and outputs fit a cache runs against\n"
      "that cache's bandwidth: auto (default) for CPUs whose file gives\n"
      "cache bandwidths, on for every device with them (A100, H100), off" },
    { "--clock", true, setClock, "--clock F",
      "core clock as a fraction of boost (0.1 to 1, or 80%): compute\n"
      "ceilings scale with it, DRAM bandwidth does not (default 1)" },
    { "--gpus", true, [](const ConfigIn& in) { return in.wholeNumber(config(in).gpus); },
      "--gpus G", "data-parallel GPUs, each with --batch images (default 1)" },
    { "--interconnect", true, [](const ConfigIn& in) { config(in).interconnect = in.value; return OptionStatus::Consumed; },
      "--interconnect ID",
      "link for the gradient all-reduce: pcie3-x16 (default), pcie4-x16,\n"
      "pcie5-x16, nvlink1, nvlink2, nvlink3, nvlink4" },
    { "--no-overlap", false, [](const ConfigIn& in) { config(in).overlap = false; return OptionStatus::Consumed; },
      "--no-overlap", "all-reduce after the backward pass instead of during it" },
    { "--overlap", false, [](const ConfigIn& in) { config(in).overlap = true; return OptionStatus::Consumed; } },
    { "--device", true, setDevice, "--device ID",
      "device to analyse; repeat for several; 'all' for every one\n"
      "(default rtx-2060-super)" },
};
// clang-format on

} // namespace

OptionStatus applyConfigOption(
    const std::vector<std::string>& args, std::size_t& i, ConfigOptions& o, std::string& error)
{
    return applyOption(kConfigOptions, args, i, o, error);
}

std::string configOptionsHelp() { return optionsHelp(kConfigOptions); }

} // namespace rfx
