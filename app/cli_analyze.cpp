// roofline-cli analyze: the per-layer analysis of the configured network on each device, as a table, JSON, CSV,
// Markdown or LaTeX.
#include "cli_commands.h"

#include "engine/roofline.h"
#include "io/report_writer.h"
#include "open/analyses.h"

#include <ostream>

namespace rfx {

int runAnalyze(
    const std::vector<std::string>& args, std::ostream& out, std::ostream& err, const std::filesystem::path& exeDir)
{
    ConfigOptions options;
    CommonOptions common;
    std::string calibration;
    for (size_t i = 0; i < args.size(); ++i) {
        if (auto code = takeCalibrationOption(args, i, calibration, err)) {
            if (*code != ExitOk)
                return *code;
            continue;
        }
        if (auto code = takeOption(args, i, options, common, "analyze", err))
            return *code;
    }
    const TableFormat* format = tableFormatByName(common.format);
    if (!format)
        return usageError(err, "--format: expected " + tableFormatNames() + ", got '" + common.format + "'");
    std::vector<Device> chosen;
    if (auto code = chooseDevices(options, common, exeDir, err, chosen, false))
        return *code;

    AnalysisOutcome outcome = analyzeConfig(options.config, chosen);
    if (!outcome.report) {
        err << configFailure(options.config, outcome.error) << "\n";
        return ExitUsage;
    }
    if (auto code = applyCalibrationFile(calibration, *outcome.report, err))
        return *code;
    for (const Diagnostic& d : outcome.report->diagnostics)
        err << toString(d) << "\n";
    out << format->write(*outcome.report);
    return out ? ExitOk : ExitFailure;
}

} // namespace rfx
