// roofline-cli tune: the sweep of batch, GPU count and clock, its Pareto front and recommendations.
#include "cli_commands.h"

#include "io/tune_options.h"
#include "io/tune_writer.h"
#include "open/analyses.h"

namespace rfx {

int runTune(
    const std::vector<std::string>& args, std::ostream& out, std::ostream& err, const std::filesystem::path& exeDir)
{
    ConfigOptions options;
    options.config.mode = Mode::Training; // tuning is about training steps unless --mode says otherwise
    CommonOptions common;
    TuneRanges ranges;
    ranges.batchMin = 1;
    Objective objective = Objective::Energy;
    for (size_t i = 0; i < args.size(); ++i) {
        std::string error;
        if (const OptionStatus st = applyTuneOption(args, i, ranges, objective, error);
            st != OptionStatus::NotConfigOption) {
            if (st == OptionStatus::Error)
                return usageError(err, error);
            continue;
        }
        if (auto code = takeOption(args, i, options, common, "tune", err))
            return *code;
    }
    if (common.format != "table" && common.format != "json" && common.format != "csv")
        return usageError(err, "--format: expected table, json or csv, got '" + common.format + "'");
    std::vector<Device> chosen;
    if (auto code = chooseDevices(options, common, exeDir, err, chosen, false))
        return *code;
    const TuneOutcome outcome = tune(options.config, chosen, ranges);
    if (!outcome.error.empty()) {
        err << "roofline-cli: tune: " << outcome.error << "\n";
        return ExitUsage;
    }
    if (common.format == "json")
        out << tuneToJson(outcome, options.config, ranges, objective);
    else if (common.format == "csv")
        out << tuneToCsv(outcome);
    else
        out << tuneToTable(outcome, options.config, objective);
    return out ? ExitOk : ExitFailure;
}

} // namespace rfx
