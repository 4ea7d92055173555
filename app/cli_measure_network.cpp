// roofline-cli measure --network: every row of the configured network run alone on this CPU with
// oneDNN, written as a plain measurement CSV, and held at once against this machine's roofline
// (its ceilings measured first when the device file "this-machine" is missing).
#include "cli_commands.h"

#include "base/format.h"
#include "devices/device_loader.h"
#include "engine/roofline.h"
#include "io/measurements.h"
#include "measure/network_run.h"
#include "open/analyses.h"

#include <chrono>
#include <cmath>
#include <ctime>
#include <fstream>

namespace rfx {

bool RowProgress::operator()(double fraction, const std::string& row)
{
    if (row != shown && !row.empty()) {
        err << "\r  " << int(fraction * 100) << " % " << row << std::string(24, ' ') << std::flush;
        printed = true;
    }
    shown = row;
    return true;
}

void RowProgress::finish()
{
    if (printed)
        err << "\r" << std::string(72, ' ') << "\r";
}

bool writeMeasurement(const NetworkMeasurement& m, const std::string& csv, const std::string& output, std::ostream& out,
    std::ostream& err, std::ostream*& report)
{
    report = output == "-" ? &err : &out; // the CSV on stdout leaves the summary to stderr
    if (output == "-")
        out << csv;
    else if (!writeFileAtomically(output, csv, err))
        return false;
    *report << measuredLine(m) << (output == "-" ? "" : "; wrote " + output) << "\n";
    for (const RowMeasurement& r : m.rows)
        if (!r.measured)
            *report << "  not run: " << r.layer << " (" << r.op << "): " << r.skipped << "\n";
    if (m.clockBefore > 0 && m.clockAfter > 0)
        *report << "clock under load " << formatSI(m.clockBefore, "Hz") << " before the rows, "
                << formatSI(m.clockAfter, "Hz") << " after\n";
    if (!m.noise.empty())
        *report << "warning: noisy measurement: " << m.noise << "\n";
    return true;
}

int runMeasureNetwork(
    const std::vector<std::string>& args, std::ostream& out, std::ostream& err, const std::filesystem::path& exeDir)
{
    ConfigOptions options;
    CommonOptions common;
    std::string output = "-";
    bool quick = false;
    for (size_t i = 0; i < args.size(); ++i) {
        const SplitOption split = splitOption(args[i]);
        if ((split.name == "--quick" || split.name == "--full") && !split.value) {
            quick = split.name == "--quick";
            continue;
        }
        if (split.name == "--output") {
            if (!split.value && i + 1 >= args.size())
                return usageError(err, "--output: missing value");
            output = split.value ? *split.value : args[++i];
            continue;
        }
        if (auto code = takeOption(args, i, options, common, "measure --network", err))
            return *code;
    }
    // What cannot be measured is said before anything is measured (core/measure/network_run.h).
    const NetworkRun run = NetworkRun::prepare(options.config);
    if (!run.buildError.empty()) {
        err << configFailure(options.config, run.buildError) << "\n";
        return ExitUsage;
    }
    if (!run.refusal.empty()) {
        err << "roofline-cli: measure: " << run.refusal << "\n";
        return ExitUsage;
    }
    // This CPU's ceilings: the device the measurement is held against, measured first when missing
    // or measured at another clock than the clock under load now (ceilingsFirst).
    if (options.devices.empty()) {
        const DeviceLibrary lib = loadLibrary(common, exeDir, err);
        const Device* mine = lib.find("this-machine");
        std::vector<std::string> again = quick ? std::vector<std::string> { "--quick" } : std::vector<std::string> {};
        if (const auto why = ceilingsFirst(mine)) {
            err << "roofline-cli: measure: " << *why << "\n";
            if (mine && mine->tdpWatts > 0) { // the user's figure stays
                again.push_back("--tdp-w");
                again.push_back(formatNumber3(mine->tdpWatts));
            }
            if (const int code = runMeasure(again, err, err))
                return code;
        }
        options.devices = { "this-machine" };
    }
    std::vector<Device> chosen;
    if (auto code = chooseDevices(options, common, exeDir, err, chosen, true))
        return *code;
    const LayerBenchOptions bench = quick ? LayerBenchOptions::quickMode() : LayerBenchOptions::fullMode();
    RowProgress progress { err };
    const NetworkMeasurement m
        = run.run(bench, [&](double fraction, const std::string& row) { return progress(fraction, row); });
    progress.finish();
    if (!m.error.empty()) {
        err << "roofline-cli: measure: " << m.error << "\n";
        return ExitUsage;
    }
    const std::string csv = run.csv(m);
    std::ostream* said = nullptr;
    if (!writeMeasurement(m, csv, output, out, err, said))
        return ExitFailure;
    std::ostream& report = *said;
    // Held against this machine's roofline, as `roofline-cli compare` would.
    AnalysisOutcome outcome = analyzeConfig(options.config, chosen);
    const MeasurementSet set = parseMeasurements(csv, output == "-" ? "measurement" : output);
    if (outcome.report && set.ok())
        report << comparisonToTable(
            compareMeasurements(set, outcome.report->results.front()), outcome.report->results.front(), set);
    return out ? ExitOk : ExitFailure;
}

} // namespace rfx
