#include "microbench.h"

#include "cpu_kernels.h"

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

#include <unistd.h>

namespace rfx {

namespace {

using Clock = std::chrono::steady_clock;

using namespace cpu;

std::atomic<double> g_sink { 0 }; // results land here so that no kernel is optimised away

// Runs `work(thread)` on `threads` threads at once and returns the wall time from the common start.
template <typename Work>
double parallel(int threads, Work work)
{
    std::atomic<int> ready { 0 };
    std::atomic<bool> go { false };
    std::vector<std::thread> pool;
    pool.reserve(size_t(threads));
    for (int t = 0; t < threads; ++t)
        pool.emplace_back([&, t] {
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

std::optional<MicrobenchResult> runMicrobenchmarks(const MicrobenchOptions& o, const MicrobenchProgress& progress)
{
    const auto begin = Clock::now();
    MicrobenchResult r;
    const Isa isa = detectIsa();
    r.isa = isa == Isa::Avx512 ? "AVX-512" : isa == Isa::Avx2 ? "AVX2 + FMA" : "scalar";
    r.threads = o.threads > 0 ? o.threads : int(std::max(1u, std::thread::hardware_concurrency()));
    r.cpuName = cpuModel();
    r.memoryBytes = physicalMemoryBytes();
#ifdef _SC_LEVEL1_DCACHE_SIZE
    r.l1Bytes = sysconfBytes(_SC_LEVEL1_DCACHE_SIZE);
    r.l2Bytes = sysconfBytes(_SC_LEVEL2_CACHE_SIZE);
    r.l3Bytes = sysconfBytes(_SC_LEVEL3_CACHE_SIZE);
#endif
    r.clockHz = cpuClockHz();
    const int repeats = std::max(1, o.repeats);
    const int steps = 5 * repeats;
    int step = 0;
    auto tick = [&](const std::string& stage) { return !progress || progress(double(step++) / steps, stage); };

    // Repeats of one measurement: best and spread.
    auto measure = [&](const std::string& stage, auto once) -> std::optional<BenchFigure> {
        std::vector<double> v;
        for (int k = 0; k < repeats; ++k) {
            if (!tick(stage + " (" + std::to_string(k + 1) + " of " + std::to_string(repeats) + ")"))
                return std::nullopt;
            v.push_back(once());
        }
        BenchFigure f;
        f.best = *std::max_element(v.begin(), v.end());
        f.spread = f.best > 0 ? (f.best - *std::min_element(v.begin(), v.end())) / f.best : 0;
        return f;
    };

    // FMA: calibrate the rounds so that one repeat lasts about secondsPerTest.
    for (bool single : { true, false }) {
        long iters = 1 << 14;
        for (;;) {
            const auto t0 = Clock::now();
            g_sink = g_sink + fmaKernel(isa, single, iters);
            const double dt = std::chrono::duration<double>(Clock::now() - t0).count();
            if (dt > o.secondsPerTest / 8 || iters > (1L << 40))
                break;
            iters *= 2;
        }
        iters = std::max(1L, long(double(iters) * o.secondsPerTest / std::max(1e-9, [&] {
            const auto t0 = Clock::now();
            g_sink = g_sink + fmaKernel(isa, single, iters);
            return std::chrono::duration<double>(Clock::now() - t0).count();
        }())));
        const double flop = double(iters) * kChains * lanes(isa, single) * 2 * r.threads;
        auto f = measure(single ? "FP32 FMA, all cores" : "FP64 FMA, all cores", [&] {
            return flop / parallel(r.threads, [&](int) { g_sink = g_sink + fmaKernel(isa, single, iters); });
        });
        if (!f)
            return std::nullopt;
        (single ? r.fp32 : r.fp64) = *f;
    }

    // Cache read bandwidth: per-thread working sets that fit in L1 and in L2.
    for (bool level1 : { true, false }) {
        const double perCore = level1 ? 16 * 1024.0 : std::max(64 * 1024.0, (r.l2Bytes > 0 ? r.l2Bytes : 512 * 1024.0) / 4);
        const std::size_t n = std::size_t(perCore / sizeof(double)) / 16 * 16;
        std::vector<std::unique_ptr<double[], void (*)(void*)>> sets;
        for (int t = 0; t < r.threads; ++t) {
            auto* p = static_cast<double*>(std::aligned_alloc(64, n * sizeof(double)));
            if (!p)
                return std::nullopt;
            std::fill(p, p + n, 1.0);
            sets.emplace_back(p, std::free);
        }
        long reps = 1;
        for (;;) {
            const auto t0 = Clock::now();
            g_sink = g_sink + sumKernel(isa, sets[0].get(), n, reps);
            if (std::chrono::duration<double>(Clock::now() - t0).count() > o.secondsPerTest / 4 || reps > (1L << 40))
                break;
            reps *= 2;
        }
        const double bytes = double(n) * sizeof(double) * double(reps) * r.threads;
        auto f = measure(level1 ? "L1 read bandwidth" : "L2 read bandwidth", [&] {
            return bytes / parallel(r.threads, [&](int t) { g_sink = g_sink + sumKernel(isa, sets[size_t(t)].get(), n, reps); });
        });
        if (!f)
            return std::nullopt;
        (level1 ? r.l1 : r.l2) = *f;
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
          << "): best of the repeats, spreads FP32 " << r.fp32.spread * 100 << " %, FP64 " << r.fp64.spread * 100
          << " %, DRAM " << r.dram.spread * 100 << " %, L1 " << r.l1.spread * 100 << " %, L2 " << r.l2.spread * 100
          << " %. tdp_w is the figure given when measuring (not measured); idle_w is taken as 10 % of it. Edit both "
             "for the energy model.";
    nlohmann::ordered_json d;
    d["schema"] = 1;
    d["id"] = id;
    d["name"] = name;
    d["kind"] = "cpu";
    d["architecture"] = r.cpuName;
    d["cores"] = r.threads;
    d["peak"] = { { "fp32_tflops", round4(r.fp32.best / 1e12) }, { "fp64_tflops", round4(r.fp64.best / 1e12) } };
    d["dram_gbs"] = round4(r.dram.best / 1e9);
    d["memory_gib"] = std::round(r.memoryBytes / double(1 << 30) * 10) / 10;
    if (r.l1Bytes > 0)
        d["l1_kib"] = r.l1Bytes / 1024;
    d["l2_mib"] = r.l2Bytes > 0 ? r.l2Bytes / (1024.0 * 1024) : 0.5;
    if (r.l3Bytes > 0)
        d["l3_mib"] = r.l3Bytes / (1024.0 * 1024);
    // The cache figures are measured per working set; the hierarchy wants each level at least as fast as the
    // one behind it, which a measurement on a busy machine may not give.
    const double l2 = std::max(r.l2.best, r.dram.best), l1 = std::max(r.l1.best, l2);
    d["l2_gbs"] = round4(l2 / 1e9);
    d["l1_gbs"] = round4(l1 / 1e9);
    d["tdp_w"] = tdpWatts;
    d["idle_w"] = std::round(tdpWatts * 0.1 * 10) / 10;
    d["boost_clock_mhz"] = r.clockHz > 0 ? std::round(r.clockHz / 1e6) : 1000;
    d["sources"] = { "Measured on this machine by roofline-cli measure / Tools > Measure this machine (method: README "
                     "'Measure this machine')" };
    d["notes"] = notes.str() + (r.clockHz > 0 ? "" : " boost_clock_mhz unknown here: 1000 is a stand-in.");
    return d.dump(2) + "\n";
}

} // namespace rfx
