// A measurement of this machine as a device file (devices/*.json): its ceilings to four significant
// digits, its caches and clock, and where each figure came from.
#include "measure/microbench.h"

#include "base/format.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <string>

namespace rfx {

std::string microbenchDeviceJson(
    const MicrobenchResult& r, const std::string& id, const std::string& name, double tdpWatts)
{
    // Four significant digits: a laptop's 0.02391 TFLOP/s keeps its precision as well as a server's 3.456.
    auto round4 = [](double v) {
        if (!(v > 0))
            return v;
        const double scale = std::pow(10.0, 3 - std::floor(std::log10(v)));
        return std::round(v * scale) / scale;
    };
    std::ostringstream notes;
    notes.precision(3);
    notes << "Measured by Roofline Explorer's 'measure this machine' on " << r.threads << " threads (" << r.isa
          << "): best of the repeats; spreads (the median repeat's shortfall from the best) FP32 "
          << r.fp32.spread * 100 << " %, FP64 " << r.fp64.spread * 100 << " %, DRAM " << r.dram.spread * 100
          << " %, L1 " << r.l1.spread * 100 << " %, L2 " << r.l2.spread * 100 << " %";
    if (r.l3.best > 0)
        notes << ", L3 " << r.l3.spread * 100 << " %";
    if (r.int8.best > 0)
        notes << ", int8 " << r.int8.spread * 100 << " %";
    notes << ".";
    if (r.dramRead.best > 0 && r.dramTriad.best > 0)
        notes << " DRAM is the faster of a read stream (" << formatSI(r.dramRead.best, "B/s")
              << ") and the STREAM triad (" << formatSI(r.dramTriad.best, "B/s")
              << ", 24 B an element counted; the bus moves 32 with the write's allocate):"
              << " a row that reads its weights and writes little gets the read stream's rate.";
    if (r.kernels.fp32Chains > 0)
        notes << " FP32 is oneDNN's 3x3 convolution (" << r.kernels.matrixKernel
              << ", 512 channels on 28 x 28, no padding) at " << formatSI(r.fp32.best, "FLOP/s")
              << ", faster than the FMA chains' " << formatSI(r.kernels.fp32Chains, "FLOP/s")
              << ": a ceiling is what no kernel of this machine beats.";
    if (r.kernels.dramStreams > 0)
        notes << " DRAM is oneDNN's matrix-vector product (" << r.kernels.streamKernel << ") streaming "
              << formatSI(r.kernels.streamWeightBytes, "B") << " of weights at " << formatSI(r.dram.best, "B/s")
              << ", faster than the streams' " << formatSI(r.kernels.dramStreams, "B/s") << ".";
    if (r.perCycle && r.measuredClockHz > 0) {
        notes << " Against " << r.perCycle->microarchitecture << "'s per-cycle figures (" << r.perCycle->source
              << ") at the measured " << expectationClockText(r) << " on " << r.cores << " cores: FP32 "
              << formatPercent(r.fp32.best / r.expected.fp32) << ", FP64 "
              << formatPercent(r.fp64.best / r.expected.fp64) << ", L1 " << formatPercent(r.l1.best / r.expected.l1)
              << ", L2 " << formatPercent(r.l2.best / r.expected.l2);
        if (r.int8.best > 0 && r.expected.int8 > 0)
            notes << ", int8 " << formatPercent(r.int8.best / r.expected.int8);
        if (r.l3.best > 0 && r.expected.l3 > 0)
            notes << ", L3 " << formatPercent(r.l3.best / r.expected.l3);
        notes << ".";
    }
    if (r.vectorClockLower())
        notes << " The vector units ran at " << formatSI(r.vectorClockHz, "Hz")
              << " under load (dependent FMA chains of " << r.perCycle->fmaLatency
              << " cycles a link), under the integer clock of " << formatSI(r.measuredClockHz, "Hz")
              << ": the figures are held against that clock.";
    if (r.l3Usable > 0 && r.l3Bytes > 0)
        notes << " l3_mib is the largest working set that still read at L3 speed, of the " << r.l3Bytes / (1024 * 1024)
              << " MiB L3 the system's cache topology gives" << (r.l3SharedBy.empty() ? "" : " to CPUs " + r.l3SharedBy)
              << ".";
    if (r.l3Claimed > 0)
        notes << " CPUID (sysconf) claims " << r.l3Claimed / (1024 * 1024)
              << " MiB of L3: a virtual machine's may be its host's whole socket; not used.";
    for (const MicrobenchResult::Doubt& d : r.doubts)
        notes << (d.suspect ? " SUSPECT: " : " ") << d.text;
    if (std::any_of(r.doubts.begin(), r.doubts.end(), [](const auto& d) { return d.suspect; }))
        notes << " " << kSuspectAdvice;
    if (r.disturbedRepeats > 0)
        notes << " " << r.disturbedRepeats << (r.disturbedRepeats == 1 ? " repeat was" : " repeats were")
              << " run again: a thread lost its CPU during it (another process or the hypervisor).";
    notes << " tdp_w is the figure given when measuring (not measured); idle_w is taken as 10 % of it. Edit both "
             "for the energy model.";
    nlohmann::ordered_json d;
    d["schema"] = 1;
    d["id"] = id;
    d["name"] = name;
    d["kind"] = "cpu";
    d["architecture"] = r.perCycle ? r.perCycle->microarchitecture : r.cpuName;
    d["cores"] = r.cores;
    d["peak"] = { { "fp32_tflops", round4(r.fp32.best / 1e12) }, { "fp64_tflops", round4(r.fp64.best / 1e12) } };
    if (r.int8.best > 0)
        d["peak"]["int8_tops"] = round4(r.int8.best / 1e12);
    d["dram_gbs"] = round4(r.dram.best / 1e9);
    d["memory_gib"] = std::round(r.memoryBytes / double(1 << 30) * 10) / 10;
    if (r.l1Bytes > 0)
        d["l1_kib"] = r.l1Bytes / 1024;
    // The system reports the L2 of one core; a device file gives the whole chip's.
    d["l2_mib"] = (r.l2Bytes > 0 ? r.l2Bytes : 512 * 1024.0) * r.cores / (1024.0 * 1024);
    const double l3 = r.l3Usable > 0 ? r.l3Usable : r.l3Bytes;
    if (l3 > 0)
        d["l3_mib"] = l3 / (1024.0 * 1024);
    // The cache figures are measured per working set; the hierarchy wants each level at least as fast as the
    // one behind it, which a measurement on a busy machine may not give.
    const double l3Speed = r.l3.best > 0 ? std::max(r.l3.best, r.dram.best) : 0;
    const double l2 = std::max({ r.l2.best, l3Speed, r.dram.best }), l1 = std::max(r.l1.best, l2);
    if (l3Speed > 0)
        d["l3_gbs"] = round4(l3Speed / 1e9);
    d["l2_gbs"] = round4(l2 / 1e9);
    d["l1_gbs"] = round4(l1 / 1e9);
    d["tdp_w"] = tdpWatts;
    d["idle_w"] = std::round(tdpWatts * 0.1 * 10) / 10;
    // The clock measured under load is the one the figures above ran at; the system's figure (a VM's is
    // its time-stamp counter's) only where it could not be measured.
    const double clock = r.measuredClockHz > 0 ? r.measuredClockHz : r.clockHz;
    d["boost_clock_mhz"] = clock > 0 ? std::round(clock / 1e6) : 1000;
    d["sources"] = { "Measured on this machine by roofline-cli measure / Tools > Measure this machine (method: README "
                     "'Measure this machine')" };
    d["notes"] = notes.str()
        + (clock > 0 ? (r.measuredClockHz > 0 ? " boost_clock_mhz is the clock measured under load." : "")
                     : " boost_clock_mhz unknown here: 1000 is a stand-in.");
    return d.dump(2) + "\n";
}

} // namespace rfx
