// This machine as the system describes it, before anything is measured: the CPU's model and ISA,
// threads and cores, the caches (the kernel's topology over sysconf's, which a VM may fill with its
// host's), memory, the nominal clock, the package power limit.
#include "measure/microbench.h"

#include "measure/cpu_expectations.h"
#include "measure/cpu_kernels.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include <unistd.h>

namespace rfx {

namespace {

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

std::string cpuModelName() { return cpuModel(); }

double physicalMemoryBytes() { return sysconfBytes(_SC_PHYS_PAGES) * sysconfBytes(_SC_PAGESIZE); }

double raplPackageWatts()
{
    std::ifstream in("/sys/class/powercap/intel-rapl:0/constraint_0_power_limit_uw");
    double uw = 0;
    return (in >> uw && uw > 0) ? uw * 1e-6 : 0;
}

MicrobenchResult describeMachine(const MicrobenchOptions& o)
{
    using namespace cpu;
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
    return r;
}

} // namespace rfx
