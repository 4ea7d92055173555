// The serving planner's disaggregated half (plan_search.h): for each decode pool's configuration the
// prefill replica that feeds it best, the two pools balanced; the front, the best within the targets,
// and what to relax.
#include "serving/plan_search.h"

#include "base/format.h"
#include "devices/interconnects.h"

#include <algorithm>
#include <cmath>

namespace rfx {

std::string splitPointLabel(const SplitPoint& p)
{
    const PrefillPoint& f = p.pools.prefill;
    return "prefill TP " + std::to_string(f.tensorParallel) + " x " + formatCount(f.batch)
        + (f.batch == 1 ? " prompt" : " prompts") + ", decode TP " + std::to_string(p.pools.decode.tensorParallel)
        + ", N = " + formatCount(p.pools.decode.users) + "; "
        + planning::widthsText(p.weightBits, p.arithmetic, p.kvBits);
}

namespace planning {

namespace {

/// The prefill replicas of one width group (the weights', the arithmetic's and the cache's).
struct Group {
    Widths w;
    int kvBits;
    std::vector<PrefillPoint> prefills;
};

bool betterSplit(const SplitPoint& a, const SplitPoint& b, bool load)
{
    if (a.meets != b.meets)
        return a.meets;
    if (load && a.pools.gpus != b.pools.gpus)
        return a.pools.gpus < b.pools.gpus;
    if (a.pools.gpuTokensPerSecond != b.pools.gpuTokensPerSecond)
        return a.pools.gpuTokensPerSecond > b.pools.gpuTokensPerSecond;
    return a.pools.ttft < b.pools.ttft;
}

struct Search {
    const PlanSettings& settings;
    double bandwidth;
    double price;
    bool load;
    std::optional<SplitPoint> fastestFirstToken; ///< over every pair tried, for what to relax

    /// The prefill replica of `group` that feeds `decode` best: within the targets first, then the fewest
    /// GPUs for the load, the most tokens/s per GPU, the soonest first token.
    std::optional<SplitPoint> feed(const PlanPoint& decode, const Group& group)
    {
        std::optional<SplitPoint> best;
        for (const PrefillPoint& f : group.prefills) {
            SplitPoint p { decode.device, decode.weightBits, decode.arithmetic, decode.kvBits,
                balancePools(f, decode.point, bandwidth, settings.llm.generate, settings.users, settings.rate) };
            p.meets = (settings.ttft <= 0 || p.pools.ttft <= settings.ttft)
                && (settings.tpot <= 0 || decode.point.tpot <= settings.tpot);
            p.pricePerHour = price;
            if (price > 0 && p.pools.gpuTokensPerSecond > 0) {
                p.costPerMillion = price * 1e6 / (3600 * p.pools.gpuTokensPerSecond);
                p.costPerHour = p.pools.gpus * price;
            }
            if (!fastestFirstToken || p.pools.ttft < fastestFirstToken->pools.ttft)
                fastestFirstToken = p;
            if (!best || betterSplit(p, *best, load))
                best = p;
        }
        return best;
    }
};

const Group* groupOf(const std::vector<Group>& groups, const PlanPoint& p)
{
    for (const Group& g : groups)
        if (g.w.weightBits == p.weightBits && g.w.type == p.arithmetic && g.kvBits == p.kvBits)
            return &g;
    return nullptr;
}

/// Each width group's prefill replicas: TP as the aggregated search, batches of 1, 2, 4, ... prompts
/// within the prefill batch's tokens, while they fit.
std::vector<Group> prefillGroups(const LlmModel& model, const PlanSettings& settings, const Device& device)
{
    std::vector<Group> groups;
    const int P = settings.llm.prompt;
    for (const Widths& w : widthsFor(model, device))
        for (int kvBits : kvBitsFor(model)) {
            Group g { w, kvBits, {} };
            for (int tp : parallelismsFor(model, settings, device)) {
                ServingSettings s = configFor(settings, device, tp, w, kvBits);
                for (int b = 1; b <= 64 && (b == 1 || std::int64_t(b) * P <= settings.prefillBatchTokens); b *= 2) {
                    s.users = b;
                    const std::optional<PrefillPoint> f = prefillPoint(model, s, device);
                    if (!f || !f->fits)
                        break;
                    g.prefills.push_back(*f);
                }
            }
            groups.push_back(std::move(g));
        }
    return groups;
}

void chooseSplitBest(DevicePlan& d, bool load)
{
    d.splitBest.reset();
    for (size_t i = 0; i < d.split.size(); ++i)
        if (d.split[i].meets && (!d.splitBest || betterSplit(d.split[i], d.split[*d.splitBest], load)))
            d.splitBest = i;
}

/// As the aggregated search: the decode replica's N between the best's and its configuration's next
/// (which misses TPOT), bisected to the most users within the target.
void refineSplitBest(const LlmModel& model, const PlanSettings& settings, const Device& device,
    const std::vector<Group>& groups, Search& search, DevicePlan& d)
{
    if (!d.splitBest || settings.tpot <= 0)
        return;
    const SplitPoint b = d.split[*d.splitBest];
    const int tp = b.pools.decode.tensorParallel, n = b.pools.decode.users;
    int above = 0;
    for (const SplitPoint& p : d.split)
        if (p.pools.decode.tensorParallel == tp && p.weightBits == b.weightBits && p.arithmetic == b.arithmetic
            && p.kvBits == b.kvBits && p.pools.decode.lookahead == b.pools.decode.lookahead && p.pools.decode.users > n
            && (above == 0 || p.pools.decode.users < above))
            above = p.pools.decode.users;
    const Widths w = widthsOf(b.weightBits, b.arithmetic);
    const int lookahead = b.pools.decode.lookahead;
    ServingSettings s = configFor(settings, device, tp, w, b.kvBits, lookahead > 0);
    s.decodeOnly = true;
    const Group* g = groupOf(groups, PlanPoint { device.id, tp, b.weightBits, b.arithmetic, b.kvBits, lookahead, {} });
    int lo = n, hi = above;
    std::optional<SplitPoint> found;
    while (g && hi - lo > 1) {
        const int mid = lo + (hi - lo) / 2;
        s.users = mid;
        const ServingOutcome o = servingPoint(model, s, device);
        std::optional<SplitPoint> p;
        if (o.point && o.point->fits)
            p = search.feed(PlanPoint { device.id, tp, b.weightBits, b.arithmetic, b.kvBits, lookahead, *o.point }, *g);
        if (p && p->meets) {
            lo = mid;
            found = p;
        } else
            hi = mid;
    }
    if (found) {
        d.split.push_back(*found);
        chooseSplitBest(d, search.load);
    }
}

/// Why no split point is best: what to relax.
std::string noSplitMeets(
    const DevicePlan& d, const PlanSettings& settings, const Search& search, const std::string& modelTitle)
{
    const std::string who = "no disaggregated configuration of the " + d.name;
    if (d.split.empty())
        return who + " fits " + modelTitle + ": no prefill or decode replica fits the usable memory";
    const auto fastest = std::min_element(d.split.begin(), d.split.end(),
        [](const SplitPoint& x, const SplitPoint& y) { return x.pools.decode.tpot < y.pools.decode.tpot; });
    if (settings.tpot > 0 && fastest->pools.decode.tpot > settings.tpot)
        return who + " meets TPOT <= " + formatTime(settings.tpot) + " for " + modelTitle + ": the fastest is "
            + formatTime(fastest->pools.decode.tpot) + " at " + splitPointLabel(*fastest) + "; relax --tpot";
    if (search.fastestFirstToken && settings.ttft > 0 && search.fastestFirstToken->pools.ttft > settings.ttft)
        return who + " meets TTFT <= " + formatTime(settings.ttft) + " for " + modelTitle + ": the soonest is "
            + formatTime(search.fastestFirstToken->pools.ttft) + " at " + splitPointLabel(*search.fastestFirstToken)
            + " (its cache moved over " + d.kvLink + "); relax --ttft";
    return who + " meets both targets together for " + modelTitle + "; relax either";
}

} // namespace

void planSplit(const LlmModel& model, const PlanSettings& settings, const Device& device,
    const std::vector<PlanPoint>& decodeOnly, double price, DevicePlan& d, const std::string& modelTitle)
{
    d.kvLinkAssumed = settings.kvLink.empty() && device.scaleUpLink.empty();
    const Interconnect* link = findInterconnect(!settings.kvLink.empty() ? settings.kvLink
            : d.kvLinkAssumed                                            ? "pcie4-x16"
                                                                         : device.scaleUpLink);
    d.kvLink = link ? linkDescription(*link) : std::string();
    Search search { settings, link ? link->bandwidth : 0, price, settings.users > 0 || settings.rate > 0, {} };
    const std::vector<Group> groups = prefillGroups(model, settings, device);
    for (const PlanPoint& decode : decodeOnly)
        if (const Group* g = groupOf(groups, decode))
            if (std::optional<SplitPoint> p = search.feed(decode, *g))
                d.split.push_back(*p);
    chooseSplitBest(d, search.load);
    refineSplitBest(model, settings, device, groups, search, d);
    d.splitFront = paretoFront(d.split);
    if (!d.splitBest)
        d.splitNone = noSplitMeets(d, settings, search, modelTitle);
}

} // namespace planning

} // namespace rfx
