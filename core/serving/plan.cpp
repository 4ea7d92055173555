// The serving planner (plan.h): the search, each device's front and best, the ranking.
#include "serving/plan.h"

#include "serving/plan_search.h"

#include "base/format.h"
#include "engine/calibration.h"

#include <algorithm>
#include <cmath>

namespace rfx {

using namespace planning;

namespace {

double gb(double bytes) { return bytes / 1e9; }

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
    std::sort(order.begin(), order.end(),
        [&](size_t a, size_t b) { return perUser[a] != perUser[b] ? perUser[a] > perUser[b] : perGpu[a] > perGpu[b]; });
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

namespace {

/// One device's search: what every configuration of it shares.
struct DeviceSearch {
    const LlmModel& model;
    const PlanSettings& settings;
    const Device& device;
    double price = 0; ///< a GPU-hour, US dollars (0: none)
    bool load = false, byCost = false;
    const std::string& title; ///< the model's
};

/// What a device's configurations leave beside its points.
struct SearchLeft {
    std::vector<PlanPoint> decodeOnly; ///< the disaggregated decode pool's steady states
    std::string unfit; ///< why nothing fits (the smallest configuration's memory), or the settings' error
    double leastMemory = INFINITY;
};

/// One configuration (TP, widths, cache, draft) at N = 1, 2, 4, ... up to the most sequences that fit.
void searchConfiguration(const DeviceSearch& x, ServingSettings s, const Widths& w, DevicePlan& d, SearchLeft& left)
{
    const Device& device = x.device;
    // One prompt's prefill is the same for every N: analysed once here.
    const std::optional<ServingPhase> prefill = servingPrefill(x.model, s, device);
    auto at = [&](int n) {
        s.users = n;
        const std::optional<ServingPhase> decode = servingDecode(x.model, s, device);
        ServingOutcome o = servingPoint(x.model, s, device, prefill ? &*prefill : nullptr, decode ? &*decode : nullptr);
        if (x.settings.disaggregated && decode && o.point) { // the decode pool's step, beside
            ServingSettings only = s;
            only.decodeOnly = true;
            if (const ServingOutcome alone = servingPoint(x.model, only, device, nullptr, &*decode);
                alone.point && alone.point->fits)
                left.decodeOnly.push_back(planPoint(x.settings, device, only, w, *alone.point, x.price));
        }
        return o;
    };
    const ServingOutcome one = at(1);
    if (!one.point) {
        if (d.points.empty() && left.unfit.empty())
            left.unfit = one.error;
        return;
    }
    if (!one.point->fits) {
        if (one.point->memoryBytes < left.leastMemory) {
            left.leastMemory = one.point->memoryBytes;
            const PlanPoint p = planPoint(x.settings, device, s, w, *one.point, x.price);
            left.unfit = "the smallest, " + planPointLabel(p) + ", needs " + formatNumber3(gb(one.point->memoryBytes))
                + " GB of the " + formatNumber3(gb(one.point->usableBytes)) + " GB usable per GPU";
        }
        return;
    }
    // The most sequences that fit: memory is linear in N (each sequence's cache and activations),
    // measured at 1 and 2, then held to the point itself.
    const ServingOutcome two = at(2);
    int most = 1;
    if (two.point && two.point->fits) {
        const double perUser = two.point->memoryBytes - one.point->memoryBytes;
        const double fixed = one.point->memoryBytes - perUser;
        const double room = std::floor((one.point->usableBytes - fixed) / perUser);
        most = perUser > 0 ? int(std::clamp(room, 2.0, double(kLlmBatchRange.max))) : kLlmBatchRange.max;
    }
    std::vector<int> ns;
    for (int n = 1; n < most; n *= 2)
        ns.push_back(n);
    ns.push_back(most);
    for (int n : ns) {
        const ServingOutcome o = n == 1 ? one : n == 2 ? two : at(n);
        if (o.point && o.point->fits)
            d.points.push_back(planPoint(x.settings, device, s, w, *o.point, x.price));
    }
}

void chooseBest(const DeviceSearch& x, DevicePlan& d)
{
    d.best.reset();
    for (size_t i = 0; i < d.points.size(); ++i)
        if (d.points[i].meets && (!d.best || better(d.points[i], d.points[*d.best], x.load, x.byCost)))
            d.best = i;
}

/// The grid doubles N: between the best and its configuration's next N (which misses a target), the
/// most users that still meet the targets, by bisection (t(N) grows with N).
void refineBest(const DeviceSearch& x, DevicePlan& d)
{
    if (!d.best || (x.settings.ttft <= 0 && x.settings.tpot <= 0))
        return;
    const PlanPoint b = d.points[*d.best];
    int above = 0;
    for (const PlanPoint& p : d.points)
        if (p.tensorParallel == b.tensorParallel && p.weightBits == b.weightBits && p.kvBits == b.kvBits
            && p.lookahead == b.lookahead && p.point.users > b.point.users && (above == 0 || p.point.users < above))
            above = p.point.users;
    if (above <= b.point.users + 1)
        return;
    const Widths w = widthsOf(b.weightBits, b.arithmetic);
    ServingSettings s = configFor(x.settings, x.device, b.tensorParallel, w, b.kvBits, b.lookahead > 0);
    const std::optional<ServingPhase> prefill = servingPrefill(x.model, s, x.device);
    int lo = b.point.users, hi = above;
    std::optional<PlanPoint> found;
    while (hi - lo > 1) {
        const int mid = lo + (hi - lo) / 2;
        s.users = mid;
        const ServingOutcome o = servingPoint(x.model, s, x.device, prefill ? &*prefill : nullptr);
        const bool ok = o.point && o.point->fits;
        const PlanPoint p = ok ? planPoint(x.settings, x.device, s, w, *o.point, x.price) : PlanPoint {};
        if (ok && p.meets) {
            lo = mid;
            found = p;
        } else
            hi = mid;
    }
    if (found) {
        d.points.push_back(*found);
        chooseBest(x, d);
    }
}

/// Every configuration of one device, its front, its best within the targets (or what to relax) and,
/// with PlanSettings::disaggregated, its split half.
DevicePlan planDevice(const DeviceSearch& x)
{
    DevicePlan d;
    d.device = x.device.id;
    d.name = x.device.name;
    SearchLeft left;
    for (int tp : parallelismsFor(x.model, x.settings, x.device))
        for (const Widths& w : widthsFor(x.model, x.device))
            for (int kvBits : kvBitsFor(x.model))
                for (bool speculate : speculationsFor(x.settings))
                    searchConfiguration(x, configFor(x.settings, x.device, tp, w, kvBits, speculate), w, d, left);
    chooseBest(x, d);
    refineBest(x, d);
    d.front = paretoFront(d.points);
    if (!d.best)
        d.none = noneMeets(
            d, x.settings, x.title, left.unfit.empty() ? "no tensor-parallel split or width works" : left.unfit);
    if (x.settings.disaggregated)
        planSplit(x.model, x.settings, x.device, left.decodeOnly, x.price, d, x.title);
    return d;
}

/// The settings' own error (as one configuration's), or nothing.
std::optional<std::string> planSettingsError(const LlmModel& model, const PlanSettings& settings)
{
    if (settings.gpusPerNode < 1 || settings.gpusPerNode > 64)
        return "--gpus-per-node " + std::to_string(settings.gpusPerNode) + ": give from 1 to 64";
    if (settings.users < 0 || settings.rate < 0 || !std::isfinite(settings.rate) || settings.ttft < 0
        || settings.tpot < 0)
        return "--users, --rate, --ttft and --tpot take positive values";
    ServingSettings first; // what no configuration changes: the lengths, the usable share, the chunk
    first.llm = settings.llm;
    first.llm.tensorParallel = 1;
    first.usableMemory = settings.usableMemory;
    first.chunkTokens = settings.chunkTokens;
    return servingSettingsError(model, first);
}

} // namespace

const DevicePlan* Plan::calibratedOf(const std::string& device) const
{
    for (const DevicePlan& d : calibrated)
        if (d.device == device)
            return &d;
    return nullptr;
}

Plan planServing(const LlmModel& model, const PlanSettings& settings, const std::vector<Device>& devices)
{
    Plan plan;
    plan.model = model.arch.title.empty() ? model.arch.id : model.arch.title;
    if (auto e = planSettingsError(model, settings)) {
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
    PlanSettings bound = settings;
    bound.calibration = nullptr;
    for (const Device& device : devices) {
        DevicePlan d = planDevice({ model, bound, device, priceOf(device), load, plan.byCost, plan.model });
        for (const PlanPoint& p : d.points)
            if (p.meets)
                plan.ranked.push_back(p);
        plan.devices.push_back(std::move(d));
        if (settings.calibration && settings.calibration->deviceId == device.id)
            plan.calibrated.push_back(
                planDevice({ model, settings, device, priceOf(device), load, plan.byCost, plan.model }));
    }
    if (settings.calibration)
        plan.calibration = settings.calibrationLabel;
    std::stable_sort(plan.ranked.begin(), plan.ranked.end(),
        [&](const PlanPoint& a, const PlanPoint& b) { return better(a, b, load, plan.byCost); });
    return plan;
}

} // namespace rfx
