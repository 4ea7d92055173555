#include "config.h"

#include "interconnects.h"
#include "networks.h"

#include <string>

namespace rfx {

namespace {
std::optional<std::string> checkRange(const char* what, int value, Range r)
{
    if (value < r.min || value > r.max)
        return std::string(what) + " must be between " + std::to_string(r.min) + " and " + std::to_string(r.max)
            + ", got " + std::to_string(value);
    return std::nullopt;
}
} // namespace

std::optional<std::string> validate(const Config& c)
{
    if (!findModel(c.model) && !isNetworkFile(c.model)) {
        std::string names;
        for (const ModelInfo& m : builtinModels())
            names += (names.empty() ? "" : ", ") + std::string(m.id);
        return "unknown model '" + c.model + "' (available: " + names + ", or a network file FILE.json)";
    }
    const UNetParams& u = c.unet;
    for (auto err : { checkRange("image height", u.height, kImageRange), checkRange("image width", u.width, kImageRange),
             checkRange("input channels", u.inChannels, kChannelRange), checkRange("classes", u.classes, kClassRange),
             checkRange("base filters", u.baseFilters, kFilterRange), checkRange("depth", u.depth, kDepthRange),
             checkRange("stride", u.stride, kStrideRange), checkRange("batch", c.batch, kBatchRange) }) {
        if (err)
            return err;
    }
    // Channel counts grow as filters * 2^depth; keep them within 64-bit arithmetic comfortably.
    if (static_cast<long long>(u.baseFilters) << u.depth > (1LL << 20))
        return "base filters * 2^depth must not exceed 1048576 channels, got " + std::to_string(u.baseFilters)
            + " * 2^" + std::to_string(u.depth);
    if (auto err = checkRange("core clock (% of boost)", c.clockPercent, kClockRange))
        return err;
    if (auto err = checkRange("GPU count", c.gpus, kGpuRange))
        return err;
    if (auto err = interconnectError(c.interconnect))
        return err;
    if (auto err = checkRange("on-chip capacity (KiB)", c.onchipKiB, kOnchipRange))
        return err;
    if (c.bits != 8 && c.bits != 16 && c.bits != 32 && c.bits != 64)
        return "bits must be 8, 16, 32 or 64, got " + std::to_string(c.bits);
    return std::nullopt;
}

std::string_view paddingName(Padding p) { return p == Padding::Valid ? "valid" : "same"; }
std::string_view downsampleName(Downsample d) { return d == Downsample::MaxPool ? "maxpool" : "strided"; }
std::string_view convTypeName(ConvType c) { return c == ConvType::Standard ? "standard" : "separable"; }
std::string_view modeName(Mode m) { return m == Mode::Inference ? "inference" : "training"; }
std::string_view optimizerName(Optimizer o)
{
    switch (o) {
    case Optimizer::Sgd:
        return "sgd";
    case Optimizer::Momentum:
        return "momentum";
    case Optimizer::Adam:
        return "adam";
    }
    return "sgd";
}

std::optional<Padding> parsePadding(std::string_view s)
{
    if (s == "valid")
        return Padding::Valid;
    if (s == "same")
        return Padding::Same;
    return std::nullopt;
}
std::optional<Downsample> parseDownsample(std::string_view s)
{
    if (s == "maxpool")
        return Downsample::MaxPool;
    if (s == "strided")
        return Downsample::Strided;
    return std::nullopt;
}
std::optional<ConvType> parseConvType(std::string_view s)
{
    if (s == "standard")
        return ConvType::Standard;
    if (s == "separable")
        return ConvType::Separable;
    return std::nullopt;
}
std::optional<Mode> parseMode(std::string_view s)
{
    if (s == "inference")
        return Mode::Inference;
    if (s == "training")
        return Mode::Training;
    return std::nullopt;
}
std::optional<Optimizer> parseOptimizer(std::string_view s)
{
    if (s == "sgd")
        return Optimizer::Sgd;
    if (s == "momentum")
        return Optimizer::Momentum;
    if (s == "adam")
        return Optimizer::Adam;
    return std::nullopt;
}

std::string_view algorithmName(ConvAlgorithm a)
{
    switch (a) {
    case ConvAlgorithm::Direct:
        return "direct";
    case ConvAlgorithm::Im2col:
        return "im2col";
    case ConvAlgorithm::Fft:
        return "fft";
    case ConvAlgorithm::Winograd2:
        return "winograd2";
    case ConvAlgorithm::Winograd4:
        return "winograd4";
    case ConvAlgorithm::Auto:
        return "auto";
    }
    return "direct";
}

std::optional<ConvAlgorithm> parseAlgorithm(std::string_view s)
{
    for (ConvAlgorithm a : { ConvAlgorithm::Direct, ConvAlgorithm::Im2col, ConvAlgorithm::Fft, ConvAlgorithm::Winograd2,
             ConvAlgorithm::Winograd4, ConvAlgorithm::Auto })
        if (s == algorithmName(a))
            return a;
    if (s == "winograd")
        return ConvAlgorithm::Winograd4;
    return std::nullopt;
}

std::string_view trafficName(TrafficModel t)
{
    switch (t) {
    case TrafficModel::Compulsory:
        return "compulsory";
    case TrafficModel::Fused:
        return "fused";
    case TrafficModel::Naive:
        return "naive";
    case TrafficModel::Tiled:
        return "tiled";
    }
    return "compulsory";
}

std::optional<TrafficModel> parseTraffic(std::string_view s)
{
    for (TrafficModel t : { TrafficModel::Compulsory, TrafficModel::Fused, TrafficModel::Naive, TrafficModel::Tiled })
        if (s == trafficName(t))
            return t;
    return std::nullopt;
}

std::string_view cacheAwareName(CacheAware c)
{
    switch (c) {
    case CacheAware::On:
        return "on";
    case CacheAware::Off:
        return "off";
    case CacheAware::Auto:
        break;
    }
    return "auto";
}

std::optional<CacheAware> parseCacheAware(std::string_view s)
{
    for (CacheAware c : { CacheAware::Auto, CacheAware::On, CacheAware::Off })
        if (s == cacheAwareName(c))
            return c;
    return std::nullopt;
}

} // namespace rfx
