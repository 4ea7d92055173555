// roofline-cli measure: micro-benchmarks of this machine's CPU, written as a device file.
#include "cli_commands.h"

#include "base/format.h"
#include "devices/device_loader.h"
#include "measure/microbench.h"

#include <fstream>
#include <iomanip>
#include <sstream>

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
        err << "roofline-cli: measure: the CPU's power limit is not readable here; "
               "tdp_w is set to 65 W (give --tdp-w W)\n";
    } else if (!tdpGiven) {
        err << "roofline-cli: measure: tdp_w from the RAPL package limit: " << tdp << " W\n";
    }
    const std::filesystem::path target
        = output.empty() ? userDeviceDir() / (id + ".json") : std::filesystem::path(output);
    if (output != "-") { // the machine's earlier ceilings, to hold the new ones against
        std::ifstream earlier(target);
        std::stringstream text;
        text << earlier.rdbuf();
        if (earlier)
            if (const DeviceLoad load = parseDevice(text.str(), target.string()); load.device)
                o.earlier = earlierCeilings(*load.device);
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
    auto line = [&](const char* what, const BenchFigure& f, const char* unit, double expected, double perCycle,
                    const char* perCycleUnit) {
        if (!(f.best > 0))
            return;
        out << "  " << what << formatSI(f.best, unit) << "  (spread " << formatPercent(f.spread);
        const std::string against = expectationText(f.best, expected, perCycle, perCycleUnit, r);
        out << (against.empty() ? "" : "; " + against) << ")\n";
    };
    out << r.cpuName << ", " << r.threads << " threads on " << r.cores << (r.cores == 1 ? " core, " : " cores, ")
        << r.isa << ", measured in " << formatTime(r.seconds) << ":\n";
    if (r.measuredClockHz > 0)
        out << "  clock          " << formatSI(r.measuredClockHz, "Hz")
            << " under load (dependent integer additions)\n";
    if (r.vectorClockHz > 0)
        out << "  vector clock   " << formatSI(r.vectorClockHz, "Hz") << " under load (dependent FMAs, "
            << r.perCycle->fmaLatency << " cycles a link, after the units ran at full rate)"
            << (r.vectorClockLower() ? ": the expected figures are at it" : "") << "\n";
    const CycleFigures c = r.perCycle.value_or(CycleFigures {});
    line("FP32 peak      ", r.fp32, "FLOP/s", r.expected.fp32, c.fp32Flop, "FLOP/cycle");
    line("FP64 peak      ", r.fp64, "FLOP/s", r.expected.fp64, c.fp64Flop, "FLOP/cycle");
    line("int8 (VNNI)    ", r.int8, "OP/s", r.expected.int8, c.int8Ops(), "OP/cycle");
    line("L1 bandwidth   ", r.l1, "B/s", r.expected.l1, c.l1Bytes, "B/cycle");
    line("L2 bandwidth   ", r.l2, "B/s", r.expected.l2, c.l2Bytes, "B/cycle");
    line("L3 bandwidth   ", r.l3, "B/s", r.expected.l3, c.l3Bytes, "B/cycle");
    if (r.l3Usable > 0)
        out << "  L3 usable      " << formatNumber3(r.l3Usable / (1024 * 1024)) << " MiB read at L3 speed, of the "
            << formatNumber3(r.l3Bytes / (1024 * 1024)) << " MiB L3"
            << (r.l3SharedBy.empty() ? "" : " CPUs " + r.l3SharedBy + " share")
            << (r.l3Claimed > 0 ? " (CPUID claims " + formatNumber3(r.l3Claimed / (1024 * 1024))
                           + " MiB: a VM's may be its host's)"
                                : "")
            << "\n";
    line("DRAM read      ", r.dramRead, "B/s", 0, 0, "");
    line("DRAM triad     ", r.dramTriad, "B/s", 0, 0, "");
    for (const std::string& k : kernelRateLines(r))
        out << "  " << k << "\n";
    if (r.perCycle)
        out << "  expected: " << r.perCycle->microarchitecture << ", " << r.perCycle->source << "\n";
    else
        out << "  expected: no per-cycle figures for this CPU (" << (r.cpu.vendor.empty() ? "unknown" : r.cpu.vendor)
            << " family " << r.cpu.family << " model " << r.cpu.model << "); the figures stand alone\n";
    bool suspect = false;
    for (const MicrobenchResult::Doubt& d : r.doubts) {
        (d.suspect ? err << "roofline-cli: measure: warning: " : out << "  note: ") << d.text << "\n";
        suspect = suspect || d.suspect;
    }
    if (suspect)
        err << "roofline-cli: measure: " << kSuspectAdvice << "\n";
    if (r.disturbedRepeats > 0)
        out << "  note: " << r.disturbedRepeats << (r.disturbedRepeats == 1 ? " repeat was" : " repeats were")
            << " run again: a thread lost its CPU during it (another process or the hypervisor)\n";
    if (output == "-") {
        out << text;
        return out ? ExitOk : ExitFailure;
    }
    if (!writeFileAtomically(target, text, err))
        return ExitFailure;
    out << "wrote " << target.string() << " (device id " << id << ")\n";
    return ExitOk;
}

} // namespace rfx
