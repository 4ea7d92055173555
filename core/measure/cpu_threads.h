#pragma once

#include <vector>

// What the micro-benchmarks' parallel runs need of the system (cpu_threads.cpp).
namespace rfx::cpu {

/// The CPUs this process may run on, in order: thread t is pinned to the t-th of them.
std::vector<int> allowedCpus();
/// This thread's CPU time so far, second.
double threadCpuSeconds();
/// The hypervisor's steal time of the whole machine so far, second (/proc/stat; 0 where not said).
double stolenSeconds();

} // namespace rfx::cpu
