#include "energy.h"

#include "format.h"
#include "interconnects_data.h"
#include "networks.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

namespace rfx {

const std::vector<Interconnect>& interconnects()
{
    // Parsed once from the compiled-in resources/interconnects.json; tst_energy checks every entry.
    static const std::vector<Interconnect> links = [] {
        std::vector<Interconnect> out;
        const nlohmann::json doc = nlohmann::json::parse(kInterconnectsJson);
        for (const auto& l : doc.at("interconnects"))
            out.push_back({ l.at("id").get<std::string>(), l.at("name").get<std::string>(),
                l.at("bandwidth_gbs").get<double>() * 1e9, l.at("source").get<std::string>() });
        return out;
    }();
    return links;
}

const Interconnect* findInterconnect(std::string_view id)
{
    for (const Interconnect& l : interconnects())
        if (l.id == id)
            return &l;
    return nullptr;
}

std::optional<std::string> interconnectError(std::string_view id)
{
    if (findInterconnect(id))
        return std::nullopt;
    std::string known;
    for (const Interconnect& l : interconnects())
        known += (known.empty() ? "" : ", ") + l.id;
    return "unknown interconnect '" + std::string(id) + "' (available: " + known + ")";
}

double voltageKnee(const Device& d)
{
    if (d.baseClockHz > 0 && d.boostClockHz > 0)
        return std::clamp(d.baseClockHz / d.boostClockHz, 0.1, 1.0);
    return kDefaultVoltageKnee;
}

double dynamicPowerScale(const Device& d, double clock)
{
    const double v = std::max(clock, voltageKnee(d));
    return clock * v * v;
}

namespace {

double optimizerTime(const DeviceResult& r)
{
    for (auto it = r.layers.rbegin(); it != r.layers.rend(); ++it)
        if (it->op == Op::Optimizer)
            return it->time;
    return 0;
}

} // namespace

double rowEnergy(const LayerResult& l, const DeviceResult& r, int clockPercent)
{
    const Device& d = r.device;
    const double clock = clockPercent / 100.0;
    const double v = std::max(clock, voltageKnee(d));
    const double dynamic = std::max(0.0, d.tdpWatts - d.idleWatts);
    const double dm = kMemoryPowerShare * dynamic, dc = dynamic - dm;
    // Peaks in the report are at this clock; the compute energy uses the boost-clock peak.
    const double boostPeak = l.peak / clock;
    double e = d.idleWatts * l.time;
    if (boostPeak > 0)
        e += dc * v * v * l.flops / boostPeak;
    if (r.bandwidth > 0)
        e += dm * l.bytes / r.bandwidth;
    return e;
}

EnergyFigures energyFigures(const DeviceResult& r, const Config& c, double forwardTime)
{
    EnergyFigures e;
    const Device& d = r.device;
    double energy = 0;
    for (const LayerResult& l : r.layers)
        energy += rowEnergy(l, r, c.clockPercent);
    e.time = r.totals.time;
    e.energy = energy;
    e.averagePower = e.time > 0 ? energy / e.time : 0;
    e.flopsPerJoule = energy > 0 ? r.totals.flops / energy : 0;

    e.gpus = std::max(1, c.gpus);
    const bool training = c.mode == Mode::Training;
    e.gradientBytes = training ? double(r.totals.params) * elementBytes(c.bits) : 0;
    const Interconnect* link = findInterconnect(c.interconnect);
    const double G = e.gpus;
    e.allReduceTime = (G > 1 && link && link->bandwidth > 0) ? 2 * (G - 1) / G * e.gradientBytes / link->bandwidth : 0;
    e.backwardTime = training ? std::max(0.0, e.time - optimizerTime(r) - forwardTime) : 0;
    e.exposedTime = c.overlap ? std::max(0.0, e.allReduceTime - e.backwardTime) : e.allReduceTime;
    e.stepTime = e.time + e.exposedTime;
    e.stepEnergy = G * (energy + d.idleWatts * e.exposedTime);
    const double images = G * c.batch;
    e.throughput = e.stepTime > 0 ? images / e.stepTime : 0;
    e.speedup = e.stepTime > 0 ? G * e.time / e.stepTime : 1;
    e.efficiency = e.speedup / G;
    e.timePerImage = e.stepTime / images;
    e.energyPerImage = e.stepEnergy / images;
    e.imagesPerJoule = e.stepEnergy > 0 ? images / e.stepEnergy : 0;
    e.edp = e.energyPerImage * e.timePerImage;
    return e;
}

namespace {

// One network, analysed for training (or inference) and, in training, for the forward pass alone.
struct Analysed {
    Report report;
    std::vector<double> forward; // per device
};

std::optional<Analysed> analyseWithForward(const Network& net, const Config& c, const std::vector<Device>& devices)
{
    Analysed a { analyze(net, c, devices), {} };
    a.forward.assign(devices.size(), 0);
    if (c.mode == Mode::Training) {
        Config f = c;
        f.mode = Mode::Inference;
        const Report fr = analyze(net, f, devices);
        for (size_t i = 0; i < devices.size(); ++i)
            a.forward[i] = fr.results[i].totals.time;
    }
    return a;
}

} // namespace

EnergyOutcome analyzeEnergy(const Config& config, const std::vector<Device>& devices)
{
    EnergyOutcome out;
    BuildResult built = buildCheckedNetwork(config);
    if (!built.network) {
        out.error = built.error;
        return out;
    }
    auto a = analyseWithForward(*built.network, config, devices);
    for (size_t i = 0; i < devices.size(); ++i)
        out.figures.push_back(energyFigures(a->report.results[i], config, a->forward[i]));
    out.report = std::move(a->report);
    return out;
}

std::optional<ClockChoice> optimalClock(const Config& config, const Device& device, int minPercent)
{
    BuildResult built = buildCheckedNetwork(config);
    if (!built.network)
        return std::nullopt;
    ClockChoice best;
    double bestEnergy = std::numeric_limits<double>::infinity();
    for (int p = 100; p >= std::clamp(minPercent, kClockRange.min, 100); --p) {
        Config c = config;
        c.clockPercent = p;
        auto a = analyseWithForward(*built.network, c, { device });
        const EnergyFigures e = energyFigures(a->report.results[0], c, a->forward[0]);
        if (p == 100)
            best.atBoost = e;
        if (e.energyPerImage < bestEnergy * (1 - 1e-12)) {
            bestEnergy = e.energyPerImage;
            best.percent = p;
            best.figures = e;
        }
    }
    return best;
}

std::string_view objectiveName(Objective o)
{
    switch (o) {
    case Objective::Energy:
        return "energy";
    case Objective::Edp:
        return "edp";
    case Objective::Time:
        break;
    }
    return "time";
}

std::optional<Objective> parseObjective(std::string_view s)
{
    for (Objective o : { Objective::Time, Objective::Energy, Objective::Edp })
        if (s == objectiveName(o))
            return o;
    return std::nullopt;
}

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
            return std::abs(r) < 0.0005 ? std::string("the same") : formatPercent(std::abs(r)) + (r > 0 ? " more" : " less");
        };
        return formatSI(q.e.energyPerImage, "J") + " per image (" + pct(de) + " energy), " + formatTime(q.e.timePerImage)
            + " (" + (std::abs(dt) < 0.0005 ? std::string("same time") : formatPercent(std::abs(dt)) + (dt > 0 ? " slower" : " faster")) + ")";
    };
    // Clock.
    if (p.clockPercent < 100) {
        if (const TunePoint* q = find(p.batch, p.gpus, 100))
            out.push_back("at 100 % clock: " + versus(*q) + ": dynamic power falls as f V^2 while the time stretches less");
    } else {
        const TunePoint* lower = nullptr;
        for (const TunePoint& q : t.points)
            if (q.batch == p.batch && q.gpus == p.gpus && q.clockPercent < 100 && (!lower || q.clockPercent > lower->clockPercent))
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
        out.push_back("batch " + std::to_string(larger->batch) + " needs " + formatMemory(larger->memory) + " per GPU, more than "
            + formatMemory(t.device.memoryBytes));
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

namespace {

// "A..B" or "A" -> {A, B}; false if malformed.
template <typename T, typename Parse>
bool parseRange(const std::string& text, T& lo, T& hi, Parse parse)
{
    const size_t dots = text.find("..");
    const auto a = parse(dots == std::string::npos ? text : text.substr(0, dots));
    const auto b = dots == std::string::npos ? a : parse(text.substr(dots + 2));
    if (!a || !b)
        return false;
    lo = *a;
    hi = *b;
    return true;
}

std::optional<int> wholeNumber(const std::string& s)
{
    int v = 0;
    const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || p != s.data() + s.size())
        return std::nullopt;
    return v;
}

} // namespace

OptionStatus applyTuneOption(const std::vector<std::string>& args, std::size_t& i, TuneRanges& ranges, Objective& objective,
    std::string& error)
{
    const SplitOption split = splitOption(args[i]);
    const std::string& name = split.name;
    if (name != "--objective" && name != "--batch" && name != "--gpus" && name != "--clock" && name != "--clock-step")
        return OptionStatus::NotConfigOption;
    std::string value;
    if (split.value) {
        value = *split.value;
    } else if (i + 1 < args.size()) {
        value = args[++i];
    } else {
        error = name + ": missing value";
        return OptionStatus::Error;
    }
    if (name == "--objective") {
        if (const auto o = parseObjective(value)) {
            objective = *o;
            return OptionStatus::Consumed;
        }
        error = "--objective: expected time, energy or edp, got '" + value + "'";
    } else if (name == "--batch" || name == "--gpus") {
        if (name == "--batch" ? parseRange(value, ranges.batchMin, ranges.batchMax, wholeNumber)
                              : parseRange(value, ranges.gpusMin, ranges.gpusMax, wholeNumber))
            return OptionStatus::Consumed;
        error = name + ": expected whole numbers A..B, got '" + value + "'";
    } else if (name == "--clock") {
        if (parseRange(value, ranges.clockMin, ranges.clockMax, parseClockPercent))
            return OptionStatus::Consumed;
        error = "--clock: expected fractions of the boost clock A..B (e.g. 0.5..1), got '" + value + "'";
    } else {
        if (const auto step = parseClockPercent(value); step && *step >= 1) {
            ranges.clockStep = *step;
            return OptionStatus::Consumed;
        }
        error = "--clock-step: expected a fraction such as 0.05, got '" + value + "'";
    }
    return OptionStatus::Error;
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

TuneOutcome tune(const Config& config, const std::vector<Device>& devices, const TuneRanges& r)
{
    TuneOutcome out;
    auto range = [&](const char* what, int lo, int hi, Range limit) -> bool {
        if (lo < limit.min || hi > limit.max || lo > hi) {
            out.error = std::string(what) + " range must lie within " + std::to_string(limit.min) + ".."
                + std::to_string(limit.max) + " with the low end first, got " + std::to_string(lo) + ".." + std::to_string(hi);
            return false;
        }
        return true;
    };
    if (!range("batch", r.batchMin, r.batchMax, kBatchRange) || !range("GPU", r.gpusMin, r.gpusMax, { 1, 1024 })
        || !range("clock (%)", r.clockMin, r.clockMax, kClockRange))
        return out;
    if (r.clockStep < 1) {
        out.error = "clock step must be at least 1 %";
        return out;
    }
    const std::vector<int> batches = tuneBatches(r.batchMin, r.batchMax);
    std::vector<int> clocks;
    for (int p = r.clockMax; p > r.clockMin; p -= r.clockStep)
        clocks.push_back(p);
    clocks.push_back(r.clockMin);
    if (batches.size() * clocks.size() * size_t(r.gpusMax - r.gpusMin + 1) > 200'000) {
        out.error = "the tuning ranges make over 200,000 configurations; narrow them";
        return out;
    }
    if (auto err = validate(config)) {
        out.error = *err;
        return out;
    }
    out.results.resize(devices.size());
    for (size_t i = 0; i < devices.size(); ++i)
        out.results[i].device = devices[i];
    for (int batch : batches) {
        Config c = config;
        c.batch = batch;
        BuildResult built = buildNetwork(c);
        if (!built.network) {
            out.error = built.error;
            out.results.clear();
            return out;
        }
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
                    out.results[i].points.push_back(p);
                }
            }
        }
    }
    for (TuneResult& t : out.results) {
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
    return out;
}

} // namespace rfx
