// The serving plan's disaggregated half in each of the plan's forms (plan_text.h).
#include "io/plan_text.h"

#include "base/format.h"
#include "io/csv.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace rfx::plantext {

namespace {

std::string gpus(int n) { return formatCount(n) + (n == 1 ? " GPU" : " GPUs"); }

std::string replicas(int n, int tp, const char* pool)
{
    return formatCount(n) + " " + pool + (n == 1 ? " replica" : " replicas") + " x TP " + std::to_string(tp);
}

/// "1.12 x the aggregated best's 1,250 tokens/s per GPU", or nothing without an aggregated best.
std::string against(const DevicePlan& d, const SplitPoint& p)
{
    if (!d.best)
        return {};
    const double agg = d.points[*d.best].point.gpuTokensPerSecond;
    return agg > 0 ? formatNumber3(p.pools.gpuTokensPerSecond / agg) + " x the aggregated best's " + rate(agg) : "";
}

} // namespace

std::string splitTable(const DevicePlan& d, const PlanSettings& s)
{
    std::ostringstream o;
    if (!d.splitBest) {
        o << "  disaggregated: " << d.splitNone << "\n";
        return o.str();
    }
    const SplitPoint& b = d.split[*d.splitBest];
    const PoolBalance& v = b.pools;
    o << "  disaggregated best: " << splitPointLabel(b) << "\n"
      << "    TPOT " << formatTime(v.decode.tpot) << " (" << rate(v.decode.userTokensPerSecond)
      << " tokens/s per user), TTFT " << formatTime(v.ttft) << " (wait " << formatTime(v.queueTime) << ", prefill "
      << formatTime(v.prefill.time) << ", cache moved in " << formatTime(v.transferTime) << " over " << d.kvLink
      << (d.kvLinkAssumed ? ", assumed: the device file names no link; --kv-link" : "") << ")\n"
      << "    " << rate(v.gpuTokensPerSecond) << " tokens/s per GPU";
    if (const std::string a = against(d, b); !a.empty())
        o << ": " << a;
    o << "\n    " << formatNumber3(v.prefillGpusPerReplica) << " prefill GPUs per decode replica (a prefill replica "
      << rate(v.prefill.requestsPerSecond) << " requests/s, a decode replica " << rate(v.decode.requestsPerSecond)
      << "); memory per GPU: prefill " << gb(v.prefill.memoryBytes) << ", decode " << gb(v.decode.memoryBytes) << " of "
      << gb(v.decode.usableBytes) << "\n"
      << "    " << sig3(v.energyPerToken) << " J a token";
    if (b.costPerMillion > 0)
        o << ", " << dollars(b.costPerMillion) << " per million tokens";
    o << "\n";
    if (v.gpus > 0) {
        o << "    for " << loadText(s) << ": " << replicas(v.prefillReplicas, v.prefill.tensorParallel, "prefill")
          << " + " << replicas(v.decodeReplicas, v.decode.tensorParallel, "decode") << " = " << gpus(v.gpus);
        if (d.best && d.points[*d.best].gpus > 0)
            o << " (aggregated: " << gpus(d.points[*d.best].gpus) << ")";
        o << "\n";
    }
    if (d.splitFront.empty())
        return o.str();
    o << "  disaggregated front:\n";
    std::vector<FrontRow> rows;
    for (size_t i : d.splitFront) {
        const SplitPoint& p = d.split[i];
        rows.push_back({ splitPointLabel(p), p.pools.decode.userTokensPerSecond, p.pools.gpuTokensPerSecond,
            p.pools.decode.tpot, p.pools.ttft, p.meets });
    }
    o << frontTable(rows, 13);
    return o.str();
}

std::string splitSummary(const Plan& plan)
{
    std::ostringstream o;
    o << "Disaggregated against aggregated, tokens/s per GPU of each best at these targets:\n";
    for (const DevicePlan& d : plan.devices) {
        o << "  " << d.name << ": ";
        if (!d.splitBest || !d.best)
            o << (d.splitBest ? "disaggregated only" : d.best ? "aggregated only" : "neither meets the targets");
        else {
            const double a = d.points[*d.best].point.gpuTokensPerSecond,
                         b = d.split[*d.splitBest].pools.gpuTokensPerSecond;
            o << rate(b) << " against " << rate(a) << " (" << formatNumber3(b / a) << " x)";
        }
        o << "\n";
    }
    return o.str();
}

nlohmann::json splitJson(const DevicePlan& d)
{
    using nlohmann::json;
    json points = json::array();
    for (const SplitPoint& p : d.split) {
        const PoolBalance& v = p.pools;
        points.push_back(json { { "weights_bits", p.weightBits },
            { "arithmetic", std::string(numberWord(p.arithmetic)) }, { "kv_bits", p.kvBits },
            { "prefill_tensor_parallel", v.prefill.tensorParallel }, { "prefill_batch", v.prefill.batch },
            { "prefill_time_s", v.prefill.time }, { "prefill_requests_per_s", v.prefill.requestsPerSecond },
            { "prefill_memory_bytes_per_gpu", v.prefill.memoryBytes },
            { "decode_tensor_parallel", v.decode.tensorParallel }, { "users", v.decode.users },
            { "lookahead", v.decode.lookahead }, { "tpot_s", v.decode.tpot }, { "ttft_s", v.ttft },
            { "queue_s", v.queueTime }, { "kv_transfer_s", v.transferTime },
            { "kv_bytes_per_prompt", v.prefill.kvBytes }, { "decode_requests_per_s", v.decode.requestsPerSecond },
            { "decode_memory_bytes_per_gpu", v.decode.memoryBytes },
            { "prefill_gpus_per_decode_replica", v.prefillGpusPerReplica },
            { "tokens_per_s_per_user", v.decode.userTokensPerSecond }, { "tokens_per_s_per_gpu", v.gpuTokensPerSecond },
            { "energy_per_token_j", v.energyPerToken }, { "meets_targets", p.meets },
            { "prefill_replicas", v.prefillReplicas }, { "decode_replicas", v.decodeReplicas }, { "gpus", v.gpus },
            { "cost_per_million_tokens_usd", p.costPerMillion }, { "cost_per_hour_usd", p.costPerHour } });
    }
    json j { { "kv_link", d.kvLink }, { "kv_link_assumed", d.kvLinkAssumed }, { "points", points },
        { "front", d.splitFront } };
    j["best"] = d.splitBest ? json(*d.splitBest) : json(nullptr);
    if (!d.splitNone.empty())
        j["none"] = d.splitNone;
    return j;
}

std::string splitCsv(const DevicePlan& d)
{
    std::ostringstream o;
    for (size_t i = 0; i < d.split.size(); ++i) {
        const SplitPoint& p = d.split[i];
        const PoolBalance& v = p.pools;
        const bool front = std::find(d.splitFront.begin(), d.splitFront.end(), i) != d.splitFront.end();
        o << csv::field(p.device) << ',' << v.decode.tensorParallel << ',' << csv::numberField(p.weightBits) << ','
          << numberWord(p.arithmetic) << ',' << p.kvBits << ',' << v.decode.users << ','
          << csv::numberField(v.decode.tpot) << ',' << csv::numberField(v.ttft) << ','
          << csv::numberField(v.decode.userTokensPerSecond) << ',' << csv::numberField(v.gpuTokensPerSecond) << ','
          << csv::numberField(v.decode.replicaTokensPerSecond) << ',' << csv::numberField(v.decode.memoryBytes) << ','
          << (front ? 1 : 0) << ',' << (d.splitBest && *d.splitBest == i ? 1 : 0) << ',' << (p.meets ? 1 : 0) << ','
          << v.decodeReplicas << ',' << v.gpus << ',' << csv::numberField(v.energyPerToken) << ','
          << csv::numberField(p.costPerMillion) << ',' << v.decode.lookahead << ",disaggregated,"
          << v.prefill.tensorParallel << ',' << v.prefill.batch << ',' << csv::numberField(v.transferTime) << ','
          << v.prefillReplicas << ',' << v.decodeReplicas << '\n';
    }
    return o.str();
}

std::string splitMarkdown(const Plan& plan)
{
    std::ostringstream o;
    o << "**Disaggregated** (prefill and decode pools)\n\n"
      << "| Device | Configuration | tokens/s per user | tokens/s per GPU | against aggregated | TPOT | TTFT | GPUs |\n"
      << "|---|---|---:|---:|---:|---:|---:|---:|\n";
    for (const DevicePlan& d : plan.devices) {
        if (!d.splitBest) {
            o << "| " << d.name << " | " << d.splitNone << " | | | | | | |\n";
            continue;
        }
        const SplitPoint& p = d.split[*d.splitBest];
        const double agg = d.best ? d.points[*d.best].point.gpuTokensPerSecond : 0;
        o << "| " << d.name << " | " << splitPointLabel(p) << " | " << rate(p.pools.decode.userTokensPerSecond) << " | "
          << rate(p.pools.gpuTokensPerSecond) << " | "
          << (agg > 0 ? formatNumber3(p.pools.gpuTokensPerSecond / agg) + " x" : std::string()) << " | "
          << formatTime(p.pools.decode.tpot) << " | " << formatTime(p.pools.ttft) << " | "
          << (p.pools.gpus > 0 ? formatCount(p.pools.gpus) : std::string()) << " |\n";
    }
    return o.str();
}

} // namespace rfx::plantext
