#pragma once
// What a core of a known microarchitecture can do per cycle, from its vendor's optimization guide,
// so that "measure this machine" can say how close each micro-benchmark came (measured / expected).

#include <optional>
#include <string>

namespace rfx {

/// The CPU as CPUID names it: vendor ("AuthenticAMD", "GenuineIntel"), display family and model.
struct CpuIdentity {
    std::string vendor;
    int family = 0;
    int model = 0;
};
/// This CPU (x86: CPUID leaf 0 and 1); empty vendor elsewhere.
CpuIdentity detectCpuIdentity();

/// Per core and cycle, for the widest vectors the core runs. 0 = no documented figure.
struct CycleFigures {
    std::string microarchitecture; ///< "AMD Zen 5", "Intel Ice Lake-SP"
    double fp32Flop = 0; ///< FMA units x lanes x 2
    double fp64Flop = 0;
    double l1Bytes = 0; ///< vector loads a cycle x their width
    double l2Bytes = 0; ///< L2 to L1 fill bandwidth
    double l3Bytes = 0; ///< L3 to L2 (per core)
    /// int8 operations with AVX-512 VNNI: vpdpbusd issues as often as the FMA of the same width and does
    /// 4x its multiply-adds (64 against 16 per 512 bits), so 4 x fp32Flop where the core has VNNI.
    double int8Ops() const { return 4 * fp32Flop; }
    std::string source; ///< where the figures come from
    /// Cycles from a vector FMA to the next one that takes its result: a chain of them times the clock the
    /// vector units run at, which is not always the integer units' (an AVX-512 licence lowers it on
    /// Intel Xeons: issue 72). Agner Fog's instruction tables (VFMADD..PS): 5 on Zen and Zen 2, 4 on Zen
    /// 3, Zen 4 and Intel's server cores since Skylake-SP; 4 on Zen 5 (measured on this project's VM:
    /// 3.97 cycles of the integer clock a link). 0: unknown (the integer clock is used).
    int fmaLatency = 0;
};

/// The figures of a known microarchitecture, or nothing (then no expectation is given).
std::optional<CycleFigures> cycleFiguresFor(const CpuIdentity& cpu);

/// Expected figures for the whole machine: per-cycle figures x cores x clock (0 where unknown).
struct ExpectedFigures {
    double fp32 = 0, fp64 = 0; ///< FLOP/s
    double int8 = 0; ///< operations/s (where the core has AVX-512 VNNI; the caller decides)
    double l1 = 0, l2 = 0, l3 = 0; ///< byte/s
};
ExpectedFigures expectedFigures(const CycleFigures& perCycle, int cores, double clockHz);

} // namespace rfx
