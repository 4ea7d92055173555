#include "measure/cpu_expectations.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#define RFX_X86 1
#endif

#include <cstring>

namespace rfx {

CpuIdentity detectCpuIdentity()
{
    CpuIdentity id;
#ifdef RFX_X86
    unsigned a = 0, b = 0, c = 0, d = 0;
    if (!__get_cpuid(0, &a, &b, &c, &d))
        return id;
    char vendor[13] = {};
    std::memcpy(vendor, &b, 4);
    std::memcpy(vendor + 4, &d, 4);
    std::memcpy(vendor + 8, &c, 4);
    id.vendor = vendor;
    if (!__get_cpuid(1, &a, &b, &c, &d))
        return id;
    // Display family and model (Intel SDM vol. 2A, CPUID leaf 1; AMD's CPUID specification): the
    // extended fields count where the base family is 15 (AMD) or 6 and 15 (Intel's model).
    const int baseFamily = int((a >> 8) & 0xF), baseModel = int((a >> 4) & 0xF);
    id.family = baseFamily == 0xF ? baseFamily + int((a >> 20) & 0xFF) : baseFamily;
    id.model = (baseFamily == 0xF || baseFamily == 0x6) ? baseModel | int(((a >> 16) & 0xF) << 4) : baseModel;
#endif
    return id;
}

std::optional<CycleFigures> cycleFiguresFor(const CpuIdentity& cpu)
{
    const int f = cpu.family, m = cpu.model;
    auto in = [m](int lo, int hi) { return m >= lo && m <= hi; };
    if (cpu.vendor == "AuthenticAMD") {
        // Zen and Zen+ (EPYC 7001, Ryzen 1000-2000, models 00h-2Fh): four 128-bit FP pipes, two of them
        // multiply-add, two 128-bit loads a cycle, 32 B/cycle from L2 and from L3.
        if (f == 0x17 && in(0x00, 0x2F))
            return CycleFigures { "AMD Zen / Zen+", 16, 8, 32, 32, 32,
                "AMD Software Optimization Guide for AMD Family 17h Processors (pub. 55723), 2.11-2.12", 5 };
        // Zen 2 (EPYC 7002 Rome 31h, Ryzen 3000 Matisse 71h, Renoir 60h, Lucienne 68h, Van Gogh 90h,
        // Mendocino A0h): the FP pipes widened to 256 bits, two FMA; two 256-bit loads a cycle; 32
        // B/cycle from L2 and from L3.
        if (f == 0x17 && (in(0x30, 0x3F) || in(0x60, 0x7F) || in(0x90, 0xAF)))
            return CycleFigures { "AMD Zen 2", 32, 16, 64, 32, 32,
                "AMD Software Optimization Guide for AMD Family 17h Models 30h and Greater Processors (pub. 56305), "
                "2.11-2.12",
                5 };
        // Zen 3: two 256-bit FMA pipes, two 256-bit loads a cycle, 32 B/cycle from L2 and from L3.
        if (f == 0x19 && (in(0x00, 0x0F) || in(0x20, 0x2F) || in(0x40, 0x5F)))
            return CycleFigures { "AMD Zen 3", 32, 16, 64, 32, 32,
                "AMD Software Optimization Guide for AMD Family 19h Processors (pub. 56665), 2.11-2.12", 4 };
        // Zen 4: the same two 256-bit FMA pipes (AVX-512 runs in two halves), two 256-bit loads a cycle
        // (one 512-bit), 32 B/cycle from L2 and from L3.
        if (f == 0x19 && (in(0x10, 0x1F) || in(0x60, 0x7F) || in(0xA0, 0xAF)))
            return CycleFigures { "AMD Zen 4", 32, 16, 64, 32, 32,
                "AMD Software Optimization Guide for the AMD Zen4 Microarchitecture (pub. 57647), 2.11-2.12", 4 };
        // Zen 5 (EPYC 9005 and the desktop parts): two 512-bit FMA pipes, two 512-bit loads a cycle,
        // 64 B/cycle from L2, 32 B/cycle from L3. The mobile parts (models 20h-2Fh, 60h-7Fh) have
        // 256-bit data paths and are left out.
        if (f == 0x1A && (in(0x00, 0x1F) || in(0x40, 0x4F)))
            return CycleFigures { "AMD Zen 5", 64, 32, 128, 64, 32,
                "AMD Software Optimization Guide for the AMD Zen5 Microarchitecture (pub. 58455), 2.11-2.12; "
                "AMD, 'Zen 5', Hot Chips 2024",
                4 };
        return std::nullopt;
    }
    if (cpu.vendor == "GenuineIntel" && f == 6) {
        // Server cores with two 512-bit FMA units (Xeon Gold 6000 and Platinum; some smaller Xeons have
        // one, and then measure half), two 64-byte loads a cycle, 64 B/cycle from L2. Their L3 is a mesh
        // with no per-cycle figure.
        const char* name = m == 0x55   ? "Intel Skylake-SP / Cascade Lake"
            : (m == 0x6A || m == 0x6C) ? "Intel Ice Lake-SP"
            : m == 0x8F                ? "Intel Sapphire Rapids"
            : m == 0xCF                ? "Intel Emerald Rapids"
            : (m == 0xAD || m == 0xAE) ? "Intel Granite Rapids"
                                       : nullptr;
        if (name)
            return CycleFigures { name, 64, 32, 128, 64, 0,
                "Intel 64 and IA-32 Architectures Optimization Reference Manual (248966), cache parameters of "
                "the Skylake Server, Ice Lake and Golden Cove microarchitectures",
                4 };
    }
    return std::nullopt;
}

ExpectedFigures expectedFigures(const CycleFigures& c, int cores, double clockHz)
{
    const double k = double(cores) * clockHz;
    return ExpectedFigures { c.fp32Flop * k, c.fp64Flop * k, c.int8Ops() * k, c.l1Bytes * k, c.l2Bytes * k,
        c.l3Bytes * k };
}

} // namespace rfx
