#include "io/plan_writer.h"

#include "base/format.h"
#include "io/csv.h"
#include "io/plan_text.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace rfx {

namespace plantext {

std::string gb(double bytes) { return formatNumber3(bytes / 1e9) + " GB"; }

std::string rate(double perSecond) { return formatNumber3(perSecond); }

std::string loadText(const PlanSettings& s)
{
    if (s.users > 0)
        return formatCount(s.users) + " users at once";
    if (s.rate > 0)
        return formatNumber3(s.rate) + " requests/s";
    return {};
}

std::string sig3(double v)
{
    if (!(v > 0) || v >= 1)
        return formatNumber3(v);
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3g", v);
    return buf;
}

std::string frontTable(const std::vector<FrontRow>& rows, int width)
{
    for (const FrontRow& r : rows)
        width = std::max(width, int(r.label.size()));
    std::string o;
    char line[320];
    std::snprintf(line, sizeof line, "    %-*s %12s %12s %10s %10s\n", width, "configuration", "tok/s/user",
        "tok/s/GPU", "TPOT", "TTFT");
    o += line;
    for (const FrontRow& r : rows) {
        std::snprintf(line, sizeof line, "    %-*s %12s %12s %10s %10s%s\n", width, r.label.c_str(),
            rate(r.perUser).c_str(), rate(r.perGpu).c_str(), formatTime(r.tpot).c_str(), formatTime(r.ttft).c_str(),
            r.meets ? "" : "  (misses a target)");
        o += line;
    }
    return o;
}

std::string dollars(double usd)
{
    std::string d = "$"; // appended, not "$" + ...: GCC 12 warns falsely (-Wrestrict) on that inlined
    d += sig3(usd);
    return d;
}

std::string costText(const PlanPoint& p)
{
    std::string t = sig3(p.point.energyPerToken) + " J a token";
    if (p.costPerMillion > 0)
        t += ", " + dollars(p.costPerMillion) + " per million tokens at " + dollars(p.pricePerHour) + " per GPU-hour";
    return t;
}

std::string figures(const PlanPoint& p)
{
    const ServingPoint& s = p.point;
    return "TPOT " + formatTime(s.tpot) + " (" + rate(s.userTokensPerSecond) + " tokens/s per user), TTFT "
        + formatTime(s.ttft) + ", " + rate(s.replicaTokensPerSecond) + " tokens/s per replica, "
        + rate(s.gpuTokensPerSecond) + " per GPU; memory " + gb(s.memoryBytes) + " of " + gb(s.usableBytes)
        + " per GPU";
}

std::string gpusText(const PlanPoint& p)
{
    return formatCount(p.replicas) + (p.replicas == 1 ? " replica" : " replicas") + " x TP "
        + std::to_string(p.tensorParallel) + " = " + formatCount(p.gpus) + (p.gpus == 1 ? " GPU" : " GPUs");
}

nlohmann::json pointJson(const PlanPoint& p)
{
    using nlohmann::json;
    const ServingPoint& v = p.point;
    return json { { "device", p.device }, { "tensor_parallel", p.tensorParallel }, { "weights_bits", p.weightBits },
        { "lookahead", p.lookahead }, { "arithmetic", std::string(numberWord(p.arithmetic)) }, { "kv_bits", p.kvBits },
        { "users", v.users }, { "tpot_s", v.tpot }, { "ttft_s", v.ttft },
        { "tokens_per_s_per_user", v.userTokensPerSecond }, { "tokens_per_s_per_replica", v.replicaTokensPerSecond },
        { "tokens_per_s_per_gpu", v.gpuTokensPerSecond }, { "requests_per_s_per_replica", v.requestsPerSecond },
        { "prefill_tokens_per_step", v.step.prefillTokens }, { "prefill_chunk_tokens", v.chunk },
        { "prefill_steps", v.prefillSteps }, { "memory_bytes_per_gpu", v.memoryBytes },
        { "weights_bytes_per_gpu", v.weightsBytes }, { "kv_bytes_per_gpu", v.kvBytes },
        { "activation_bytes_per_gpu", v.activationBytes }, { "usable_bytes_per_gpu", v.usableBytes },
        { "meets_targets", p.meets }, { "replicas", p.replicas }, { "gpus", p.gpus },
        { "energy_per_token_j", v.energyPerToken }, { "price_per_hour_usd", p.pricePerHour },
        { "cost_per_million_tokens_usd", p.costPerMillion }, { "cost_per_hour_usd", p.costPerHour } };
}

std::string pointsCsv(const DevicePlan& d, bool disaggregated, const std::string& end)
{
    std::ostringstream o;
    for (size_t i = 0; i < d.points.size(); ++i) {
        const PlanPoint& p = d.points[i];
        const bool front = std::find(d.front.begin(), d.front.end(), i) != d.front.end();
        o << csv::field(p.device) << ',' << p.tensorParallel << ',' << csv::numberField(p.weightBits) << ','
          << numberWord(p.arithmetic) << ',' << p.kvBits << ',' << p.point.users << ','
          << csv::numberField(p.point.tpot) << ',' << csv::numberField(p.point.ttft) << ','
          << csv::numberField(p.point.userTokensPerSecond) << ',' << csv::numberField(p.point.gpuTokensPerSecond) << ','
          << csv::numberField(p.point.replicaTokensPerSecond) << ',' << csv::numberField(p.point.memoryBytes) << ','
          << (front ? 1 : 0) << ',' << (d.best && *d.best == i ? 1 : 0) << ',' << (p.meets ? 1 : 0) << ',' << p.replicas
          << ',' << p.gpus << ',' << csv::numberField(p.point.energyPerToken) << ','
          << csv::numberField(p.costPerMillion) << ',' << p.lookahead << (disaggregated ? ",aggregated,,,,," : "")
          << end << '\n';
    }
    return o.str();
}

std::string eachLine(const std::string& lines, const std::string& end)
{
    std::string o;
    size_t from = 0;
    for (size_t nl; (nl = lines.find('\n', from)) != std::string::npos; from = nl + 1)
        o += lines.substr(from, nl - from) + end + '\n';
    return o;
}

std::string markdownRow(const std::string& name, const DevicePlan& d)
{
    if (!d.best)
        return "| " + name + " | " + d.none + " | | | | | | |\n";
    const PlanPoint& p = d.points[*d.best];
    return "| " + name + " | " + planPointLabel(p) + " | " + rate(p.point.userTokensPerSecond) + " | "
        + rate(p.point.gpuTokensPerSecond) + " | " + formatTime(p.point.tpot) + " | " + formatTime(p.point.ttft) + " | "
        + (p.gpus > 0 ? formatCount(p.gpus) : std::string()) + " | "
        + (p.costPerMillion > 0 ? dollars(p.costPerMillion) : std::string()) + " |\n";
}

} // namespace plantext

using namespace plantext;

std::string planHeadline(const Plan& plan, const PlanSettings& s)
{
    std::string h
        = plan.model + ", P = " + formatCount(s.llm.prompt) + " tokens in, G = " + formatCount(s.llm.generate) + " out";
    std::string t;
    if (s.ttft > 0)
        t = "TTFT <= " + formatTime(s.ttft);
    if (s.tpot > 0)
        t += (t.empty() ? "" : ", ") + std::string("TPOT <= ") + formatTime(s.tpot);
    if (!t.empty())
        h += "; targets " + t;
    if (const std::string l = loadText(s); !l.empty())
        h += "; " + l;
    return h;
}

std::string planToTable(const Plan& plan, const PlanSettings& s)
{
    std::ostringstream o;
    o << "Serving " << planHeadline(plan, s) << "\n"
      << "Steady state of continuous batching, every figure a roofline bound: real engines run below it.\n";
    if (const Speculation& sp = s.speculation; sp.draft)
        o << "Speculative decoding weighed against plain decoding: draft "
          << (sp.draft->arch.title.empty() ? sp.draft->arch.id : sp.draft->arch.title) << ", K = " << sp.lookahead
          << " drafted a round, A = " << formatNumber3(sp.accept) << " accepted each, "
          << formatNumber3(expectedTokensPerRound(sp.accept, sp.lookahead))
          << " tokens a round (the draft's own prefill of each prompt left out).\n";
    for (const DevicePlan& d : plan.devices) {
        o << "\n" << d.name << " (" << d.device << ")\n";
        if (d.best) {
            const PlanPoint& b = d.points[*d.best];
            o << "  best: " << planPointLabel(b) << "\n    " << figures(b) << "\n    " << costText(b) << "\n";
            if (b.gpus > 0)
                o << "    for " << loadText(s) << ": " << gpusText(b)
                  << (b.costPerHour > 0 ? ", " + dollars(b.costPerHour) + " an hour" : std::string()) << "\n";
        } else
            o << "  " << d.none << "\n";
        if (plan.disaggregated)
            o << splitTable(d, s);
        if (!d.front.empty())
            o << "  front (each faster per GPU than every configuration faster per user):\n"
              << frontTable(frontRows(d), 52);
        if (const DevicePlan* c = plan.calibratedOf(d.device))
            o << calibratedTable(d, *c, plan, s);
    }
    if (plan.disaggregated)
        o << "\n" << splitSummary(plan);
    if (s.ttft > 0 || s.tpot > 0 || s.users > 0 || s.rate > 0) {
        o << "\n";
        if (plan.ranked.empty())
            o << "No configuration meets the targets on any device.\n";
        else {
            const bool load = s.users > 0 || s.rate > 0;
            o << "Meeting the targets, best first ("
              << (plan.byCost ? (load ? "least cost an hour" : "least cost per million tokens")
                              : (load ? "fewest GPUs, then tokens/s per GPU" : "tokens/s per GPU"))
              << "):\n";
            const size_t shown = std::min<size_t>(plan.ranked.size(), 10);
            for (size_t i = 0; i < shown; ++i) {
                const PlanPoint& p = plan.ranked[i];
                o << "  " << i + 1 << ". " << p.device << ": " << planPointLabel(p) << ": "
                  << rate(p.point.gpuTokensPerSecond) << " tokens/s per GPU, TPOT " << formatTime(p.point.tpot)
                  << ", TTFT " << formatTime(p.point.ttft);
                if (p.costPerMillion > 0)
                    o << ", " << dollars(p.costPerMillion) << " per million tokens";
                if (p.gpus > 0)
                    o << "; " << gpusText(p)
                      << (p.costPerHour > 0 ? ", " + dollars(p.costPerHour) + " an hour" : std::string());
                o << "\n";
            }
            if (plan.ranked.size() > shown)
                o << "  (" << plan.ranked.size() - shown << " more: --format csv lists every configuration)\n";
            if (!plan.unpriced.empty()) {
                std::string names;
                for (const std::string& n : plan.unpriced)
                    names += (names.empty() ? "" : ", ") + n;
                o << "Not ranked by cost: no price for " << names
                  << " (price_per_hour_usd in its device file, or --price ID=USD).\n";
            }
        }
    }
    return o.str();
}

std::string planToJson(const Plan& plan, const PlanSettings& s, int indent)
{
    using nlohmann::json;
    json j { { "model", plan.model }, { "prompt", s.llm.prompt }, { "generate", s.llm.generate },
        { "ttft_target_s", s.ttft }, { "tpot_target_s", s.tpot }, { "users", s.users }, { "requests_per_s", s.rate },
        { "gpus_per_node", s.gpusPerNode }, { "usable_memory", s.usableMemory }, { "chunk_tokens", s.chunkTokens },
        { "bound", true } };
    if (const Speculation& sp = s.speculation; sp.draft)
        j["speculation"] = json { { "draft", sp.draft->arch.title.empty() ? sp.draft->arch.id : sp.draft->arch.title },
            { "accept", sp.accept }, { "lookahead", sp.lookahead },
            { "tokens_per_round", expectedTokensPerRound(sp.accept, sp.lookahead) } };
    json devices = json::array();
    for (const DevicePlan& d : plan.devices) {
        json points = json::array();
        for (const PlanPoint& p : d.points)
            points.push_back(pointJson(p));
        json jd { { "device", d.device }, { "name", d.name }, { "points", points }, { "front", d.front } };
        jd["best"] = d.best ? json(*d.best) : json(nullptr);
        if (!d.none.empty())
            jd["none"] = d.none;
        if (plan.disaggregated)
            jd["disaggregated"] = splitJson(d);
        if (const DevicePlan* c = plan.calibratedOf(d.device))
            jd["calibrated"] = calibratedJson(*c, plan);
        devices.push_back(jd);
    }
    j["devices"] = devices;
    json ranked = json::array();
    for (const PlanPoint& p : plan.ranked)
        ranked.push_back(pointJson(p));
    j["ranked"] = ranked;
    const bool load = s.users > 0 || s.rate > 0;
    j["ranked_by"]
        = plan.byCost ? (load ? "cost_per_hour" : "cost_per_million_tokens") : (load ? "gpus" : "tokens_per_s_per_gpu");
    j["unpriced"] = plan.unpriced;
    return j.dump(indent);
}

std::string planToCsv(const Plan& plan)
{
    std::ostringstream o;
    o << "device,tensor_parallel,weights_bits,arithmetic,kv_bits,users,tpot_s,ttft_s,tokens_per_s_per_user,tokens_per_"
         "s_per_gpu,"
         "tokens_per_s_per_replica,memory_bytes_per_gpu,on_front,best,meets_targets,replicas,gpus,energy_per_token_j,"
         "cost_per_million_tokens_usd,lookahead"
      << (plan.disaggregated
                 ? ",mode,prefill_tensor_parallel,prefill_batch,kv_transfer_s,prefill_replicas,decode_replicas"
                 : "")
      << (plan.calibrated.empty() ? "" : ",times") << '\n';
    const std::string bound = plan.calibrated.empty() ? "" : ",bound";
    for (const DevicePlan& d : plan.devices)
        o << pointsCsv(d, plan.disaggregated, bound);
    if (plan.disaggregated)
        for (const DevicePlan& d : plan.devices)
            o << eachLine(splitCsv(d), bound);
    for (const DevicePlan& c : plan.calibrated)
        o << pointsCsv(c, plan.disaggregated, ",calibrated")
          << (plan.disaggregated ? eachLine(splitCsv(c), ",calibrated") : std::string());
    return o.str();
}

std::string planToMarkdown(const Plan& plan, const PlanSettings& s)
{
    std::ostringstream o;
    o << "**Serving " << planHeadline(plan, s) << "** (roofline bounds)\n\n"
      << "| Device | Configuration | tokens/s per user | tokens/s per GPU | TPOT | TTFT | GPUs | $ per million tokens "
         "|\n"
      << "|---|---|---:|---:|---:|---:|---:|---:|\n";
    for (const DevicePlan& d : plan.devices) {
        o << markdownRow(d.name, d);
        if (const DevicePlan* c = plan.calibratedOf(d.device))
            o << markdownRow(d.name + ", calibrated (" + plan.calibration + ")", *c);
    }
    if (plan.disaggregated)
        o << "\n" << splitMarkdown(plan);
    return o.str();
}

} // namespace rfx
