// roofline-cli measure: micro-benchmarks of this machine's CPU, written as a device file.
#include "cli_commands.h"

#include "device_loader.h"
#include "format.h"
#include "microbench.h"

#include <fstream>
#include <iomanip>

namespace rfx {

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
    if (!writeFileAtomically(target, text, err))
        return ExitFailure;
    out << "wrote " << target.string() << " (device id " << id << ")\n";
    return ExitOk;
}

} // namespace rfx
