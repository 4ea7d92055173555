// Each measured ceiling held against what it should be (the core's per-cycle figures, the other
// ceilings, the machine's earlier measurement), and the words for it: ceilingDoubts, expectationText.
#include "measure/microbench.h"

#include "base/format.h"
#include "devices/device.h"
#include "measure/cpu_expectations.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>

namespace rfx {

std::string expectationClockText(const MicrobenchResult& r)
{
    return formatSI(r.expectationClockHz(), "Hz") + (r.vectorClockLower() ? " (the vector units' clock)" : "");
}

std::string expectationText(
    double measured, double expected, double perCycle, const char* perCycleUnit, const MicrobenchResult& r)
{
    if (!(expected > 0) || !(measured > 0))
        return "";
    return formatPercent(measured / expected) + " of " + formatNumber3(perCycle) + " " + perCycleUnit + " x "
        + std::to_string(r.cores) + (r.cores == 1 ? " core" : " cores") + " x " + expectationClockText(r);
}

MicrobenchOptions::Earlier earlierCeilings(const Device& d)
{
    const auto perCycle = cycleFiguresFor(detectCpuIdentity());
    if (d.kind != "cpu" || d.architecture != (perCycle ? perCycle->microarchitecture : cpuModelName()))
        return {};
    auto peak = [&](const char* key) {
        const auto it = d.peak.find(key);
        return it == d.peak.end() ? 0.0 : it->second;
    };
    return { peak("fp32"), peak("fp64"), d.l1Bandwidth, d.l2Bandwidth, d.l3Bandwidth, d.boostClockHz, d.cores };
}

std::vector<MicrobenchResult::Doubt> ceilingDoubts(const MicrobenchResult& r, const MicrobenchOptions::Earlier& earlier)
{
    std::vector<MicrobenchResult::Doubt> doubts;
    const std::string on = r.perCycle ? r.perCycle->microarchitecture : std::string("this CPU");
    const std::string cores = std::to_string(r.cores) + (r.cores == 1 ? " core" : " cores");
    auto said = [&](const char* figure) {
        return std::any_of(
            doubts.begin(), doubts.end(), [&](const auto& d) { return d.figure == figure && d.suspect; });
    };
    auto againstCycle
        = [&](const char* figure, const BenchFigure& f, double expected, double perCycle, const char* perCycleUnit,
              const char* unit, double suspectBelow, const std::string& why, const char* usual) {
              if (!(f.best > 0) || !(expected > 0) || f.best >= kCeilingBands.noted * expected || said(figure))
                  return;
              const double share = f.best / expected;
              const std::string rate
                  = perCycle == std::round(perCycle) ? std::to_string(long(perCycle)) : formatNumber3(perCycle);
              std::string text = std::string(figure) + " " + formatSI(f.best, unit) + " is " + formatPercent(share)
                  + " of what " + cores + " of " + on + " do at the measured " + expectationClockText(r) + " (" + rate
                  + " " + perCycleUnit + ": " + formatSI(expected, unit) + ")";
              const bool suspect = share < suspectBelow;
              text += suspect ? ", after measuring it again: suspect." + why
                              : std::string(", after measuring it again: ") + usual;
              doubts.push_back({ figure, suspect, text });
          };
    const CycleFigures c = r.perCycle.value_or(CycleFigures {});
    const CycleFigures& c0 = c;
    const std::string oneFma = c.microarchitecture.rfind("Intel", 0) == 0
        ? " (A Xeon with one 512-bit FMA unit per core, as some Silver and Bronze parts have, "
          "does half: then it is right.)"
        : "";
    const char* streams = "read streams reach 60-90 % of the documented fill width at this level.";
    // A figure whose every repeat ran while a thread lacked its CPU, the clock first: every expected
    // figure is per cycle, and a clock measured on a shared core halves with the ceilings.
    if (r.measuredClockHz > 0 && r.clockOccupancy < kCeilingBands.undisturbed)
        doubts.push_back({ "clock", true,
            "The clock under load, " + formatSI(r.measuredClockHz, "Hz") + ", was measured while a thread had its CPU "
                + formatPercent(r.clockOccupancy) + " of the time at best: suspect, and every ceiling with it." });
    auto disturbed = [&](const char* figure, const BenchFigure& f, const char* unit) {
        if (f.best > 0 && f.occupancy < kCeilingBands.undisturbed)
            doubts.push_back({ figure, true,
                std::string(figure) + " " + formatSI(f.best, unit) + " was measured while a thread had its CPU "
                    + formatPercent(f.occupancy) + " of the time at best, in every repeat: suspect." });
    };
    // Vector units faster than the core's clock cannot be: the FMA latency the table gives is wrong for
    // this core (a chain of 4-cycle links on a 3-cycle core reads a third fast). The integer clock stands.
    if (r.vectorClockHz > 1.03 * r.measuredClockHz && r.measuredClockHz > 0)
        doubts.push_back({ "vector clock", false,
            "The vector units' FMA chains ran at " + formatSI(r.vectorClockHz, "Hz") + " at "
                + std::to_string(c0.fmaLatency) + " cycles a link, above the clock under load ("
                + formatSI(r.measuredClockHz, "Hz")
                + "): that latency is not this core's; the expected figures are at the clock under load." });
    disturbed("FP32", r.fp32, "FLOP/s");
    disturbed("FP64", r.fp64, "FLOP/s");
    disturbed("int8", r.int8, "OP/s");
    disturbed("L1", r.l1, "B/s");
    disturbed("L2", r.l2, "B/s");
    disturbed("L3", r.l3, "B/s");
    disturbed("DRAM", r.dram, "B/s");
    againstCycle(
        "FP32", r.fp32, r.expected.fp32, c.fp32Flop, "FLOP/cycle", "FLOP/s", kCeilingBands.compute, oneFma, "");
    againstCycle(
        "FP64", r.fp64, r.expected.fp64, c.fp64Flop, "FLOP/cycle", "FLOP/s", kCeilingBands.compute, oneFma, "");
    againstCycle("int8", r.int8, r.expected.int8, c.int8Ops(), "OP/cycle", "OP/s", kCeilingBands.compute, oneFma, "");
    againstCycle("L1", r.l1, r.expected.l1, c.l1Bytes, "B/cycle", "B/s", kCeilingBands.l1, "",
        "the sums reach 75-100 % of the documented load width (a Zen 3 77 %, a Zen 5 96 %).");
    againstCycle("L2", r.l2, r.expected.l2, c.l2Bytes, "B/cycle", "B/s", kCeilingBands.cache, "", streams);
    againstCycle("L3", r.l3, r.expected.l3, c.l3Bytes, "B/cycle", "B/s", kCeilingBands.cache, "", streams);
    // Above what the core does at the measured clock: the clock was measured low (a thread sharing the
    // core while it was timed: seen, FP64 at 131 % of 2 cores x 16 FLOP x 1.51 GHz while a build ran),
    // not a faster core. Said of the clock, which is then measured again.
    if (!said("clock") && r.measuredClockHz > 0) {
        struct Above {
            const char* figure;
            const BenchFigure& f;
            double expected;
            const char* unit;
        };
        for (const Above& a :
            { Above { "FP32", r.fp32, r.expected.fp32, "FLOP/s" }, Above { "FP64", r.fp64, r.expected.fp64, "FLOP/s" },
                Above { "int8", r.int8, r.expected.int8, "OP/s" }, Above { "L1", r.l1, r.expected.l1, "B/s" } })
            if (a.expected > 0 && a.f.best > kCeilingBands.above * a.expected) {
                doubts.push_back({ "clock", true,
                    "The clock under load, " + expectationClockText(r) + ", is too low for " + a.figure + " "
                        + formatSI(a.f.best, a.unit) + " (" + formatPercent(a.f.best / a.expected) + " of what " + cores
                        + " of " + on
                        + " do at it): it was measured while something shared the core: suspect, and every "
                          "expected figure with it." });
                break;
            }
    }
    // Every x86 vector unit does twice the FP32 lanes of FP64 at the same rate.
    if (r.fp32.best > 0 && r.fp64.best > 0 && r.fp32.best < 1.6 * r.fp64.best && !said("FP32"))
        doubts.push_back({ "FP32", true,
            "FP32 " + formatSI(r.fp32.best, "FLOP/s") + " is only " + formatNumber3(r.fp32.best / r.fp64.best)
                + " x FP64 (" + formatSI(r.fp64.best, "FLOP/s")
                + "), where every x86 vector unit does 2 x, after measuring "
                  "it again: suspect." });
    // The same machine's earlier measurement, scaled to this run's clock.
    const double scale = earlier.clockHz > 0 && r.measuredClockHz > 0 ? r.measuredClockHz / earlier.clockHz : 1;
    auto againstEarlier = [&](const char* figure, const BenchFigure& f, double before, const char* unit) {
        if (!(f.best > 0) || !(before > 0) || earlier.cores != r.cores
            || f.best >= kCeilingBands.earlier * before * scale || said(figure))
            return;
        doubts.push_back({ figure, true,
            std::string(figure) + " " + formatSI(f.best, unit) + " is " + formatPercent(f.best / (before * scale))
                + " of this machine's earlier measurement (" + formatSI(before, unit)
                + (scale != 1 ? ", at this run's clock " + formatSI(before * scale, unit) : std::string())
                + "), after measuring "
                  "it again: suspect." });
    };
    againstEarlier("FP32", r.fp32, earlier.fp32, "FLOP/s");
    againstEarlier("FP64", r.fp64, earlier.fp64, "FLOP/s");
    againstEarlier("L1", r.l1, earlier.l1, "B/s");
    againstEarlier("L2", r.l2, earlier.l2, "B/s");
    againstEarlier("L3", r.l3, earlier.l3, "B/s");
    return doubts;
}

} // namespace rfx
