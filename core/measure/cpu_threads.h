#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include <pthread.h>
#include <sched.h>

// What the micro-benchmarks' parallel runs need of the system (cpu_threads.cpp), and the pinned run
// itself (microbench.cpp's tests and the memory probe a measurement takes before and after its rows).
namespace rfx::cpu {

/// The CPUs this process may run on, in order: thread t is pinned to the t-th of them.
std::vector<int> allowedCpus();
/// This thread's CPU time so far, second.
double threadCpuSeconds();
/// The hypervisor's steal time of the whole machine so far, second (/proc/stat; 0 where not said).
double stolenSeconds();

// The share of the last parallel() run (on this thread's calls) that every thread had its CPU: the
// lowest of each thread's CPU time over its wall time, and 1 - the hypervisor's steal over the run.
inline thread_local double t_lastOccupancy = 1;

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
            const auto wall0 = std::chrono::steady_clock::now();
            const double cpu0 = threadCpuSeconds();
            work(t);
            const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
            if (wall > 1e-3) // a run shorter than the scheduler's tick says nothing
                shares[size_t(t)] = std::min(1.0, (threadCpuSeconds() - cpu0) / wall);
        });
    while (ready.load() < threads)
        std::this_thread::yield();
    const double stolen0 = stolenSeconds();
    const auto start = std::chrono::steady_clock::now();
    go.store(true, std::memory_order_release);
    for (std::thread& th : pool)
        th.join();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    double occupancy = *std::min_element(shares.begin(), shares.end());
    if (seconds > 0.05) // steal is counted in 10 ms ticks
        occupancy = std::min(occupancy, 1 - (stolenSeconds() - stolen0) / (seconds * threads));
    t_lastOccupancy = occupancy;
    return seconds;
}

} // namespace rfx::cpu
