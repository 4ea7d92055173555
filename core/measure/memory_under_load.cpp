// The memory's read bandwidth now (microbench.h): a probe a measurement takes before and after its
// rows, as it takes the clock, on pinned threads as the micro-benchmarks run.
#include "measure/cpu_kernels.h"
#include "measure/cpu_threads.h"
#include "measure/microbench.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <memory>
#include <vector>

namespace rfx {

double measureDramReadUnderLoad()
{
    const MicrobenchResult machine = describeMachine({});
    const int threads = std::max(1, machine.threads);
    // Four times the last level the topology gives these CPUs (not a VM's CPUID, which may give its
    // host's whole socket: a probe taken twice a measurement must be quick, about 0.1 s here).
    double footprint = std::clamp(
        4 * std::max(machine.l3Bytes, machine.l2Bytes * threads), 256.0 * 1024 * 1024, 1024.0 * 1024 * 1024);
    if (machine.memoryBytes > 0)
        footprint = std::min(footprint, machine.memoryBytes / 8);
    const std::size_t n = std::max<std::size_t>(128, std::size_t(footprint / threads / sizeof(double)) / 128 * 128);
    using Buffer = std::unique_ptr<double[], void (*)(void*)>;
    std::vector<Buffer> sets;
    for (int t = 0; t < threads; ++t) {
        auto* p = static_cast<double*>(std::aligned_alloc(64, n * sizeof(double)));
        if (!p)
            return 0;
        sets.emplace_back(p, std::free);
    }
    const cpu::Isa isa = cpu::detectIsa();
    std::atomic<double> sink { 0 }; // the sums land here, so that no read is optimised away
    // First touch by the thread that reads it; then one read to warm up and the best of three.
    cpu::parallel(threads, [&](int t) { std::fill(sets[size_t(t)].get(), sets[size_t(t)].get() + n, 1.0); });
    double best = 0;
    for (int k = 0; k < 4; ++k) {
        const double seconds
            = cpu::parallel(threads, [&](int t) { sink = sink + cpu::sumKernel(isa, sets[size_t(t)].get(), n, 1); });
        if (k > 0 && seconds > 0)
            best = std::max(best, double(n) * sizeof(double) * threads / seconds);
    }
    return sink.load() == -1 ? 0 : best;
}

} // namespace rfx
