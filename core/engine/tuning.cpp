#include "engine/tuning.h"

#include "base/format.h"
#include "model/networks.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace rfx {

std::string_view objectiveName(Objective o) { return enumName(kObjectiveWords, o); }

std::optional<Objective> parseObjective(std::string_view s) { return parseEnum(kObjectiveWords, s); }

std::optional<std::size_t> TuneResult::best(Objective o) const
{
    switch (o) {
    case Objective::Energy:
        return bestEnergy;
    case Objective::Edp:
        return bestEdp;
    case Objective::Time:
        break;
    }
    return bestTime;
}

std::vector<std::string> recommendationReasons(const TuneResult& t, std::size_t k)
{
    std::vector<std::string> out;
    const TunePoint& p = t.points[k];
    auto find = [&](int batch, int gpus, int clock) -> const TunePoint* {
        for (const TunePoint& q : t.points)
            if (q.batch == batch && q.gpus == gpus && q.clockPercent == clock)
                return &q;
        return nullptr;
    };
    auto versus = [&](const TunePoint& q) {
        const double de = q.e.energyPerImage / p.e.energyPerImage - 1, dt = q.e.timePerImage / p.e.timePerImage - 1;
        auto pct = [](double r) {
            return std::abs(r) < 0.0005 ? std::string("the same")
                                        : formatPercent(std::abs(r)) + (r > 0 ? " more" : " less");
        };
        return formatSI(q.e.energyPerImage, "J") + " per image (" + pct(de) + " energy), "
            + formatTime(q.e.timePerImage) + " ("
            + (std::abs(dt) < 0.0005 ? std::string("same time")
                                     : formatPercent(std::abs(dt)) + (dt > 0 ? " slower" : " faster"))
            + ")";
    };
    // Clock.
    if (p.clockPercent < 100) {
        if (const TunePoint* q = find(p.batch, p.gpus, 100))
            out.push_back(
                "at 100 % clock: " + versus(*q) + ": dynamic power falls as f V^2 while the time stretches less");
    } else {
        const TunePoint* lower = nullptr;
        for (const TunePoint& q : t.points)
            if (q.batch == p.batch && q.gpus == p.gpus && q.clockPercent < 100
                && (!lower || q.clockPercent > lower->clockPercent))
                lower = &q;
        if (lower)
            out.push_back("at " + std::to_string(lower->clockPercent) + " % clock: " + versus(*lower));
    }
    // Batch: the next smaller one that was swept, and the next larger one (or why it is out).
    const TunePoint* smaller = nullptr;
    const TunePoint* larger = nullptr;
    for (const TunePoint& q : t.points) {
        if (q.gpus != p.gpus || q.clockPercent != p.clockPercent)
            continue;
        if (q.batch < p.batch && (!smaller || q.batch > smaller->batch))
            smaller = &q;
        if (q.batch > p.batch && (!larger || q.batch < larger->batch))
            larger = &q;
    }
    if (smaller)
        out.push_back("batch " + std::to_string(smaller->batch) + ": " + versus(*smaller));
    if (larger && !larger->fits)
        out.push_back("batch " + std::to_string(larger->batch) + " needs " + formatMemory(larger->memory)
            + " per GPU, more than " + formatMemory(t.device.memoryBytes));
    else if (larger)
        out.push_back("batch " + std::to_string(larger->batch) + ": " + versus(*larger));
    // GPUs.
    const int other = p.gpus == 1 ? 2 : 1;
    if (const TunePoint* q = find(p.batch, other, p.clockPercent)) {
        std::string s = std::to_string(other) + (other == 1 ? " GPU: " : " GPUs: ") + versus(*q);
        const TunePoint& multi = other > 1 ? *q : p;
        s += multi.e.exposedTime > 0 ? "; " + formatTime(multi.e.exposedTime) + " of all-reduce per step not hidden"
                                     : "; the all-reduce hides behind the backward pass";
        out.push_back(s);
    }
    return out;
}

std::vector<int> tuneBatches(int lo, int hi)
{
    std::vector<int> b { lo };
    for (long long p = 1; p < hi; p *= 2)
        if (p > lo)
            b.push_back(int(p));
    if (hi != lo)
        b.push_back(hi);
    return b;
}

namespace {

// The ranges as the user gave them: each within its limits, low end first.
std::optional<std::string> checkRanges(const TuneRanges& r)
{
    auto outside = [](const char* what, int lo, int hi, Range limit) -> std::optional<std::string> {
        if (lo >= limit.min && hi <= limit.max && lo <= hi)
            return std::nullopt;
        return std::string(what) + " range must lie within " + std::to_string(limit.min) + ".."
            + std::to_string(limit.max) + " with the low end first, got " + std::to_string(lo) + ".."
            + std::to_string(hi);
    };
    if (auto e = outside("batch", r.batchMin, r.batchMax, kBatchRange))
        return e;
    if (auto e = outside("GPU", r.gpusMin, r.gpusMax, { 1, 1024 }))
        return e;
    if (auto e = outside("clock (%)", r.clockMin, r.clockMax, kClockRange))
        return e;
    if (r.clockStep < 1)
        return "clock step must be at least 1 %";
    return std::nullopt;
}

// The clocks from the highest down by the step, the lowest always among them.
std::vector<int> tuneClocks(const TuneRanges& r)
{
    std::vector<int> clocks;
    for (int p = r.clockMax; p > r.clockMin; p -= r.clockStep)
        clocks.push_back(p);
    clocks.push_back(r.clockMin);
    return clocks;
}

// Every point of the grid on every device: the network built once a batch, analysed once a clock.
std::optional<std::string> evaluateGrid(const Config& config, const std::vector<Device>& devices, const TuneRanges& r,
    const NetworkBuilder& build, const std::vector<int>& batches, const std::vector<int>& clocks,
    std::vector<TuneResult>& results)
{
    for (int batch : batches) {
        Config c = config;
        c.batch = batch;
        BuildResult built = build(c);
        if (!built.network)
            return built.error;
        for (int clock : clocks) {
            c.clockPercent = clock;
            auto a = analyseWithForward(*built.network, c, devices);
            for (size_t i = 0; i < devices.size(); ++i) {
                const DeviceResult& dr = a->report.results[i];
                for (int g = r.gpusMin; g <= r.gpusMax; ++g) {
                    c.gpus = g;
                    TunePoint p;
                    p.batch = batch;
                    p.gpus = g;
                    p.clockPercent = clock;
                    p.fits = dr.totals.fits;
                    p.memory = dr.totals.memory.total();
                    p.e = energyFigures(dr, c, a->forward[i]);
                    results[i].points.push_back(p);
                }
            }
        }
    }
    return std::nullopt;
}

// The fastest, the least energy and the least energy-delay product among the points that fit, and
// the Pareto front of time against energy.
void pickBests(TuneResult& t)
{
    std::vector<std::size_t> order;
    for (std::size_t k = 0; k < t.points.size(); ++k)
        if (t.points[k].fits)
            order.push_back(k);
    // Ties (two GPUs with the all-reduce hidden cost the same energy per image as one) go to the faster.
    auto better = [&](std::optional<std::size_t>& best, std::size_t k, double (*key)(const TunePoint&)) {
        if (!best) {
            best = k;
            return;
        }
        const double a = key(t.points[k]), b = key(t.points[*best]);
        if (a < b * (1 - 1e-9) || (a <= b * (1 + 1e-9) && t.points[k].e.timePerImage < t.points[*best].e.timePerImage))
            best = k;
    };
    for (std::size_t k : order) {
        better(t.bestTime, k, [](const TunePoint& p) { return p.e.timePerImage; });
        better(t.bestEnergy, k, [](const TunePoint& p) { return p.e.energyPerImage; });
        better(t.bestEdp, k, [](const TunePoint& p) { return p.e.edp; });
    }
    // Pareto front: by time per image, each point with less energy per image than every faster one.
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        const TunePoint &x = t.points[a], &y = t.points[b];
        return x.e.timePerImage != y.e.timePerImage ? x.e.timePerImage < y.e.timePerImage
                                                    : x.e.energyPerImage < y.e.energyPerImage;
    });
    double least = std::numeric_limits<double>::infinity();
    for (std::size_t k : order) {
        if (t.points[k].e.energyPerImage < least) {
            t.front.push_back(k);
            least = t.points[k].e.energyPerImage;
        }
    }
}

} // namespace

TuneOutcome tune(
    const Config& config, const std::vector<Device>& devices, const TuneRanges& r, const NetworkBuilder& build)
{
    TuneOutcome out;
    if (auto e = checkRanges(r)) {
        out.error = *e;
        return out;
    }
    const std::vector<int> batches = tuneBatches(r.batchMin, r.batchMax);
    const std::vector<int> clocks = tuneClocks(r);
    if (batches.size() * clocks.size() * std::size_t(r.gpusMax - r.gpusMin + 1) > 200'000) {
        out.error = "the tuning ranges make over 200,000 configurations; narrow them";
        return out;
    }
    if (auto e = validate(config)) {
        out.error = *e;
        return out;
    }
    out.results.resize(devices.size());
    for (size_t i = 0; i < devices.size(); ++i)
        out.results[i].device = devices[i];
    if (auto e = evaluateGrid(config, devices, r, build, batches, clocks, out.results)) {
        out.error = *e;
        out.results.clear();
        return out;
    }
    for (TuneResult& t : out.results)
        pickBests(t);
    return out;
}

} // namespace rfx
