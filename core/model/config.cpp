#include "model/config.h"

#include "devices/interconnects.h"
#include "model/networks.h"

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
    for (auto err :
        { checkRange("image height", u.height, kImageRange), checkRange("image width", u.width, kImageRange),
            checkRange("input channels", u.inChannels, kChannelRange), checkRange("classes", u.classes, kClassRange),
            checkRange("base filters", u.baseFilters, kFilterRange), checkRange("depth", u.depth, kDepthRange),
            checkRange("stride", u.stride, kStrideRange), checkRange("batch", c.batch, kBatchRange) }) {
        if (err)
            return err;
    }
    // Channel counts grow as filters * 2^depth; keep them within 64-bit arithmetic comfortably.
    if (static_cast<long long>(u.baseFilters) << u.depth > (1LL << 20))
        return "base filters * 2^depth must not exceed 1048576 channels, got " + std::to_string(u.baseFilters) + " * 2^"
            + std::to_string(u.depth);
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

std::string_view paddingName(Padding p) { return enumName(kPaddingWords, p); }
std::string_view downsampleName(Downsample d) { return enumName(kDownsampleWords, d); }
std::string_view convTypeName(ConvType c) { return enumName(kConvTypeWords, c); }
std::string_view modeName(Mode m) { return enumName(kModeWords, m); }
std::string_view optimizerName(Optimizer o) { return enumName(kOptimizerWords, o); }
std::string_view algorithmName(ConvAlgorithm a) { return enumName(kAlgorithmWords, a); }
std::string_view trafficName(TrafficModel t) { return enumName(kTrafficWords, t); }
std::string_view cacheAwareName(CacheAware c) { return enumName(kCacheAwareWords, c); }

std::optional<Padding> parsePadding(std::string_view s) { return parseEnum(kPaddingWords, s); }
std::optional<Downsample> parseDownsample(std::string_view s) { return parseEnum(kDownsampleWords, s); }
std::optional<ConvType> parseConvType(std::string_view s) { return parseEnum(kConvTypeWords, s); }
std::optional<Mode> parseMode(std::string_view s) { return parseEnum(kModeWords, s); }
std::optional<Optimizer> parseOptimizer(std::string_view s) { return parseEnum(kOptimizerWords, s); }
std::optional<ConvAlgorithm> parseAlgorithm(std::string_view s) { return parseEnum(kAlgorithmWords, s); }
std::optional<TrafficModel> parseTraffic(std::string_view s) { return parseEnum(kTrafficWords, s); }
std::optional<CacheAware> parseCacheAware(std::string_view s) { return parseEnum(kCacheAwareWords, s); }

} // namespace rfx
