#pragma once
// Internal to measure/: the kernels microbench.cpp times.

#include <cstddef>

namespace rfx::cpu {

/// Independent FMA chains per kernel call: enough to hide the FMA latency on every core we know.
inline constexpr int kChains = 12;
/// Independent VNNI chains: 12 left a quarter of the int8 rate unused on an AMD Zen 5 (its
/// vpdpbusd's latency is longer than the FMA's); 16 reached it there, 24 gave no more.
inline constexpr int kVnniChains = 16;
/// Independent accumulators of the streaming sums: two loads a cycle against an add latency of up to
/// four cycles (Intel since Skylake) needs eight; sixteen leave room.
inline constexpr int kSumAccumulators = 16;

enum class Isa { Avx512, Avx2, Scalar };
/// The widest vector instructions this CPU runs (x86: AVX-512F, else AVX2 with FMA, else scalar).
Isa detectIsa();
/// Elements per vector register for single (float) or double precision.
int lanes(Isa isa, bool single);
/// `iters` rounds of 12 independent FMAs (FLOP: iters x 12 x lanes x 2); the returned value
/// depends on every one, so that nothing is optimised away.
double fmaKernel(Isa isa, bool single, long iters);
/// Sums p[0..n) `reps` times (bytes read: n x 8 x reps, n a multiple of 128).
double sumKernel(Isa isa, const double* p, std::size_t n, long reps);
/// Whether this CPU has AVX-512 VNNI (vpdpbusd on 512-bit registers).
bool hasVnni512();
/// `iters` rounds of kVnniChains independent vpdpbusd (int8 operations: iters x kVnniChains x 64
/// multiply-adds x 2); 0 where the CPU has no AVX-512 VNNI.
double vnniKernel(long iters);
/// Independent FMA chains of the vector clock's kernel: few enough that every core we know runs them at
/// one link per FMA latency (a core with one 512-bit FMA a cycle, a Zen 4 or a one-unit Xeon, needs
/// at most latency x 1 = 4 chains), enough that the units stay busy as under load (half the FMA rate
/// on the cores with two 512-bit units).
inline constexpr int kLatencyChains = 4;
/// `iters` rounds of kLatencyChains dependent single-precision FMAs on the widest vectors: iters x the
/// core's FMA latency cycles (CycleFigures::fmaLatency), whatever the width, at the vector units' clock.
double fmaLatencyKernel(Isa isa, long iters);
/// `iters` rounds of 100 dependent integer additions: one a cycle on every x86 core (Agner Fog's
/// instruction tables: ADD r,r latency 1), so iters x 100 / seconds is the core clock. 0 elsewhere.
long clockKernel(long iters);
/// Whether clockKernel measures the clock on this build (x86).
bool canMeasureClock();

} // namespace rfx::cpu
