#pragma once
// How the serving plan's writers say a figure (plan_writer.cpp, plan_writer_split.cpp). Internal to core/io.

#include "serving/plan.h"

#include <nlohmann/json_fwd.hpp>

#include <string>
#include <vector>

namespace rfx::plantext {

std::string gb(double bytes); ///< "60.8 GB"
std::string rate(double perSecond); ///< "1,358"
std::string loadText(const PlanSettings& s); ///< "200 users at once", "10 requests/s" or nothing
/// Three significant digits below 1 too ($0.0926, 0.0512 J): cheap tokens are the common case.
std::string sig3(double v);
std::string dollars(double usd); ///< "$0.831"

/// A line of a front's table: a configuration, its tokens/s per user and per GPU, TPOT, TTFT.
struct FrontRow {
    std::string label;
    double perUser = 0, perGpu = 0, tpot = 0, ttft = 0;
    bool meets = true;
};
/// The rows under a heading line, the configuration column as wide as the longest label (at least
/// `width`), a row missing a target marked.
std::string frontTable(const std::vector<FrontRow>& rows, int width);
std::vector<FrontRow> frontRows(const DevicePlan& d); ///< the rows of the device's front

std::string costText(const PlanPoint& p); ///< "0.358 J a token, $0.831 per million tokens at $2.99 per GPU-hour"
std::string figures(const PlanPoint& p); ///< "TPOT 49.7 ms (20.1 tokens/s per user), TTFT 120 ms, ... memory ..."
std::string gpusText(const PlanPoint& p); ///< "2 replicas x TP 2 = 4 GPUs"
nlohmann::json pointJson(const PlanPoint& p); ///< every figure of a point, as the JSON's "points" hold them
/// CSV lines of a device's aggregated points, the columns of planToCsv's header, `end` closing each line.
std::string pointsCsv(const DevicePlan& d, bool disaggregated, const std::string& end);
std::string eachLine(const std::string& lines, const std::string& end); ///< `end` added to each line
/// A Markdown row of the device's best (or why none is), under the name given.
std::string markdownRow(const std::string& name, const DevicePlan& d);

/// The device planned at calibrated times (Plan::calibrated), beside its bound `bound`: its best, what it
/// is of the bound's, the GPUs for the load, its disaggregated best where planned, and its front.
std::string calibratedTable(
    const DevicePlan& bound, const DevicePlan& calibrated, const Plan& plan, const PlanSettings& s);
nlohmann::json calibratedJson(const DevicePlan& calibrated, const Plan& plan);

/// The disaggregated half of a device's table: its best beside the aggregated best, and its front.
std::string splitTable(const DevicePlan& d, const PlanSettings& s);
/// Each device's disaggregated best against its aggregated best, per GPU: "Disaggregated against ...".
std::string splitSummary(const Plan& plan);
nlohmann::json splitJson(const DevicePlan& d);
/// CSV lines of every disaggregated configuration, the columns of planToCsv's header.
std::string splitCsv(const DevicePlan& d);
/// The Markdown table of each device's disaggregated best.
std::string splitMarkdown(const Plan& plan);

} // namespace rfx::plantext
