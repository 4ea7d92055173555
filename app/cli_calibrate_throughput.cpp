// roofline-cli calibrate --measured-tokens-per-s X (issue 50 item 3): a language model's calibration
// from the throughput a benchmark tool printed at a model, batch, context and device, with no
// measurement of its rows (core/llm/llm_calibrate.h).
#include "cli_commands.h"

#include "base/format.h"
#include "base/version.h"
#include "io/llm_options.h"
#include "llm/llm_calibrate.h"
#include "llm/llm_files.h"

#include <cmath>

namespace rfx {

int runCalibrateThroughput(
    const std::vector<std::string>& args, std::ostream& out, std::ostream& err, const std::filesystem::path& exeDir)
{
    CommonOptions common;
    LlmOptions llm;
    LlmSettings& s = llm.settings;
    std::string model, device, output;
    double decodeRate = 0, prefillRate = 0;
    for (size_t i = 0; i < args.size(); ++i) {
        if (const OptionStatus st = applyCommonOrLlmOption(args, i, common, llm, err);
            st != OptionStatus::NotConfigOption) {
            if (st == OptionStatus::Error)
                return ExitUsage;
            continue;
        }
        if (!args[i].starts_with("--"))
            return usageError(
                err, "calibrate: " + args[i] + ": give a measurement file or --measured-tokens-per-s, not both");
        const SplitOption split = splitOption(args[i]);
        const std::optional<std::string> v = split.value ? split.value
            : i + 1 < args.size()                        ? std::optional(args[++i])
                                                         : std::nullopt;
        if (!v)
            return usageError(err, split.name + ": missing value");
        auto rate = [&](double& into) {
            char* end = nullptr;
            into = std::strtod(v->c_str(), &end);
            return end != v->c_str() && *end == '\0' && std::isfinite(into) && into > 0 && into < 1e12;
        };
        if (split.name == "--measured-tokens-per-s") {
            if (!rate(decodeRate))
                return usageError(err,
                    "--measured-tokens-per-s: expected the generated tokens a second of the whole batch, a "
                    "positive number, got '"
                        + *v + "'");
        } else if (split.name == "--measured-prefill-tokens-per-s") {
            if (!rate(prefillRate))
                return usageError(err,
                    "--measured-prefill-tokens-per-s: expected the prompt tokens a second of the whole batch, "
                    "a positive number, got '"
                        + *v + "'");
        } else if (split.name == "--model")
            model = *v;
        else if (split.name == "--device")
            device = *v;
        else if (split.name == "--output")
            output = *v;
        else
            return usageError(err, "unknown option for 'calibrate --measured-tokens-per-s': " + args[i]);
    }
    if (model.empty())
        return usageError(err, "calibrate: --model: which language model the throughput was measured on");
    if (device.empty())
        return usageError(err, "calibrate: --device: which device the throughput was measured on");
    if (output.empty())
        return usageError(
            err, "calibrate: --output: where to write the calibration (a file, or - for standard output)");
    LlmLoad load = loadLanguageModel(model);
    if (!load.model) {
        err << "roofline-cli: calibrate: cannot use the language model: " << load.error << "\n";
        return ExitUsage;
    }
    if (!llm.weightsGiven && llmStoresTypes(*load.model))
        s.weightBits = 0; // a weight file: its own types
    if (auto e = validateLlmSettings(s))
        return usageError(err, *e);
    const DeviceLibrary lib = loadLibrary(common, exeDir, err);
    std::vector<Device> chosen;
    if (!resolveDevices(lib, { device }, chosen, err))
        return ExitUsage;
    const LlmOutcome outcome = analyzeLlm(*load.model, s, { chosen.front() }, false);
    if (!outcome.analysis) {
        err << "roofline-cli: calibrate: " << outcome.error << "\n";
        return ExitUsage;
    }
    ThroughputFit fit = calibrationFromThroughput(*outcome.analysis, 0, decodeRate, prefillRate);
    if (!fit.calibration) {
        err << "roofline-cli: calibrate: " << fit.error << "\n";
        return ExitUsage;
    }
    Calibration& cal = *fit.calibration;
    cal.deviceName = chosen.front().name;
    cal.measurements = "measured " + formatNumber3(decodeRate) + " generated tokens/s"
        + (prefillRate > 0 ? ", " + formatNumber3(prefillRate) + " prompt tokens/s" : "");
    cal.fittedOn = "--model " + model;
    for (const std::string& a : llmSettingsToArgs(s))
        cal.fittedOn += " " + a;
    cal.created = utcNow("%Y-%m-%d");
    cal.tool = std::string("Roofline Explorer ") + kVersion;
    std::ostream* written = writeCalibration(cal, output, out, err);
    if (!written)
        return ExitFailure;
    std::ostream& report = *written;
    const LlmDeviceFigures& f = outcome.analysis->figures.front();
    report << outcome.analysis->model << " on " << cal.deviceName << ": bound TPOT " << formatTime(f.tpot) << " ("
           << formatNumber3(f.batchTokensPerSecond) << " tokens/s), TTFT " << formatTime(f.ttft) << "; measured "
           << formatNumber3(decodeRate) << " tokens/s (TPOT " << formatTime(s.batch / decodeRate) << ")";
    if (prefillRate > 0)
        report << ", prefill " << formatNumber3(prefillRate) << " tokens/s (TTFT "
               << formatTime(double(s.prompt) * s.batch / prefillRate) << ")";
    report << "\nefficiency: memory-bound rows " << formatPercent(fit.memoryEfficiency)
           << " of their roof, compute-bound rows " << formatPercent(fit.computeEfficiency) << "\n";
    for (const std::string& n : fit.notes)
        report << "note: " << n << "\n";
    sayHowToApplyLlm(report, output, model, s, cal.deviceId);
    return report ? ExitOk : ExitFailure;
}

} // namespace rfx
