#pragma once

#include "measure/cpu_expectations.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace rfx {

struct Device;

/// "Measure this machine": micro-benchmarks of the CPU this runs on, for a device file.
///
/// Method (README "Measure this machine"):
///  - peak FLOP/s per precision: every hardware thread runs independent FMA chains (12 accumulators,
///    enough to hide the FMA latency) on the widest vectors the CPU has (AVX-512, else AVX2 + FMA,
///    else scalar multiply and add); an FMA counts 2 FLOP per lane;
///  - DRAM bandwidth: a STREAM-like triad a[i] = b[i] + s c[i] over arrays far larger than the last-level
///    cache, split between threads; 24 bytes per element counted (STREAM's convention: no write-allocate);
///  - cache bandwidths: every thread sums its own working set (16 KiB for L1, a quarter of the L2 for
///    L2, four L2s for the last-level cache) again and again with the widest vector loads, 16
///    accumulators; the last level's usable size is found by doubling the set until it reads at
///    under 3/4 of that speed (a VM sees the whole socket's L3 but shares one slice of it);
///  - int8 (AVX-512 VNNI): 16 independent vpdpbusd chains, 2 operations per multiply-add;
///  - the clock: 100 dependent integer additions a round (one a cycle on every x86 core), on every
///    thread at once; with the per-cycle figures of a known core (cpu_expectations.h) it gives what
///    each test should reach (measured / expected in the report), at the vector units' clock where that is
///    measured (MicrobenchResult::vectorClockHz: an AVX-512 licence lowers it on Intel Xeons);
///  - every thread is pinned to its own CPU; each test runs once unmeasured to warm up, then `repeats`
///    times; the best is kept (as STREAM does) and the spread is the median repeat's shortfall from
///    the best, so one outlier does not hide a steady figure and a noisy machine shows as such.
///  - a repeat during which a thread did not have its CPU to itself (its CPU time under 90 % of the
///    wall time, or the hypervisor's steal time over 10 %: /proc/stat) is run again;
///  - each ceiling is then held against the core's per-cycle figure where known and against the
///    others (FP32 twice FP64 on every x86 vector unit) and the machine's earlier measurement: one
///    far under is measured again, twice, and if it stays it is reported in words (ceilingDoubts).
struct MicrobenchOptions {
    int threads = 0; ///< 0: every hardware thread
    double secondsPerTest = 0.25; ///< target duration of one repeat of one test
    int repeats = 5;
    double dramBytes = 0; ///< the DRAM tests' footprint, byte (0: 4 x the last-level cache, 256 MiB to 2 GiB, a quarter
                          ///< of RAM at most)
    /// The same machine's earlier ceilings (its this-machine device file), FLOP/s and byte/s at the
    /// clock given; 0 = none. A new figure far under the earlier one at the same clock is measured again.
    struct Earlier {
        double fp32 = 0, fp64 = 0, l1 = 0, l2 = 0, l3 = 0, clockHz = 0;
        int cores = 0; ///< compared only where the cores are the same
    } earlier;
    /// Run the library's own kernels after the chains and streams, and raise the FP32 peak and the
    /// DRAM bandwidth to their rates where higher (kernel_ceilings.cpp): a ceiling must bound every row
    /// this machine runs.
    bool kernelProbes = true;
};

struct BenchFigure {
    double best = 0; ///< per second (FLOP/s or byte/s)
    double spread = 0; ///< (best - median) / best over the repeats: the median repeat's shortfall
    /// Under 1 where even the best repeat ran while a thread lacked its CPU (measured again, it stayed
    /// so): the lowest share of the time a thread had its CPU in that repeat.
    double occupancy = 1;
};

struct MicrobenchResult {
    std::string cpuName;
    int threads = 0;
    std::string isa; ///< "AVX-512", "AVX2 + FMA", "scalar"
    BenchFigure fp32, fp64; ///< FLOP/s
    BenchFigure int8; ///< operations/s (AVX-512 VNNI); best 0 where the CPU has none
    BenchFigure dram, l1, l2, l3; ///< byte/s, whole machine; l3.best 0 where not measured
    /// DRAM's two measures: the STREAM triad (24 B an element counted) and a read-only stream; `dram`,
    /// the memory roof, is the faster (a read-only row outran the triad by a fifth, issue 50).
    BenchFigure dramTriad, dramRead;
    double memoryBytes = 0; ///< installed RAM
    double l1Bytes = 0, l2Bytes = 0,
           l3Bytes = 0; ///< per core L1d and L2, the L3 as the system reports it (0 = unknown)
    double l3Usable = 0; ///< the largest working set, all threads together, that still read at L3 speed (0 = not found)
    /// The L3 as sysconf gives it (CPUID leaf 4 or 8000_0006h) where it differs from the one the kernel's
    /// cache topology reports for the CPUs this runs on (l3Bytes): a VM's CPUID may give its host's.
    double l3Claimed = 0;
    std::string l3SharedBy; ///< the CPUs sharing that L3 ("0-1"), where the system says
    double clockHz = 0; ///< maximum clock where the system says, else the current one, else 0
    double measuredClockHz = 0; ///< the clock measured under load (0 where it cannot be)
    double clockOccupancy = 1; ///< as BenchFigure::occupancy, for the clock
    /// The clock the vector units run at under load, Hz (0 where not measured): kLatencyChains chains of
    /// dependent FMAs on the widest vectors, timed right after the units ran at their full rate, each
    /// link the core's FMA latency (CycleFigures::fmaLatency). On a Xeon an AVX-512 licence runs them
    /// under the integer clock: its FMA chains read 72-83 % of the table at the integer clock while
    /// oneDNN's convolutions reached 98 % of the chains' figure (issue 72). Equal to the integer clock
    /// on AMD's cores (this Zen 5: 3.97 cycles of it a link of 4).
    double vectorClockHz = 0;
    /// The clock the expected figures are at: the vector clock where measured and not above the integer
    /// clock by more than 3 % (a wrong latency in the table; then said), else the integer clock.
    double expectationClockHz() const
    {
        return vectorClockHz > 0 && measuredClockHz > 0 && vectorClockHz <= 1.03 * measuredClockHz ? vectorClockHz
                                                                                                   : measuredClockHz;
    }
    /// Whether the vector units' clock is under the integer clock by more than 3 % (said with the figures).
    bool vectorClockLower() const { return expectationClockHz() < measuredClockHz / 1.03; }
    int cores = 0; ///< physical cores the threads run on
    CpuIdentity cpu;
    std::optional<CycleFigures> perCycle; ///< the core's documented per-cycle figures, where known
    ExpectedFigures expected; ///< perCycle x cores x expectationClockHz() (all 0 where unknown)
    double seconds = 0; ///< how long it took
    int disturbedRepeats = 0; ///< repeats run again because a thread lost its CPU during them
    struct Doubt {
        std::string figure; ///< "FP32", "L1", ...
        bool suspect = false; ///< under what the kernels reach on a quiet machine: do not trust it
        std::string text; ///< why, in words, and what to do
    };
    std::vector<Doubt> doubts; ///< what stayed doubtful after measuring again (ceilingDoubts)
    /// The library's own kernels on this machine (kernel_ceilings.cpp). A ceiling is what no kernel of
    /// the machine beats: on an Intel Ice Lake-SP VM oneDNN's 3x3 convolutions ran at 98 % of the FMA
    /// chains' FP32 figure and its decode weight product streamed 11 % faster than the read stream's
    /// DRAM figure (issue 72), so each ceiling is the higher of the two.
    struct KernelRates {
        double matrixFlops = 0; ///< FLOP/s of oneDNN's 3x3 convolution (buildCeilingProbes); 0: not run
        std::string matrixKernel; ///< "convolution (brgconv:avx512_core)"
        double streamBytes = 0; ///< byte/s of its matrix-vector product over weights four times the L3
        std::string streamKernel;
        double streamWeightBytes = 0; ///< the weights that product streamed, byte
        /// The chains' FP32 and the streams' DRAM figures before the kernels raised them (0: not raised).
        double fp32Chains = 0, dramStreams = 0;
    } kernels;
};

/// How far a measured ceiling may sit from per-cycle x cores x the measured clock before it is a doubt:
/// the one place ceilingDoubts and the tests read these. A compute figure under `compute` of it is
/// suspect (the FMA kernels reach 97-100 % on a quiet Zen 3 or Zen 5), an L1 figure under `l1` (the
/// sums reach 77-100 %), an L2 or L3 figure under `cache` (read streams reach 60-90 % of the documented
/// fill widths); any under `noted` is said; a compute or L1 figure over `above` says the clock was
/// measured low. A figure whose best repeat had its CPU under `undisturbed` of the time is disturbed.
struct CeilingBands {
    double compute = 0.8;
    double l1 = 0.6;
    double cache = 0.5;
    double noted = 0.8;
    double above = 1.1;
    double undisturbed = 0.9;
    double earlier = 0.8; ///< under this share of the same machine's earlier figure at the same clock: suspect
};
inline constexpr CeilingBands kCeilingBands {};

/// Each ceiling of `r` held against what it should be: the core's per-cycle figure x cores x the
/// measured clock: a compute figure under 80 % of it is suspect (the FMA kernels reach 97-100 % on a
/// quiet Zen 3 or Zen 5), an L1 figure under 60 % (the sums reach 77-100 %), an L2 or L3 figure under
/// 50 % (read streams reach 60-90 % of the documented fill widths); any under 80 % is noted, FP32 against FP64 (FP32
/// under 1.6 x FP64 is suspect: every x86 vector unit does twice the lanes), and the same machine's earlier ceilings at
/// the same clock (under 80 % of one is suspect). Only the figures measured (best > 0) are judged.
std::vector<MicrobenchResult::Doubt> ceilingDoubts(
    const MicrobenchResult& r, const MicrobenchOptions::Earlier& earlier = {});

/// Called between steps with the fraction done and what runs now; return false to cancel.
using MicrobenchProgress = std::function<bool(double fraction, const std::string& stage)>;

/// What to do about a suspect figure, in words (one sentence for them all).
extern const char* const kSuspectAdvice;

/// The ceilings of `device` as an earlier measurement of this CPU, where it is one: a CPU device whose
/// architecture is the one microbenchDeviceJson writes for this CPU (its microarchitecture where known,
/// else its model name); nothing to compare with otherwise.
MicrobenchOptions::Earlier earlierCeilings(const Device& device);

/// This machine as the system describes it, before anything is measured: the CPU's model, ISA and
/// per-cycle figures, threads (o.threads, else every hardware thread) and cores, cache sizes, memory,
/// the nominal clock (microbench_machine.cpp).
MicrobenchResult describeMachine(const MicrobenchOptions& o);

/// Runs the benchmarks; nothing if cancelled.
std::optional<MicrobenchResult> runMicrobenchmarks(
    const MicrobenchOptions& options, const MicrobenchProgress& progress);

/// Runs the ceiling probes (buildCeilingProbes: a 3x3 convolution and a matrix-vector product over
/// weights four times the last-level cache, 256 MiB to 1 GiB, an eighth of the memory at most) with
/// oneDNN at f32 on every thread (four times the usable L3 where measured), timed as `measure --network` times rows
/// (quick: its quick mode), and gives their rates from their fastest runs; zeros where oneDNN cannot run them.
MicrobenchResult::KernelRates measureKernelRates(const MicrobenchResult& machine, bool quick);

/// Raises `r`'s FP32 peak to the kernels' matrix rate and its DRAM bandwidth to their streaming rate
/// where those are higher, keeping the chains' and streams' own figures in r.kernels (fp32Chains,
/// dramStreams) for the notes; sets r.kernels = k otherwise unchanged.
void raiseToKernels(MicrobenchResult& r, const MicrobenchResult::KernelRates& k);

/// The kernels' rates in words, a line each, for the CLI and the window: "oneDNN's convolution
/// (brgconv:avx512_core), a 3x3 convolution of 512 channels: 391 GFLOP/s, 93 % of the FP32 peak", or
/// "..., now the FP32 peak (the FMA chains reached 345 GFLOP/s)" where it raised it; none where not run.
std::vector<std::string> kernelRateLines(const MicrobenchResult& r);

/// A device file (schema 1) for the measured machine. TDP and idle power cannot be measured here:
/// `tdpWatts` is the user's figure (the RAPL package limit where Linux exposes it is a good one), idle
/// is taken as 10 % of it; the notes say so. The loader accepts the result (tests check it).
std::string microbenchDeviceJson(
    const MicrobenchResult& result, const std::string& id, const std::string& name, double tdpWatts);

/// The clock under load now, Hz: the clock test alone (every hardware thread pinned, 100 dependent
/// additions a round), best of three runs of about `seconds` each; 0 where it cannot be measured.
/// Measuring a network takes it before and after the rows: a clock that moved (another tenant, a
/// turbo budget spent) moves every ceiling with it.
double measureClockUnderLoad(double seconds = 0.05);

/// The memory's read bandwidth now, byte/s (memory_under_load.cpp): every hardware thread pinned,
/// reading its share of four times the last-level cache its CPUs share (256 MiB to 1 GiB, an eighth of
/// the memory at most), best of three reads after one to warm up; 0 where the buffers cannot be had. Measuring a
/// network takes it before and after the rows, as the clock: another tenant's load on the memory bus
/// moves every memory-bound row with it (on this project's Zen 4 VM, 40 probes 1.5 s apart read
/// 25-49 GB/s, and a decode step's weight product beside each went with them, correlation 0.81).
double measureDramReadUnderLoad();

/// The RAPL package power limit in watts where /sys/class/powercap exposes it, else 0.
double raplPackageWatts();

/// measured / expected in words: "97 % of 64 FLOP/cycle x 2 cores x 3.45 GHz", or "" where unknown.
std::string expectationText(
    double measured, double expected, double perCycle, const char* perCycleUnit, const MicrobenchResult& r);

/// The clock the expected figures are at, in words: "3.37 GHz", or "2.80 GHz (the vector units' clock)"
/// where that is under the integer clock.
std::string expectationClockText(const MicrobenchResult& r);

/// This CPU's model name as /proc/cpuinfo gives it, or "this machine's CPU".
std::string cpuModelName();
/// This machine's physical memory, byte (0 when the system does not say).
double physicalMemoryBytes();

} // namespace rfx
