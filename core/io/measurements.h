#pragma once

#include "base/diagnostic.h"
#include "base/enum_words.h"
#include "engine/calibration.h"
#include "engine/roofline.h"

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace rfx {

/// Measured timings to hold against the model. Three formats, told apart by their content:
///  plain CSV        header "layer,time_s" with optional "flops" and "bytes" columns; '#' starts a comment
///  Nsight Compute   `ncu --csv` (details page: one row per kernel and metric, columns "ID", "Kernel Name",
///                   "Metric Name", "Metric Unit", "Metric Value"): gpu__time_duration.sum, dram__bytes.sum
///                   (or dram__bytes_read.sum + dram__bytes_write.sum), FLOPs from the
///                   smsp__sass_thread_inst_executed_op_{d,f,h}{add,mul,fma}_pred_on.sum counters (FMA counts 2).
///                   Units as ncu prints them: nsecond/usecond/msecond/second; byte/Kbyte/Mbyte/Gbyte (decimal)
///  PyTorch trace    the profiler's Chrome trace JSON (`prof.export_chrome_trace`): complete events
///                   ("ph": "X") of category "kernel", "dur" in microseconds, summed per launching operator
///                   (the cpu_op with the kernel's "External id": per-operator device time); kernels
///                   without one stay on their own; in start order
enum class MeasurementFormat { PlainCsv, NsightCompute, PyTorchTrace };
inline constexpr EnumWord<MeasurementFormat> kMeasurementFormatWords[] = { { MeasurementFormat::PlainCsv, "plain CSV" },
    { MeasurementFormat::NsightCompute, "Nsight Compute CSV" }, { MeasurementFormat::PyTorchTrace, "PyTorch trace" } };
std::string_view measurementFormatName(MeasurementFormat f); ///< "plain CSV", "Nsight Compute CSV", "PyTorch trace"

struct Measurement {
    std::string name; ///< the layer (plain CSV), kernel (ncu, trace) name
    double time = 0; ///< second
    double flops = -1; ///< FLOP; negative: not measured
    double bytes = -1; ///< DRAM byte; negative: not measured
    // From roofline-cli measure --network (negative: not in the file):
    double best = -1; ///< the fastest timed run, second (time is the median; measure --llm: the fastest)
    double median = -1; ///< second
    double spread = -1; ///< (slowest - fastest) / median
    double runs = -1; ///< timed runs
    double reorder = -1; ///< reorders into and out of the library's formats, second
    std::string primitive; ///< the primitive and implementation that ran, "pooling (jit:avx512_core)"
    int line = 0; ///< 1-based line (CSV) or event number (trace), for messages
};

struct MeasurementSet {
    MeasurementFormat format = MeasurementFormat::PlainCsv;
    std::string file;
    std::vector<Measurement> rows;
    /// The options after a plain CSV's "# configuration:" header line (roofline-cli measure writes it:
    /// the configuration the rows were measured at), in words; empty when there is none.
    std::vector<std::string> configuration;
    /// A plain CSV's "# noisy:" header line, roofline-cli measure's own verdict on its run ("the clock
    /// moved from 3.47 GHz to 3.59 GHz during the measurement: ..."); empty when the file has none.
    std::string noise;
    std::vector<Diagnostic> diagnostics; ///< an error means the set is unusable; each names file, line/field, reason
    bool ok() const { return !hasErrors(diagnostics); }
    /// A language model's measurement (measure --llm: its configuration starts "--llm"): its rows are
    /// a model's phases, never a network's.
    bool ofLanguageModel() const { return !configuration.empty() && configuration.front() == "--llm"; }
};

MeasurementSet parseMeasurements(std::string_view text, const std::string& file);

/// True for a oneDNN implementation no framework's CPU path would time: the reference kernels
/// ("ref:any", "ref_..."; oneDNN's implementation list, src/cpu/cpu_*_list.cpp) and the scalar
/// "simple_nchw" pooling. `primitive` as measured: "pooling (simple_nchw:any)".
bool isReferenceKernel(std::string_view primitive);
MeasurementSet loadMeasurements(const std::filesystem::path& path);

/// One model row against what was measured for it.
struct LayerComparison {
    std::size_t layer = 0; ///< index into DeviceResult::layers
    double measured = 0; ///< second (the sum of the rows mapped to it)
    double measuredFlops = -1; ///< FLOP, negative when not measured
    double measuredBytes = -1;
    double bound = 0; ///< the model's time bound, second
    double efficiency = 0; ///< bound / measured: the share of the roofline bound reached
    double error = 0; ///< measured / bound - 1
    /// Measured faster than the roofline allows (by over 5 %): the file's units, the FLOP convention
    /// (an FMA counted once) or a layer mapped to the wrong row.
    bool aboveRoof = false;
    /// Above the roof by more than its own runs' spread too (the file's spread column, at least 5 %):
    /// not a run that a neighbour's pause flattered. On a compute-bound row, or a DRAM-bound one, the
    /// ceiling is low: the machine does more than its device file says (issue 72).
    bool beyondSpread = false;
    double spread = -1; ///< the measured rows' largest spread, (slowest - fastest) / median; negative: not given
    /// Faster than the compute bound, but not than the taps outside the zero padding allow
    /// (LayerResult::usefulShare): oneDNN skips the padded ones the FLOP convention counts.
    bool skipsPadding = false;
    std::vector<std::string> sources; ///< the measured rows' names
    /// One of its rows ran on a reference kernel (referenceKernel): not what a framework runs, and
    /// no evidence about the bound.
    std::string referenceKernel;
    double calibrated = -1; ///< the calibrated prediction, second; negative: the device is not calibrated
    double calibratedError = 0; ///< calibrated / measured - 1
};

struct Comparison {
    std::string mapping; ///< "by name" or "by order"
    std::vector<LayerComparison> layers; ///< in model order
    std::vector<std::string> unmatched; ///< measured rows that map to no layer ("name (line 12)")
    std::vector<std::string> unmeasured; ///< model rows with no measurement (by-name mapping only)
    double measuredTotal = 0; ///< second, over the matched layers
    double boundTotal = 0;
    double calibratedTotal = -1; ///< over the matched layers, second; negative: not calibrated
    /// Compute-bound rows above the roof of the vector units that the device's tensor-core roof of
    /// their precision would bound (frameworks run fp16 and bf16 matrix work there): how many, and
    /// that roof, FLOP/s. 0: none, or the analysis already used the tensor cores.
    int withinTensorRoof = 0;
    double tensorPeak = 0;
};

/// "3 rows beat the FP16 roof (134 TFLOP/s) but not the tensor cores' (989 TFLOP/s): ..." when
/// Comparison::withinTensorRoof, else empty.
std::string tensorRoofHint(const Comparison& c, const DeviceResult& result);

/// Maps measured rows to the device's model rows: by name when most measured names are layer names
/// (several rows with one name add up), else by order (the i-th measured row to the i-th model row:
/// kernels and operators rarely carry layer names). `result` is one device of a Report.
Comparison compareMeasurements(const MeasurementSet& set, const DeviceResult& result);

/// The matched rows as samples for a calibration fit: class, bound side, bound and measured time. Rows
/// measured as nothing (0 s) or bounded by nothing are left out.
std::vector<CalibrationSample> calibrationSamples(const Comparison& c, const DeviceResult& result);

/// The comparison as a table for people, and as CSV
/// (layer,measured_s,bound_s,efficiency,error,above_roof,measured_flops,measured_bytes,sources, then
/// calibrated_s,calibrated_error when the device is calibrated). With a calibration, both end on the
/// network's total: measured, bound and calibrated, and the calibrated prediction's error.
std::string comparisonToTable(const Comparison& c, const DeviceResult& result, const MeasurementSet& set);
std::string comparisonToCsv(const Comparison& c, const DeviceResult& result);

} // namespace rfx
