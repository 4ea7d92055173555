#include "microbench.h"

#include "cpu_kernels.h"
#include "device.h"
#include "format.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <ctime>
#include <fstream>
#include <functional>
#include <memory>
#include <sstream>
#include <thread>

#include <pthread.h>
#include <sched.h>
#include <unistd.h>

namespace rfx {

namespace {

using Clock = std::chrono::steady_clock;

using namespace cpu;

std::atomic<double> g_sink { 0 }; // results land here so that no kernel is optimised away

// The CPUs this process may run on, in order: thread t is pinned to the t-th of them.
std::vector<int> allowedCpus()
{
    std::vector<int> cpus;
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) == 0)
        for (int c = 0; c < CPU_SETSIZE; ++c)
            if (CPU_ISSET(c, &set))
                cpus.push_back(c);
    return cpus;
}

double threadCpuSeconds()
{
    timespec ts {};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

// The hypervisor's steal time of the whole machine so far, seconds (/proc/stat's 8th "cpu" field; 0
// where the system does not say).
double stolenSeconds()
{
    std::ifstream in("/proc/stat");
    std::string cpu;
    double user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0;
    if (!(in >> cpu >> user >> nice >> system >> idle >> iowait >> irq >> softirq >> steal) || cpu != "cpu")
        return 0;
    static const double ticks = double(std::max(1L, sysconf(_SC_CLK_TCK)));
    return steal / ticks;
}

// The share of the last parallel() run (on this thread's calls) that every thread had its CPU: the
// lowest of each thread's CPU time over its wall time, and 1 - the hypervisor's steal over the run.
thread_local double t_lastOccupancy = 1;

// Runs `work(thread)` on `threads` threads at once, each pinned to its own CPU (a thread the
// scheduler moves mid-test loses its caches), and returns the wall time from the common start.
template <typename Work> double parallel(int threads, Work work)
{
    static const std::vector<int> cpus = allowedCpus();
    std::atomic<int> ready { 0 };
    std::atomic<bool> go { false };
    std::vector<std::thread> pool;
    std::vector<double> shares(size_t(threads), 1.0);
    pool.reserve(size_t(threads));
    for (int t = 0; t < threads; ++t)
        pool.emplace_back([&, t] {
            if (!cpus.empty()) {
                cpu_set_t one;
                CPU_ZERO(&one);
                CPU_SET(cpus[size_t(t) % cpus.size()], &one);
                pthread_setaffinity_np(pthread_self(), sizeof one, &one);
            }
            ready.fetch_add(1);
            while (!go.load(std::memory_order_acquire))
                std::this_thread::yield();
            const auto wall0 = Clock::now();
            const double cpu0 = threadCpuSeconds();
            work(t);
            const double wall = std::chrono::duration<double>(Clock::now() - wall0).count();
            if (wall > 1e-3) // a run shorter than the scheduler's tick says nothing
                shares[size_t(t)] = std::min(1.0, (threadCpuSeconds() - cpu0) / wall);
        });
    while (ready.load() < threads)
        std::this_thread::yield();
    const double stolen0 = stolenSeconds();
    const auto start = Clock::now();
    go.store(true, std::memory_order_release);
    for (std::thread& th : pool)
        th.join();
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    double occupancy = *std::min_element(shares.begin(), shares.end());
    if (seconds > 0.05) // steal is counted in 10 ms ticks
        occupancy = std::min(occupancy, 1 - (stolenSeconds() - stolen0) / (seconds * threads));
    t_lastOccupancy = occupancy;
    return seconds;
}

} // namespace

const char* const kSuspectAdvice
    = "Another tenant or a descheduled virtual CPU may have shared the cores: measure again "
      "when the machine is quiet, or keep the suspect figures knowing they may be low.";

namespace {

// A repeat during which some thread had its CPU less than this share of the time is run again.
constexpr double kUndisturbed = kCeilingBands.undisturbed;

// The L3 the kernel's cache topology gives for CPU 0 (/sys/devices/system/cpu/cpu0/cache: from CPUID
// leaf 4 or 8000_001Dh, per core complex) and the CPUs that share it; 0 where the system does not say.
std::pair<double, std::string> topologyL3()
{
    for (int i = 0; i < 8; ++i) {
        const std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(i) + "/";
        std::ifstream level(dir + "level"), size(dir + "size"), shared(dir + "shared_cpu_list");
        int l = 0;
        std::string text, cpus;
        if (!(level >> l))
            break;
        if (l != 3 || !(size >> text))
            continue;
        shared >> cpus;
        const double n = std::atof(text.c_str());
        const char unit = text.empty() ? 'K' : text.back();
        const double bytes = n
            * (unit == 'M'        ? 1024.0 * 1024
                    : unit == 'G' ? 1024.0 * 1024 * 1024
                    : unit == 'K' ? 1024.0
                                  : 1.0);
        return { bytes, cpus };
    }
    return { 0, "" };
}

// Hardware threads per core, from /proc/cpuinfo ("siblings" over "cpu cores"); 1 where it does not say.
int threadsPerCore()
{
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    int siblings = 0, cores = 0;
    while (std::getline(in, line) && (siblings == 0 || cores == 0)) {
        const auto colon = line.find(':');
        if (colon == std::string::npos)
            continue;
        if (line.rfind("siblings", 0) == 0)
            siblings = std::atoi(line.c_str() + colon + 1);
        else if (line.rfind("cpu cores", 0) == 0)
            cores = std::atoi(line.c_str() + colon + 1);
    }
    return siblings > 0 && cores > 0 && siblings >= cores ? siblings / cores : 1;
}

double sysconfBytes(int name)
{
    const long v = sysconf(name);
    return v > 0 ? double(v) : 0;
}

std::string cpuModel()
{
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("model name", 0) == 0 && line.find(':') != std::string::npos) {
            std::string v = line.substr(line.find(':') + 1);
            v.erase(0, v.find_first_not_of(' '));
            return v;
        }
    return "this machine's CPU";
}

double cpuClockHz()
{
    std::ifstream max("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq");
    double khz = 0;
    if (max >> khz && khz > 0)
        return khz * 1e3;
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("cpu MHz", 0) == 0 && line.find(':') != std::string::npos)
            return std::atof(line.substr(line.find(':') + 1).c_str()) * 1e6;
    return 0;
}

} // namespace

std::string cpuModelName()
{
    return cpuModel();
}

double physicalMemoryBytes()
{
    return sysconfBytes(_SC_PHYS_PAGES) * sysconfBytes(_SC_PAGESIZE);
}

double raplPackageWatts()
{
    std::ifstream in("/sys/class/powercap/intel-rapl:0/constraint_0_power_limit_uw");
    double uw = 0;
    return (in >> uw && uw > 0) ? uw * 1e-6 : 0;
}

std::string expectationText(
    double measured, double expected, double perCycle, const char* perCycleUnit, const MicrobenchResult& r)
{
    if (!(expected > 0) || !(measured > 0))
        return "";
    return formatPercent(measured / expected) + " of " + formatNumber3(perCycle) + " " + perCycleUnit + " x "
        + std::to_string(r.cores) + (r.cores == 1 ? " core" : " cores") + " x " + formatSI(r.measuredClockHz, "Hz");
}

double measureClockUnderLoad(double seconds)
{
    if (!canMeasureClock())
        return 0;
    const int threads = int(std::max(1u, std::thread::hardware_concurrency()));
    long iters = 1 << 10; // rounds that take about `seconds` on one thread
    for (;;) {
        const auto t0 = Clock::now();
        g_sink = g_sink + double(clockKernel(iters));
        const double dt = std::chrono::duration<double>(Clock::now() - t0).count();
        if (dt > seconds / 8 || iters > (1L << 40)) {
            iters = std::max(1L, long(double(iters) * seconds / std::max(1e-9, dt)));
            break;
        }
        iters *= 2;
    }
    double best = 0;
    for (int k = 0; k < 3; ++k)
        best = std::max(
            best, double(iters) * 100 / parallel(threads, [&](int) { g_sink = g_sink + double(clockKernel(iters)); }));
    return best;
}

MicrobenchOptions::Earlier earlierCeilings(const Device& d)
{
    const auto perCycle = cycleFiguresFor(detectCpuIdentity());
    if (d.kind != "cpu" || d.architecture != (perCycle ? perCycle->microarchitecture : cpuModel()))
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
                  + " of what " + cores + " of " + on + " do at the measured " + formatSI(r.measuredClockHz, "Hz")
                  + " (" + rate + " " + perCycleUnit + ": " + formatSI(expected, unit) + ")";
              const bool suspect = share < suspectBelow;
              text += suspect ? ", after measuring it again: suspect." + why
                              : std::string(", after measuring it again: ") + usual;
              doubts.push_back({ figure, suspect, text });
          };
    const CycleFigures c = r.perCycle.value_or(CycleFigures {});
    const std::string oneFma = c.microarchitecture.rfind("Intel", 0) == 0
        ? " (A Xeon with one 512-bit FMA unit per core, as some Silver and Bronze parts have, "
          "does half: then it is right.)"
        : "";
    const char* streams = "read streams reach 60-90 % of the documented fill width at this level.";
    // A figure whose every repeat ran while a thread lacked its CPU, the clock first: every expected
    // figure is per cycle, and a clock measured on a shared core halves with the ceilings.
    if (r.measuredClockHz > 0 && r.clockOccupancy < kUndisturbed)
        doubts.push_back({ "clock", true,
            "The clock under load, " + formatSI(r.measuredClockHz, "Hz") + ", was measured while a thread had its CPU "
                + formatPercent(r.clockOccupancy) + " of the time at best: suspect, and every ceiling with it." });
    auto disturbed = [&](const char* figure, const BenchFigure& f, const char* unit) {
        if (f.best > 0 && f.occupancy < kUndisturbed)
            doubts.push_back({ figure, true,
                std::string(figure) + " " + formatSI(f.best, unit) + " was measured while a thread had its CPU "
                    + formatPercent(f.occupancy) + " of the time at best, in every repeat: suspect." });
    };
    disturbed("FP32", r.fp32, "FLOP/s");
    disturbed("FP64", r.fp64, "FLOP/s");
    disturbed("int8", r.int8, "OP/s");
    disturbed("L1", r.l1, "B/s");
    disturbed("L2", r.l2, "B/s");
    disturbed("L3", r.l3, "B/s");
    disturbed("DRAM", r.dram, "B/s");
    againstCycle("FP32", r.fp32, r.expected.fp32, c.fp32Flop, "FLOP/cycle", "FLOP/s", kCeilingBands.compute, oneFma, "");
    againstCycle("FP64", r.fp64, r.expected.fp64, c.fp64Flop, "FLOP/cycle", "FLOP/s", kCeilingBands.compute, oneFma, "");
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
        for (const Above& a : { Above { "FP32", r.fp32, r.expected.fp32, "FLOP/s" }, Above { "FP64", r.fp64, r.expected.fp64, "FLOP/s" },
                 Above { "int8", r.int8, r.expected.int8, "OP/s" }, Above { "L1", r.l1, r.expected.l1, "B/s" } })
            if (a.expected > 0 && a.f.best > kCeilingBands.above * a.expected) {
                doubts.push_back({ "clock", true,
                    "The clock under load, " + formatSI(r.measuredClockHz, "Hz") + ", is too low for " + a.figure + " "
                        + formatSI(a.f.best, a.unit) + " (" + formatPercent(a.f.best / a.expected) + " of what " + cores
                        + " of " + on + " do at it): it was measured while something shared the core: suspect, and every "
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
        if (!(f.best > 0) || !(before > 0) || earlier.cores != r.cores || f.best >= kCeilingBands.earlier * before * scale
            || said(figure))
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

std::optional<MicrobenchResult> runMicrobenchmarks(const MicrobenchOptions& o, const MicrobenchProgress& progress)
{
    const auto begin = Clock::now();
    MicrobenchResult r;
    const Isa isa = detectIsa();
    r.isa = isa == Isa::Avx512 ? "AVX-512" : isa == Isa::Avx2 ? "AVX2 + FMA" : "scalar";
    r.threads = o.threads > 0 ? o.threads : int(std::max(1u, std::thread::hardware_concurrency()));
    r.cores = std::max(1, r.threads / threadsPerCore());
    r.cpuName = cpuModel();
    r.cpu = detectCpuIdentity();
    r.perCycle = cycleFiguresFor(r.cpu);
    r.memoryBytes = physicalMemoryBytes();
#ifdef _SC_LEVEL1_DCACHE_SIZE
    r.l1Bytes = sysconfBytes(_SC_LEVEL1_DCACHE_SIZE);
    r.l2Bytes = sysconfBytes(_SC_LEVEL2_CACHE_SIZE);
    r.l3Bytes = sysconfBytes(_SC_LEVEL3_CACHE_SIZE);
#endif
    // The kernel's cache topology names the L3 of the core complex these CPUs share; sysconf's comes
    // from a CPUID leaf that a VM may fill with its host's whole socket (256 MiB on a 2-vCPU EPYC whose
    // complex has 16 or 32 MiB).
    if (const auto [bytes, cpus] = topologyL3(); bytes > 0) {
        if (r.l3Bytes > 0 && std::abs(r.l3Bytes - bytes) > 0.01 * bytes)
            r.l3Claimed = r.l3Bytes;
        r.l3Bytes = bytes;
        r.l3SharedBy = cpus;
    }
    r.clockHz = cpuClockHz();
    const bool vnni = hasVnni512();
    const double l2PerCore = r.l2Bytes > 0 ? r.l2Bytes : 512 * 1024.0;
    // The last level: four L2s per thread, where the system reports an L3 that holds twice that.
    const double l3PerThread = 4 * l2PerCore;
    const bool l3Test = r.l3Bytes >= 2 * l3PerThread * r.threads;
    const int repeats = std::max(1, o.repeats);
    const int tests = 7 + (vnni ? 1 : 0) + (l3Test ? 1 : 0);
    const int steps = tests * repeats;
    int step = 0;
    // Measuring a figure again adds steps the plan did not have: the fraction stays short of 1 until done.
    auto tick = [&](const std::string& stage) {
        const double fraction = std::min(double(step++), double(steps - 1)) / steps;
        return !progress || progress(fraction, stage);
    };

    // One warm-up run (clocks ramp up, pages are touched), then the repeats: best and spread. A repeat
    // during which some thread lost its CPU (another process, the hypervisor) is run again, up to
    // `repeats` times in all.
    auto measure = [&](const std::string& stage, auto once) -> std::optional<BenchFigure> {
        std::vector<std::pair<double, double>> v; // value, occupancy
        once();
        int again = 0;
        for (int k = 0; k < repeats; ++k) {
            if (!tick(stage + " (" + std::to_string(k + 1) + " of " + std::to_string(repeats) + ")"))
                return std::nullopt;
            const double value = once();
            const double occupancy = t_lastOccupancy;
            if (occupancy < kUndisturbed && again < repeats) {
                ++again;
                ++r.disturbedRepeats;
                --k;
                --step;
                continue;
            }
            v.emplace_back(value, occupancy);
        }
        std::sort(v.begin(), v.end());
        const double median
            = v.size() % 2 ? v[v.size() / 2].first : (v[v.size() / 2 - 1].first + v[v.size() / 2].first) / 2;
        BenchFigure f;
        f.best = v.back().first;
        f.spread = f.best > 0 ? (f.best - median) / f.best : 0;
        // The best undisturbed repeat counts; where none was, the best of all, marked.
        const auto quiet = std::find_if(v.rbegin(), v.rend(), [](const auto& e) { return e.second >= kUndisturbed; });
        if (quiet != v.rend())
            f.best = quiet->first;
        else
            f.occupancy = std::max_element(v.begin(), v.end(), [](const auto& a, const auto& b) {
                return a.second < b.second;
            })->second;
        return f;
    };
    // Rounds of `kernel` that last about secondsPerTest on one thread.
    auto calibrate = [&](auto kernel) {
        long iters = 1 << 10;
        for (;;) {
            const auto t0 = Clock::now();
            g_sink = g_sink + double(kernel(iters));
            const double dt = std::chrono::duration<double>(Clock::now() - t0).count();
            if (dt > o.secondsPerTest / 8 || iters > (1L << 40))
                return std::max(1L, long(double(iters) * o.secondsPerTest / std::max(1e-9, dt)));
            iters *= 2;
        }
    };

    // The clock under load, on every thread at once; what each ceiling should reach at it.
    const long clockIters = canMeasureClock() ? calibrate([](long n) { return clockKernel(n); }) : 0;
    auto measureClock = [&]() -> bool {
        if (!clockIters)
            return true;
        auto f = measure("clock", [&] {
            return double(clockIters) * 100
                / parallel(r.threads, [&](int) { g_sink = g_sink + double(clockKernel(clockIters)); });
        });
        if (!f)
            return false;
        // Measured again: kept if quieter, or as quiet and faster (the best of the rounds counts, as
        // for the ceilings; a clock timed while something shared the core reads low).
        if (r.measuredClockHz > 0 && (f->occupancy < r.clockOccupancy || (f->occupancy <= r.clockOccupancy && f->best <= r.measuredClockHz)))
            return true;
        r.measuredClockHz = f->best;
        r.clockOccupancy = f->occupancy;
        if (r.perCycle && r.measuredClockHz > 0) {
            r.expected = expectedFigures(*r.perCycle, r.cores, r.measuredClockHz);
            if (!vnni)
                r.expected.int8 = 0;
        }
        return true;
    };
    if (!measureClock())
        return std::nullopt;

    // The ceilings, each a test that can be run again.
    struct Test {
        std::string figure;
        BenchFigure* into;
        std::function<std::optional<BenchFigure>()> run;
    };
    std::vector<Test> ceilings;
    for (bool single : { true, false }) {
        const long iters = calibrate([&](long n) { return fmaKernel(isa, single, n); });
        const double flop = double(iters) * kChains * lanes(isa, single) * 2 * r.threads;
        ceilings.push_back(
            { single ? "FP32" : "FP64", single ? &r.fp32 : &r.fp64, [&, single, iters, flop] {
                 return measure(single ? "FP32 FMA, all cores" : "FP64 FMA, all cores", [&] {
                     return flop / parallel(r.threads, [&](int) { g_sink = g_sink + fmaKernel(isa, single, iters); });
                 });
             } });
    }
    if (vnni) {
        const long iters = calibrate([](long n) { return vnniKernel(n); });
        const double ops = double(iters) * kVnniChains * 64 * 2 * r.threads;
        ceilings.push_back({ "int8", &r.int8, [&, iters, ops] {
                                return measure("int8 VNNI, all cores", [&] {
                                    return ops / parallel(r.threads, [&](int) { g_sink = g_sink + vnniKernel(iters); });
                                });
                            } });
    }

    // Cache read bandwidth: per-thread working sets that fit in L1, L2 and the last level.
    using Buffer = std::unique_ptr<double[], void (*)(void*)>;
    auto buffers = [&](std::size_t n) {
        std::vector<Buffer> sets;
        for (int t = 0; t < r.threads; ++t) {
            auto* p = static_cast<double*>(std::aligned_alloc(64, n * sizeof(double)));
            if (!p)
                return std::vector<Buffer> {};
            sets.emplace_back(p, std::free);
        }
        // First touch by the thread that reads it.
        parallel(r.threads, [&](int t) { std::fill(sets[size_t(t)].get(), sets[size_t(t)].get() + n, 1.0); });
        return sets;
    };
    auto readBandwidth = [&](const std::string& stage, double perThread, bool once) -> std::optional<BenchFigure> {
        const std::size_t n = std::max<std::size_t>(128, std::size_t(perThread / sizeof(double)) / 128 * 128);
        std::vector<Buffer> sets = buffers(n);
        if (sets.empty())
            return std::nullopt;
        const long reps = calibrate([&](long k) { return sumKernel(isa, sets[0].get(), n, k); });
        const double bytes = double(n) * sizeof(double) * double(reps) * r.threads;
        auto run = [&] {
            return bytes
                / parallel(r.threads, [&](int t) { g_sink = g_sink + sumKernel(isa, sets[size_t(t)].get(), n, reps); });
        };
        if (once) { // a probe: the best of three after a warm-up (a neighbour's burst must not end the search)
            run();
            return BenchFigure { std::max({ run(), run(), run() }), 0 };
        }
        return measure(stage, run);
    };
    auto level = [&](const char* figure, const char* stage, double perThread, BenchFigure* into) {
        ceilings.push_back({ figure, into, [&, stage, perThread] { return readBandwidth(stage, perThread, false); } });
    };
    level("L1", "L1 read bandwidth", 16 * 1024.0, &r.l1);
    level("L2", "L2 read bandwidth", std::max(64 * 1024.0, l2PerCore / 4), &r.l2);
    if (l3Test)
        level("L3", "L3 read bandwidth", l3PerThread, &r.l3);
    for (const Test& t : ceilings) {
        auto f = t.run();
        if (!f)
            return std::nullopt;
        *t.into = *f;
    }
    // A ceiling in doubt is measured again, twice at most, after a pause (a neighbour's burst passes);
    // the best of all rounds counts. What stays in doubt is reported (ceilingDoubts).
    for (int round = 0; round < 2; ++round) {
        const auto doubts = ceilingDoubts(r, o.earlier);
        if (doubts.empty())
            break;
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        if (std::any_of(doubts.begin(), doubts.end(), [](const auto& d) { return d.figure == "clock"; })
            && !measureClock())
            return std::nullopt;
        for (const Test& t : ceilings) {
            if (std::none_of(doubts.begin(), doubts.end(), [&](const auto& d) { return d.figure == t.figure; }))
                continue;
            auto f = t.run();
            if (!f)
                return std::nullopt;
            const bool quieter = f->occupancy > t.into->occupancy, asQuiet = f->occupancy >= t.into->occupancy;
            if (quieter || (asQuiet && f->best > t.into->best))
                *t.into = *f;
        }
    }
    if (l3Test) {
        // The usable last level: double the working set while it still reads at 3/4 of the L3 speed,
        // up to the L3 the core complex has. A size that reads slower is tried once more before the
        // search ends there: one burst of a neighbour must not halve the cache.
        r.l3Usable = l3PerThread * r.threads;
        for (double perThread = 2 * l3PerThread; perThread * r.threads <= r.l3Bytes; perThread *= 2) {
            if (!tick("L3 usable size (" + std::to_string(int(perThread * r.threads / (1024 * 1024))) + " MiB)"))
                return std::nullopt;
            --step; // the probes share one step of the progress
            auto f = readBandwidth("", perThread, true);
            if (f && f->best < 0.75 * r.l3.best)
                f = readBandwidth("", perThread, true);
            if (!f || f->best < 0.75 * r.l3.best)
                break;
            r.l3Usable = perThread * r.threads;
        }
        ++step;
    }

    // DRAM: the triad over arrays far beyond the last-level cache.
    double footprint = o.dramBytes;
    if (footprint <= 0) {
        footprint = std::clamp(4 * std::max(std::max(r.l3Bytes, r.l3Claimed), r.l2Bytes * r.threads),
            256.0 * 1024 * 1024, 2048.0 * 1024 * 1024);
        if (r.memoryBytes > 0)
            footprint = std::min(footprint, r.memoryBytes / 4);
    }
    const std::size_t n = std::size_t(footprint / 3 / sizeof(double));
    std::unique_ptr<double[]> a(new (std::nothrow) double[n]), b(new (std::nothrow) double[n]),
        c(new (std::nothrow) double[n]);
    if (!a || !b || !c)
        return std::nullopt;
    auto slice = [&](int t) {
        const std::size_t lo = n * std::size_t(t) / std::size_t(r.threads),
                          hi = n * std::size_t(t + 1) / std::size_t(r.threads);
        return std::pair { lo, hi };
    };
    // First touch by the thread that will use each part (NUMA placement).
    parallel(r.threads, [&](int t) {
        auto [lo, hi] = slice(t);
        for (std::size_t i = lo; i < hi; ++i)
            a[i] = 0, b[i] = 1, c[i] = 2;
    });
    auto triad = [&](int passes) {
        const double s = 3.0;
        return parallel(r.threads, [&](int t) {
            auto [lo, hi] = slice(t);
            double* __restrict pa = a.get();
            const double* __restrict pb = b.get();
            const double* __restrict pc = c.get();
            for (int p = 0; p < passes; ++p)
                for (std::size_t i = lo; i < hi; ++i)
                    pa[i] = pb[i] + s * pc[i];
        });
    };
    // Enough passes per repeat to last about secondsPerTest: one short pass is at the mercy of a noisy neighbour.
    const int passes = std::clamp(int(o.secondsPerTest / std::max(1e-6, triad(1))), 1, 1000);
    auto f = measure("DRAM triad", [&] { return 24.0 * double(n) * passes / triad(passes); });
    if (!f)
        return std::nullopt;
    r.dram = *f;
    g_sink = g_sink + a[n / 2];
    r.doubts = ceilingDoubts(r, o.earlier);
    if (progress)
        progress(1.0, "done");
    r.seconds = std::chrono::duration<double>(Clock::now() - begin).count();
    return r;
}

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
    if (r.perCycle && r.measuredClockHz > 0) {
        notes << " Against " << r.perCycle->microarchitecture << "'s per-cycle figures (" << r.perCycle->source
              << ") at the measured " << formatSI(r.measuredClockHz, "Hz") << " on " << r.cores << " cores: FP32 "
              << formatPercent(r.fp32.best / r.expected.fp32) << ", FP64 "
              << formatPercent(r.fp64.best / r.expected.fp64) << ", L1 " << formatPercent(r.l1.best / r.expected.l1)
              << ", L2 " << formatPercent(r.l2.best / r.expected.l2);
        if (r.int8.best > 0 && r.expected.int8 > 0)
            notes << ", int8 " << formatPercent(r.int8.best / r.expected.int8);
        if (r.l3.best > 0 && r.expected.l3 > 0)
            notes << ", L3 " << formatPercent(r.l3.best / r.expected.l3);
        notes << ".";
    }
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
