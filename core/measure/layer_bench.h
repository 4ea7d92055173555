#pragma once

#include "model/config.h"
#include "model/network.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace rfx {

/// How long measuring a network may take. Each row runs alone as oneDNN primitives: warm-up runs,
/// then timed runs until `runs` or the row's time budget, whichever comes first (at least one a
/// round); the best and the median are kept, benchdnn's way. The runs are spread over `rounds`
/// passes through the network, so that a burst of another tenant's work, or a clock that moves for
/// a second, touches a few runs of many rows rather than every run of a few (measured apart, the
/// rows of one U-Net repeated within 4 % in total but up to 22 % apart row by row). A timed run of
/// a row shorter than `minRunSeconds` executes it back to back as often as that takes and counts
/// the mean: a 5-us ReLU timed alone measures the threads waking up as much as the kernel.
struct LayerBenchOptions {
    int warmups = 3; ///< a round
    int runs = 25; ///< in all the rounds
    int rounds = 5;
    double minRunSeconds = 1e-3;
    double rowBudgetSeconds = 2; ///< in all the rounds
    double totalBudgetSeconds = 900;
    /// Buffers one row may allocate, byte (0: half of this machine's physical memory). A row that
    /// needs more is skipped before anything is allocated.
    double memoryLimitBytes = 0;
    /// Read the memory's bandwidth before and after the rows (NetworkMeasurement::dramBefore): off
    /// where a caller runs several networks as one measurement and probes once around them all.
    bool memoryProbe = true;
    /// 3 rounds of 1 warm-up and up to 3 runs, 0.25 s a row, 60 s in all.
    static LayerBenchOptions quickMode();
    /// The defaults: 5 rounds of 3 warm-ups and up to 5 runs, 2 s a row, 15 minutes in all.
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
    int executionsPerRun = 1; ///< back-to-back executions a timed run averages (LayerBenchOptions::minRunSeconds)
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
    /// The clock under load just before and just after the rows, Hz (measureClockUnderLoad; 0 where
    /// it cannot be measured). Apart by more than 3 %: the machine changed under the measurement.
    double clockBefore = 0, clockAfter = 0;
    /// The memory's read bandwidth just before and just after the rows, byte/s
    /// (measureDramReadUnderLoad; 0 where not measured). Apart by more than 10 %: another tenant
    /// loaded the memory bus under the measurement, which moves every memory-bound row.
    double dramBefore = 0, dramAfter = 0;
    /// Why the measurement is not to be trusted, or empty: the clock moved, rows spread widely.
    std::string noise;
    std::string error; ///< set when nothing could be measured (training mode, a type the CPU lacks)
    std::string command = "measure --network"; ///< the roofline-cli command that made it (the CSV says so)
    /// The CSV's time_s is each row's fastest run, not its median (measure --llm): what the machine
    /// can do when no other tenant shares its memory bus (llm_measure.cpp says why).
    bool timeIsBest = false;
    std::vector<std::string> notes; ///< more the CSV's comment lines say of its rows
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
/// s8 weights with f32 bias, where the CPU has AVX2; 64 is refused with a message). Inference rows only: training is
/// refused. Rows oneDNN cannot run are listed with the reason.
NetworkMeasurement measureNetwork(const Network& network, const Config& config, const LayerBenchOptions& options,
    const LayerBenchProgress& progress = {});

/// Why the measurement's times are not to be trusted (the clock under load moved by over 3 %
/// between before and after the rows; the memory's read bandwidth moved by over 10 %; the rows'
/// medians sit over 10 % above their best runs, weighted by their time), with what to do; empty
/// when none.
std::string noiseVerdict(const NetworkMeasurement& m);

/// The plain measurement CSV that `roofline-cli compare` and the window read: a header of comments
/// (tool, library, CPU, threads, date, the configuration's arguments), then
/// layer,time_s,best_s,median_s,spread,runs,reorder_s,primitive with time_s the median; rows not
/// measured are comment lines with the reason.
std::string networkMeasurementCsv(
    const NetworkMeasurement& m, const std::vector<std::string>& configArgs, const std::string& date);

} // namespace rfx
