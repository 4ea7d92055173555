// The micro-benchmarks' inner loops: FMA chains for peak FLOP/s and streaming sums for bandwidth,
// in AVX-512, AVX2 + FMA or portable scalar code, chosen at run time.
#include "measure/cpu_kernels.h"

#include <cstddef>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define RFX_X86 1
#endif

// The 12 accumulators must live in registers. GCC 12 at -O2 does not unroll a 12-round loop over an
// array, so without this each FMA went through a store and a load: the kernel then measured
// store-forwarding latency, a third to a fifth of the peak (this VM: 96 GFLOP/s instead of about 300,
// and oneDNN's convolutions ran "above the roof"). Unrolled, the array becomes registers; the empty asm
// makes every accumulator opaque after each round, so no compiler folds the chains away.
#define RFX_UNROLL _Pragma("GCC unroll 32")
#define RFX_KEEP_IN_REGISTERS(a, n)                                                                                    \
    do {                                                                                                               \
        RFX_UNROLL                                                                                                     \
        for (int k_ = 0; k_ < (n); ++k_)                                                                               \
            asm volatile("" : "+v"(a[k_]));                                                                            \
    } while (0)

namespace rfx::cpu {

namespace {

// --- peak FLOP/s -------------------------------------------------------------------------------
// Each kernel runs `iters` rounds of 12 independent FMAs and returns a value that depends on all of
// them, so that nothing is optimised away. FLOP per call: iters x 12 x lanes x 2.

#ifdef RFX_X86
// Single precision at any chain count: kChains for the peak, kLatencyChains for the vector clock
// (fewer than the FMA latency x the units, so each round waits for its last FMA's result).
template <int Chains> __attribute__((target("avx512f"))) double fma512f(long iters)
{
    __m512 a[Chains];
    RFX_UNROLL
    for (int k = 0; k < Chains; ++k)
        a[k] = _mm512_set1_ps(1.0f + float(k) * 1e-3f);
    const __m512 b = _mm512_set1_ps(0.999999f), c = _mm512_set1_ps(1e-6f);
    for (long i = 0; i < iters; ++i) {
        RFX_UNROLL
        for (int k = 0; k < Chains; ++k)
            a[k] = _mm512_fmadd_ps(a[k], b, c);
        RFX_KEEP_IN_REGISTERS(a, Chains);
    }
    __m512 s = a[0];
    RFX_UNROLL
    for (int k = 1; k < Chains; ++k)
        s = _mm512_add_ps(s, a[k]);
    // Stored and summed by hand: GCC 12's _mm512_reduce_add_* warns about its own internals.
    alignas(64) float out[16];
    _mm512_store_ps(out, s);
    double t = 0;
    for (float v : out)
        t += v;
    return t;
}
__attribute__((target("avx512f"))) double fma512d(long iters)
{
    __m512d a[kChains];
    RFX_UNROLL
    for (int k = 0; k < kChains; ++k)
        a[k] = _mm512_set1_pd(1.0 + k * 1e-3);
    const __m512d b = _mm512_set1_pd(0.999999), c = _mm512_set1_pd(1e-6);
    for (long i = 0; i < iters; ++i) {
        RFX_UNROLL
        for (int k = 0; k < kChains; ++k)
            a[k] = _mm512_fmadd_pd(a[k], b, c);
        RFX_KEEP_IN_REGISTERS(a, kChains);
    }
    __m512d s = a[0];
    RFX_UNROLL
    for (int k = 1; k < kChains; ++k)
        s = _mm512_add_pd(s, a[k]);
    alignas(64) double out[8];
    _mm512_store_pd(out, s);
    double t = 0;
    for (double v : out)
        t += v;
    return t;
}
template <int Chains> __attribute__((target("avx2,fma"))) double fma256f(long iters)
{
    __m256 a[Chains];
    RFX_UNROLL
    for (int k = 0; k < Chains; ++k)
        a[k] = _mm256_set1_ps(1.0f + float(k) * 1e-3f);
    const __m256 b = _mm256_set1_ps(0.999999f), c = _mm256_set1_ps(1e-6f);
    for (long i = 0; i < iters; ++i) {
        RFX_UNROLL
        for (int k = 0; k < Chains; ++k)
            a[k] = _mm256_fmadd_ps(a[k], b, c);
        RFX_KEEP_IN_REGISTERS(a, Chains);
    }
    alignas(32) float out[8];
    __m256 s = a[0];
    RFX_UNROLL
    for (int k = 1; k < Chains; ++k)
        s = _mm256_add_ps(s, a[k]);
    _mm256_store_ps(out, s);
    double t = 0;
    for (float v : out)
        t += v;
    return t;
}
__attribute__((target("avx2,fma"))) double fma256d(long iters)
{
    __m256d a[kChains];
    RFX_UNROLL
    for (int k = 0; k < kChains; ++k)
        a[k] = _mm256_set1_pd(1.0 + k * 1e-3);
    const __m256d b = _mm256_set1_pd(0.999999), c = _mm256_set1_pd(1e-6);
    for (long i = 0; i < iters; ++i) {
        RFX_UNROLL
        for (int k = 0; k < kChains; ++k)
            a[k] = _mm256_fmadd_pd(a[k], b, c);
        RFX_KEEP_IN_REGISTERS(a, kChains);
    }
    alignas(32) double out[4];
    __m256d s = a[0];
    RFX_UNROLL
    for (int k = 1; k < kChains; ++k)
        s = _mm256_add_pd(s, a[k]);
    _mm256_store_pd(out, s);
    return out[0] + out[1] + out[2] + out[3];
}
__attribute__((target("avx2"))) double sum256(const double* p, std::size_t n, long reps)
{
    __m256d s[kSumAccumulators];
    RFX_UNROLL
    for (int k = 0; k < kSumAccumulators; ++k)
        s[k] = _mm256_setzero_pd();
    for (long r = 0; r < reps; ++r)
        for (std::size_t i = 0; i + 4 * kSumAccumulators <= n; i += 4 * kSumAccumulators) {
            RFX_UNROLL
            for (int k = 0; k < kSumAccumulators; ++k)
                s[k] = _mm256_add_pd(s[k], _mm256_load_pd(p + i + 4 * k));
        }
    RFX_UNROLL
    for (int k = 1; k < kSumAccumulators; ++k)
        s[0] = _mm256_add_pd(s[0], s[k]);
    alignas(32) double out[4];
    _mm256_store_pd(out, s[0]);
    return out[0] + out[1] + out[2] + out[3];
}
// 512-bit loads: a core that loads two 64-byte vectors a cycle (Intel since Skylake-SP, AMD Zen 5)
// reaches only half of its L1 bandwidth with 256-bit ones, and four accumulators on the add latency
// held the old kernel to a quarter of it (this VM: 408 GB/s for two cores, now about 800).
__attribute__((target("avx512f"))) double sum512(const double* p, std::size_t n, long reps)
{
    __m512d s[kSumAccumulators];
    RFX_UNROLL
    for (int k = 0; k < kSumAccumulators; ++k)
        s[k] = _mm512_setzero_pd();
    for (long r = 0; r < reps; ++r)
        for (std::size_t i = 0; i + 8 * kSumAccumulators <= n; i += 8 * kSumAccumulators) {
            RFX_UNROLL
            for (int k = 0; k < kSumAccumulators; ++k)
                s[k] = _mm512_add_pd(s[k], _mm512_load_pd(p + i + 8 * k));
        }
    RFX_UNROLL
    for (int k = 1; k < kSumAccumulators; ++k)
        s[0] = _mm512_add_pd(s[0], s[k]);
    alignas(64) double out[8];
    _mm512_store_pd(out, s[0]);
    double t = 0;
    for (double v : out)
        t += v;
    return t;
}
__attribute__((target("avx512f,avx512bw,avx512vnni"))) double vnni512(long iters)
{
    __m512i a[kVnniChains];
    RFX_UNROLL
    for (int k = 0; k < kVnniChains; ++k)
        a[k] = _mm512_set1_epi32(k);
    const __m512i b = _mm512_set1_epi8(1), c = _mm512_set1_epi8(2);
    for (long i = 0; i < iters; ++i) {
        RFX_UNROLL
        for (int k = 0; k < kVnniChains; ++k)
            a[k] = _mm512_dpbusd_epi32(a[k], b, c);
        RFX_UNROLL
        for (int k = 0; k < kVnniChains; ++k)
            asm volatile("" : "+v"(a[k]));
    }
    RFX_UNROLL
    for (int k = 1; k < kVnniChains; ++k)
        a[0] = _mm512_add_epi32(a[0], a[k]);
    alignas(64) int out[16];
    _mm512_store_si512(out, a[0]);
    double t = 0;
    for (int v : out)
        t += v;
    return t;
}
#endif

template <typename T> double fmaScalar(long iters)
{
    T a[kChains];
    for (int k = 0; k < kChains; ++k)
        a[k] = T(1) + T(k) * T(1e-3);
    const T b = T(0.999999), c = T(1e-6);
    for (long i = 0; i < iters; ++i) {
        RFX_UNROLL
        for (int k = 0; k < kChains; ++k)
            a[k] = a[k] * b + c;
    }
    double s = 0;
    for (T v : a)
        s += double(v);
    return s;
}

double sumScalar(const double* p, std::size_t n, long reps)
{
    double s[4] = {};
    for (long r = 0; r < reps; ++r)
        for (std::size_t i = 0; i + 4 <= n; i += 4) {
            s[0] += p[i];
            s[1] += p[i + 1];
            s[2] += p[i + 2];
            s[3] += p[i + 3];
        }
    return s[0] + s[1] + s[2] + s[3];
}

} // namespace

Isa detectIsa()
{
#ifdef RFX_X86
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f"))
        return Isa::Avx512;
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
        return Isa::Avx2;
#endif
    return Isa::Scalar;
}

int lanes(Isa isa, bool single)
{
    switch (isa) {
    case Isa::Avx512:
        return single ? 16 : 8;
    case Isa::Avx2:
        return single ? 8 : 4;
    case Isa::Scalar:
        break;
    }
    return 1;
}

double fmaKernel(Isa isa, bool single, long iters)
{
#ifdef RFX_X86
    if (isa == Isa::Avx512)
        return single ? fma512f<kChains>(iters) : fma512d(iters);
    if (isa == Isa::Avx2)
        return single ? fma256f<kChains>(iters) : fma256d(iters);
#endif
    return single ? fmaScalar<float>(iters) : fmaScalar<double>(iters);
}

double sumKernel(Isa isa, const double* p, std::size_t n, long reps)
{
#ifdef RFX_X86
    if (isa == Isa::Avx512)
        return sum512(p, n, reps);
    if (isa == Isa::Avx2)
        return sum256(p, n, reps);
#endif
    return sumScalar(p, n, reps);
}

double fmaLatencyKernel(Isa isa, long iters)
{
#ifdef RFX_X86
    if (isa == Isa::Avx512)
        return fma512f<kLatencyChains>(iters);
    if (isa == Isa::Avx2)
        return fma256f<kLatencyChains>(iters);
#endif
    (void)isa;
    (void)iters;
    return 0; // scalar: no vector units to time
}

bool hasVnni512()
{
#ifdef RFX_X86
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512vnni") && __builtin_cpu_supports("avx512bw");
#else
    return false;
#endif
}

double vnniKernel(long iters)
{
#ifdef RFX_X86
    if (hasVnni512())
        return vnni512(iters);
#endif
    (void)iters;
    return 0;
}

bool canMeasureClock()
{
#if defined(__x86_64__)
    return true;
#else
    return false;
#endif
}

long clockKernel(long iters)
{
    long x = 0;
#if defined(__x86_64__)
    const long one = 1;
    for (long i = 0; i < iters; ++i)
        asm volatile(".rept 100\n\tadd %1, %0\n\t.endr" : "+r"(x) : "r"(one));
#else
    (void)iters;
#endif
    return x;
}

} // namespace rfx::cpu
