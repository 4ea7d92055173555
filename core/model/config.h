#pragma once

#include "base/enum_words.h"

#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace rfx {

/// How a convolution is computed (the GPU CNN study, SEEDS.md study 2).
enum class ConvAlgorithm { Direct, Im2col, Fft, Winograd2, Winograd4, Auto };
/// What DRAM traffic a row is charged with.
enum class TrafficModel { Compulsory, Fused, Naive, Tiled };
/// Whether a row whose working set fits a cache runs against that cache's bandwidth: auto (CPUs with
/// cache bandwidths), on (every device with them), off (DRAM for every row).
enum class CacheAware { Auto, On, Off };

inline constexpr EnumWord<ConvAlgorithm> kAlgorithmWords[]
    = { { ConvAlgorithm::Direct, "direct" }, { ConvAlgorithm::Im2col, "im2col" }, { ConvAlgorithm::Fft, "fft" },
          { ConvAlgorithm::Winograd2, "winograd2" }, { ConvAlgorithm::Winograd4, "winograd4" },
          { ConvAlgorithm::Winograd4, "winograd", true }, { ConvAlgorithm::Auto, "auto" } };
inline constexpr EnumWord<TrafficModel> kTrafficWords[] = { { TrafficModel::Compulsory, "compulsory" },
    { TrafficModel::Fused, "fused" }, { TrafficModel::Naive, "naive" }, { TrafficModel::Tiled, "tiled" } };
inline constexpr EnumWord<CacheAware> kCacheAwareWords[]
    = { { CacheAware::Auto, "auto" }, { CacheAware::On, "on" }, { CacheAware::Off, "off" } };

std::string_view algorithmName(ConvAlgorithm a); ///< direct, im2col, fft, winograd2, winograd4, auto
std::optional<ConvAlgorithm> parseAlgorithm(std::string_view s); ///< also "winograd" = winograd4
std::string_view trafficName(TrafficModel t); ///< compulsory, fused, naive, tiled
std::optional<TrafficModel> parseTraffic(std::string_view s);
std::string_view cacheAwareName(CacheAware c); ///< auto, on, off
std::optional<CacheAware> parseCacheAware(std::string_view s);

enum class Padding { Valid, Same };
enum class Downsample { MaxPool, Strided };
enum class ConvType { Standard, Separable };
enum class Mode { Inference, Training };
enum class Optimizer { Sgd, Momentum, Adam };

inline constexpr EnumWord<Padding> kPaddingWords[] = { { Padding::Valid, "valid" }, { Padding::Same, "same" } };
inline constexpr EnumWord<Downsample> kDownsampleWords[]
    = { { Downsample::MaxPool, "maxpool" }, { Downsample::Strided, "strided" } };
inline constexpr EnumWord<ConvType> kConvTypeWords[]
    = { { ConvType::Standard, "standard" }, { ConvType::Separable, "separable" } };
inline constexpr EnumWord<Mode> kModeWords[] = { { Mode::Inference, "inference" }, { Mode::Training, "training" } };
inline constexpr EnumWord<Optimizer> kOptimizerWords[]
    = { { Optimizer::Sgd, "sgd" }, { Optimizer::Momentum, "momentum" }, { Optimizer::Adam, "adam" } };

/// The U-Net builder's parameters (DESIGN.md "U-Net builder"). Defaults are the classic
/// Ronneberger et al. 2015 network: 572x572x1 in, 2 classes, 64 base filters, depth 4.
struct UNetParams {
    int height = 572;
    int width = 572;
    int inChannels = 1;
    int classes = 2;
    int baseFilters = 64; ///< level d has baseFilters * 2^d channels
    int depth = 4; ///< number of downsamplings
    int stride = 2; ///< downsampling factor per level: pool window, up-convolution kernel and stride
    Padding padding = Padding::Valid;
    Downsample downsample = Downsample::MaxPool;
    ConvType conv = ConvType::Standard;
    bool batchNorm = false;

    friend bool operator==(const UNetParams&, const UNetParams&) = default;
};

/// Everything the engine needs to know about one analysis, as a plain value.
struct Config {
    std::string model = "unet";
    UNetParams unet;
    int batch = 1;
    int bits = 32; ///< 8, 16, 32 or 64: element size and compute ceiling
    /// An imported model's precision as its file stores it: each tensor moves bytes at its own element
    /// width, each row runs against the ceiling of its arithmetic (Layer::inBits ... computeBits); rows
    /// without a width from the file (built-in networks) take `bits`
    bool bitsAsInFile = false;
    Mode mode = Mode::Inference;
    Optimizer optimizer = Optimizer::Momentum; ///< used in training mode
    bool fusion = false; ///< fuse bias/batch-norm/ReLU into the producing convolution
    bool tensorCores = false; ///< use tensor-core ceilings for convolutions where the device has them
    ConvAlgorithm algorithm = ConvAlgorithm::Direct; ///< for every convolution without its own choice
    std::map<std::string, ConvAlgorithm> layerAlgorithms; ///< per-layer choices, by row name
    TrafficModel traffic = TrafficModel::Compulsory;
    int onchipKiB = 0; ///< on-chip capacity for the tiled model, KiB; 0 = the device's L1/shared memory
    CacheAware cacheAware = CacheAware::Auto;
    /// Core clock, percent of the boost clock: compute ceilings (and the on-chip L2/L1 bandwidths) scale
    /// with it, DRAM bandwidth does not; dynamic power follows core/engine/energy.h.
    int clockPercent = 100;
    int gpus = 1; ///< data-parallel GPUs, each with `batch` images per step (core/engine/energy.h)
    std::string interconnect = "pcie3-x16"; ///< link id for the gradient all-reduce (resources/interconnects.json)
    bool overlap = true; ///< all-reduce overlapped with the backward pass
    /// Values bound to an imported model's one-element inputs (--input-value NAME=V): the flag an If
    /// tests, a count a Loop runs. Unbound, such an input is unknown and the heavier branch is counted.
    std::map<std::string, double> inputValues;
    /// Extents bound by name to an imported model's symbolic dimensions (--dim NAME=N): a decoder's
    /// sequence_length and past_sequence_length, any dim_param of its inputs. Over the batch and image
    /// extents the importer would otherwise give them.
    std::map<std::string, std::int64_t> dims;
    /// The branch an imported model's If takes where its condition depends on the data (--branch NODE=then|else):
    /// true for then, by the If node's name (its first output's when it has none).
    std::map<std::string, bool> branches;

    friend bool operator==(const Config&, const Config&) = default;
};

/// Limits of every numeric parameter, shared by the command line, the GUI's controls and validation.
struct Range {
    int min;
    int max;
};
inline constexpr Range kImageRange { 8, 16384 };
inline constexpr Range kChannelRange { 1, 1024 };
inline constexpr Range kClassRange { 1, 1024 };
inline constexpr Range kFilterRange { 1, 1024 };
inline constexpr Range kDepthRange { 1, 8 };
inline constexpr Range kStrideRange { 2, 8 };
inline constexpr Range kBatchRange { 1, 65536 };
inline constexpr Range kOnchipRange { 0, 1 << 20 }; ///< KiB (0 = from the device)
inline constexpr Range kClockRange { 10, 100 }; ///< percent of the boost clock
inline constexpr Range kGpuRange { 1, 4096 };

/// Checks ranges and the bits value; returns a message naming the parameter, or nothing if valid.
/// (Whether the U-Net's shapes work out is checked by the builder.)
std::optional<std::string> validate(const Config& config);

std::string_view paddingName(Padding p);
std::string_view downsampleName(Downsample d);
std::string_view convTypeName(ConvType c);
std::string_view modeName(Mode m);
std::string_view optimizerName(Optimizer o);

std::optional<Padding> parsePadding(std::string_view s);
std::optional<Downsample> parseDownsample(std::string_view s);
std::optional<ConvType> parseConvType(std::string_view s);
std::optional<Mode> parseMode(std::string_view s);
std::optional<Optimizer> parseOptimizer(std::string_view s);

/// Element size in bytes for a bit width (bits / 8).
inline double elementBytes(int bits) { return bits / 8.0; }

} // namespace rfx
