// roofline-cli plan: a language model served (core/serving/plan.h): per device the Pareto front of
// tokens/s per user against tokens/s per GPU, the configurations meeting latency targets, and the
// GPUs a load needs.
#include "cli_commands.h"

#include "base/format.h"
#include "devices/interconnects.h"
#include "io/llm_options.h"
#include "io/options.h"
#include "io/plan_writer.h"
#include "llm/llm_files.h"
#include "serving/plan.h"

#include <algorithm>
#include <cmath>
#include <ostream>

namespace rfx {

namespace {

std::optional<double> parsePositive(const std::string& text)
{
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(v) || v <= 0)
        return std::nullopt;
    return v;
}

} // namespace

int runPlan(
    const std::vector<std::string>& args, std::ostream& out, std::ostream& err, const std::filesystem::path& exeDir)
{
    CommonOptions common;
    LlmOptions llm;
    PlanSettings plan;
    std::string model;
    std::vector<std::string> devices;
    SpeculationOptions speculation;
    for (size_t i = 0; i < args.size(); ++i) {
        const SplitOption split = splitOption(args[i]);
        for (const char* searched :
            { "--weights-bits", "--kv-bits", "--act-bits", "--tp", "--batch", "--context", "--interconnect" })
            if (split.name == searched)
                return usageError(err,
                    split.name
                        + ": the plan searches it (weights 16, 8, 4 bits; cache 16, 8; TP 1, 2, 4, 8 over "
                          "each device's own link; N users from 1 to the most that fit): leave it out");
        if (const OptionStatus st = applyCommonOrLlmOption(args, i, common, llm, err); st != OptionStatus::NotConfigOption) {
            if (st == OptionStatus::Error)
                return ExitUsage;
            continue;
        }
        if (const auto code = takeSpeculationOption(args, i, speculation, err)) {
            if (*code != ExitOk)
                return *code;
            continue;
        }
        if (split.name == "--disaggregated") {
            if (split.value)
                return usageError(err, "--disaggregated takes no value");
            plan.disaggregated = true;
            continue;
        }
        auto value = [&]() -> std::optional<std::string> {
            if (split.value)
                return split.value;
            if (i + 1 < args.size())
                return args[++i];
            return std::nullopt;
        };
        const std::optional<std::string> v = value();
        if (!v)
            return usageError(err, split.name + ": missing value");
        if (split.name == "--model")
            model = *v;
        else if (split.name == "--device")
            devices.push_back(*v);
        else if (split.name == "--ttft" || split.name == "--tpot") {
            const std::optional<double> d = parseDuration(*v);
            if (!d)
                return usageError(
                    err, split.name + " " + *v + ": give a time above 0, e.g. 1s, 200ms or 0.05 (seconds)");
            (split.name == "--ttft" ? plan.ttft : plan.tpot) = *d;
        } else if (split.name == "--users" || split.name == "--gpus-per-node" || split.name == "--chunk") {
            const std::optional<int> n = parseWholeNumber(*v);
            const int most = split.name == "--gpus-per-node" ? 64 : 100000000;
            if (!n || *n < 1 || *n > most)
                return usageError(err, split.name + " " + *v + ": give a whole number from 1 to " + formatCount(most));
            (split.name == "--users" ? plan.users : split.name == "--chunk" ? plan.chunkTokens : plan.gpusPerNode) = *n;
        } else if (split.name == "--rate") {
            const std::optional<double> r = parsePositive(*v);
            if (!r || *r > 1e9)
                return usageError(err, "--rate " + *v + ": give requests per second above 0");
            plan.rate = *r;
        } else if (split.name == "--price") {
            const size_t eq = v->find('=');
            const std::optional<double> usd = eq == std::string::npos ? std::nullopt : parsePositive(v->substr(eq + 1));
            if (!usd || *usd > 1000 || eq == 0)
                return usageError(err,
                    "--price " + *v
                        + ": give ID=USD, a device id and US dollars for one GPU an hour (e.g. h100-sxm=2.99)");
            plan.prices[v->substr(0, eq)] = *usd;
        } else if (split.name == "--kv-link") {
            if (auto e = interconnectError(*v))
                return usageError(err, "--kv-link: " + *e);
            plan.kvLink = *v;
        } else if (split.name == "--usable-memory") {
            const std::optional<double> u = parsePositive(*v);
            if (!u || *u > 1)
                return usageError(err,
                    "--usable-memory " + *v
                        + ": give the share of each GPU's memory the engine may fill, above 0 and at most 1 (e.g. "
                          "0.9)");
            plan.usableMemory = *u;
        } else
            return usageError(err, "unknown option for 'plan': " + args[i]);
    }
    if (model.empty())
        return usageError(err,
            "plan: --model is required (a built-in language model, see 'roofline-cli networks', a config.json, a "
            "model directory, a .gguf file or an ONNX decoder)");
    if (!plan.kvLink.empty() && !plan.disaggregated)
        return usageError(err, "--kv-link: the link prefill and decode pools move the cache over; add --disaggregated");
    if (plan.users > 0 && plan.rate > 0)
        return usageError(err, "--users and --rate: give one load, users served at once or requests per second");
    const std::string& format = common.format;
    if (format != "table" && format != "json" && format != "csv" && format != "markdown")
        return usageError(err, "--format: expected table, json, csv or markdown for 'plan', got '" + format + "'");
    if (const auto code = finishSpeculation(speculation, err))
        return *code;
    plan.speculation = speculation.speculation();
    plan.llm = llm.settings;
    if (auto e = validateLlmSettings(plan.llm))
        return usageError(err, *e);
    LlmLoad load = loadLanguageModel(model);
    if (!load.model) {
        err << "roofline-cli: cannot use the language model: " << load.error << "\n";
        return ExitUsage;
    }
    if (devices.empty())
        devices.push_back("h100-sxm");
    const DeviceLibrary lib = loadLibrary(common, exeDir, err);
    std::vector<Device> chosen;
    if (!resolveDevices(lib, devices, chosen, err))
        return ExitUsage;
    for (const auto& price : plan.prices) {
        const std::string& id = price.first; // a named variable: clang 14 does not capture a binding in a lambda
        if (std::none_of(chosen.begin(), chosen.end(), [&](const Device& d) { return d.id == id; }))
            return usageError(
                err, "--price " + id + "=...: " + id + " is not among the devices planned for (--device)");
    }
    const Plan p = planServing(*load.model, plan, chosen);
    if (!p.error.empty()) {
        err << "roofline-cli: " << p.error << "\n";
        return ExitUsage;
    }
    out << (format == "json"       ? planToJson(p, plan) + "\n"
            : format == "csv"      ? planToCsv(p)
            : format == "markdown" ? planToMarkdown(p, plan)
                                   : planToTable(p, plan));
    // Targets nobody meets: the answer is still printed, and the exit says so to scripts.
    const bool asked = plan.ttft > 0 || plan.tpot > 0;
    if (asked && p.ranked.empty()) {
        for (const DevicePlan& d : p.devices)
            err << "roofline-cli: " << d.none << "\n";
        return ExitFailure;
    }
    return ExitOk;
}

} // namespace rfx
