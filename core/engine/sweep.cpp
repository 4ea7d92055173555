#include "engine/sweep.h"

#include "engine/cost.h"
#include "engine/roofline.h"
#include "model/unet.h"

#include <algorithm>
#include <cmath>

namespace rfx {

std::optional<SweepModel> SweepModel::make(const Config& base, const NetworkBuilder& build, std::string* error)
{
    // Algorithms (auto is a per-device minimum; workspaces mix fixed and per-image parts) and the
    // naive and tiled traffic models (clamped, so not affine in the batch) have no closed form here.
    if (base.algorithm != ConvAlgorithm::Direct || !base.layerAlgorithms.empty() || base.traffic == TrafficModel::Naive
        || base.traffic == TrafficModel::Tiled) {
        if (error)
            *error = "the sweep model covers direct convolution under compulsory or fused traffic";
        return std::nullopt;
    }
    if (base.clockPercent != 100) {
        if (error)
            *error = "the sweep model evaluates at the boost clock";
        return std::nullopt;
    }
    // The engine's own numbers at N = 1 and N = 2, with 1-byte elements so that bytes are elements.
    // Any positive device will do: only the FLOPs, bytes and footprints are read.
    Device probe;
    probe.peak["fp32"] = 1e12;
    probe.peak["fp16"] = 1e12;
    probe.peak["fp64"] = 1e12;
    probe.peak["int8"] = 1e12;
    probe.dramBandwidth = 1e11;
    probe.memoryBytes = 1e12;
    const std::vector<Device> devices { probe };
    std::optional<Report> at[2];
    for (int n : { 1, 2 }) {
        Config c = base;
        c.batch = n;
        c.bits = 8;
        c.tensorCores = false;
        BuildResult built = build(c);
        if (!built.network) {
            if (error)
                *error = built.error;
            return std::nullopt;
        }
        at[n - 1] = analyze(*built.network, c, devices);
    }
    const DeviceResult& r1 = at[0]->results.front();
    const DeviceResult& r2 = at[1]->results.front();
    SweepModel m;
    const size_t rows = r1.layers.size();
    m.m_fSlope.reserve(rows);
    for (size_t i = 0; i < rows; ++i) {
        const LayerResult& a = r1.layers[i];
        const LayerResult& b = r2.layers[i];
        m.m_fSlope.push_back(b.flops - a.flops);
        m.m_fFixed.push_back(2 * a.flops - b.flops);
        m.m_qSlope.push_back(b.bytes - a.bytes);
        m.m_qFixed.push_back(2 * a.bytes - b.bytes);
        m.m_kernels.push_back(a.kernels);
        m.m_matrix.push_back(runsOnMatrixUnits(a.op) ? 1 : 0);
    }
    const MemoryFootprint& mem1 = r1.totals.memory;
    m.m_memFixed = mem1.fixedBytes();
    m.m_memPerImage = mem1.activations;
    m.m_params = r1.totals.params;
    return m;
}

SweepModel::Ceilings SweepModel::ceilings(const Device& device, int bits, bool tensorCores)
{
    Ceilings c;
    c.matrix = chooseCeiling(device, bits, tensorCores).flops;
    c.vector = chooseCeiling(device, bits, false).flops;
    c.bandwidth = device.dramBandwidth;
    c.capacity = device.memoryBytes;
    c.launchOverhead = device.launchOverhead;
    c.elementBytes = elementBytes(bits);
    return c;
}

SweepModel::Point SweepModel::evaluate(const Ceilings& c, int batch) const
{
    Point p;
    const double n = batch;
    const double e = c.elementBytes;
    double memoryBound = 0;
    for (size_t i = 0; i < m_matrix.size(); ++i) {
        const double f = m_fSlope[i] * n + m_fFixed[i];
        const double q = (m_qSlope[i] * n + m_qFixed[i]) * e;
        const double peak = m_matrix[i] ? c.matrix : c.vector;
        // As analyze(): t = max(F / P, Q / B) + kernels * overhead; memory-bound iff I * B < P.
        const double computeTime = peak > 0 ? f / peak : 0;
        const double memoryTime = c.bandwidth > 0 ? q / c.bandwidth : 0;
        const double t = std::max(computeTime, memoryTime) + m_kernels[i] * c.launchOverhead;
        const double intensity = q > 0 ? f / q : 0;
        if (c.bandwidth > 0 && intensity * c.bandwidth < peak)
            memoryBound += t;
        p.flops += f;
        p.bytes += q;
        p.time += t;
    }
    p.throughput = p.time > 0 ? n / p.time : 0;
    p.memoryBoundTimeShare = p.time > 0 ? memoryBound / p.time : 0;
    MemoryFootprint footprint;
    footprint.weights = m_memFixed * e; // fixed part: weights, gradients, optimizer state
    footprint.activations = m_memPerImage * n * e;
    p.memory = footprint.total();
    p.fits = p.memory <= c.capacity;
    p.largestBatch = largestBatchThatFits(footprint, batch, c.capacity);
    return p;
}

} // namespace rfx
