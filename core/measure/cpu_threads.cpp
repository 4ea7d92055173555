// The thread accounting of the micro-benchmarks (microbench.cpp): the CPUs to pin to, a thread's CPU
// time and the hypervisor's steal, from which each repeat's CPU share is judged.
#include "measure/cpu_threads.h"

#include <algorithm>
#include <ctime>
#include <fstream>
#include <string>

#include <sched.h>
#include <unistd.h>

namespace rfx::cpu {

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

} // namespace rfx::cpu
