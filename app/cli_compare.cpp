// roofline-cli compare: measured layer times against the model's bounds on one device.
#include "cli_commands.h"

#include "engine/roofline.h"
#include "io/measurements.h"

namespace rfx {

int runCompare(
    const std::vector<std::string>& args, std::ostream& out, std::ostream& err, const std::filesystem::path& exeDir)
{
    ConfigOptions options;
    CommonOptions common;
    std::string file, calibration;
    std::vector<std::string> files;
    for (size_t i = 0; i < args.size(); ++i) {
        if (!args[i].starts_with("--")) {
            files.push_back(args[i]);
            file = files.front();
            continue;
        }
        if (auto code = takeCalibrationOption(args, i, calibration, err)) {
            if (*code != ExitOk)
                return *code;
            continue;
        }
        if (auto code = takeOption(args, i, options, common, "compare", err))
            return *code;
    }
    if (file.empty())
        return usageError(err, "compare: which measurement file? (roofline-cli compare FILE [options])");
    if (common.format != "table" && common.format != "csv")
        return usageError(err, "--format: expected table or csv, got '" + common.format + "'");
    if (files.size() > 1) // language models' measurements at several settings: a line each
        return compareLlmFiles(files, options, common, calibration, exeDir, out, err);
    MeasuredRun run;
    std::string llmError; // a language model's measurement (measure --llm): the model its header names
    const std::optional<LlmMeasureHeader> llm = llmMeasurementOf(file, llmError);
    if (!llmError.empty()) {
        err << "roofline-cli: compare: " << llmError << "\n";
        return ExitUsage;
    }
    if (auto code = llm ? compareLlmMeasurementFile(file, *llm, options, common, calibration, exeDir, err, run)
                        : compareMeasurementFile(file, options, common, calibration, exeDir, err, run))
        return *code;
    const DeviceResult& r = run.report.results.front();
    const Comparison& c = run.comparison;
    const MeasurementSet& set = run.set;
    out << (common.format == "csv" ? comparisonToCsv(c, r) : comparisonToTable(c, r, set));
    if (common.format != "csv" && !set.noise.empty()) // the file's own verdict on its run, beside its figures
        out << "note: " << file << " was measured while the machine was noisy, by its own header: " << set.noise
            << "\n";
    return out ? ExitOk : ExitFailure;
}

} // namespace rfx
