#include "microbench.h"

#include "cpu_kernels.h"
#include "format.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <fstream>
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

// Runs `work(thread)` on `threads` threads at once, each pinned to its own CPU (a thread the
// scheduler moves mid-test loses its caches), and returns the wall time from the common start.
template <typename Work>
double parallel(int threads, Work work)
{
    static const std::vector<int> cpus = allowedCpus();
    std::atomic<int> ready { 0 };
    std::atomic<bool> go { false };
    std::vector<std::thread> pool;
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
            work(t);
        });
    while (ready.load() < threads)
        std::this_thread::yield();
    const auto start = Clock::now();
    go.store(true, std::memory_order_release);
    for (std::thread& th : pool)
        th.join();
    return std::chrono::duration<double>(Clock::now() - start).count();
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

std::string cpuModelName() { return cpuModel(); }

double physicalMemoryBytes() { return sysconfBytes(_SC_PHYS_PAGES) * sysconfBytes(_SC_PAGESIZE); }

double raplPackageWatts()
{
    std::ifstream in("/sys/class/powercap/intel-rapl:0/constraint_0_power_limit_uw");
    double uw = 0;
    return (in >> uw && uw > 0) ? uw * 1e-6 : 0;
}

std::string expectationText(double measured, double expected, double perCycle, const char* perCycleUnit, const MicrobenchResult& r)
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
        best = std::max(best, double(iters) * 100 / parallel(threads, [&](int) { g_sink = g_sink + double(clockKernel(iters)); }));
    return best;
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
    auto tick = [&](const std::string& stage) { return !progress || progress(double(step++) / steps, stage); };

    // One warm-up run (clocks ramp up, pages are touched), then the repeats: best and spread.
    auto measure = [&](const std::string& stage, auto once) -> std::optional<BenchFigure> {
        std::vector<double> v;
        once();
        for (int k = 0; k < repeats; ++k) {
            if (!tick(stage + " (" + std::to_string(k + 1) + " of " + std::to_string(repeats) + ")"))
                return std::nullopt;
            v.push_back(once());
        }
        std::sort(v.begin(), v.end());
        const double median = v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
        BenchFigure f;
        f.best = v.back();
        f.spread = f.best > 0 ? (f.best - median) / f.best : 0;
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

    // The clock under load, on every thread at once.
    if (canMeasureClock()) {
        const long iters = calibrate([](long n) { return clockKernel(n); });
        auto f = measure("clock", [&] {
            return double(iters) * 100 / parallel(r.threads, [&](int) { g_sink = g_sink + double(clockKernel(iters)); });
        });
        if (!f)
            return std::nullopt;
        r.measuredClockHz = f->best;
    }
    if (r.perCycle && r.measuredClockHz > 0) {
        r.expected = expectedFigures(*r.perCycle, r.cores, r.measuredClockHz);
        if (!vnni)
            r.expected.int8 = 0;
    }

    for (bool single : { true, false }) {
        const long iters = calibrate([&](long n) { return fmaKernel(isa, single, n); });
        const double flop = double(iters) * kChains * lanes(isa, single) * 2 * r.threads;
        auto f = measure(single ? "FP32 FMA, all cores" : "FP64 FMA, all cores", [&] {
            return flop / parallel(r.threads, [&](int) { g_sink = g_sink + fmaKernel(isa, single, iters); });
        });
        if (!f)
            return std::nullopt;
        (single ? r.fp32 : r.fp64) = *f;
    }
    if (vnni) {
        const long iters = calibrate([](long n) { return vnniKernel(n); });
        const double ops = double(iters) * kVnniChains * 64 * 2 * r.threads;
        auto f = measure("int8 VNNI, all cores", [&] {
            return ops / parallel(r.threads, [&](int) { g_sink = g_sink + vnniKernel(iters); });
        });
        if (!f)
            return std::nullopt;
        r.int8 = *f;
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
        auto run = [&] { return bytes / parallel(r.threads, [&](int t) { g_sink = g_sink + sumKernel(isa, sets[size_t(t)].get(), n, reps); }); };
        if (once) { // a probe: the best of three after a warm-up (a neighbour's burst must not end the search)
            run();
            return BenchFigure { std::max({ run(), run(), run() }), 0 };
        }
        return measure(stage, run);
    };
    struct Level {
        const char* stage;
        double perThread;
        BenchFigure* into;
    };
    std::vector<Level> levels { { "L1 read bandwidth", 16 * 1024.0, &r.l1 },
        { "L2 read bandwidth", std::max(64 * 1024.0, l2PerCore / 4), &r.l2 } };
    if (l3Test)
        levels.push_back({ "L3 read bandwidth", l3PerThread, &r.l3 });
    for (const Level& level : levels) {
        auto f = readBandwidth(level.stage, level.perThread, false);
        if (!f)
            return std::nullopt;
        *level.into = *f;
    }
    if (l3Test) {
        // The usable last level: double the working set while it still reads at 3/4 of the L3 speed.
        r.l3Usable = l3PerThread * r.threads;
        for (double perThread = 2 * l3PerThread; perThread * r.threads <= r.l3Bytes; perThread *= 2) {
            if (!tick("L3 usable size (" + std::to_string(int(perThread * r.threads / (1024 * 1024))) + " MiB)"))
                return std::nullopt;
            --step; // the probes share one step of the progress
            auto f = readBandwidth("", perThread, true);
            if (!f || f->best < 0.75 * r.l3.best)
                break;
            r.l3Usable = perThread * r.threads;
        }
        ++step;
    }

    // DRAM: the triad over arrays far beyond the last-level cache.
    double footprint = o.dramBytes;
    if (footprint <= 0) {
        footprint = std::clamp(4 * std::max(r.l3Bytes, r.l2Bytes * r.threads), 256.0 * 1024 * 1024, 2048.0 * 1024 * 1024);
        if (r.memoryBytes > 0)
            footprint = std::min(footprint, r.memoryBytes / 4);
    }
    const std::size_t n = std::size_t(footprint / 3 / sizeof(double));
    std::unique_ptr<double[]> a(new (std::nothrow) double[n]), b(new (std::nothrow) double[n]), c(new (std::nothrow) double[n]);
    if (!a || !b || !c)
        return std::nullopt;
    auto slice = [&](int t) {
        const std::size_t lo = n * std::size_t(t) / std::size_t(r.threads), hi = n * std::size_t(t + 1) / std::size_t(r.threads);
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
    if (progress)
        progress(1.0, "done");
    r.seconds = std::chrono::duration<double>(Clock::now() - begin).count();
    return r;
}

std::string microbenchDeviceJson(const MicrobenchResult& r, const std::string& id, const std::string& name, double tdpWatts)
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
              << ") at the measured " << formatSI(r.measuredClockHz, "Hz") << " on " << r.cores
              << " cores: FP32 " << formatPercent(r.fp32.best / r.expected.fp32) << ", FP64 "
              << formatPercent(r.fp64.best / r.expected.fp64) << ", L1 " << formatPercent(r.l1.best / r.expected.l1)
              << ", L2 " << formatPercent(r.l2.best / r.expected.l2);
        if (r.int8.best > 0 && r.expected.int8 > 0)
            notes << ", int8 " << formatPercent(r.int8.best / r.expected.int8);
        if (r.l3.best > 0 && r.expected.l3 > 0)
            notes << ", L3 " << formatPercent(r.l3.best / r.expected.l3);
        notes << ".";
    }
    if (r.l3Usable > 0 && r.l3Bytes > 0 && r.l3Usable < r.l3Bytes)
        notes << " l3_mib is the largest working set that still read at L3 speed; the system reports "
              << r.l3Bytes / (1024 * 1024) << " MiB (a virtual machine shares a slice of its host's).";
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
    d["notes"] = notes.str() + (clock > 0 ? (r.measuredClockHz > 0 ? " boost_clock_mhz is the clock measured under load." : "")
                                                 : " boost_clock_mhz unknown here: 1000 is a stand-in.");
    return d.dump(2) + "\n";
}

} // namespace rfx
