#pragma once

#include "config.h"
#include "network.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace rfx {

/// How long measuring a network may take. Each row runs alone as oneDNN primitives: warm-up runs,
/// then timed runs until `runs` or the row's time budget, whichever comes first (at least one);
/// the best and the median are kept, benchdnn's way.
struct LayerBenchOptions {
    int warmups = 3;
    int runs = 25;
    double rowBudgetSeconds = 2;
    double totalBudgetSeconds = 900;
    /// Buffers one row may allocate, byte (0: half of this machine's physical memory). A row that
    /// needs more is skipped before anything is allocated.
    double memoryLimitBytes = 0;
    /// 1 warm-up, up to 5 runs, 0.25 s a row, 60 s in all.
    static LayerBenchOptions quickMode();
    /// The defaults: 3 warm-ups, up to 25 runs, 2 s a row, 15 minutes in all.
    static LayerBenchOptions fullMode();
};

/// One row, measured or not.
struct RowMeasurement {
    std::string layer; ///< the row's name in the model
    std::string op; ///< the model's op (conv, relu, ...)
    std::string primitive; ///< oneDNN's primitive and implementation, "convolution (brg:avx2)"
    bool measured = false;
    std::string skipped; ///< why not, when not measured
    double best = 0; ///< second, the fastest timed run
    double median = 0; ///< second
    double spread = 0; ///< (slowest - fastest) / median of the timed runs
    int runs = 0; ///< timed runs
    /// Reorders into the formats the library chose (format_tag::any) for the row's input and weights
    /// and back for its output, second: what the choice costs a framework that keeps plain layouts.
    double reorder = 0;
};

struct NetworkMeasurement {
    std::string library; ///< "oneDNN 2.6.3"
    std::string cpu; ///< "AMD EPYC 7763 64-Core Processor"
    int threads = 0;
    std::string dataType; ///< "f32", "bf16"
    std::vector<RowMeasurement> rows; ///< one per row of the network, in order
    bool cancelled = false;
    double seconds = 0; ///< wall time of the whole measurement
    std::string error; ///< set when nothing could be measured (training mode, a type the CPU lacks)
    int measuredCount() const;
};

/// `fraction` done (0..1) and the row being measured; return false to cancel. Called between runs,
/// so that a cancel takes effect within one run of one row.
using LayerBenchProgress = std::function<bool(double fraction, const std::string& row)>;

/// Why `config` cannot be measured on this CPU (training; 64 bits; 16 bits without AVX-512; 8 without AVX2),
/// or nothing: asked before anything is measured, and by measureNetwork itself.
std::optional<std::string> measurementRefusal(const Config& config);

/// Runs every row of `network` (built for `config`) alone on this CPU with oneDNN at the
/// configuration's precision (32 bits: f32; 16: bf16 where the CPU has it; 8: int8, u8 activations and
/// s8 weights with f32 bias, where the CPU has AVX2; 64 is refused with a message). Inference rows only: training is refused. Rows oneDNN cannot run are listed
/// with the reason.
NetworkMeasurement measureNetwork(const Network& network, const Config& config, const LayerBenchOptions& options,
    const LayerBenchProgress& progress = {});

/// The plain measurement CSV that `roofline-cli compare` and the window read: a header of comments
/// (tool, library, CPU, threads, date, the configuration's arguments), then
/// layer,time_s,best_s,median_s,spread,runs,reorder_s,primitive with time_s the median; rows not
/// measured are comment lines with the reason.
std::string networkMeasurementCsv(const NetworkMeasurement& m, const std::vector<std::string>& configArgs, const std::string& date);

} // namespace rfx
