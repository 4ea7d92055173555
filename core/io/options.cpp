#include "io/options.h"

#include "model/networks.h"
#include "onnx/onnx_model.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string_view>

namespace rfx {

namespace {

// An option naming one of an enum's words (config.h's tables); the message lists them.
template <typename E, std::size_t N>
bool setEnum(const std::string& option, const std::string& value, const EnumWord<E> (&words)[N], E& out, std::string& error)
{
    if (auto v = parseEnum(words, value)) {
        out = *v;
        return true;
    }
    error = option + ": expected one of " + enumChoices(words) + ", got '" + value + "'";
    return false;
}

} // namespace

SplitOption splitOption(const std::string& arg)
{
    if (auto eq = arg.find('='); arg.starts_with("--") && eq != std::string::npos)
        return { arg.substr(0, eq), arg.substr(eq + 1) };
    return { arg, std::nullopt };
}

OptionStatus applyConfigOption(const std::vector<std::string>& args, std::size_t& i, ConfigOptions& o, std::string& error)
{
    // Plain variables, not a structured binding: lambdas below capture them (clang 14 cannot).
    const SplitOption split = splitOption(args[i]);
    const std::string arg = split.name;
    const std::optional<std::string> inlineValue = split.value;
    Config& c = o.config;
    UNetParams& u = c.unet;

    // Flags without a value.
    struct Flag {
        const char* name;
        bool* target;
        bool value;
    };
    const Flag flags[] = {
        { "--batch-norm", &u.batchNorm, true },
        { "--no-batch-norm", &u.batchNorm, false },
        { "--fusion", &c.fusion, true },
        { "--no-fusion", &c.fusion, false },
        { "--tensor-cores", &c.tensorCores, true },
        { "--no-tensor-cores", &c.tensorCores, false },
        { "--overlap", &c.overlap, true },
        { "--no-overlap", &c.overlap, false },
    };
    for (const Flag& f : flags) {
        if (arg == f.name) {
            if (inlineValue) {
                error = arg + " takes no value";
                return OptionStatus::Error;
            }
            *f.target = f.value;
            return OptionStatus::Consumed;
        }
    }

    static const char* const valued[] = { "--model", "--image", "--height", "--width", "--in-channels", "--classes",
        "--filters", "--depth", "--padding", "--stride", "--downsample", "--conv", "--batch", "--bits", "--mode",
        "--optimizer", "--device", "--algorithm", "--traffic", "--cache-aware", "--onchip-kib", "--layer-algorithm", "--clock", "--gpus",
        "--interconnect", "--input-value", "--dim", "--branch" };
    bool known = false;
    for (const char* name : valued)
        known = known || arg == name;
    if (!known)
        return OptionStatus::NotConfigOption;

    std::string value;
    if (inlineValue) {
        value = *inlineValue;
    } else {
        if (i + 1 >= args.size()) {
            error = arg + ": missing value";
            return OptionStatus::Error;
        }
        value = args[++i];
    }

    auto setInt = [&](int& target) {
        if (auto v = parseWholeNumber(value)) {
            target = *v;
            return OptionStatus::Consumed;
        }
        error = arg + ": expected a whole number, got '" + value + "'";
        return OptionStatus::Error;
    };
    if (arg == "--image" || arg == "--height" || arg == "--width" || arg == "--in-channels" || arg == "--classes")
        o.inputGiven = true;
    if (arg == "--image") {
        if (setInt(u.height) == OptionStatus::Error)
            return OptionStatus::Error;
        u.width = u.height;
        return OptionStatus::Consumed;
    }
    if (arg == "--height")
        return setInt(u.height);
    if (arg == "--width")
        return setInt(u.width);
    if (arg == "--in-channels")
        return setInt(u.inChannels);
    if (arg == "--classes")
        return setInt(u.classes);
    if (arg == "--filters")
        return setInt(u.baseFilters);
    if (arg == "--depth")
        return setInt(u.depth);
    if (arg == "--stride")
        return setInt(u.stride);
    if (arg == "--batch")
        return setInt(c.batch);
    if (arg == "--bits") {
        o.bitsGiven = true;
        c.bitsAsInFile = value == "file";
        if (c.bitsAsInFile) {
            c.bits = 32; // what a row the file gives no width takes
            return OptionStatus::Consumed;
        }
        return setInt(c.bits);
    }
    if (arg == "--onchip-kib")
        return setInt(c.onchipKiB);
    if (arg == "--gpus")
        return setInt(c.gpus);
    if (arg == "--interconnect") {
        c.interconnect = value;
        return OptionStatus::Consumed;
    }
    if (arg == "--clock") {
        if (auto percent = parseClockPercent(value)) {
            c.clockPercent = *percent;
            return OptionStatus::Consumed;
        }
        error = "--clock: expected a fraction of the boost clock (0.1 to 1) or a percentage (80%), got '" + value + "'";
        return OptionStatus::Error;
    }
    if (arg == "--layer-algorithm") {
        const size_t eq = value.rfind('=');
        const auto algorithm = eq == std::string::npos ? std::nullopt : parseAlgorithm(value.substr(eq + 1));
        if (eq == std::string::npos || eq == 0 || !algorithm) {
            error = "--layer-algorithm: expected LAYER=direct|im2col|fft|winograd2|winograd4|auto, got '" + value + "'";
            return OptionStatus::Error;
        }
        c.layerAlgorithms[value.substr(0, eq)] = *algorithm;
        return OptionStatus::Consumed;
    }
    if (arg == "--input-value") { // NAME=V: a value for a one-element input of an ONNX model
        const size_t eq = value.rfind('=');
        char* end = nullptr;
        const double v = eq == std::string::npos ? 0 : std::strtod(value.c_str() + eq + 1, &end);
        if (eq == std::string::npos || eq == 0 || end == value.c_str() + eq + 1 || *end != '\0' || !std::isfinite(v)) {
            error = "--input-value: expected INPUT=NUMBER (a value for a one-element input of the model, as 'flag=1'), got '"
                + value + "'";
            return OptionStatus::Error;
        }
        c.inputValues[value.substr(0, eq)] = v;
        return OptionStatus::Consumed;
    }
    if (arg == "--dim") { // NAME=N: an extent for a symbolic dimension of an ONNX model's inputs
        const size_t eq = value.rfind('=');
        char* end = nullptr;
        const long long v = eq == std::string::npos ? 0 : std::strtoll(value.c_str() + eq + 1, &end, 10);
        if (eq == std::string::npos || eq == 0 || end == value.c_str() + eq + 1 || *end != '\0' || v < 0 || v > (1LL << 24)) {
            // (At most 2^24, 16,777,216: two extents of 2^31 summed by a Concat wrapped to a negative one
            // in shape inference.)
            error = "--dim: expected NAME=N (a symbolic dimension of the model's inputs, as the model names it, and a "
                    "whole number from 0 to 16,777,216, as 'sequence_length=128'; 0 for an empty past), got '" + value + "'";
            return OptionStatus::Error;
        }
        c.dims[value.substr(0, eq)] = v;
        return OptionStatus::Consumed;
    }
    if (arg == "--branch") { // NODE=then|else: the branch an If on the data takes
        const size_t eq = value.rfind('=');
        const std::string side = eq == std::string::npos ? std::string() : value.substr(eq + 1);
        if (eq == std::string::npos || eq == 0 || (side != "then" && side != "else")) {
            error = "--branch: expected NODE=then or NODE=else (an If node of the model, as the note about it names it), got '"
                + value + "'";
            return OptionStatus::Error;
        }
        c.branches[value.substr(0, eq)] = side == "then";
        return OptionStatus::Consumed;
    }
    if (arg == "--model") {
        c.model = value;
        if (!o.bitsGiven) // an imported model runs as its file stores it unless --bits says otherwise
            c.bitsAsInFile = isOnnxFile(value);
        if (const ModelInfo* m = findModel(value); m && !o.inputGiven) {
            u.height = m->height;
            u.width = m->width;
            u.inChannels = m->channels;
            u.classes = m->classes;
        } else if (isOnnxFile(value) && !o.inputGiven) {
            if (const OnnxLoad load = cachedOnnxModel(value); load.model)
                u.height = u.width = load.model->defaultImageSize(); // else the build says why
        }
        return OptionStatus::Consumed;
    }
    if (arg == "--device") {
        if (value.empty()) {
            error = "--device: expected a device id";
            return OptionStatus::Error;
        }
        o.devices.push_back(value);
        return OptionStatus::Consumed;
    }
    bool ok = true;
    if (arg == "--padding")
        ok = setEnum(arg, value, kPaddingWords, u.padding, error);
    else if (arg == "--downsample")
        ok = setEnum(arg, value, kDownsampleWords, u.downsample, error);
    else if (arg == "--conv")
        ok = setEnum(arg, value, kConvTypeWords, u.conv, error);
    else if (arg == "--mode")
        ok = setEnum(arg, value, kModeWords, c.mode, error);
    else if (arg == "--optimizer")
        ok = setEnum(arg, value, kOptimizerWords, c.optimizer, error);
    else if (arg == "--algorithm")
        ok = setEnum(arg, value, kAlgorithmWords, c.algorithm, error);
    else if (arg == "--traffic")
        ok = setEnum(arg, value, kTrafficWords, c.traffic, error);
    else if (arg == "--cache-aware")
        ok = setEnum(arg, value, kCacheAwareWords, c.cacheAware, error);
    return ok ? OptionStatus::Consumed : OptionStatus::Error;
}

std::optional<int> parseClockPercent(const std::string& text)
{
    std::string t = text;
    const bool percent = !t.empty() && t.back() == '%';
    if (percent)
        t.pop_back();
    if (t.empty() || t.size() > 32)
        return std::nullopt;
    char* end = nullptr;
    const double v = std::strtod(t.c_str(), &end);
    if (end != t.c_str() + t.size() || !std::isfinite(v))
        return std::nullopt;
    // A bare number is a fraction of boost: "5" is not 5 % (nor 500 %), so it is refused, not guessed.
    if (!percent && v > 1)
        return std::nullopt;
    const double p = percent ? v : v * 100;
    // Whole percent steps; out-of-range values are left to validate(), which names the range.
    if (p < -1e6 || p > 1e6 || std::abs(p - std::round(p)) > 1e-6)
        return std::nullopt;
    return int(std::lround(p));
}

std::vector<std::string> configToArgs(const Config& c)
{
    const UNetParams& u = c.unet;
    std::vector<std::string> a { "--model", c.model, "--height", std::to_string(u.height), "--width",
        std::to_string(u.width), "--in-channels", std::to_string(u.inChannels), "--classes", std::to_string(u.classes),
        "--filters", std::to_string(u.baseFilters), "--depth", std::to_string(u.depth), "--padding",
        std::string(paddingName(u.padding)), "--stride", std::to_string(u.stride), "--downsample",
        std::string(downsampleName(u.downsample)), "--conv", std::string(convTypeName(u.conv)), "--batch",
        std::to_string(c.batch), "--bits", c.bitsAsInFile ? std::string("file") : std::to_string(c.bits), "--mode", std::string(modeName(c.mode)),
        "--optimizer", std::string(optimizerName(c.optimizer)) };
    a.push_back(u.batchNorm ? "--batch-norm" : "--no-batch-norm");
    a.push_back(c.fusion ? "--fusion" : "--no-fusion");
    a.push_back(c.tensorCores ? "--tensor-cores" : "--no-tensor-cores");
    a.insert(a.end(), { "--algorithm", std::string(algorithmName(c.algorithm)), "--traffic", std::string(trafficName(c.traffic)),
                          "--onchip-kib", std::to_string(c.onchipKiB), "--clock", std::to_string(c.clockPercent) + "%",
                          "--gpus", std::to_string(c.gpus), "--interconnect", c.interconnect });
    a.push_back(c.overlap ? "--overlap" : "--no-overlap");
    if (c.cacheAware != CacheAware::Auto) // written only when chosen: files from before it read the same
        a.insert(a.end(), { "--cache-aware", std::string(cacheAwareName(c.cacheAware)) });
    for (const auto& [layer, algorithm] : c.layerAlgorithms)
        a.insert(a.end(), { "--layer-algorithm", layer + "=" + std::string(algorithmName(algorithm)) });
    for (const auto& [input, value] : c.inputValues) {
        char number[32];
        std::snprintf(number, sizeof number, "%.17g", value);
        a.insert(a.end(), { "--input-value", input + "=" + number });
    }
    for (const auto& [dim, extent] : c.dims)
        a.insert(a.end(), { "--dim", dim + "=" + std::to_string(extent) });
    for (const auto& [node, then] : c.branches)
        a.insert(a.end(), { "--branch", node + (then ? "=then" : "=else") });
    return a;
}

bool parseConfigArgs(const std::vector<std::string>& args, ConfigOptions& options, std::string& error)
{
    for (std::size_t i = 0; i < args.size(); ++i) {
        const OptionStatus s = applyConfigOption(args, i, options, error);
        if (s == OptionStatus::Error)
            return false;
        if (s == OptionStatus::NotConfigOption) {
            error = "unknown option '" + args[i] + "'";
            return false;
        }
    }
    return true;
}

std::optional<Config> configFromArgList(const std::vector<std::string>& args, std::string& error)
{
    ConfigOptions parsed;
    std::string why;
    if (!parseConfigArgs(args, parsed, why)) {
        error = "config_args: " + why;
        return std::nullopt;
    }
    if (auto bad = validate(parsed.config)) {
        error = "config_args: " + *bad;
        return std::nullopt;
    }
    return parsed.config;
}

std::string configOptionsHelp()
{
    return "  --model NAME|FILE          network: unet (default, the classic 2015 U-Net), alexnet, vgg16,\n"
           "                             resnet18, resnet34, resnet50, resnet101, resnet152,\n"
           "                             calibration-classes (rows for a calibration), a custom\n"
           "                             network file FILE.json (roofline-cli networks --format-help) or an\n"
           "                             ONNX model FILE.onnx; a built-in network brings its published\n"
           "                             input unless --image etc. are given; an ONNX model's symbolic\n"
           "                             batch and image extents take --batch and --image (default 224)\n"
           "  --input-value NAME=V       an ONNX model's one-element input (a flag an If tests, a Loop's trip\n"
           "                             count) bound to V; unbound, the heavier branch is counted, with a note\n"
           "  --dim NAME=N               an ONNX model's symbolic input dimension NAME (as the model names it:\n"
           "                             a decoder's sequence_length, past_sequence_length) bound to N, over\n"
           "                             the batch and image extents it would otherwise take\n"
           "  --branch NODE=then|else    the branch an ONNX model's If takes where its condition depends on\n"
           "                             the data (the note about the If names NODE)\n"
           "  --image N                  square input image, N x N pixels (default 572)\n"
           "  --height H, --width W      input image height and width\n"
           "  --in-channels C            input channels (default 1)\n"
           "  --classes K                output classes (default 2)\n"
           "  --filters F                base filters; level d has F * 2^d (default 64)\n"
           "  --depth D                  number of downsamplings (default 4)\n"
           "  --padding valid|same       3x3 convolution padding (default valid)\n"
           "  --stride S                 downsampling factor per level (default 2)\n"
           "  --downsample maxpool|strided  pooling, or a strided first convolution per level\n"
           "  --conv standard|separable  3x3 convolutions, or depthwise 3x3 + pointwise 1x1\n"
           "  --batch-norm               batch norm after every 3x3 convolution (drops its bias)\n"
           "  --fusion                   fuse bias, batch norm and ReLU into the convolution\n"
           "  --batch N                  images per batch (default 1)\n"
           "  --bits 8|16|32|64|file     element size and compute precision (default 32); file: an ONNX\n"
           "                             model's own (the default for one): each tensor at its stored width,\n"
           "                             each row on the ceiling of its arithmetic (int8, fp16, fp32)\n"
           "  --tensor-cores             use tensor-core ceilings for convolutions where present\n"
           "  --mode inference|training  forward only, or forward + backward + optimizer step\n"
           "  --optimizer sgd|momentum|adam  optimizer step in training (default momentum)\n"
           "  --algorithm A              convolution algorithm: direct (default), im2col, fft, winograd2,\n"
           "                             winograd4 (= winograd), or auto (the fastest predicted per layer and\n"
           "                             device); one that does not apply to a layer is noted, direct is used\n"
           "  --layer-algorithm L=A      the algorithm of one layer (by row name); repeatable\n"
           "  --traffic T                DRAM traffic model: compulsory (default), fused (elementwise rows\n"
           "                             fused), naive (no on-chip reuse), tiled (reuse in --onchip-kib)\n"
           "  --onchip-kib N             on-chip capacity for tiled traffic, KiB (default: the device's L1)\n"
           "  --cache-aware auto|on|off  a row whose inputs, weights and outputs fit a cache runs against\n"
           "                             that cache's bandwidth: auto (default) for CPUs whose file gives\n"
           "                             cache bandwidths, on for every device with them (A100, H100), off\n"
           "  --clock F                  core clock as a fraction of boost (0.1 to 1, or 80%): compute\n"
           "                             ceilings scale with it, DRAM bandwidth does not (default 1)\n"
           "  --gpus G                   data-parallel GPUs, each with --batch images (default 1)\n"
           "  --interconnect ID          link for the gradient all-reduce: pcie3-x16 (default), pcie4-x16,\n"
           "                             pcie5-x16, nvlink1, nvlink2, nvlink3, nvlink4\n"
           "  --no-overlap               all-reduce after the backward pass instead of during it\n"
           "  --device ID                device to analyse; repeat for several; 'all' for every one\n"
           "                             (default rtx-2060-super)\n";
}

std::optional<double> parseDecimal(std::string_view text)
{
    double v = 0;
    const auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (text.empty() || ec != std::errc() || p != text.data() + text.size() || !std::isfinite(v))
        return std::nullopt;
    return v;
}

std::optional<int> parseWholeNumber(std::string_view text)
{
    int v = 0;
    const auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || p != text.data() + text.size())
        return std::nullopt;
    return v;
}

} // namespace rfx
