#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace rfx {

/// "Measure this machine": micro-benchmarks of the CPU this runs on, for a device file.
///
/// Method (README "Measure this machine"):
///  - peak FLOP/s per precision: every hardware thread runs independent FMA chains (12 accumulators,
///    enough to hide the FMA latency) on the widest vectors the CPU has (AVX-512, else AVX2 + FMA,
///    else scalar multiply and add); an FMA counts 2 FLOP per lane;
///  - DRAM bandwidth: a STREAM-like triad a[i] = b[i] + s c[i] over arrays far larger than the last-level
///    cache, split between threads; 24 bytes per element counted (STREAM's convention: no write-allocate);
///  - cache bandwidths: every thread sums its own small working set (16 KiB for L1, a quarter of the
///    L2 size for L2) again and again with vector loads;
///  - each test runs `repeats` times; the best is kept (as STREAM does) and the spread (worst against
///    best) is reported, so a noisy machine shows as such.
struct MicrobenchOptions {
    int threads = 0; ///< 0: every hardware thread
    double secondsPerTest = 0.25; ///< target duration of one repeat of one test
    int repeats = 5;
    double dramBytes = 0; ///< triad footprint, byte (0: 4 x the last-level cache, 256 MiB to 2 GiB, a quarter of RAM at most)
};

struct BenchFigure {
    double best = 0; ///< per second (FLOP/s or byte/s)
    double spread = 0; ///< (best - worst) / best over the repeats
};

struct MicrobenchResult {
    std::string cpuName;
    int threads = 0;
    std::string isa; ///< "AVX-512", "AVX2 + FMA", "scalar"
    BenchFigure fp32, fp64; ///< FLOP/s
    BenchFigure dram, l1, l2; ///< byte/s, whole machine
    double memoryBytes = 0; ///< installed RAM
    double l1Bytes = 0, l2Bytes = 0, l3Bytes = 0; ///< per core L1d and L2, the L3 (0 = unknown)
    double clockHz = 0; ///< maximum clock where the system says, else the current one, else 0
    double seconds = 0; ///< how long it took
};

/// Called between steps with the fraction done and what runs now; return false to cancel.
using MicrobenchProgress = std::function<bool(double fraction, const std::string& stage)>;

/// Runs the benchmarks; nothing if cancelled.
std::optional<MicrobenchResult> runMicrobenchmarks(const MicrobenchOptions& options, const MicrobenchProgress& progress);

/// A device file (schema 1) for the measured machine. TDP and idle power cannot be measured here:
/// `tdpWatts` is the user's figure (the RAPL package limit where Linux exposes it is a good one), idle
/// is taken as 10 % of it; the notes say so. The loader accepts the result (tests check it).
std::string microbenchDeviceJson(const MicrobenchResult& result, const std::string& id, const std::string& name,
    double tdpWatts);

/// The RAPL package power limit in watts where /sys/class/powercap exposes it, else 0.
double raplPackageWatts();

/// This CPU's model name as /proc/cpuinfo gives it, or "this machine's CPU".
std::string cpuModelName();
/// This machine's physical memory, byte (0 when the system does not say).
double physicalMemoryBytes();

} // namespace rfx
