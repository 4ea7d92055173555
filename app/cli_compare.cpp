// roofline-cli compare: measured layer times against the model's bounds on one device.
#include "cli_commands.h"

#include "measurements.h"
#include "roofline.h"

namespace rfx {

int runCompare(const std::vector<std::string>& args, std::ostream& out, std::ostream& err, const std::filesystem::path& exeDir)
{
    ConfigOptions options;
    CommonOptions common;
    std::string file;
    for (size_t i = 0; i < args.size(); ++i) {
        if (!args[i].starts_with("--") && file.empty()) {
            file = args[i];
            continue;
        }
        if (auto code = takeOption(args, i, options, common, "compare", err))
            return *code;
    }
    if (file.empty())
        return usageError(err, "compare: which measurement file? (roofline-cli compare FILE [options])");
    if (common.format != "table" && common.format != "csv")
        return usageError(err, "--format: expected table or csv, got '" + common.format + "'");
    const MeasurementSet set = loadMeasurements(file);
    for (const Diagnostic& d : set.diagnostics)
        err << toString(d) << "\n";
    if (!set.ok())
        return ExitFailure;
    std::vector<Device> chosen;
    if (auto code = chooseDevices(options, common, exeDir, err, chosen, true))
        return *code;
    AnalysisOutcome outcome = analyzeConfig(options.config, chosen);
    if (!outcome.report) {
        err << configFailure(options.config, outcome.error) << "\n";
        return ExitUsage;
    }
    const DeviceResult& r = outcome.report->results.front();
    const Comparison c = compareMeasurements(set, r);
    out << (common.format == "csv" ? comparisonToCsv(c, r) : comparisonToTable(c, r, set));
    return out ? ExitOk : ExitFailure;
}

} // namespace rfx
