// roofline-cli calibrate: fits this machine's kernels against the roofline (measured ~ overhead + bound /
// efficiency per operator class and bound side) from a measurement file, and writes the calibration file
// that analyze, compare and the window apply with --calibration / View > Calibrated times.
#include "cli_commands.h"

#include "base/format.h"
#include "engine/roofline.h"
#include "io/calibration_file.h"
#include "io/llm_options.h"
#include "io/measurements.h"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <ctime>
#include <fstream>
#include <optional>
#include <sstream>

namespace rfx {

std::optional<int> takeCalibrationOption(
    const std::vector<std::string>& args, size_t& i, std::string& file, std::ostream& err)
{
    const SplitOption split = splitOption(args[i]);
    if (split.name != "--calibration")
        return std::nullopt;
    if (!split.value && i + 1 >= args.size())
        return usageError(err, "--calibration: which calibration file? (from roofline-cli calibrate)");
    file = split.value ? *split.value : args[++i];
    return ExitOk;
}

std::optional<int> applyCalibrationFile(const std::string& file, Report& report, std::ostream& err)
{
    if (file.empty())
        return std::nullopt;
    const CalibrationLoad load = loadCalibration(file);
    for (const Diagnostic& d : load.diagnostics)
        err << toString(d) << "\n";
    if (!load.calibration)
        return ExitUsage;
    if (applyCalibration(report, *load.calibration, file) == 0) {
        err << "roofline-cli: " << file << ": device: the calibration is for '" << load.calibration->deviceId
            << "', which is not among the devices analysed (add --device " << load.calibration->deviceId << ")\n";
        return ExitUsage;
    }
    return std::nullopt;
}

std::optional<std::vector<std::string>> configurationWords(const std::string& file, bool& readable)
{
    std::ifstream in(file);
    readable = bool(in);
    std::string line;
    for (int n = 0; in && n < 20 && std::getline(in, line) && line.starts_with("#"); ++n) {
        static const std::string key = "# configuration:";
        if (!line.starts_with(key))
            continue;
        std::istringstream words(line.substr(key.size()));
        std::vector<std::string> args;
        for (std::string w; words >> w;)
            args.push_back(w);
        return args;
    }
    return std::nullopt;
}

std::optional<int> configurationOfMeasurement(
    const std::string& file, ConfigOptions& options, CommonOptions& common, std::ostream& err)
{
    bool readable = false;
    const std::optional<std::vector<std::string>> words = configurationWords(file, readable);
    if (!readable) { // a file's problem, not the command line's: one line, no usage
        err << "roofline-cli: calibrate: " << file << ": cannot be read (" << std::strerror(errno) << ")\n";
        return ExitUsage;
    }
    if (words) {
        const std::vector<std::string>& args = *words;
        for (size_t i = 0; i < args.size(); ++i)
            if (auto code = takeOption(args, i, options, common, "calibrate", err)) {
                err << "roofline-cli: calibrate: " << file
                    << ": its '# configuration:' line is not one this version reads\n";
                return code;
            }
        return std::nullopt;
    }
    err << "roofline-cli: calibrate: " << file
        << ": no '# configuration:' line in its header, so its network is not known: "
           "give it first, with its configuration options, or measure it with roofline-cli measure --network\n";
    return ExitUsage;
}

std::ostream* writeCalibration(const Calibration& cal, const std::string& output, std::ostream& out, std::ostream& err)
{
    const std::string doc = calibrationToJson(cal);
    if (output == "-")
        out << doc;
    else if (!writeFileAtomically(output, doc, err))
        return nullptr;
    return output == "-" ? &err : &out;
}

void sayHowToApplyLlm(std::ostream& report, const std::string& output, const std::string& model,
    const LlmSettings& settings, const std::string& deviceId)
{
    if (output == "-")
        return;
    report << "wrote " << output << "; apply it with: roofline-cli llm --model " << model;
    for (const std::string& a : llmSettingsToArgs(settings))
        report << ' ' << a;
    report << " --device " << deviceId << " --calibration " << output << "\n";
}

namespace {

// A fit carries the noise of the runs it is fitted on into every prediction made from it.
void warnIfNoisy(std::ostream& err, const std::string& measured, const MeasurementSet& its, bool llm)
{
    if (!its.noise.empty())
        err << "warning: " << measured << ": measured while the machine was noisy, by its own header (\"" << its.noise
            << "\"): the fit carries that into every prediction; measure it again when the machine is quiet"
            << (llm ? " (measure --llm --keep-fastest adds a pass to the file)" : "") << "\n";
}

// calibrate's command line: the measurement file, any further ones, --output and the configuration.
struct CalibrateArgs {
    ConfigOptions options;
    CommonOptions common;
    std::string file, output;
    std::vector<std::string> extra; ///< further measurement files, each of the configuration its header names
};

std::optional<int> readCalibrateArgs(const std::vector<std::string>& args, CalibrateArgs& a, std::ostream& err)
{
    for (size_t i = 0; i < args.size(); ++i) {
        if (!args[i].starts_with("--") && a.file.empty()) {
            a.file = args[i];
            continue;
        }
        if (!args[i].starts_with("--")) {
            a.extra.push_back(args[i]);
            continue;
        }
        const SplitOption split = splitOption(args[i]);
        if (split.name == "--output") {
            if (!split.value && i + 1 >= args.size())
                return usageError(err, "--output: missing value");
            a.output = split.value ? *split.value : args[++i];
            continue;
        }
        if (auto code = takeOption(args, i, a.options, a.common, "calibrate", err))
            return *code;
    }
    if (a.file.empty())
        return usageError(err,
            "calibrate: which measurement file? (roofline-cli calibrate MEASUREMENTS [MORE...] --device ID --output "
            "CAL.json)");
    if (a.output.empty())
        return usageError(
            err, "calibrate: --output: where to write the calibration (a file, or - for standard output)");
    if (a.options.devices.empty())
        return usageError(
            err, "calibrate: --device: which device's roofline the measurements ran on (for this CPU: this-machine)");
    return std::nullopt;
}

// Further files (the class probes beside a network, README "Calibration"): each analysed in the
// configuration its "# configuration:" line names, on the same device; all rows fitted together.
std::optional<int> fitWithMoreFiles(const CalibrateArgs& a, const MeasuredRun& run, const std::filesystem::path& exeDir,
    std::ostream& err, Calibration& cal)
{
    std::vector<CalibrationSample> samples = calibrationSamples(run.comparison, run.report.results.front());
    for (const std::string& more : a.extra) {
        ConfigOptions its;
        its.devices = a.options.devices;
        CommonOptions itsCommon = a.common;
        if (auto code = configurationOfMeasurement(more, its, itsCommon, err))
            return *code;
        MeasuredRun other;
        if (auto code = compareMeasurementFile(more, its, itsCommon, {}, exeDir, err, other))
            return *code;
        warnIfNoisy(err, more, other.set, false);
        const std::vector<CalibrationSample> itsSamples
            = calibrationSamples(other.comparison, other.report.results.front());
        samples.insert(samples.end(), itsSamples.begin(), itsSamples.end());
        cal.measurements += " + " + more;
    }
    cal.groups = fitCalibration(samples).groups;
    return std::nullopt;
}

// The fit, and how it does on the rows it was fitted on (held-out work: compare --calibration).
void reportFit(std::ostream& report, const Calibration& cal, const MeasuredRun& run, const std::string& output)
{
    report << calibrationToTable(cal);
    Report calibrated = run.report;
    applyCalibration(calibrated, cal, output == "-" ? "the fit" : output);
    const Comparison fitted = compareMeasurements(run.set, calibrated.results.front());
    const Comparison& c = run.comparison;
    if (fitted.measuredTotal > 0)
        report << "on the rows fitted (" << fitted.layers.size() << " of " << run.report.results.front().layers.size()
               << "): measured " << formatTime(fitted.measuredTotal) << ", bound " << formatTime(fitted.boundTotal)
               << " (" << formatPercent(fitted.boundTotal / fitted.measuredTotal) << " of it reached), calibrated "
               << formatTime(fitted.calibratedTotal) << " ("
               << formatSignedPercent(fitted.calibratedTotal / fitted.measuredTotal - 1) << ")\n";
    if (!c.unmatched.empty())
        report << c.unmatched.size() << " measured row(s) did not map to a layer and were not fitted\n";
}

} // namespace

int runCalibrate(
    const std::vector<std::string>& args, std::ostream& out, std::ostream& err, const std::filesystem::path& exeDir)
{
    for (const std::string& a : args) // a language model's throughput, measured elsewhere: no file to read
        if (a.starts_with("--measured-tokens-per-s") || a.starts_with("--measured-prefill-tokens-per-s"))
            return runCalibrateThroughput(args, out, err, exeDir);
    CalibrateArgs a;
    if (auto code = readCalibrateArgs(args, a, err))
        return *code;
    const ConfigOptions& options = a.options;
    const CommonOptions& common = a.common;
    const std::string &file = a.file, &output = a.output;
    const std::vector<std::string>& extra = a.extra;
    MeasuredRun run;
    std::string llmError;
    const std::optional<LlmMeasureHeader> llm = llmMeasurementOf(file, llmError);
    if (!llmError.empty()) {
        err << "roofline-cli: calibrate: " << llmError << "\n";
        return ExitUsage;
    }
    if (llm && !extra.empty())
        return usageError(
            err, "calibrate: a language model's measurement (measure --llm) is fitted alone: give no other file");
    if (auto code = llm ? compareLlmMeasurementFile(file, *llm, options, common, {}, exeDir, err, run)
                        : compareMeasurementFile(file, options, common, {}, exeDir, err, run))
        return *code;
    const MeasurementSet& set = run.set;
    const DeviceResult& r = run.report.results.front();
    const Comparison& c = run.comparison;
    // Fitting one network's times on another's rows gives a calibration that looks fine and is not:
    // rows that map only by order mean the names did not match, and the configuration may differ.
    if (c.mapping == "by order")
        err << "warning: " << file << ": the measured rows' names are not the layers of " << run.report.network
            << ", so they were mapped by order; check that the measurement is of this configuration (a measurement"
               " CSV names it in its '# configuration:' line)\n";
    warnIfNoisy(err, file, set, llm.has_value());
    Calibration cal;
    try {
        cal = calibrateFrom(c, r, options.config, set.configuration, file, utcNow("%Y-%m-%d"), run.probeSamples);
    } catch (const std::invalid_argument& e) {
        err << "roofline-cli: calibrate: " << file << ": " << e.what() << " (mapped " << c.mapping << ": "
            << c.layers.size() << " of " << set.rows.size() << " measured rows matched a layer of "
            << run.report.network << ")\n";
        return ExitFailure;
    }
    // Further files (the class probes beside a network, README "Calibration"): each analysed in the
    // configuration its "# configuration:" line names, on the same device; all rows fitted together.
    if (!extra.empty())
        if (auto code = fitWithMoreFiles(a, run, exeDir, err, cal))
            return *code;
    std::ostream* written = writeCalibration(cal, output, out, err);
    if (!written)
        return ExitFailure;
    std::ostream& report = *written;
    reportFit(report, cal, run, output);
    if (llm)
        sayHowToApplyLlm(report, output, llm->model, llm->settings, cal.deviceId);
    else if (output != "-")
        report << "wrote " << output << "; apply it with: roofline-cli analyze --device " << cal.deviceId
               << " --calibration " << output << "\n";
    return report ? ExitOk : ExitFailure;
}

} // namespace rfx
