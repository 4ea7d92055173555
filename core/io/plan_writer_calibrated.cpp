// The serving plan at calibrated times (Plan::calibrated: each row at the efficiency its kernels were
// measured at), beside the bound, in the plan's table and JSON (plan_text.h).
#include "io/plan_text.h"

#include "base/format.h"

#include <nlohmann/json.hpp>

#include <sstream>

namespace rfx::plantext {

std::vector<FrontRow> frontRows(const DevicePlan& d)
{
    std::vector<FrontRow> rows;
    for (size_t i : d.front) {
        const PlanPoint& p = d.points[i];
        rows.push_back({ planPointLabel(p), p.point.userTokensPerSecond, p.point.gpuTokensPerSecond, p.point.tpot,
            p.point.ttft, p.meets });
    }
    return rows;
}

std::string calibratedTable(const DevicePlan& bound, const DevicePlan& c, const Plan& plan, const PlanSettings& s)
{
    std::ostringstream o;
    o << "  calibrated by " << plan.calibration
      << " (each row at the efficiency its kernels were measured at: a prediction, not a bound):\n";
    if (c.best) {
        const PlanPoint& b = c.points[*c.best];
        o << "    best: " << planPointLabel(b) << "\n      " << figures(b) << "\n";
        if (bound.best && bound.points[*bound.best].point.gpuTokensPerSecond > 0) {
            const double top = bound.points[*bound.best].point.gpuTokensPerSecond;
            o << "      " << formatNumber3(b.point.gpuTokensPerSecond / top) << " x the bound's best, " << rate(top)
              << " tokens/s per GPU\n";
        }
        if (b.gpus > 0)
            o << "      for " << loadText(s) << ": " << gpusText(b)
              << (b.costPerHour > 0 ? ", " + dollars(b.costPerHour) + " an hour" : std::string()) << "\n";
    } else
        o << "    " << c.none << "\n";
    if (plan.disaggregated && c.splitBest) {
        const SplitPoint& b = c.split[*c.splitBest];
        o << "    disaggregated best: " << splitPointLabel(b) << ": " << rate(b.pools.gpuTokensPerSecond)
          << " tokens/s per GPU, TPOT " << formatTime(b.pools.decode.tpot) << ", TTFT " << formatTime(b.pools.ttft)
          << "\n";
    }
    if (!c.front.empty())
        o << "  calibrated front:\n" << frontTable(frontRows(c), 52);
    return o.str();
}

nlohmann::json calibratedJson(const DevicePlan& c, const Plan& plan)
{
    using nlohmann::json;
    json points = json::array();
    for (const PlanPoint& p : c.points)
        points.push_back(pointJson(p));
    json j { { "calibration", plan.calibration }, { "bound", false }, { "points", points }, { "front", c.front },
        { "best", c.best ? json(*c.best) : json(nullptr) } };
    if (!c.none.empty())
        j["none"] = c.none;
    if (plan.disaggregated)
        j["disaggregated"] = splitJson(c);
    return j;
}

} // namespace rfx::plantext
