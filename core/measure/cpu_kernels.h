#pragma once
// Internal to measure/: the kernels microbench.cpp times.

#include <cstddef>

namespace rfx::cpu {

/// Independent FMA chains per kernel call: enough to hide the FMA latency on every core we know.
inline constexpr int kChains = 12;

enum class Isa { Avx512, Avx2, Scalar };
/// The widest vector instructions this CPU runs (x86: AVX-512F, else AVX2 with FMA, else scalar).
Isa detectIsa();
/// Elements per vector register for single (float) or double precision.
int lanes(Isa isa, bool single);
/// `iters` rounds of 12 independent FMAs (FLOP: iters x 12 x lanes x 2); the returned value
/// depends on every one, so that nothing is optimised away.
double fmaKernel(Isa isa, bool single, long iters);
/// Sums p[0..n) `reps` times (bytes read: n x 8 x reps).
double sumKernel(Isa isa, const double* p, std::size_t n, long reps);

} // namespace rfx::cpu
