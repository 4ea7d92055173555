// The ceilings held against the library's own kernels (microbench.h, MicrobenchResult::KernelRates):
// a ceiling is what no kernel of this machine beats, and the FMA chains and read streams are not
// always the fastest code a core runs (issue 72: on an Intel Ice Lake-SP VM oneDNN's convolutions
// reached 98 % of the chains' FP32 figure, and its decode weight product streamed 25.4 GB/s where
// the read stream measured 22.8).
#include "base/format.h"
#include "measure/layer_bench.h"
#include "measure/microbench.h"
#include "model/networks.h"

#include <algorithm>
#include <cmath>

namespace rfx {

namespace {

// The weights the stream probe reads: four times the last level these CPUs read at L3 speed (its
// usable size where measured: a VM's topology may give its host's whole L3, 508 MiB on this project's
// Zen 5 VM, which reads 32 MiB at L3 speed), 256 MiB to 1 GiB, so that no cache holds them between runs.
double streamWeightTarget(const MicrobenchResult& machine)
{
    const double l3 = machine.l3Usable > 0 ? machine.l3Usable : machine.l3Bytes;
    double bytes = std::clamp(
        4 * std::max(l3, machine.l2Bytes * std::max(1, machine.threads)), 256.0 * 1024 * 1024, 1024.0 * 1024 * 1024);
    if (machine.memoryBytes > 0)
        bytes = std::min(bytes, machine.memoryBytes / 8);
    return bytes;
}

constexpr std::int64_t kProbeInputs = 512LL * 30 * 30; // the probes' input, flattened for the stream

} // namespace

MicrobenchResult::KernelRates measureKernelRates(const MicrobenchResult& machine, bool quick)
{
    MicrobenchResult::KernelRates k;
    const double element = 4; // f32
    const auto outputs = std::int64_t(std::ceil(streamWeightTarget(machine) / (double(kProbeInputs) * element)));
    BuildResult built = buildCeilingProbes(outputs);
    if (!built.network)
        return k;
    LayerBenchOptions o = quick ? LayerBenchOptions::quickMode() : LayerBenchOptions::fullMode();
    o.memoryProbe = false; // the streams were measured a moment ago
    o.rowBudgetSeconds = quick ? 0.25 : 1;
    Config config;
    config.bits = 32;
    const NetworkMeasurement m = measureNetwork(*built.network, config, o);
    // Each row's rate from its fastest run, as the chains' and streams' ceilings are the best repeat.
    for (const RowMeasurement& row : m.rows) {
        if (!row.measured || !(row.best > 0))
            continue;
        if (row.layer == "probe.conv") {
            // No padding: every tap of the convention's 2 x Cout x H x W x Cin x 3 x 3 is computed.
            k.matrixFlops = 2.0 * 512 * 28 * 28 * 512 * 9 / row.best;
            k.matrixKernel = row.primitive;
        } else if (row.layer == "probe.stream") {
            k.streamWeightBytes = double(kProbeInputs) * double(outputs) * element;
            k.streamBytes = (k.streamWeightBytes + double(kProbeInputs + outputs) * element) / row.best;
            k.streamKernel = row.primitive;
        }
    }
    return k;
}

void raiseToKernels(MicrobenchResult& r, const MicrobenchResult::KernelRates& k)
{
    r.kernels = k;
    r.kernels.fp32Chains = r.kernels.dramStreams = 0;
    if (k.matrixFlops > r.fp32.best && r.fp32.best > 0) {
        r.kernels.fp32Chains = r.fp32.best;
        r.fp32.best = k.matrixFlops;
    }
    if (k.streamBytes > r.dram.best && r.dram.best > 0) {
        r.kernels.dramStreams = r.dram.best;
        r.dram.best = k.streamBytes;
    }
}

std::vector<std::string> kernelRateLines(const MicrobenchResult& r)
{
    std::vector<std::string> lines;
    const MicrobenchResult::KernelRates& k = r.kernels;
    if (k.matrixFlops > 0)
        lines.push_back("oneDNN's " + k.matrixKernel
            + ", a 3x3 convolution of 512 channels: " + formatSI(k.matrixFlops, "FLOP/s") + ", "
            + (k.fp32Chains > 0 ? "now the FP32 peak (the FMA chains reached " + formatSI(k.fp32Chains, "FLOP/s") + ")"
                                : formatPercent(k.matrixFlops / r.fp32.best) + " of the FP32 peak"));
    if (k.streamBytes > 0)
        lines.push_back("oneDNN's " + k.streamKernel + " over " + formatSI(k.streamWeightBytes, "B")
            + " of weights: " + formatSI(k.streamBytes, "B/s") + ", "
            + (k.dramStreams > 0 ? "now the DRAM roof (the streams reached " + formatSI(k.dramStreams, "B/s") + ")"
                                 : formatPercent(k.streamBytes / r.dram.best) + " of the DRAM roof"));
    return lines;
}

} // namespace rfx
