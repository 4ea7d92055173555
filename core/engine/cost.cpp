#include "engine/cost.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace rfx {

namespace {

double elementwiseFlopsPerElement(Op op)
{
    switch (op) {
    case Op::Bias:
    case Op::ReLU:
        return 1;
    case Op::BatchNorm:
        return 2;
    default:
        return 0;
    }
}

std::int64_t elementwiseParams(Op op, std::int64_t channels)
{
    switch (op) {
    case Op::Bias:
        return channels;
    case Op::BatchNorm:
        return 2 * channels;
    default:
        return 0;
    }
}

std::int64_t inputElements(const Layer& l)
{
    return std::accumulate(l.inShapes.begin(), l.inShapes.end(), std::int64_t { 0 },
        [](std::int64_t sum, const Shape& s) { return sum + s.elements(); });
}

// Parameters of the main operation, without the fused epilogue.
std::int64_t mainParams(const Layer& l)
{
    const Shape& in = l.inShapes.empty() ? l.out : l.inShapes.front();
    switch (l.op) {
    case Op::Conv:
        return l.out.c * (in.c / l.groups) * l.kd * l.kh * l.kw;
    case Op::ConvTranspose:
        return in.c * (l.out.c / l.groups) * l.kd * l.kh * l.kw;
    case Op::Linear:
        return l.out.c * in.c * in.spatial(); // the input is flattened: C * H * W features
    default:
        return elementwiseParams(l.op, l.out.c);
    }
}

double mainFlops(const Layer& l)
{
    const Shape& in = l.inShapes.empty() ? l.out : l.inShapes.front();
    const Shape& o = l.out;
    switch (l.op) {
    case Op::Conv:
        return 2.0 * double(o.n) * double(o.c) * double(o.spatial()) * double(in.c / l.groups) * l.kd * l.kh * l.kw;
    case Op::ConvTranspose:
        return 2.0 * double(in.n) * double(in.c) * double(in.spatial()) * double(o.c / l.groups) * l.kd * l.kh * l.kw;
    case Op::Linear:
        return 2.0 * double(o.n) * double(o.c) * double(in.c) * double(in.spatial());
    case Op::MaxPool:
        return (double(l.kd) * l.kh * l.kw - 1) * double(o.elements());
    case Op::AvgPool:
        return double(l.kd) * l.kh * l.kw * double(o.elements()); // k*k - 1 additions and one scaling
    case Op::Add:
        return double(o.elements());
    case Op::Concat:
    case Op::Optimizer:
        return 0;
    case Op::MatMul:
    case Op::Eltwise:
    case Op::Reduce:
    case Op::Copy:
    case Op::Uncounted:
        return l.opsPerElement * double(o.elements());
    case Op::Bias:
    case Op::BatchNorm:
    case Op::ReLU:
        return elementwiseFlopsPerElement(l.op) * double(o.elements());
    }
    return 0;
}

double epilogueFlops(const Layer& l)
{
    double f = 0;
    for (Op op : l.epilogue)
        f += elementwiseFlopsPerElement(op) * double(l.out.elements());
    return f;
}

} // namespace

std::int64_t layerParams(const Layer& l)
{
    if (l.storedParams >= 0)
        return l.storedParams; // an imported row: what the file stores (its fused epilogue included)
    std::int64_t p = mainParams(l);
    for (Op op : l.epilogue)
        p += elementwiseParams(op, l.out.c);
    return p;
}

double forwardFlops(const Layer& l) { return (mainFlops(l) + epilogueFlops(l)) * l.repeats; }

RowWidths rowWidths(const Layer& l, double e, bool asInFile)
{
    RowWidths w { 0, e, e };
    auto width = [&](std::uint8_t bits) { return asInFile && bits > 0 ? bits / 8.0 : e; };
    for (size_t i = 0; i < l.inShapes.size(); ++i)
        w.inputBytes += double(l.inShapes[i].elements()) * width(i < l.inBits.size() ? l.inBits[i] : 0);
    w.weight = width(l.weightBits);
    w.output = width(l.outBits);
    return w;
}

LayerCost layerCost(const Layer& l, double e, bool asInFile)
{
    LayerCost c;
    c.params = layerParams(l);
    c.flopsForward = mainFlops(l) + epilogueFlops(l); // one run; repeats applied below
    const RowWidths w = rowWidths(l, e, asInFile);
    const double out = double(l.out.elements()) * w.output;
    const double params = l.weightBytes >= 0 ? l.weightBytes : double(c.params) * w.weight;
    const double in = w.inputBytes;
    c.bytesForward = in + params + out;

    switch (l.op) {
    case Op::Conv:
    case Op::ConvTranspose:
    case Op::Linear:
    case Op::MatMul:
        c.flopsBackward = 2.0 * mainFlops(l) + epilogueFlops(l);
        c.bytesBackward = 2.0 * c.bytesForward;
        c.kernelsBackward = 2;
        break;
    case Op::Concat:
        c.flopsBackward = 0;
        c.bytesBackward = out + in;
        break;
    default:
        c.flopsBackward = c.flopsForward;
        c.bytesBackward = out + 2.0 * in + 2.0 * params;
        break;
    }
    if (l.repeats != 1) { // a Loop's body or a Scan's step, run `repeats` times
        c.flopsForward *= l.repeats;
        c.bytesForward *= l.repeats;
        c.flopsBackward *= l.repeats;
        c.bytesBackward *= l.repeats;
        // every run is a launch of its own (a language model's blocks, a Loop's trips)
        c.kernelsForward = int(std::lround(c.kernelsForward * l.repeats));
        c.kernelsBackward = int(std::lround(c.kernelsBackward * l.repeats));
    }
    return c;
}

OptimizerCostPerParam optimizerCostPerParam(Optimizer o)
{
    switch (o) {
    case Optimizer::Sgd:
        return { 2, 3, 0 };
    case Optimizer::Momentum:
        return { 4, 5, 1 };
    case Optimizer::Adam:
        return { 12, 7, 2 };
    }
    return { 2, 3, 0 };
}

MemoryFootprint memoryFootprint(const Network& net, const Config& config)
{
    const double e = elementBytes(config.bits);
    MemoryFootprint m;
    double params = 0;
    auto width = [&](std::uint8_t bits) { return config.bitsAsInFile && bits > 0 ? bits / 8.0 : e; };
    for (const Layer& l : net.layers) {
        const double p = double(layerParams(l));
        params += p;
        m.weights += p * width(l.weightBits);
    }

    const size_t n = net.layers.size();
    if (config.mode == Mode::Training) {
        m.gradients = params * e;
        m.optimizerState = params * e * optimizerCostPerParam(config.optimizer).stateCopies;
        double saved = double(net.input.elements());
        double inFlight = 0;
        for (const Layer& l : net.layers) {
            saved += double(l.out.elements());
            inFlight = std::max(inFlight, double(l.out.elements() + inputElements(l)));
        }
        m.activations = (saved + inFlight) * e;
        return m;
    }

    // Inference: peak of the live set. lastUse[t] is the last row that reads tensor t
    // (index n stands for the network input).
    std::vector<size_t> lastUse(n + 1, 0);
    for (size_t i = 0; i < n; ++i) {
        lastUse[i] = i; // a row's own output is live while it runs, even if nothing reads it
        for (int src : net.layers[i].inputs) {
            const size_t t = src < 0 ? n : static_cast<size_t>(src);
            lastUse[t] = std::max(lastUse[t], i);
        }
    }
    if (n > 0)
        lastUse[n - 1] = n; // the network's output is kept
    // Sweep: a tensor is live over [producer, lastUse]; use a difference array over row indices.
    std::vector<double> delta(n + 2, 0.0);
    auto addLive = [&](size_t from, size_t to, double bytes) {
        delta[from] += bytes;
        delta[std::min(to, n) + 1] -= bytes;
    };
    // Bytes per element of each tensor: the configuration's, or (as in the file) the row's own output width;
    // the network input at the width its first reader gives it.
    double inputWidth = e;
    for (const Layer& l : net.layers)
        if (config.bitsAsInFile && !l.inputs.empty() && l.inputs.front() < 0 && !l.inBits.empty()
            && l.inBits.front() > 0) {
            inputWidth = l.inBits.front() / 8.0;
            break;
        }
    addLive(0, lastUse[n], double(net.input.elements()) * inputWidth);
    for (size_t i = 0; i < n; ++i)
        addLive(i, lastUse[i], double(net.layers[i].out.elements()) * width(net.layers[i].outBits));
    double live = 0, peak = 0;
    for (size_t i = 0; i <= n; ++i) {
        live += delta[i];
        peak = std::max(peak, live);
    }
    m.activations = peak;
    return m;
}

std::int64_t largestBatchThatFits(const MemoryFootprint& m, int batch, double capacity)
{
    if (batch <= 0 || m.activations <= 0)
        return 0;
    const double perImage = m.activations / batch;
    const double room = capacity - m.fixedBytes();
    if (room < perImage)
        return 0;
    return static_cast<std::int64_t>(std::floor(room / perImage));
}

double usefulTapShare(const Layer& l)
{
    if (l.op != Op::Conv || l.padding <= 0 || l.inShapes.empty())
        return 1;
    const Shape& in = l.inShapes.front();
    // Per spatial extent: of the out x k (position, tap) pairs, those with 0 <= o s - p + t < in,
    // counted per tap t: o from ceil((p - t) / s) to floor((in - 1 + p - t) / s), within [0, out).
    auto share = [&](std::int64_t inExt, std::int64_t outExt, int k) {
        if (inExt <= 0 || outExt <= 0 || k <= 0)
            return 1.0;
        const std::int64_t s = std::max(1, l.stride), p = l.padding;
        std::int64_t inside = 0;
        for (int t = 0; t < k; ++t) {
            const std::int64_t lo = p - t > 0 ? (p - t + s - 1) / s : 0;
            const std::int64_t hiNum = inExt - 1 + p - t;
            if (hiNum < 0)
                continue;
            const std::int64_t hi = std::min(outExt - 1, hiNum / s);
            inside += std::max<std::int64_t>(0, hi - std::max<std::int64_t>(0, lo) + 1);
        }
        return double(inside) / double(outExt * k);
    };
    double u = share(in.h, l.out.h, l.kh) * share(in.w, l.out.w, l.kw);
    if (in.rank == 5)
        u *= share(in.d, l.out.d, l.kd);
    return std::clamp(u, 1e-6, 1.0);
}

} // namespace rfx
