// roofline-cli plan: a language model served (core/serving/plan.h): per device the Pareto front of
// tokens/s per user against tokens/s per GPU, the configurations meeting latency targets, and the
// GPUs a load needs.
#include "cli_commands.h"

#include "base/format.h"
#include "devices/interconnects.h"
#include "engine/calibration.h"
#include "io/calibration_file.h"
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
    const std::optional<double> v = parseDecimal(text);
    return v && *v > 0 ? v : std::nullopt;
}

/// What plan's command line gives.
struct PlanArgs {
    CommonOptions common;
    LlmOptions llm;
    PlanSettings plan;
    std::string model, calibration;
    std::vector<std::string> devices;
    SpeculationOptions speculation;
};

/// One option that takes a value: nothing when taken, else the exit (its message written).
std::optional<int> takePlanValue(const std::string& name, const std::string& v, PlanArgs& a, std::ostream& err)
{
    PlanSettings& plan = a.plan;
    if (name == "--model")
        a.model = v;
    else if (name == "--device")
        a.devices.push_back(v);
    else if (name == "--ttft" || name == "--tpot") {
        const std::optional<double> d = parseDuration(v);
        if (!d)
            return usageError(err, name + " " + v + ": give a time above 0, e.g. 1s, 200ms or 0.05 (seconds)");
        (name == "--ttft" ? plan.ttft : plan.tpot) = *d;
    } else if (name == "--users" || name == "--gpus-per-node" || name == "--chunk") {
        const std::optional<int> n = parseWholeNumber(v);
        const int most = name == "--gpus-per-node" ? 64 : 100000000;
        if (!n || *n < 1 || *n > most)
            return usageError(err, name + " " + v + ": give a whole number from 1 to " + formatCount(most));
        (name == "--users" ? plan.users : name == "--chunk" ? plan.chunkTokens : plan.gpusPerNode) = *n;
    } else if (name == "--rate") {
        const std::optional<double> r = parsePositive(v);
        if (!r || *r > 1e9)
            return usageError(err, "--rate " + v + ": give requests per second above 0");
        plan.rate = *r;
    } else if (name == "--price") {
        const auto price = splitAssignment(v);
        const std::optional<double> usd = price ? parsePositive(price->value) : std::nullopt;
        if (!usd || *usd > 1000)
            return usageError(err,
                "--price " + v + ": give ID=USD, a device id and US dollars for one GPU an hour (e.g. h100-sxm=2.99)");
        plan.prices[price->name] = *usd;
    } else if (name == "--kv-link") {
        if (auto e = interconnectError(v))
            return usageError(err, "--kv-link: " + *e);
        plan.kvLink = v;
    } else if (name == "--usable-memory") {
        const std::optional<double> u = parsePositive(v);
        if (!u || *u > 1)
            return usageError(err,
                "--usable-memory " + v
                    + ": give the share of each GPU's memory the engine may fill, above 0 and at most 1 (e.g. 0.9)");
        plan.usableMemory = *u;
    } else if (name == "--calibration")
        a.calibration = v;
    else
        return usageError(err, "unknown option for 'plan': " + name);
    return std::nullopt;
}

/// The command line into `a`: nothing when it reads, else the exit (its message written).
std::optional<int> parsePlanArgs(const std::vector<std::string>& args, PlanArgs& a, std::ostream& err)
{
    for (size_t i = 0; i < args.size(); ++i) {
        const SplitOption split = splitOption(args[i]);
        for (const char* searched :
            { "--weights-bits", "--kv-bits", "--act-bits", "--tp", "--batch", "--context", "--interconnect" })
            if (split.name == searched)
                return usageError(err,
                    split.name
                        + ": the plan searches it (weights 16, 8, 4 bits; cache 16, 8; TP 1, 2, 4, 8 over "
                          "each device's own link; N users from 1 to the most that fit): leave it out");
        if (const OptionStatus st = applyCommonOrLlmOption(args, i, a.common, a.llm, err);
            st != OptionStatus::NotConfigOption) {
            if (st == OptionStatus::Error)
                return ExitUsage;
            continue;
        }
        if (const auto code = takeSpeculationOption(args, i, a.speculation, err)) {
            if (*code != ExitOk)
                return *code;
            continue;
        }
        if (split.name == "--disaggregated") {
            if (split.value)
                return usageError(err, "--disaggregated takes no value");
            a.plan.disaggregated = true;
            continue;
        }
        std::optional<std::string> v = split.value;
        if (!v && i + 1 < args.size())
            v = args[++i];
        if (!v)
            return usageError(err, split.name + ": missing value");
        if (const auto code = takePlanValue(split.name, *v, a, err))
            return code;
    }
    return std::nullopt;
}

/// What the options say together: nothing when they agree, else the exit (its message written).
std::optional<int> checkPlanArgs(PlanArgs& a, std::ostream& err)
{
    if (a.model.empty())
        return usageError(err,
            "plan: --model is required (a built-in language model, see 'roofline-cli networks', a config.json, a "
            "model directory, a .gguf file or an ONNX decoder)");
    if (!a.plan.kvLink.empty() && !a.plan.disaggregated)
        return usageError(err, "--kv-link: the link prefill and decode pools move the cache over; add --disaggregated");
    if (a.plan.users > 0 && a.plan.rate > 0)
        return usageError(err, "--users and --rate: give one load, users served at once or requests per second");
    const std::string& format = a.common.format;
    if (format != "table" && format != "json" && format != "csv" && format != "markdown")
        return usageError(err, "--format: expected table, json, csv or markdown for 'plan', got '" + format + "'");
    if (const auto code = finishSpeculation(a.speculation, err))
        return code;
    a.plan.speculation = a.speculation.speculation();
    a.plan.llm = a.llm.settings;
    if (auto e = validateLlmSettings(a.plan.llm))
        return usageError(err, *e);
    if (a.devices.empty())
        a.devices.push_back("h100-sxm");
    return std::nullopt;
}

/// Each --price and the calibration name a device planned for: nothing when they do, else the exit.
std::optional<int> checkDevicesNamed(const PlanArgs& a, const std::vector<Device>& chosen,
    const std::optional<Calibration>& calibration, std::ostream& err)
{
    auto planned = [&](const std::string& id) {
        return std::any_of(chosen.begin(), chosen.end(), [&](const Device& d) { return d.id == id; });
    };
    for (const auto& price : a.plan.prices)
        if (!planned(price.first))
            return usageError(err,
                "--price " + price.first + "=...: " + price.first + " is not among the devices planned for (--device)");
    if (calibration && !planned(calibration->deviceId))
        return usageError(err,
            "--calibration " + a.calibration + ": the calibration is for '" + calibration->deviceId
                + "', which is not among the devices planned for (add --device " + calibration->deviceId + ")");
    return std::nullopt;
}

} // namespace

int runPlan(
    const std::vector<std::string>& args, std::ostream& out, std::ostream& err, const std::filesystem::path& exeDir)
{
    PlanArgs a;
    if (const auto code = parsePlanArgs(args, a, err))
        return *code;
    if (const auto code = checkPlanArgs(a, err))
        return *code;
    LlmLoad load = loadLanguageModel(a.model);
    if (!load.model) {
        err << "roofline-cli: cannot use the language model: " << load.error << "\n";
        return ExitUsage;
    }
    const DeviceLibrary lib = loadLibrary(a.common, exeDir, err);
    std::vector<Device> chosen;
    if (!resolveDevices(lib, a.devices, chosen, err))
        return ExitUsage;
    std::optional<Calibration> calibration;
    if (!a.calibration.empty()) {
        CalibrationLoad cal = loadCalibration(a.calibration);
        for (const Diagnostic& d : cal.diagnostics)
            err << toString(d) << "\n";
        if (!cal.calibration)
            return ExitUsage;
        calibration = std::move(cal.calibration);
    }
    if (const auto code = checkDevicesNamed(a, chosen, calibration, err))
        return *code;
    PlanSettings& plan = a.plan;
    plan.calibration = calibration ? &*calibration : nullptr;
    plan.calibrationLabel = a.calibration;
    const Plan p = planServing(*load.model, plan, chosen);
    if (!p.error.empty()) {
        err << "roofline-cli: " << p.error << "\n";
        return ExitUsage;
    }
    const std::string& format = a.common.format;
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
