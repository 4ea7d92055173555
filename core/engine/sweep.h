#pragma once

#include "devices/device.h"
#include "engine/roofline.h"
#include "model/config.h"
#include "model/network.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rfx {

/// Closed-form evaluation of one network structure over batch size, bits and devices, for sweeps.
///
/// Every row's FLOPs and elements moved are affine in the batch N (activations scale with N; weights,
/// their gradients and the optimizer step do not), and bytes are elements times bits/8. So the model
/// takes each row's costs from the engine itself (analyze() at N = 1 and N = 2, 8-bit elements:
/// slope = c(2) - c(1), intercept = 2 c(1) - c(2), exact for integers below 2^53), and a point of the
/// sweep is a sum over rows of max(F(N) / P, Q(N) e / B), with no network to build and no report to
/// allocate. evaluate() equals analyze()'s totals (tests compare them on random configurations).
class SweepModel {
public:
    /// `config` fixes the structure (U-Net parameters, mode, optimizer, fusion); its batch and bits
    /// are ignored. Nothing if the configuration is not valid, or uses a convolution algorithm other
    /// than direct or the naive or tiled traffic model (`error` says why).
    /// `build` gives the network at batches 1 and 2 (open/analyses.h sweepModel: the opener's).
    static std::optional<SweepModel> make(
        const Config& config, const NetworkBuilder& build, std::string* error = nullptr);

    /// A device's ceilings for one precision choice, looked up once per sweep.
    struct Ceilings {
        double matrix = 0; ///< FLOP/s for convolutions (tensor cores where chosen)
        double vector = 0; ///< FLOP/s for elementwise rows, pooling and the optimizer
        double bandwidth = 0; ///< byte/s
        double capacity = 0; ///< byte
        double launchOverhead = 0; ///< second per kernel
        double elementBytes = 4;
    };
    static Ceilings ceilings(const Device& device, int bits, bool tensorCores);

    struct Point {
        double time = 0; ///< second per batch
        double flops = 0;
        double bytes = 0;
        double throughput = 0; ///< images per second
        double memory = 0; ///< footprint, byte
        bool fits = true;
        std::int64_t largestBatch = 0;
        double memoryBoundTimeShare = 0;
    };
    Point evaluate(const Ceilings& ceilings, int batch) const;

    std::int64_t params() const { return m_params; }
    size_t rows() const { return m_matrix.size(); }

private:
    // Per row, structure of arrays: F(N) = fSlope N + fFixed; elements(N) = qSlope N + qFixed.
    std::vector<double> m_fSlope, m_fFixed, m_qSlope, m_qFixed, m_kernels;
    std::vector<unsigned char> m_matrix;
    double m_memFixed = 0; ///< elements: weights, gradients, optimizer state
    double m_memPerImage = 0; ///< elements of activations per image
    std::int64_t m_params = 0;
};

} // namespace rfx
