// roofline-cli llm: a language model's prefill and decode on each device (core/llm): TTFT, TPOT,
// tokens per second, memory and whether it fits, per row of each phase.
#include "cli_commands.h"

#include "base/format.h"
#include "io/llm_options.h"
#include "io/llm_sweep_writer.h"
#include "io/llm_writer.h"
#include "io/options.h"
#include "io/speculative_writer.h"
#include "llm/llm_analysis.h"
#include "llm/llm_files.h"

#include <nlohmann/json.hpp>

#include <ostream>

namespace rfx {

namespace {

/// What llm's command line gives.
struct LlmArgs {
    CommonOptions common;
    LlmOptions llm;
    std::string model, calibration;
    std::vector<std::string> devices;
    std::optional<LlmSweepAxis> sweep;
    SpeculationOptions speculation;
};

/// The command line into `a`: nothing when it reads, else the exit (its message written).
std::optional<int> parseLlmArgs(const std::vector<std::string>& args, LlmArgs& a, std::ostream& err)
{
    for (size_t i = 0; i < args.size(); ++i) {
        if (const OptionStatus st = applyCommonOrLlmOption(args, i, a.common, a.llm, err);
            st != OptionStatus::NotConfigOption) {
            if (st == OptionStatus::Error)
                return ExitUsage;
            continue;
        }
        if (const auto code = takeCalibrationOption(args, i, a.calibration, err)) {
            if (*code != ExitOk)
                return code;
            continue;
        }
        if (const auto code = takeSpeculationOption(args, i, a.speculation, err)) {
            if (*code != ExitOk)
                return code;
            continue;
        }
        const SplitOption split = splitOption(args[i]);
        std::optional<std::string> v = split.value;
        if (!v && i + 1 < args.size()
            && (split.name == "--model" || split.name == "--sweep" || split.name == "--device"))
            v = args[++i];
        if (split.name == "--model") {
            if (!v)
                return usageError(err,
                    "--model: missing value (a built-in language model, config.json, a directory, a .gguf "
                    "file or an ONNX decoder)");
            a.model = *v;
        } else if (split.name == "--sweep") {
            a.sweep = v ? parseEnum(kLlmSweepAxisWords, *v) : std::nullopt;
            if (!a.sweep)
                return usageError(err, "--sweep: expected context or batch");
        } else if (split.name == "--device") {
            if (!v)
                return usageError(err, "--device: missing value (an id from 'roofline-cli devices', or all)");
            a.devices.push_back(*v);
        } else
            return usageError(err, "unknown option for 'llm': " + args[i]);
    }
    return std::nullopt;
}

/// What the options say together: nothing when they agree, else the exit (its message written).
std::optional<int> checkLlmArgs(LlmArgs& a, std::ostream& err)
{
    if (a.model.empty())
        return usageError(err,
            "llm: --model is required (a built-in language model, see 'roofline-cli networks', "
            "a config.json, a model directory, a .gguf file or an ONNX decoder with past keys and values)");
    const std::string& format = a.common.format;
    if (format != "table" && format != "json" && format != "csv" && format != "markdown" && format != "latex")
        return usageError(
            err, "--format: expected table, json, csv, markdown or latex for 'llm', got '" + format + "'");
    if (const auto code = finishSpeculation(a.speculation, err))
        return code;
    if (a.speculation.model && (a.sweep || !a.calibration.empty() || (format != "table" && format != "json")))
        return usageError(err,
            "--draft: speculative decoding's round is printed with --format table or json, "
            "without --sweep and --calibration");
    if (a.devices.empty())
        a.devices.push_back("h100-sxm");
    return std::nullopt;
}

/// The model's widths as the options and its file give them: nothing when they work, else the exit.
std::optional<int> settleWidths(LlmArgs& a, LlmModel& model, std::ostream& err)
{
    LlmSettings& s = a.llm.settings;
    if (!a.llm.weightsGiven && llmStoresTypes(model))
        s.weightBits = 0; // a weight file: its own types
    if (model.onnx)
        for (const std::string& o : a.llm.widthOptions) // said once each, in every format
            model.diagnostics.push_back({ Severity::Info, a.model, o,
                "not used: an ONNX decoder is analysed as its graph stores it (its weights' and cache's widths, its "
                "attention's operators); the option is for built-in models, config.json and GGUF" });
    if (s.weightBits == 0 && !llmStoresTypes(model)) {
        err << "roofline-cli: --weights-bits file: " << a.model
            << " gives no tensor types (a built-in model or a config.json without safetensors beside it); give 4, 8, "
               "16 or 32\n";
        return ExitUsage;
    }
    if (auto e = validateLlmSettings(s))
        return usageError(err, *e);
    return std::nullopt;
}

int writeSweep(const LlmArgs& a, const LlmModel& model, const LlmAnalysis& analysis, const std::vector<Device>& chosen,
    std::ostream& out, std::ostream& err)
{
    const std::string& format = a.common.format;
    if (format != "table" && format != "json" && format != "csv")
        return usageError(err, "--sweep: give --format table, csv or json");
    const LlmSweep swept = sweepLlm(model, analysis, chosen, *a.sweep);
    if (!swept.error.empty()) {
        err << "roofline-cli: " << swept.error << "\n";
        return ExitUsage;
    }
    out << (format == "json"  ? llmSweepToJson(swept, llmSettingsLine(analysis)) + "\n"
            : format == "csv" ? llmSweepToCsv(swept)
                              : llmSweepToTable(swept, llmSettingsLine(analysis)));
    return ExitOk;
}

/// A calibration fitted on this machine's measured rows (measure --llm, calibrate): TTFT and TPOT as its
/// kernels run them, beside the bounds.
int writeCalibrated(const LlmArgs& a, const LlmAnalysis& analysis, std::ostream& out, std::ostream& err)
{
    if (a.common.format != "table")
        return usageError(err, "--calibration: the calibrated figures are lines under the table: give --format table");
    LlmAnalysis calibrated = analysis;
    for (Report* r : { &calibrated.prefill, &calibrated.decode })
        if (auto code = applyCalibrationFile(a.calibration, *r, err))
            return *code;
    out << llmToTable(analysis) << "\ncalibrated (" << a.calibration << "), beside the bounds:\n";
    for (size_t d = 0; d < analysis.figures.size(); ++d) {
        const double p = calibrated.prefill.results[d].totals.calibratedTime,
                     t = calibrated.decode.results[d].totals.calibratedTime;
        if (p < 0 || t < 0)
            continue;
        const LlmDeviceFigures& f = analysis.figures[d];
        const double ttft = p + f.prefillLinkTime, tpot = t + f.decodeLinkTime;
        out << "  " << f.device << ": TTFT " << formatTime(ttft) << " (bound " << formatTime(f.ttft) << "), TPOT "
            << formatTime(tpot) << " (bound " << formatTime(f.tpot) << "): " << formatNumber3(1 / tpot)
            << " tokens/s per sequence, " << formatNumber3(a.llm.settings.batch / tpot) << " for the batch\n";
    }
    return ExitOk;
}

/// The decode step as rounds: K draft steps and a verification of K + 1 tokens a sequence.
int writeSpeculative(const LlmArgs& a, const LlmModel& model, const LlmAnalysis& analysis,
    const std::vector<Device>& chosen, std::ostream& out)
{
    const Speculation spec = a.speculation.speculation();
    std::vector<SpeculativeRow> rows;
    for (size_t d = 0; d < chosen.size(); ++d)
        rows.push_back(
            { chosen[d].id, analysis.figures[d].tpot, speculativeDecode(model, a.llm.settings, spec, chosen[d]) });
    const std::string draft
        = a.speculation.model->arch.title.empty() ? a.speculation.draft : a.speculation.model->arch.title;
    if (a.common.format == "json") {
        nlohmann::json j = nlohmann::json::parse(llmToJson(analysis));
        j["speculative"] = speculativeToJson(draft, spec, rows);
        out << j.dump(2) << "\n";
    } else
        out << llmToTable(analysis) << speculativeToTable(draft, spec, rows, a.llm.settings.batch);
    return ExitOk;
}

} // namespace

int runLlm(
    const std::vector<std::string>& args, std::ostream& out, std::ostream& err, const std::filesystem::path& exeDir)
{
    LlmArgs a;
    if (const auto code = parseLlmArgs(args, a, err))
        return *code;
    if (const auto code = checkLlmArgs(a, err))
        return *code;
    LlmLoad load = loadLanguageModel(a.model);
    if (!load.model) {
        err << "roofline-cli: cannot use the language model: " << load.error << "\n";
        return ExitUsage;
    }
    if (const auto code = settleWidths(a, *load.model, err))
        return *code;
    const DeviceLibrary lib = loadLibrary(a.common, exeDir, err);
    std::vector<Device> chosen;
    if (!resolveDevices(lib, a.devices, chosen, err))
        return ExitUsage;
    const LlmOutcome outcome = analyzeLlm(*load.model, a.llm.settings, chosen);
    if (!outcome.analysis) {
        err << "roofline-cli: " << outcome.error << "\n";
        return ExitUsage;
    }
    const LlmAnalysis& analysis = *outcome.analysis;
    if (a.sweep)
        return writeSweep(a, *load.model, analysis, chosen, out, err);
    if (!a.calibration.empty())
        return writeCalibrated(a, analysis, out, err);
    if (a.speculation.model)
        return writeSpeculative(a, *load.model, analysis, chosen, out);
    const std::string& format = a.common.format;
    out << (format == "json"       ? llmToJson(analysis) + "\n"
            : format == "csv"      ? llmToCsv(analysis)
            : format == "markdown" ? llmToMarkdown(analysis)
            : format == "latex"    ? llmToLatex(analysis)
                                   : llmToTable(analysis));
    if (format != "table")
        for (const Diagnostic& n : analysis.notes)
            err << toString(n) << "\n";
    return ExitOk;
}

} // namespace rfx
