#include "cli.h"

#include "device_loader.h"
#include "energy.h"
#include "tune_options.h"
#include "figure.h"
#include "format.h"
#include "measurements.h"
#include "microbench.h"
#include "networks.h"
#include "onnx_model.h"
#include "options.h"
#include "report_writer.h"
#include "roofline.h"
#include "tune_writer.h"
#include "version.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>

namespace rfx {

namespace {

struct Registered {
    std::string name;
    CliCommand command;
    std::string usage;
    std::string description;
};
std::vector<Registered>& registry()
{
    static std::vector<Registered> commands;
    return commands;
}

std::string usage()
{
    std::string u = "usage: roofline-cli analyze [configuration options] [--format table|json|csv|markdown|latex]\n"
                    "       roofline-cli devices [--format table|json]\n"
                    "       roofline-cli networks [--model FILE]... [--format table|json] [--format-help]\n"
                    "       roofline-cli tune [--objective time|energy|edp] [--batch A..B] [--gpus A..B] [--clock A..B]\n"
                    "                         [configuration options] [--format table|json|csv]\n"
                    "       roofline-cli compare MEASUREMENTS [configuration options] [--format table|csv]\n"
                    "       roofline-cli measure [--quick] [--tdp-w W] [--id ID] [--name NAME] [--output FILE|-]\n";
    for (const Registered& r : registry())
        u += "       roofline-cli " + r.usage + "\n";
    return u + "       roofline-cli --help | --version\n";
}

void printHelp(std::ostream& out)
{
    out << "roofline-cli " << kVersion
        << ": roofline cost analysis of a convolutional network on GPUs and CPUs.\n\n"
        << usage()
        << "\nCommands:\n"
           "  analyze                    per-layer FLOPs, bytes, intensity, bound and time per device\n"
           "  devices                    list the device library (shipped and user devices)\n"
           "  networks                   list the built-in networks; --model FILE: describe a model file (its\n"
           "                             inputs, what binds them, counts, operators); --format-help: the custom\n"
           "                             network format\n"
           "  tune                       sweep batch, GPU count and clock; Pareto front of time against energy\n"
           "                             and the configurations with least time, energy and energy x delay\n"
           "  compare                    measured layer times (plain CSV, ncu --csv, PyTorch trace) against the\n"
           "                             model's bounds on the first --device: efficiency, error, what did not map\n"
           "  measure                    micro-benchmark this machine's CPU (FMA peak per precision, cache and\n"
           "                             DRAM bandwidth) and write a device file to the user device folder\n";
    for (const Registered& r : registry())
        out << "  " << r.name << std::string(r.name.size() < 27 ? 27 - r.name.size() : 1, ' ') << r.description << "\n";
    out << "\nConfiguration options (analyze, export):\n"
        << configOptionsHelp()
        << (registry().empty() ? "" : "\nExport options (export):\n" + exportOptionsHelp())
        << "\nOther options:\n"
           "  --format FORMAT            table, json, csv, markdown or latex (default table; devices: table|json)\n"
           "  --devices-dir DIR          also load device files from DIR (overrides by id)\n"
           "  --help, --version\n"
           "\nUser devices in "
        << userDeviceDir().string()
        << " override shipped ones by id.\n"
           "JSON and CSV use SI base units: FLOP, byte, second, FLOP/s, byte/s.\n"
           "Exit status: 0 success, 2 bad usage or impossible configuration, 1 other failure.\n";
}

struct Common {
    std::string format = "table";
    std::vector<std::filesystem::path> extraDirs;
};

// Options every command shares; returns NotConfigOption when args[i] is not one of them.
OptionStatus applyCommonOption(const std::vector<std::string>& args, size_t& i, Common& c, std::string& error)
{
    const SplitOption split = splitOption(args[i]);
    const std::string arg = split.name;
    const bool hasInline = split.value.has_value();
    std::string value = split.value.value_or("");
    if (arg != "--format" && arg != "--devices-dir")
        return OptionStatus::NotConfigOption;
    if (!hasInline) {
        if (i + 1 >= args.size()) {
            error = arg + ": missing value";
            return OptionStatus::Error;
        }
        value = args[++i];
    }
    if (arg == "--format")
        c.format = value;
    else
        c.extraDirs.emplace_back(value);
    return OptionStatus::Consumed;
}

DeviceLibrary loadLibrary(const Common& common, const std::filesystem::path& exeDir, std::ostream& err)
{
    return loadCliDevices(common.extraDirs, exeDir, err);
}

int runDevices(const std::vector<std::string>& args, std::ostream& out, std::ostream& err, const std::filesystem::path& exeDir)
{
    Common common;
    for (size_t i = 0; i < args.size(); ++i) {
        std::string error;
        const OptionStatus s = applyCommonOption(args, i, common, error);
        if (s == OptionStatus::Error)
            return usageError(err, error);
        if (s == OptionStatus::NotConfigOption)
            return usageError(err, "devices: unknown option '" + args[i] + "'");
    }
    if (common.format != "table" && common.format != "json")
        return usageError(err, "--format: expected table or json for 'devices', got '" + common.format + "'");
    const DeviceLibrary lib = loadLibrary(common, exeDir, err);
    if (lib.devices.empty()) {
        err << "roofline-cli: no device files found in " << shippedDeviceDir(exeDir).string() << "\n";
        return ExitFailure;
    }
    out << (common.format == "json" ? devicesToJson(lib.devices) : devicesToTable(lib.devices));
    return ExitOk;
}

// Applies args[i] as a configuration or common option; the usage error's exit code when it is neither
// or its value is bad.
std::optional<int> takeOption(const std::vector<std::string>& args, size_t& i, ConfigOptions& options, Common& common,
    const char* command, std::ostream& err)
{
    std::string error;
    OptionStatus s = applyConfigOption(args, i, options, error);
    if (s == OptionStatus::NotConfigOption)
        s = applyCommonOption(args, i, common, error);
    if (s == OptionStatus::Error)
        return usageError(err, error);
    if (s == OptionStatus::NotConfigOption)
        return usageError(err, std::string(command) + ": unknown option '" + args[i] + "'");
    return std::nullopt;
}

// Checks the configuration, then picks the devices the options name (the RTX 2060 Super when none; only
// the first with `firstOnly`) from the shipped, extra and user folders; the exit code after saying why
// when either fails.
std::optional<int> chooseDevices(const ConfigOptions& options, const Common& common, const std::filesystem::path& exeDir,
    std::ostream& err, std::vector<Device>& chosen, bool firstOnly)
{
    if (auto problem = validate(options.config)) {
        err << "roofline-cli: impossible configuration: " << *problem << "\n";
        return ExitUsage;
    }
    // An ONNX model's fixed extents win over the options: say so rather than ignore them silently.
    if (isOnnxFile(options.config.model))
        if (const OnnxLoad load = cachedOnnxModel(options.config.model); load.model) {
            if (options.inputGiven && !load.model->imageBound())
                err << "roofline-cli: warning: --image does not apply: " << load.model->imageFixedReason() << "\n";
            if (options.config.batch != 1 && !load.model->batchBound())
                err << "roofline-cli: warning: --batch does not apply: " << load.model->batchFixedReason() << "\n";
        }
    const DeviceLibrary lib = loadLibrary(common, exeDir, err);
    if (lib.devices.empty()) {
        err << "roofline-cli: no device files found in " << shippedDeviceDir(exeDir).string() << "\n";
        return ExitFailure;
    }
    std::vector<std::string> ids = options.devices;
    if (ids.empty())
        ids.push_back("rtx-2060-super");
    if (firstOnly)
        ids.resize(1);
    if (!resolveDevices(lib, ids, chosen, err))
        return ExitUsage;
    return std::nullopt;
}

int runAnalyze(const std::vector<std::string>& args, std::ostream& out, std::ostream& err, const std::filesystem::path& exeDir)
{
    ConfigOptions options;
    Common common;
    for (size_t i = 0; i < args.size(); ++i)
        if (auto code = takeOption(args, i, options, common, "analyze", err))
            return *code;
    if (common.format != "table" && common.format != "json" && common.format != "csv" && common.format != "markdown"
        && common.format != "latex")
        return usageError(err, "--format: expected table, json, csv, markdown or latex, got '" + common.format + "'");
    std::vector<Device> chosen;
    if (auto code = chooseDevices(options, common, exeDir, err, chosen, false))
        return *code;

    AnalysisOutcome outcome = analyzeConfig(options.config, chosen);
    if (!outcome.report) {
        err << configFailure(options.config, outcome.error) << "\n";
        return ExitUsage;
    }
    for (const Diagnostic& d : outcome.report->diagnostics)
        err << toString(d) << "\n";
    if (common.format == "json")
        out << reportToJson(*outcome.report);
    else if (common.format == "csv")
        out << reportToCsv(*outcome.report);
    else if (common.format == "markdown")
        out << reportToMarkdown(*outcome.report);
    else if (common.format == "latex")
        out << reportToLatex(*outcome.report);
    else
        out << reportToTable(*outcome.report);
    return out ? ExitOk : ExitFailure;
}

int runTune(const std::vector<std::string>& args, std::ostream& out, std::ostream& err, const std::filesystem::path& exeDir)
{
    ConfigOptions options;
    options.config.mode = Mode::Training; // tuning is about training steps unless --mode says otherwise
    Common common;
    TuneRanges ranges;
    ranges.batchMin = 1;
    Objective objective = Objective::Energy;
    for (size_t i = 0; i < args.size(); ++i) {
        std::string error;
        if (const OptionStatus st = applyTuneOption(args, i, ranges, objective, error); st != OptionStatus::NotConfigOption) {
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

int runCompare(const std::vector<std::string>& args, std::ostream& out, std::ostream& err, const std::filesystem::path& exeDir)
{
    ConfigOptions options;
    Common common;
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

int runMeasure(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    MicrobenchOptions o;
    std::string id = "this-machine", name, output;
    double tdp = raplPackageWatts();
    bool tdpGiven = false;
    for (size_t i = 0; i < args.size(); ++i) {
        const SplitOption split = splitOption(args[i]);
        if (split.name == "--quick" && !split.value) {
            o.secondsPerTest = 0.05;
            o.repeats = 3;
            o.dramBytes = 192.0 * 1024 * 1024;
            continue;
        }
        if (split.name != "--tdp-w" && split.name != "--id" && split.name != "--name" && split.name != "--output")
            return usageError(err, "measure: unknown option '" + args[i] + "'");
        std::string value;
        if (split.value)
            value = *split.value;
        else if (i + 1 < args.size())
            value = args[++i];
        else
            return usageError(err, split.name + ": missing value");
        if (split.name == "--tdp-w") {
            char* end = nullptr;
            tdp = std::strtod(value.c_str(), &end);
            if (value.empty() || end != value.c_str() + value.size() || !(tdp > 0) || tdp > 10000)
                return usageError(err, "--tdp-w: expected the CPU's TDP in watts, got '" + value + "'");
            tdpGiven = true;
        } else if (split.name == "--id") {
            id = value;
        } else if (split.name == "--name") {
            name = value;
        } else {
            output = value;
        }
    }
    if (!(tdp > 0)) {
        tdp = 65;
        err << "roofline-cli: measure: the CPU's power limit is not readable here; tdp_w is set to 65 W (give --tdp-w W)\n";
    } else if (!tdpGiven) {
        err << "roofline-cli: measure: tdp_w from the RAPL package limit: " << tdp << " W\n";
    }
    const auto result = runMicrobenchmarks(o, [&](double fraction, const std::string& stage) {
        err << "\r  " << int(fraction * 100) << " % " << stage << std::string(24, ' ') << std::flush;
        return true;
    });
    err << "\n";
    if (!result) {
        err << "roofline-cli: measure: could not allocate the benchmark arrays\n";
        return ExitFailure;
    }
    const MicrobenchResult& r = *result;
    if (name.empty())
        name = r.cpuName + " (measured)";
    const std::string text = microbenchDeviceJson(r, id, name, tdp);
    const DeviceLoad check = parseDevice(text, id + ".json");
    if (!check.device) {
        for (const Diagnostic& d : check.diagnostics)
            err << toString(d) << "\n";
        return ExitFailure;
    }
    auto line = [&](const char* what, const BenchFigure& f, const char* unit) {
        out << "  " << what << formatSI(f.best, unit) << "  (spread over the repeats " << formatPercent(f.spread) << ")\n";
    };
    out << r.cpuName << ", " << r.threads << " threads, " << r.isa << ", measured in " << formatTime(r.seconds) << ":\n";
    line("FP32 peak      ", r.fp32, "FLOP/s");
    line("FP64 peak      ", r.fp64, "FLOP/s");
    line("L1 bandwidth   ", r.l1, "B/s");
    line("L2 bandwidth   ", r.l2, "B/s");
    line("DRAM triad     ", r.dram, "B/s");
    if (output == "-") {
        out << text;
        return out ? ExitOk : ExitFailure;
    }
    const std::filesystem::path target = output.empty() ? userDeviceDir() / (id + ".json") : std::filesystem::path(output);
    std::error_code ec;
    if (target.has_parent_path())
        std::filesystem::create_directories(target.parent_path(), ec);
    const std::filesystem::path tmp = target.string() + ".tmp";
    {
        std::ofstream f(tmp, std::ios::binary);
        f << text;
        if (!f) {
            err << "roofline-cli: measure: cannot write " << tmp.string() << "\n";
            return ExitFailure;
        }
    }
    std::filesystem::rename(tmp, target, ec); // atomic: the old file or the new one, never half of one
    if (ec) {
        err << "roofline-cli: measure: cannot write " << target.string() << ": " << ec.message() << "\n";
        return ExitFailure;
    }
    out << "wrote " << target.string() << " (device id " << id << ")\n";
    return ExitOk;
}

} // namespace

void registerCliCommand(const std::string& name, CliCommand command, const std::string& usageLine,
    const std::string& description)
{
    registry().push_back({ name, command, usageLine, description });
}

bool takeDevicesDirs(std::vector<std::string>& args, std::vector<std::filesystem::path>& dirs, std::string& error)
{
    std::vector<std::string> rest;
    for (size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--devices-dir") {
            if (i + 1 >= args.size()) {
                error = "--devices-dir: missing value";
                return false;
            }
            dirs.emplace_back(args[++i]);
        } else if (args[i].starts_with("--devices-dir=")) {
            dirs.emplace_back(args[i].substr(14));
        } else {
            rest.push_back(args[i]);
        }
    }
    args = std::move(rest);
    return true;
}

DeviceLibrary loadCliDevices(const std::vector<std::filesystem::path>& extraDirs, const std::filesystem::path& exeDir,
    std::ostream& err)
{
    std::vector<std::filesystem::path> dirs { shippedDeviceDir(exeDir) };
    dirs.insert(dirs.end(), extraDirs.begin(), extraDirs.end());
    if (auto user = userDeviceDir(); !user.empty())
        dirs.push_back(user);
    DeviceLibrary lib = loadDeviceLibrary(dirs);
    for (const Diagnostic& d : lib.diagnostics) {
        if (d.severity != Severity::Info)
            err << toString(d) << "\n";
    }
    return lib;
}

bool resolveDevices(const DeviceLibrary& lib, const std::vector<std::string>& ids, std::vector<Device>& chosen,
    std::ostream& err)
{
    for (const std::string& id : ids) {
        if (id == "all") {
            chosen = lib.devices;
            return true;
        }
        const Device* d = lib.find(id);
        if (!d) {
            std::string known;
            for (const Device& x : lib.devices)
                known += (known.empty() ? "" : ", ") + x.id;
            err << "roofline-cli: unknown device '" << id << "'; known devices: " << known << "\n";
            return false;
        }
        if (std::none_of(chosen.begin(), chosen.end(), [&](const Device& x) { return x.id == d->id; }))
            chosen.push_back(*d);
    }
    return true;
}

int runCli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err, const std::filesystem::path& exeDir)
{
    if (args.empty()) {
        err << usage() << "Try 'roofline-cli --help'.\n";
        return ExitUsage;
    }
    const std::string& command = args.front();
    if (command == "--help" || command == "-h" || command == "help") {
        printHelp(out);
        return ExitOk;
    }
    if (command == "--version") {
        out << "roofline-cli " << kVersion << "\n";
        return ExitOk;
    }
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    if (std::find(rest.begin(), rest.end(), "--help") != rest.end() || std::find(rest.begin(), rest.end(), "-h") != rest.end()) {
        printHelp(out);
        return ExitOk;
    }
    if (command == "analyze")
        return runAnalyze(rest, out, err, exeDir);
    if (command == "devices")
        return runDevices(rest, out, err, exeDir);
    if (command == "networks")
        return runNetworks(rest, out, err);
    if (command == "tune")
        return runTune(rest, out, err, exeDir);
    if (command == "compare")
        return runCompare(rest, out, err, exeDir);
    if (command == "measure")
        return runMeasure(rest, out, err);
    for (const Registered& r : registry())
        if (r.name == command)
            return r.command(rest, out, err, exeDir);
    return usageError(err, "unknown command '" + command + "'");
}

std::string configFailure(const Config& config, const std::string& error)
{
    if (isNetworkFile(config.model) && error.starts_with(config.model + ":"))
        return "roofline-cli: cannot use the model file: " + error;
    return "roofline-cli: impossible configuration: " + error;
}

int usageError(std::ostream& err, const std::string& message)
{
    err << "roofline-cli: " << message << "\n" << usage() << "Try 'roofline-cli --help'.\n";
    return ExitUsage;
}

} // namespace rfx
