// A batch-slider step of an imported model without shape inference: when three builds at different
// batches show every extent and count linear in the batch (every row, every shape, every note the same
// but for numbers on a line through the three), the network at any other batch is that line evaluated
// there. Shape inference through ONNX's own functions costs about a millisecond for ResNet-50; this is
// a copy. Any model that is not linear (a batch that feeds a Loop's trip count, an If on the batch, a
// reshape that folds the batch away unevenly) simply keeps being inferred.
#include "onnx/onnx_internal.h"

#include <cmath>
#include <type_traits>

namespace rfx::onnximport {

namespace {

// Calls f on the matching numbers of networks that share a structure; false as soon as the structure
// differs (rows, operators, inputs, names, notes) or f says no.
template <typename F> bool zip(const Network& a, const Network& b, Network* out, F&& f, bool checkStructure = true)
{
    if (a.layers.size() != b.layers.size())
        return false;
    if (checkStructure
        && (a.layers.size() != b.layers.size() || a.name != b.name || a.input.rank != b.input.rank
            || a.origins.size() != b.origins.size() || a.diagnostics.size() != b.diagnostics.size()))
        return false;
    for (size_t i = 0; checkStructure && i < a.diagnostics.size(); ++i)
        if (a.diagnostics[i].message != b.diagnostics[i].message || a.diagnostics[i].field != b.diagnostics[i].field)
            return false;
    auto shape = [&](const Shape& x, const Shape& y, Shape* o) {
        return x.rank == y.rank && f(x.n, y.n, o ? &o->n : nullptr) && f(x.c, y.c, o ? &o->c : nullptr)
            && f(x.d, y.d, o ? &o->d : nullptr) && f(x.h, y.h, o ? &o->h : nullptr) && f(x.w, y.w, o ? &o->w : nullptr);
    };
    if (!shape(a.input, b.input, out ? &out->input : nullptr))
        return false;
    for (size_t i = 0; i < a.layers.size(); ++i) {
        const Layer &x = a.layers[i], &y = b.layers[i];
        Layer* o = out ? &out->layers[i] : nullptr;
        if (checkStructure
            && (x.name != y.name || x.op != y.op || x.inputs != y.inputs || x.epilogue != y.epilogue
                || x.origin != y.origin || x.inShapes.size() != y.inShapes.size() || x.stride != y.stride
                || x.padding != y.padding || x.groups != y.groups || x.storedParams != y.storedParams
                || x.inBits != y.inBits || x.outBits != y.outBits || x.computeBits != y.computeBits
                || x.computeType != y.computeType))
            return false;
        for (size_t k = 0; k < x.inShapes.size(); ++k)
            if (!shape(x.inShapes[k], y.inShapes[k], o ? &o->inShapes[k] : nullptr))
                return false;
        std::int64_t kx[] = { x.kh, x.kw, x.kd }, ky[] = { y.kh, y.kw, y.kd }, ko[3] = {};
        for (int k = 0; k < 3; ++k)
            if (!f(kx[k], ky[k], o ? &ko[k] : nullptr))
                return false;
        if (o) {
            o->kh = int(ko[0]), o->kw = int(ko[1]), o->kd = int(ko[2]);
        }
        if (!shape(x.out, y.out, o ? &o->out : nullptr)
            || !f(x.opsPerElement, y.opsPerElement, o ? &o->opsPerElement : nullptr)
            || !f(x.repeats, y.repeats, o ? &o->repeats : nullptr))
            return false;
    }
    return true;
}

} // namespace

bool BatchLine::learn(const Network& a, int batchA, const Network& b, int batchB, const Network& c, int batchC)
{
    valid = false;
    if (batchA == batchB || batchA == batchC || batchB == batchC)
        return false;
    // Each number of c must lie on the line through a's and b's: (z - x) (bB - bA) == (y - x) (bC - bA).
    const double span = batchB - batchA, toC = batchC - batchA;
    size_t at = 0;
    std::vector<double> cNumbers;
    zip(c, c, nullptr, [&](auto z, auto, auto*) {
        cNumbers.push_back(double(z));
        return true;
    });
    const bool linear = zip(a, b, nullptr, [&](auto x, auto y, auto*) {
        if (at >= cNumbers.size())
            return false;
        const double z = cNumbers[at++];
        const double want = double(x) + (double(y) - double(x)) * toC / span;
        return std::abs(z - want) <= 1e-9 * std::max(1.0, std::abs(want));
    });
    if (!linear || at != cNumbers.size() || !zip(a, c, nullptr, [](auto, auto, auto*) { return true; }))
        return false;
    low = a;
    high = b;
    lowBatch = batchA;
    highBatch = batchB;
    valid = true;
    return true;
}

std::optional<Network> BatchLine::at(int batch) const
{
    if (!valid)
        return std::nullopt;
    Network out = low;
    const std::int64_t span = highBatch - lowBatch, step = batch - lowBatch;
    const bool whole = zip(
        low, high, &out,
        [&](auto x, auto y, auto* o) {
            using T = std::remove_cv_t<std::remove_pointer_t<decltype(o)>>;
            if constexpr (std::is_integral_v<T>) {
                const std::int64_t rise = std::int64_t(y) - std::int64_t(x);
                if ((rise * step) % span != 0)
                    return false; // an extent that would not be whole: infer instead
                const std::int64_t v = std::int64_t(x) + rise * step / span;
                if (v < 0)
                    return false;
                *o = T(v);
            } else {
                *o = T(double(x) + (double(y) - double(x)) * double(step) / double(span));
            }
            return true;
        },
        false); // the structure was compared when the line was learnt
    if (!whole)
        return std::nullopt;
    return out;
}

} // namespace rfx::onnximport
