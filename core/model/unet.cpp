#include "model/unet.h"

#include <algorithm>

namespace rfx {

namespace {

constexpr int kKernel = 3; // U-Net's convolutions are 3x3

// One convolution along one extent; nothing if the extent does not divide cleanly.
std::optional<int> convExtent(int s, int stride, Padding pad, std::string* reason, const std::string& where)
{
    if (pad == Padding::Same) {
        if (s % stride != 0) {
            if (reason)
                *reason = where + ": a " + std::to_string(s) + "-pixel map is not divisible by the stride "
                    + std::to_string(stride);
            return std::nullopt;
        }
        return s / stride;
    }
    if (s < kKernel || (s - kKernel) % stride != 0) {
        if (reason) {
            if (s < kKernel)
                *reason = where + ": the map has shrunk to " + std::to_string(s) + " pixels, smaller than the "
                    + std::to_string(kKernel) + "x" + std::to_string(kKernel) + " kernel";
            else
                *reason = where + ": a " + std::to_string(s) + "-pixel map does not fit a 3x3 kernel at stride "
                    + std::to_string(stride) + " without padding";
        }
        return std::nullopt;
    }
    return (s - kKernel) / stride + 1;
}

std::string levelName(int d, int depth) { return d == depth ? std::string("bottom") : "enc" + std::to_string(d + 1); }

// A level's two 3x3 convolutions (the first with the level's stride): the extent after them.
std::optional<int> levelExtent(
    int s, int firstStride, const UNetParams& p, std::string* reason, const std::string& level)
{
    const auto a = convExtent(s, firstStride, p.padding, reason, level + ".conv1");
    return a ? convExtent(*a, 1, p.padding, reason, level + ".conv2") : std::nullopt;
}

} // namespace

std::optional<int> unetOutputExtent(int extent, const UNetParams& p, std::string* reason)
{
    std::vector<int> skip(static_cast<size_t>(p.depth), 0);
    int s = extent;
    for (int d = 0; d <= p.depth; ++d) {
        const std::string level = levelName(d, p.depth);
        int firstStride = 1;
        if (d > 0) {
            if (p.downsample == Downsample::MaxPool) {
                if (s % p.stride != 0) {
                    if (reason)
                        *reason = level + " pooling: a " + std::to_string(s) + "-pixel map is not divisible by the "
                            + std::to_string(p.stride) + "x" + std::to_string(p.stride) + " pool window";
                    return std::nullopt;
                }
                s /= p.stride;
            } else {
                firstStride = p.stride;
            }
        }
        const auto out = levelExtent(s, firstStride, p, reason, level);
        if (!out)
            return std::nullopt;
        s = *out;
        if (d < p.depth)
            skip[static_cast<size_t>(d)] = s;
    }
    for (int d = p.depth - 1; d >= 0; --d) {
        const std::string level = "dec" + std::to_string(d + 1);
        s *= p.stride;
        if (s > skip[static_cast<size_t>(d)]) {
            if (reason)
                *reason = level + ": the up-sampled map (" + std::to_string(s)
                    + " pixels) is larger than the skip connection it joins ("
                    + std::to_string(skip[static_cast<size_t>(d)]) + " pixels)";
            return std::nullopt;
        }
        const auto out = levelExtent(s, 1, p, reason, level);
        if (!out)
            return std::nullopt;
        s = *out;
    }
    return s;
}

int snappedExtent(int wanted, int previous, const UNetParams& params)
{
    if (unetOutputExtent(wanted, params))
        return wanted;
    const NearestExtents n = nearestWorkingExtents(wanted, params);
    int snapped = 0;
    if (n.below && n.above)
        snapped = (wanted - n.below <= n.above - wanted) ? n.below : n.above;
    else
        snapped = n.below ? n.below : n.above;
    if (n.below && n.above && snapped == previous) // move in the drag's direction
        snapped = wanted > previous ? n.above : n.below;
    return snapped;
}

std::vector<int> suggestedExtents(const UNetParams& params)
{
    const int extent = unetOutputExtent(params.height, params) ? params.width : params.height;
    const NearestExtents n = nearestWorkingExtents(extent, params);
    std::vector<int> out;
    for (int e : { n.below, n.above })
        if (e > 0)
            out.push_back(e);
    return out;
}

NearestExtents nearestWorkingExtents(int extent, const UNetParams& p)
{
    NearestExtents n;
    for (int s = std::min(extent - 1, kImageRange.max); s >= kImageRange.min; --s) {
        if (unetOutputExtent(s, p)) {
            n.below = s;
            break;
        }
    }
    for (int s = std::max(extent + 1, kImageRange.min); s <= kImageRange.max; ++s) {
        if (unetOutputExtent(s, p)) {
            n.above = s;
            break;
        }
    }
    return n;
}

namespace {

class UNetBuilder {
public:
    UNetBuilder(const UNetParams& p, int batch, bool fusion)
        : m_p(p)
        , m_fusion(fusion)
    {
        m_net.name = "U-Net";
        m_net.input = Shape { batch, p.inChannels, p.height, p.width };
    }

    Network build()
    {
        const UNetParams& p = m_p;
        std::vector<int> skips;
        int x = -1; // network input
        for (int d = 0; d <= p.depth; ++d) {
            const std::string level = levelName(d, p.depth);
            const int channels = p.baseFilters << d;
            int firstStride = 1;
            if (d > 0) {
                if (p.downsample == Downsample::MaxPool)
                    x = pool(levelName(d - 1, p.depth) + ".pool", x);
                else
                    firstStride = p.stride;
            }
            x = convUnit(level + ".conv1", x, channels, firstStride);
            x = convUnit(level + ".conv2", x, channels, 1);
            if (d < p.depth)
                skips.push_back(x);
        }
        for (int d = p.depth - 1; d >= 0; --d) {
            const std::string level = "dec" + std::to_string(d + 1);
            const int channels = p.baseFilters << d;
            // 2x2 (stride x stride) up-convolution halves the channels; it keeps its bias.
            x = convTranspose(level + ".up", x, channels);
            x = post(x, level + ".up", /*bias=*/true, /*bn=*/false, /*relu=*/false);
            x = concat(level + ".concat", skips[static_cast<size_t>(d)], x);
            x = convUnit(level + ".conv1", x, channels, 1);
            x = convUnit(level + ".conv2", x, channels, 1);
        }
        x = conv("head.conv", x, p.classes, 1, 1, 1, Padding::Valid);
        post(x, "head.conv", /*bias=*/true, /*bn=*/false, /*relu=*/false);
        return std::move(m_net);
    }

private:
    const Shape& shapeOf(int idx) const { return idx < 0 ? m_net.input : m_net.layers[static_cast<size_t>(idx)].out; }

    int push(Layer layer)
    {
        m_net.layers.push_back(std::move(layer));
        return static_cast<int>(m_net.layers.size()) - 1;
    }

    // A layer reading one tensor, the output of `input`.
    Layer singleInput(const std::string& name, Op op, int input) const
    {
        return singleInputLayer(name, op, input, shapeOf(input));
    }

    int conv(const std::string& name, int input, int cout, int k, int stride, int groups, Padding pad)
    {
        const Shape in = shapeOf(input);
        Layer l = singleInput(name, Op::Conv, input);
        l.kh = l.kw = k;
        l.stride = stride;
        l.groups = groups;
        l.padding = pad == Padding::Same
            ? (k - 1) / 2
            : 0; // PyTorch's padding=1 for 3 x 3 (extra on the right where stride 2 needs it)
        auto extent = [&](std::int64_t s) -> std::int64_t {
            if (pad == Padding::Same)
                return s / stride;
            return (s - k) / stride + 1;
        };
        l.out = Shape { in.n, cout, extent(in.h), extent(in.w) };
        return push(std::move(l));
    }

    // A 3x3 convolution as configured (standard or depthwise-separable) with its bias/BN and ReLU.
    int convUnit(const std::string& name, int input, int cout, int stride)
    {
        int x;
        if (m_p.conv == ConvType::Standard) {
            x = conv(name, input, cout, kKernel, stride, 1, m_p.padding);
        } else {
            const int cin = static_cast<int>(shapeOf(input).c);
            const int dw = conv(name + ".dw", input, cin, kKernel, stride, cin, m_p.padding);
            x = conv(name + ".pw", dw, cout, 1, 1, 1, Padding::Valid);
        }
        const std::string base = m_net.layers[static_cast<size_t>(x)].name;
        return post(x, base, /*bias=*/!m_p.batchNorm, /*bn=*/m_p.batchNorm, /*relu=*/true);
    }

    int convTranspose(const std::string& name, int input, int cout)
    {
        const Shape in = shapeOf(input);
        Layer l = singleInput(name, Op::ConvTranspose, input);
        l.kh = l.kw = m_p.stride;
        l.stride = m_p.stride;
        l.out = Shape { in.n, cout, in.h * m_p.stride, in.w * m_p.stride };
        return push(std::move(l));
    }

    int pool(const std::string& name, int input)
    {
        const Shape in = shapeOf(input);
        Layer l = singleInput(name, Op::MaxPool, input);
        l.kh = l.kw = m_p.stride;
        l.stride = m_p.stride;
        l.out = Shape { in.n, in.c, in.h / m_p.stride, in.w / m_p.stride };
        return push(std::move(l));
    }

    // Crop the skip connection to the up-sampled map's size (a view: only the crop is read), then join.
    int concat(const std::string& name, int skip, int up)
    {
        const Shape s = shapeOf(skip);
        const Shape u = shapeOf(up);
        Layer l;
        l.name = name;
        l.op = Op::Concat;
        l.inputs = { skip, up };
        l.inShapes = { Shape { s.n, s.c, u.h, u.w }, u };
        l.out = Shape { u.n, s.c + u.c, u.h, u.w };
        return push(std::move(l));
    }

    int elementwise(const std::string& name, Op op, int input) { return push(singleInput(name, op, input)); }

    // The elementwise layers after a convolution: separate rows, or fused into the convolution's row.
    int post(int x, const std::string& base, bool bias, bool bn, bool relu)
    {
        const auto ops = epilogueOps(bias, bn, relu);
        for (const auto& [op, suffix] : ops) {
            if (m_fusion) {
                Layer& l = m_net.layers[static_cast<size_t>(x)];
                l.epilogue.push_back(op);
                l.name += std::string("+") + suffix;
            } else {
                x = elementwise(base + "." + suffix, op, x);
            }
        }
        return x;
    }

    UNetParams m_p;
    bool m_fusion;
    Network m_net;
};

} // namespace

BuildResult buildUNet(const UNetParams& p, int batch, bool fusion)
{
    BuildResult r;
    for (auto [extent, what] : { std::pair { p.height, "height" }, std::pair { p.width, "width" } }) {
        std::string reason;
        if (!unetOutputExtent(extent, p, &reason)) {
            const NearestExtents n = nearestWorkingExtents(extent, p);
            r.error = "image " + std::string(what) + " " + std::to_string(extent) + " does not work with "
                + std::string(paddingName(p.padding)) + " padding, depth " + std::to_string(p.depth) + " and stride "
                + std::to_string(p.stride) + " (" + reason + ")";
            if (n.below && n.above)
                r.error += "; nearest " + std::string(what) + "s that work: " + std::to_string(n.below) + " and "
                    + std::to_string(n.above);
            else if (n.below || n.above)
                r.error
                    += "; nearest " + std::string(what) + " that works: " + std::to_string(n.below ? n.below : n.above);
            else
                r.error += "; no " + std::string(what) + " up to " + std::to_string(kImageRange.max)
                    + " works with these settings: lower the depth or the stride";
            return r;
        }
    }
    r.network = UNetBuilder(p, batch, fusion).build();
    return r;
}

} // namespace rfx
