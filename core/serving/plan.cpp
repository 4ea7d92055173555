// The serving planner (plan.h): the search, each device's front and best, the ranking.
#include "serving/plan.h"

#include "serving/plan_search.h"

#include "base/format.h"

#include <algorithm>
#include <cmath>

namespace rfx {

namespace planning {

std::vector<Widths> widthsFor(const LlmModel& model, const Device& d)
{
    if (model.onnx)
        return { { 0, 16, NumberType::Unset } }; // the graph's own widths
    const bool fp8 = d.peak.count("tensor_fp8") > 0;
    return { { 16, 16, NumberType::Fp16 }, { 8, 8, fp8 ? NumberType::Fp8 : NumberType::Int8 },
        { 4, 16, NumberType::Fp16 } };
}

Widths widthsOf(double weightBits, NumberType type)
{
    return { weightBits, weightBits == 8 ? 8 : 16, type };
}

std::vector<int> kvBitsFor(const LlmModel& model)
{
    if (model.onnx)
        return { 16 }; // the graph's own cache width
    return { 16, 8 };
}

std::vector<int> parallelismsFor(const LlmModel& model, const PlanSettings& s, const Device& d)
{
    std::vector<int> out { 1 };
    if (model.onnx || d.scaleUpLink.empty())
        return out;
    for (int tp : { 2, 4, 8 })
        if (tp <= s.gpusPerNode && tp <= d.scaleUpGpus && !tensorParallelError(model.arch, tp))
            out.push_back(tp);
    return out;
}

std::string widthsText(double weightBits, NumberType arithmetic, int kvBits)
{
    if (weightBits == 0)
        return "the file's widths";
    const std::string bits
        = weightBits == std::floor(weightBits) ? std::to_string(int(weightBits)) : formatNumber3(weightBits);
    return bits + "-bit weights (" + std::string(numberWord(arithmetic)) + "), " + std::to_string(kvBits)
        + "-bit cache";
}

std::vector<bool> speculationsFor(const PlanSettings& settings)
{
    if (settings.speculation.draft)
        return { false, true };
    return { false };
}

std::string draftText(int lookahead)
{
    return lookahead > 0 ? ", draft K = " + std::to_string(lookahead) : std::string();
}

ServingSettings configFor(
    const PlanSettings& settings, const Device& device, int tp, const Widths& w, int kvBits, bool speculate)
{
    ServingSettings s;
    s.llm = settings.llm;
    s.llm.tensorParallel = tp;
    s.llm.interconnect = tp > 1 ? device.scaleUpLink : settings.llm.interconnect;
    s.llm.weightBits = w.weightBits;
    s.llm.actBits = w.actBits;
    s.llm.actType = w.type;
    s.llm.kvBits = kvBits;
    s.usableMemory = settings.usableMemory;
    s.chunkTokens = settings.chunkTokens;
    if (speculate)
        s.speculation = settings.speculation;
    return s;
}

} // namespace planning

using namespace planning;

namespace {

double gb(double bytes)
{
    return bytes / 1e9;
}

/// A steady state as the plan holds it: within the targets or not, the replicas and GPUs for the
/// load, its cost at `price` a GPU-hour.
PlanPoint planPoint(const PlanSettings& settings, const Device& device, const ServingSettings& s, const Widths& w,
    const ServingPoint& point, double price)
{
    PlanPoint p { device.id, s.llm.tensorParallel, w.weightBits, w.type, s.llm.kvBits,
        s.speculation.draft ? s.speculation.lookahead : 0, point };
    p.meets
        = (settings.ttft <= 0 || point.ttft <= settings.ttft) && (settings.tpot <= 0 || point.tpot <= settings.tpot);
    p.replicas = replicasFor(settings, point);
    p.gpus = p.replicas * p.tensorParallel;
    p.pricePerHour = price;
    if (price > 0 && point.gpuTokensPerSecond > 0) {
        p.costPerMillion = price * 1e6 / (3600 * point.gpuTokensPerSecond);
        p.costPerHour = p.gpus * price;
    }
    return p;
}

bool better(const PlanPoint& a, const PlanPoint& b, bool load, bool byCost)
{
    if (byCost) {
        const double x = load ? a.costPerHour : a.costPerMillion, y = load ? b.costPerHour : b.costPerMillion;
        if (x != y)
            return x < y;
    }
    if (load && a.gpus != b.gpus)
        return a.gpus < b.gpus;
    return a.point.gpuTokensPerSecond > b.point.gpuTokensPerSecond;
}

std::string targetsText(const PlanSettings& s, bool ttft, bool tpot)
{
    std::string t;
    if (ttft && s.ttft > 0)
        t = "TTFT <= " + formatTime(s.ttft);
    if (tpot && s.tpot > 0)
        t += (t.empty() ? "" : " and ") + std::string("TPOT <= ") + formatTime(s.tpot);
    return t;
}

/// Why no point of `d` meets the targets, and what to relax.
std::string noneMeets(const DevicePlan& d, const PlanSettings& s, const std::string& model, const std::string& unfit)
{
    const std::string who = "no configuration of the " + d.name;
    if (d.points.empty())
        return who + " fits " + model + ": " + unfit;
    auto fastest = [&](bool ttft) {
        return *std::min_element(d.points.begin(), d.points.end(), [&](const PlanPoint& a, const PlanPoint& b) {
            return ttft ? a.point.ttft < b.point.ttft : a.point.tpot < b.point.tpot;
        });
    };
    const bool tpotMet = s.tpot <= 0
        || std::any_of(d.points.begin(), d.points.end(), [&](const PlanPoint& p) { return p.point.tpot <= s.tpot; });
    const bool ttftMet = s.ttft <= 0
        || std::any_of(d.points.begin(), d.points.end(), [&](const PlanPoint& p) { return p.point.ttft <= s.ttft; });
    if (!tpotMet) {
        const PlanPoint f = fastest(false);
        return who + " meets " + targetsText(s, false, true) + " for " + model + ": the fastest is "
            + formatTime(f.point.tpot) + " at " + planPointLabel(f) + "; relax --tpot";
    }
    if (!ttftMet) {
        const PlanPoint f = fastest(true);
        return who + " meets " + targetsText(s, true, false) + " for " + model + ": the fastest is "
            + formatTime(f.point.ttft) + " at " + planPointLabel(f) + "; relax --ttft";
    }
    return who + " meets " + targetsText(s, true, true) + " together for " + model
        + ": each alone is met by another configuration; relax either";
}

} // namespace

namespace {

/// By tokens/s per user, fastest first: a point is on the front when it makes more tokens/s per GPU
/// than every point faster per user.
std::vector<size_t> frontOf(const std::vector<double>& perUser, const std::vector<double>& perGpu)
{
    std::vector<size_t> order(perUser.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        return perUser[a] != perUser[b] ? perUser[a] > perUser[b] : perGpu[a] > perGpu[b];
    });
    std::vector<size_t> front;
    double most = 0;
    for (size_t i : order)
        if (perGpu[i] > most) {
            most = perGpu[i];
            front.push_back(i);
        }
    return front;
}

} // namespace

std::vector<size_t> paretoFront(const std::vector<PlanPoint>& points)
{
    std::vector<double> user, gpu;
    for (const PlanPoint& p : points) {
        user.push_back(p.point.userTokensPerSecond);
        gpu.push_back(p.point.gpuTokensPerSecond);
    }
    return frontOf(user, gpu);
}

std::vector<size_t> paretoFront(const std::vector<SplitPoint>& points)
{
    std::vector<double> user, gpu;
    for (const SplitPoint& p : points) {
        user.push_back(p.pools.decode.userTokensPerSecond);
        gpu.push_back(p.pools.gpuTokensPerSecond);
    }
    return frontOf(user, gpu);
}

int replicasFor(const PlanSettings& s, const ServingPoint& p)
{
    if (s.users > 0)
        return (s.users + p.users - 1) / p.users;
    if (s.rate > 0 && p.requestsPerSecond > 0)
        return int(std::ceil(s.rate / p.requestsPerSecond - 1e-9));
    return 0;
}

std::string planPointLabel(const PlanPoint& p)
{
    return "TP " + std::to_string(p.tensorParallel) + ", " + widthsText(p.weightBits, p.arithmetic, p.kvBits)
        + ", N = " + formatCount(p.point.users) + draftText(p.lookahead);
}

Plan planServing(const LlmModel& model, const PlanSettings& settings, const std::vector<Device>& devices)
{
    Plan plan;
    plan.model = model.arch.title.empty() ? model.arch.id : model.arch.title;
    if (settings.gpusPerNode < 1 || settings.gpusPerNode > 64) {
        plan.error = "--gpus-per-node " + std::to_string(settings.gpusPerNode) + ": give from 1 to 64";
        return plan;
    }
    if (settings.users < 0 || settings.rate < 0 || !std::isfinite(settings.rate) || settings.ttft < 0
        || settings.tpot < 0) {
        plan.error = "--users, --rate, --ttft and --tpot take positive values";
        return plan;
    }
    ServingSettings first; // what no configuration changes: the lengths, the usable share, the chunk
    first.llm = settings.llm;
    first.llm.tensorParallel = 1;
    first.usableMemory = settings.usableMemory;
    first.chunkTokens = settings.chunkTokens;
    if (auto e = servingSettingsError(model, first)) {
        plan.error = *e;
        return plan;
    }
    const bool load = settings.users > 0 || settings.rate > 0;
    plan.disaggregated = settings.disaggregated;
    auto priceOf = [&](const Device& d) {
        const auto it = settings.prices.find(d.id);
        return it != settings.prices.end() ? it->second : d.pricePerHour;
    };
    plan.byCost = !devices.empty();
    for (const Device& device : devices)
        if (!(priceOf(device) > 0)) {
            plan.byCost = false;
            plan.unpriced.push_back(device.name);
        }
    for (const Device& device : devices) {
        const double price = priceOf(device);
        DevicePlan d;
        d.device = device.id;
        d.name = device.name;
        std::string unfit;
        double leastMemory = INFINITY;
        std::vector<PlanPoint> decodeOnly; // the disaggregated decode pool's steady states
        for (int tp : parallelismsFor(model, settings, device))
            for (const Widths& w : widthsFor(model, device))
                for (int kvBits : kvBitsFor(model))
                    for (bool speculate : speculationsFor(settings)) {
                        ServingSettings s = configFor(settings, device, tp, w, kvBits, speculate);
                        // One prompt's prefill is the same for every N: analysed once here.
                        const std::optional<ServingPhase> prefill = servingPrefill(model, s, device);
                        auto at = [&](int n) {
                            s.users = n;
                            const std::optional<ServingPhase> decode = servingDecode(model, s, device);
                            const ServingOutcome o
                                = servingPoint(model, s, device, prefill ? &*prefill : nullptr,
                                    decode ? &*decode : nullptr);
                            if (settings.disaggregated && decode && o.point) { // the decode pool's step, beside
                                ServingSettings only = s;
                                only.decodeOnly = true;
                                if (const ServingOutcome alone = servingPoint(model, only, device, nullptr, &*decode);
                                    alone.point && alone.point->fits)
                                    decodeOnly.push_back(planPoint(settings, device, only, w, *alone.point, price));
                            }
                            return o;
                        };
                        const ServingOutcome one = at(1);
                        if (!one.point) {
                            if (plan.error.empty() && d.points.empty() && unfit.empty())
                                unfit = one.error;
                            continue;
                        }
                        if (!one.point->fits) {
                            if (one.point->memoryBytes < leastMemory) {
                                leastMemory = one.point->memoryBytes;
                                PlanPoint p { device.id, tp, w.weightBits, w.type, kvBits,
                                    speculate ? settings.speculation.lookahead : 0, *one.point };
                                unfit = "the smallest, " + planPointLabel(p) + ", needs "
                                    + formatNumber3(gb(one.point->memoryBytes)) + " GB of the "
                                    + formatNumber3(gb(one.point->usableBytes)) + " GB usable per GPU";
                            }
                            continue;
                        }
                        // The most sequences that fit: memory is linear in N (each sequence's cache and
                        // activations), measured at 1 and 2, then held to the point itself.
                        const ServingOutcome two = at(2);
                        int most = 1;
                        if (two.point && two.point->fits) {
                            const double perUser = two.point->memoryBytes - one.point->memoryBytes;
                            const double fixed = one.point->memoryBytes - perUser;
                            const double room = std::floor((one.point->usableBytes - fixed) / perUser);
                            most = perUser > 0 ? int(std::clamp(room, 2.0, double(kLlmBatchRange.max)))
                                               : kLlmBatchRange.max;
                        }
                        std::vector<int> ns;
                        for (int n = 1; n < most; n *= 2)
                            ns.push_back(n);
                        ns.push_back(most);
                        for (int n : ns) {
                            const ServingOutcome o = n == 1 ? one : n == 2 ? two : at(n);
                            if (!o.point || !o.point->fits)
                                continue;
                            d.points.push_back(planPoint(settings, device, s, w, *o.point, price));
                        }
                    }
        auto chooseBest = [&] {
            d.best.reset();
            for (size_t i = 0; i < d.points.size(); ++i)
                if (d.points[i].meets && (!d.best || better(d.points[i], d.points[*d.best], load, plan.byCost)))
                    d.best = i;
        };
        chooseBest();
        // The grid doubles N: between the best and its configuration's next N (which misses a target),
        // the most users that still meet the targets, by bisection (t(N) grows with N).
        if (d.best && (settings.ttft > 0 || settings.tpot > 0)) {
            const PlanPoint b = d.points[*d.best];
            int above = 0;
            for (const PlanPoint& p : d.points)
                if (p.tensorParallel == b.tensorParallel && p.weightBits == b.weightBits && p.kvBits == b.kvBits
                    && p.lookahead == b.lookahead && p.point.users > b.point.users
                    && (above == 0 || p.point.users < above))
                    above = p.point.users;
            if (above > b.point.users + 1) {
                const Widths w = widthsOf(b.weightBits, b.arithmetic);
                ServingSettings s = configFor(settings, device, b.tensorParallel, w, b.kvBits, b.lookahead > 0);
                const std::optional<ServingPhase> prefill = servingPrefill(model, s, device);
                int lo = b.point.users, hi = above;
                std::optional<PlanPoint> found;
                while (hi - lo > 1) {
                    const int mid = lo + (hi - lo) / 2;
                    s.users = mid;
                    const ServingOutcome o = servingPoint(model, s, device, prefill ? &*prefill : nullptr);
                    const bool ok = o.point && o.point->fits;
                    const PlanPoint p = ok ? planPoint(settings, device, s, w, *o.point, price) : PlanPoint {};
                    if (ok && p.meets) {
                        lo = mid;
                        found = p;
                    } else
                        hi = mid;
                }
                if (found) {
                    d.points.push_back(*found);
                    chooseBest();
                }
            }
        }
        d.front = paretoFront(d.points);
        if (!d.best)
            d.none
                = noneMeets(d, settings, plan.model, unfit.empty() ? "no tensor-parallel split or width works" : unfit);
        for (const PlanPoint& p : d.points)
            if (p.meets)
                plan.ranked.push_back(p);
        if (settings.disaggregated)
            planSplit(model, settings, device, decodeOnly, price, d, plan.model);
        plan.devices.push_back(std::move(d));
    }
    std::stable_sort(plan.ranked.begin(), plan.ranked.end(),
        [&](const PlanPoint& a, const PlanPoint& b) { return better(a, b, load, plan.byCost); });
    return plan;
}

} // namespace rfx
