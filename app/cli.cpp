// roofline-cli: the command table, usage and help, and the dispatch to each subcommand's file
// (cli_analyze.cpp, cli_tune.cpp, ...; shared options in cli_options.cpp).
#include "cli.h"

#include "cli_commands.h"

#include "device_loader.h"
#include "figure.h"
#include "options.h"
#include "version.h"

#include <algorithm>
#include <ostream>

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
    std::string u = "usage: roofline-cli analyze [configuration options] [--calibration CAL.json]\n"
                    "                            [--format table|json|csv|markdown|latex]\n"
                    "       roofline-cli devices [--format table|json]\n"
                    "       roofline-cli networks [--model FILE]... [--format table|json] [--format-help]\n"
                    "       roofline-cli tune [--objective time|energy|edp] [--batch A..B] [--gpus A..B] [--clock A..B]\n"
                    "                         [configuration options] [--format table|json|csv]\n"
                    "       roofline-cli compare MEASUREMENTS [configuration options] [--calibration CAL.json]\n"
                    "                            [--format table|csv]\n"
                    "       roofline-cli calibrate MEASUREMENTS --device ID [configuration options] --output CAL.json|-\n"
                    "       roofline-cli measure [--quick] [--tdp-w W] [--id ID] [--name NAME] [--output FILE|-]\n"
                    "       roofline-cli measure --network [configuration options] [--quick|--full] [--output FILE|-]\n";
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
           "                             model's bounds on the first --device: efficiency, error, what did not map;\n"
           "                             --calibration: the calibrated prediction and its error, per layer and in\n"
           "                             total (fit on one configuration, check on another)\n"
           "  calibrate                  fit how far this machine's kernels fall below the roofline (measured =\n"
           "                             overhead + bound / efficiency, per operator class and bound side) from a\n"
           "                             measurement file of the configured network on --device; write it as a\n"
           "                             calibration file. analyze --calibration adds calibrated_time_s\n"
           "  measure                    micro-benchmark this machine's CPU (FMA peak per precision, cache and\n"
           "                             DRAM bandwidth) and write a device file to the user device folder;\n"
           "                             --network: run every row of the configured network on this CPU with\n"
           "                             oneDNN (best, median, spread, reorders), write the measurement CSV and\n"
           "                             hold it against this machine's roofline (its ceilings measured first)\n";
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

} // namespace

void registerCliCommand(const std::string& name, CliCommand command, const std::string& usageLine,
    const std::string& description)
{
    registry().push_back({ name, command, usageLine, description });
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
    if (command == "calibrate")
        return runCalibrate(rest, out, err, exeDir);
    if (command == "measure") {
        std::vector<std::string> measureArgs = rest;
        if (const auto it = std::find(measureArgs.begin(), measureArgs.end(), "--network"); it != measureArgs.end()) {
            measureArgs.erase(it);
            return runMeasureNetwork(measureArgs, out, err, exeDir);
        }
        return runMeasure(rest, out, err);
    }
    for (const Registered& r : registry())
        if (r.name == command)
            return r.command(rest, out, err, exeDir);
    return usageError(err, "unknown command '" + command + "'");
}

int usageError(std::ostream& err, const std::string& message)
{
    err << "roofline-cli: " << message << "\n" << usage() << "Try 'roofline-cli --help'.\n";
    return ExitUsage;
}

} // namespace rfx
