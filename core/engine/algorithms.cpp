#include "engine/algorithms.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

namespace rfx {

namespace {

using Matrix = std::vector<std::vector<double>>;

// Operations of y = M x for one vector: per output, (non-zeros - 1) additions and one
// multiplication per non-zero coefficient other than +1 and -1.
int vectorOps(const Matrix& m)
{
    int ops = 0;
    for (const auto& row : m) {
        int nonzero = 0, scaled = 0;
        for (double v : row) {
            if (v != 0) {
                ++nonzero;
                scaled += (v != 1 && v != -1) ? 1 : 0;
            }
        }
        ops += std::max(0, nonzero - 1) + scaled;
    }
    return ops;
}

// Lavin & Gray 2016, section 4: the transform matrices.
struct Winograd {
    Matrix bt, g, at;
};

const Winograd& winograd(int m)
{
    static const Winograd f2 { { { 1, 0, -1, 0 }, { 0, 1, 1, 0 }, { 0, -1, 1, 0 }, { 0, 1, 0, -1 } },
        { { 1, 0, 0 }, { 0.5, 0.5, 0.5 }, { 0.5, -0.5, 0.5 }, { 0, 0, 1 } }, { { 1, 1, 1, 0 }, { 0, 1, -1, -1 } } };
    static const Winograd f4 { { { 4, 0, -5, 0, 1, 0 }, { 0, -4, -4, 1, 1, 0 }, { 0, 4, -4, -1, 1, 0 },
                                   { 0, -2, -1, 2, 1, 0 }, { 0, 2, -1, -2, 1, 0 }, { 0, 4, 0, -5, 0, 1 } },
        { { 1.0 / 4, 0, 0 }, { -1.0 / 6, -1.0 / 6, -1.0 / 6 }, { -1.0 / 6, 1.0 / 6, -1.0 / 6 },
            { 1.0 / 24, 1.0 / 12, 1.0 / 6 }, { 1.0 / 24, -1.0 / 12, 1.0 / 6 }, { 0, 0, 1 } },
        { { 1, 1, 1, 1, 1, 0 }, { 0, 1, -1, 2, -2, 0 }, { 0, 1, 1, 4, 4, 0 }, { 0, 1, -1, 8, -8, 1 } } };
    return m == 2 ? f2 : f4;
}

} // namespace

WinogradTransformOps winogradTransformOps(int m)
{
    const Winograd& w = winograd(m);
    const int alpha = m + 2;
    // X' = M X M^T for X of c x c: M applied to c columns, then to the r rows of the result.
    return { (alpha + alpha) * vectorOps(w.bt), (3 + alpha) * vectorOps(w.g), (alpha + m) * vectorOps(w.at) };
}

std::int64_t smoothFftSize(std::int64_t n)
{
    for (std::int64_t s = std::max<std::int64_t>(n, 1);; ++s) {
        std::int64_t r = s;
        for (std::int64_t p : { 2, 3, 5, 7 })
            while (r % p == 0)
                r /= p;
        if (r == 1)
            return s;
    }
}

AlgorithmCost convolutionCost(const Layer& l, ConvAlgorithm algorithm)
{
    AlgorithmCost c;
    const Shape& in = l.inShapes.empty() ? l.out : l.inShapes.front();
    const Shape& o = l.out;
    const double n = double(o.n), cin = double(in.c), cout = double(o.c);
    // A transposed convolution is counted at its input positions (DESIGN.md): every input element meets
    // the whole kernel once. Counted at output positions it would be stride^2 times too many.
    // A linear layer flattens its input (C * H * W features); a matrix product has K = opsPerElement / 2.
    const double directMacs = l.op == Op::ConvTranspose
        ? n * cin * double(in.spatial()) * (cout / l.groups) * l.kd * l.kh * l.kw
        : l.op == Op::Linear ? n * cout * cin * double(in.spatial())
        : l.op == Op::MatMul ? double(o.elements()) * l.opsPerElement / 2
                             : n * cout * double(o.spatial()) * (cin / l.groups) * l.kd * l.kh * l.kw;
    c.flops = 2 * directMacs;
    c.gemmMacs = directMacs;
    if (l.op != Op::Conv || l.out.rank == 5) {
        if (algorithm != ConvAlgorithm::Direct) {
            c.applies = false;
            c.whyNot = std::string(algorithmName(algorithm))
                + (l.op == Op::Conv ? " is modelled for 2-D convolutions only" : " applies to convolutions only");
        }
        return c;
    }
    switch (algorithm) {
    case ConvAlgorithm::Direct:
    case ConvAlgorithm::Auto:
        return c;
    case ConvAlgorithm::Im2col: {
        if (l.kh == 1 && l.kw == 1 && l.stride == 1 && l.padding == 0)
            return c; // a 1x1 convolution is a GEMM on the input as it is
        const double lowered = n * double(o.h) * double(o.w) * cin * l.kh * l.kw;
        c.extraElements = 2 * lowered;
        c.workspaceElements = lowered;
        c.kernels = 2;
        return c;
    }
    case ConvAlgorithm::Fft: {
        if (l.stride != 1 || l.groups != 1) {
            c.applies = false;
            c.whyNot = l.stride != 1 ? "FFT needs stride 1" : "FFT needs an ungrouped convolution";
            return c;
        }
        const double nh = double(smoothFftSize(in.h + 2 * l.padding)), nw = double(smoothFftSize(in.w + 2 * l.padding));
        const double grid = nh * nw;
        const double spectrum = nh * (std::floor(nw / 2) + 1); // complex values of a real 2-D transform
        const double transforms = n * cin + cout * cin + n * cout;
        const double fftFlops = 2.5 * grid * std::log2(grid);
        const double products = n * cout * cin * spectrum;
        c.flops = transforms * fftFlops + 8 * products;
        c.gemmMacs = 4 * products; // a complex multiply-accumulate is 4 real ones
        c.workspaceElements = 2 * spectrum * transforms;
        c.extraElements = 2 * c.workspaceElements;
        c.kernels = 4;
        return c;
    }
    case ConvAlgorithm::Winograd2:
    case ConvAlgorithm::Winograd4: {
        const int m = algorithm == ConvAlgorithm::Winograd2 ? 2 : 4;
        if (l.kh != 3 || l.kw != 3 || l.stride != 1 || l.groups != 1) {
            c.applies = false;
            c.whyNot = std::string("Winograd F(") + (m == 2 ? "2x2" : "4x4")
                + ",3x3) needs an ungrouped 3x3 kernel at stride 1";
            return c;
        }
        const double alpha2 = double((m + 2) * (m + 2));
        const double tiles = n * std::ceil(double(o.h) / m) * std::ceil(double(o.w) / m);
        const WinogradTransformOps ops = winogradTransformOps(m);
        c.gemmMacs = tiles * cin * cout * alpha2;
        c.flops = 2 * c.gemmMacs + tiles * cin * ops.input + tiles * cout * ops.output + cin * cout * ops.kernel;
        c.workspaceElements = alpha2 * (cin * cout + tiles * cin + tiles * cout);
        c.extraElements = 2 * c.workspaceElements;
        c.kernels = 4;
        return c;
    }
    }
    return c;
}

double trafficElements(TrafficModel model, double compulsory, double macs, double outputs, double onchipElements)
{
    switch (model) {
    case TrafficModel::Compulsory:
    case TrafficModel::Fused:
        return compulsory;
    case TrafficModel::Naive:
        return std::max(compulsory, 2 * macs + outputs);
    case TrafficModel::Tiled:
        return tileTrafficElements(
            compulsory, macs, outputs, std::max(1.0, std::floor(std::sqrt(std::max(onchipElements, 3.0) / 3))));
    }
    return compulsory;
}

double tileTrafficElements(double compulsory, double macs, double outputs, double b)
{
    const double naive = std::max(compulsory, 2 * macs + outputs);
    return std::min(naive, std::max(compulsory, 2 * macs / std::max(b, 1.0) + outputs));
}

LevelTraffic tiledLevelTraffic(double compulsory, double macs, double outputs, double sharedElements, double l2Elements,
    bool l2Modelled, bool l1Modelled, double registerTile)
{
    LevelTraffic t;
    const double shared = trafficElements(TrafficModel::Tiled, compulsory, macs, outputs, sharedElements);
    t.dram = l2Modelled ? trafficElements(TrafficModel::Tiled, compulsory, macs, outputs, l2Elements) : shared;
    t.l2 = l2Modelled ? std::max(shared, t.dram) : 0;
    t.l1 = l1Modelled ? std::max(tileTrafficElements(compulsory, macs, outputs, registerTile), std::max(shared, t.dram))
                      : 0;
    return t;
}

} // namespace rfx
