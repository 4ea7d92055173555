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

int runLlm(const std::vector<std::string>& args, std::ostream& out, std::ostream& err, const std::filesystem::path& exeDir)
{
    CommonOptions common;
    LlmOptions llm;
    LlmSettings& s = llm.settings;
    std::string model;
    std::vector<std::string> devices;
    std::optional<LlmSweepAxis> sweep;
    std::string calibration;
    SpeculationOptions speculation;
    for (size_t i = 0; i < args.size(); ++i) {
        if (const OptionStatus st = applyCommonOrLlmOption(args, i, common, llm, err); st != OptionStatus::NotConfigOption) {
            if (st == OptionStatus::Error)
                return ExitUsage;
            continue;
        }
        if (const auto code = takeCalibrationOption(args, i, calibration, err)) {
            if (*code != ExitOk)
                return *code;
            continue;
        }
        if (const auto code = takeSpeculationOption(args, i, speculation, err)) {
            if (*code != ExitOk)
                return *code;
            continue;
        }
        const SplitOption split = splitOption(args[i]);
        auto value = [&]() -> std::optional<std::string> {
            if (split.value)
                return split.value;
            if (i + 1 < args.size())
                return args[++i];
            return std::nullopt;
        };
        if (split.name == "--model") {
            const auto v = value();
            if (!v)
                return usageError(err, "--model: missing value (a built-in language model, config.json, a directory, a .gguf "
                                       "file or an ONNX decoder)");
            model = *v;
        } else if (split.name == "--sweep") {
            const auto v = value();
            sweep = v ? parseEnum(kLlmSweepAxisWords, *v) : std::nullopt;
            if (!sweep)
                return usageError(err, "--sweep: expected context or batch");
        } else if (split.name == "--device") {
            const auto v = value();
            if (!v)
                return usageError(err, "--device: missing value (an id from 'roofline-cli devices', or all)");
            devices.push_back(*v);
        } else
            return usageError(err, "unknown option for 'llm': " + args[i]);
    }
    if (model.empty())
        return usageError(err, "llm: --model is required (a built-in language model, see 'roofline-cli networks', "
                               "a config.json, a model directory, a .gguf file or an ONNX decoder with past keys and values)");
    const std::string& format = common.format;
    if (format != "table" && format != "json" && format != "csv" && format != "markdown" && format != "latex")
        return usageError(err, "--format: expected table, json, csv, markdown or latex for 'llm', got '" + format + "'");

    if (const auto code = finishSpeculation(speculation, err))
        return *code;
    if (speculation.model && (sweep || !calibration.empty() || (format != "table" && format != "json")))
        return usageError(err, "--draft: speculative decoding's round is printed with --format table or json, "
                               "without --sweep and --calibration");
    LlmLoad load = loadLanguageModel(model);
    if (!load.model) {
        err << "roofline-cli: cannot use the language model: " << load.error << "\n";
        return ExitUsage;
    }
    if (!llm.weightsGiven && llmStoresTypes(*load.model))
        s.weightBits = 0; // a weight file: its own types
    if (load.model->onnx)
        for (const std::string& o : llm.widthOptions) // said once each, in every format
            load.model->diagnostics.push_back({ Severity::Info, model, o,
                "not used: an ONNX decoder is analysed as its graph stores it (its weights' and cache's widths, its "
                "attention's operators); the option is for built-in models, config.json and GGUF" });
    if (s.weightBits == 0 && !llmStoresTypes(*load.model)) {
        err << "roofline-cli: --weights-bits file: " << model
            << " gives no tensor types (a built-in model or a config.json without safetensors beside it); give 4, 8, 16 or 32\n";
        return ExitUsage;
    }
    if (auto e = validateLlmSettings(s))
        return usageError(err, *e);
    if (devices.empty())
        devices.push_back("h100-sxm");
    const DeviceLibrary lib = loadLibrary(common, exeDir, err);
    std::vector<Device> chosen;
    if (!resolveDevices(lib, devices, chosen, err))
        return ExitUsage;
    const LlmOutcome outcome = analyzeLlm(*load.model, s, chosen);
    if (!outcome.analysis) {
        err << "roofline-cli: " << outcome.error << "\n";
        return ExitUsage;
    }
    const LlmAnalysis& a = *outcome.analysis;
    if (sweep) {
        if (format != "table" && format != "json" && format != "csv")
            return usageError(err, "--sweep: give --format table, csv or json");
        const LlmSweep swept = sweepLlm(*load.model, a, chosen, *sweep);
        if (!swept.error.empty()) {
            err << "roofline-cli: " << swept.error << "\n";
            return ExitUsage;
        }
        out << (format == "json" ? llmSweepToJson(swept, llmSettingsLine(a)) + "\n"
                : format == "csv" ? llmSweepToCsv(swept)
                                  : llmSweepToTable(swept, llmSettingsLine(a)));
        return ExitOk;
    }
    if (!calibration.empty()) {
        // A calibration fitted on this machine's measured rows (measure --llm, calibrate): TTFT and TPOT as
        // its kernels run them, beside the bounds.
        if (format != "table")
            return usageError(err, "--calibration: the calibrated figures are lines under the table: give --format table");
        LlmAnalysis calibrated = a;
        for (Report* r : { &calibrated.prefill, &calibrated.decode })
            if (auto code = applyCalibrationFile(calibration, *r, err))
                return *code;
        out << llmToTable(a) << "\ncalibrated (" << calibration << "), beside the bounds:\n";
        for (size_t d = 0; d < a.figures.size(); ++d) {
            const double p = calibrated.prefill.results[d].totals.calibratedTime, t = calibrated.decode.results[d].totals.calibratedTime;
            if (p < 0 || t < 0)
                continue;
            const LlmDeviceFigures& f = a.figures[d];
            const double ttft = p + f.prefillLinkTime, tpot = t + f.decodeLinkTime;
            out << "  " << f.device << ": TTFT " << formatTime(ttft) << " (bound " << formatTime(f.ttft) << "), TPOT " << formatTime(tpot)
                << " (bound " << formatTime(f.tpot) << "): " << formatNumber3(1 / tpot) << " tokens/s per sequence, "
                << formatNumber3(s.batch / tpot) << " for the batch\n";
        }
        return ExitOk;
    }
    if (speculation.model) {
        // The decode step as rounds: K draft steps and a verification of K + 1 tokens a sequence.
        const Speculation spec = speculation.speculation();
        std::vector<SpeculativeRow> rows;
        for (size_t d = 0; d < chosen.size(); ++d)
            rows.push_back({ chosen[d].id, a.figures[d].tpot, speculativeDecode(*load.model, s, spec, chosen[d]) });
        const std::string draft = speculation.model->arch.title.empty() ? speculation.draft : speculation.model->arch.title;
        if (format == "json") {
            nlohmann::json j = nlohmann::json::parse(llmToJson(a));
            j["speculative"] = speculativeToJson(draft, spec, rows);
            out << j.dump(2) << "\n";
        } else
            out << llmToTable(a) << speculativeToTable(draft, spec, rows, s.batch);
        return ExitOk;
    }
    if (format == "json")
        out << llmToJson(a) << "\n";
    else if (format == "csv")
        out << llmToCsv(a);
    else if (format == "markdown")
        out << llmToMarkdown(a);
    else if (format == "latex")
        out << llmToLatex(a);
    else
        out << llmToTable(a);
    if (format != "table")
        for (const Diagnostic& n : a.notes)
            err << toString(n) << "\n";
    return ExitOk;
}

} // namespace rfx
