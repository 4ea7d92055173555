#pragma once

#include "base/enum_words.h"
// Calibration: how far this machine's real kernels fall below the roofline bound, fitted from measured
// rows, and the calibrated time it predicts for other rows, batches, sizes and networks.
//
// The model, stated (README "Calibration"): per operator class and bound side (memory or compute),
//
//     measured time  ~  overhead + bound / efficiency
//
// a fixed cost per kernel (start-up, threads waking, small-tile waste) plus the roofline bound at the
// fraction `efficiency` of the roof that large rows reach. Each from the rows that show it: the
// overhead from rows small enough that it is a visible part of their time (bound <= kOverheadRowBound),
// the efficiency by least squares on the time of the larger rows (the rows that take the time weigh the
// most), with overhead >= 0 and efficiency > 0. A class without small rows has no overhead of its own
// and takes its parent class's measured one, else none: an overhead extrapolated from large rows alone
// was the intercept of a line through milliseconds (228 us for the Zen 2's 3x3 convolutions, 24.7 us for
// its 1x1 ones), and made a network of small layers 20 % slow (issue 51). An efficiency
// above 1 is possible and meaningful for memory-bound rows whose tensors stay in cache (the bound is the
// DRAM roof). A class with no measured row borrows its parent class's fit (parentClass), else the fit of its
// bound side pooled over every class.
// Measurements stay beside the model: the bound is untouched; calibrated times are a second figure.

#include "engine/roofline.h"
#include "model/network.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rfx {

/// The operator classes fitted separately: "conv" (dense convolutions with a window larger than
/// one pixel, grouped ones), "conv1x1" (pointwise), "depthwise" (one group per input channel),
/// "conv_transpose", "matrix" (linear, matmul), "attention" (a language model's attention: its
/// scores, softmax and context, or FlashAttention's one kernel; Layer::attention), "batch_norm",
/// "elementwise" (bias, ReLU, add, other elementwise, the optimizer), "pool" (pools and reductions),
/// "data" (concat, copies, uncounted operators). Pointwise and depthwise convolutions, batch norm
/// and attention run kernels of their own, at shares of the roof of their own (README
/// "Calibration"), so they are not fitted with the rest of their kind: a decode step's attention
/// products (a few queries a head against the cache) reached 13-18 % of their bound on a Zen 5 where
/// its weights' products reached 88-96 % (issue 50).
std::string_view calibrationClass(const Layer& layer);
/// The class of an operator without its shapes: every convolution "conv", batch norm "batch_norm".
std::string_view calibrationClass(Op op);
/// The class a class borrows from when the calibration has no fit of it (an older file, or a
/// measurement without such rows): conv1x1 and depthwise borrow conv, batch_norm elementwise,
/// attention matrix; the others have none (empty), and borrow their side's pooled fit ("all").
std::string_view parentClass(std::string_view opClass);
/// Every class name, in that order.
const std::vector<std::string>& calibrationClasses();

/// One measured row: its class and side, the model's bound and the measured time (second).
struct CalibrationSample {
    std::string layer;
    std::string opClass;
    Bound bound = Bound::Memory;
    double boundTime = 0;
    double measured = 0;
    double flops = 0; ///< the row's FLOPs and bytes moved (the size range a fit saw)
    double bytes = 0;
    /// The kernel runs the row's figures are (Layer::repeats: a language model's block row stands for
    /// its blocks, an imported loop's body for its trips): each pays the overhead, so a fit sees one
    /// run's bound and time, and predicts runs x overhead + bound / efficiency.
    double runs = 1;
    /// The row's arithmetic at its roof, flops / peak, second: a memory-bound row pays it too where its
    /// class has a compute-side fit (CalibrationGroup::arithmeticEfficiency).
    double computeTime = 0;
    /// A matrix product's rows (its left operand's, M: the tokens a language model's weight product
    /// multiplies, matrixRowsOf), 0 where not known: a memory-bound "matrix" fit learns its efficiency
    /// at each M measured (CalibrationGroup::byRows).
    double matrixRows = 0;
};

/// The rows M of the products a row of this output shape computes: batch x tokens of a rank-3 output
/// (a language model's or an imported transformer's), the batch of a rank-2 one; 0 for other shapes.
double matrixRowsOf(const Shape& out);

/// One M at which a memory-bound matrix fit measured its own efficiency (CalibrationGroup::byRows).
struct RowsPoint {
    double rows = 0; ///< M, the product's rows
    double efficiency = 1; ///< the share of the roof its rows reached
    int samples = 0;
};
/// Rows of at most this M count toward CalibrationGroup::byRows: a decode step's batches (measure --llm's
/// batch probes), not a prefill's prompt x batch.
inline constexpr double kMaxRowsPoint = 64;

/// Rows whose bound is at most this (second) show a kernel's fixed cost: a few microseconds of threads
/// waking and tiles set up are a visible part of their time. Larger rows show the efficiency.
inline constexpr double kOverheadRowBound = 20e-6;

/// Where a fit's overhead comes from.
enum class OverheadSource {
    Rows, ///< measured on the class's own rows under kOverheadRowBound
    Parent, ///< the parent class's measured overhead: the class has no row small enough
    None, ///< no row small enough, here or in the parent: no overhead (never an extrapolated one)
    Joint, ///< every row small: overhead and efficiency fitted together on them
};
inline constexpr EnumWord<OverheadSource> kOverheadSourceWords[] = { { OverheadSource::Rows, "rows" },
    { OverheadSource::Parent, "parent" }, { OverheadSource::None, "none" }, { OverheadSource::Joint, "joint" } };
std::string_view overheadSourceName(OverheadSource source);
std::optional<OverheadSource> overheadSourceFromName(std::string_view name);

/// The fit of one class and side; opClass "all" is the side pooled over every class.
struct CalibrationGroup {
    std::string opClass;
    Bound bound = Bound::Memory;
    double overhead = 0; ///< second per row, >= 0
    double efficiency = 1; ///< fraction of the roof reached, > 0
    int samples = 0;
    double rmsError = 0; ///< root mean square of (fit - measured) / measured over the samples
    double r2 = 0; ///< of log10 time: 1 - SS_res / SS_tot (1 when every sample has the same time and fits)
    double minBound = 0, maxBound = 0; ///< the bounds fitted on, second: predictions outside extrapolate
    double minFlops = 0, maxFlops = 0; ///< the rows' FLOPs fitted on (0, 0: not known, an older file)
    double minBytes = 0, maxBytes = 0; ///< and their bytes moved
    OverheadSource overheadSource = OverheadSource::None;
    int overheadRows = 0; ///< rows the overhead was measured on (OverheadSource::Rows)
    /// A memory-bound fit of a matrix-product class (matrix, attention) that also has a compute-bound fit
    /// of its own: that fit's efficiency,
    /// at which its rows' arithmetic is paid on top of their memory time (0: not paid). A kernel that
    /// streams its operands does its arithmetic beside them only in part: a decode step's matrix rows
    /// on a Zen 5 took 12.7 ms more at batch 8 than at batch 1 for 10 ms more arithmetic at the roof,
    /// on the same 1 GB of weights (issue 50).
    double arithmeticEfficiency = 0;
    /// A memory-bound "matrix" fit's efficiency at each M it measured at least kMinClassSamples rows of
    /// (two Ms or more, each at most kMaxRowsPoint; ascending), empty otherwise. measure --llm's batch
    /// probes run the decode step's weight products at batches 1 to 16: oneDNN's matmul on a Zen 4
    /// streamed the same weights at 23-25 GB/s at batch 2 and 33-35 GB/s at batch 4 (issue 50), which
    /// no one efficiency, nor one with the arithmetic on top, follows.
    std::vector<RowsPoint> byRows {};
    /// The efficiency byRows gives a product of M rows: interpolated between the two Ms around it (its
    /// time per bound linear in log M), the nearest one's below the first M or up to twice the last;
    /// 0 where byRows is empty, M is not known (0) or M lies beyond twice the last.
    double efficiencyAtRows(double rows) const;
    /// The calibrated time of a row with this bound, second, that runs its kernel `runs` times
    /// (LayerResult::repeats): the overhead is a kernel's, paid on every run; `computeTime` (flops /
    /// peak) is paid at arithmeticEfficiency where that is set. A product of `rows` rows (M) that
    /// byRows covers takes that efficiency instead, its arithmetic included (it was measured).
    double predict(double boundTime, double runs = 1, double computeTime = 0, double rows = 0) const
    {
        if (const double atRows = efficiencyAtRows(rows); atRows > 0)
            return runs * overhead + boundTime / atRows;
        return runs * overhead + boundTime / efficiency
            + (arithmeticEfficiency > 0 ? computeTime / arithmeticEfficiency : 0);
    }
    /// Whether a row of this size lies outside what the fit saw, by more than a factor of two either
    /// way in its side's measure (FLOPs when compute-bound, bytes when memory-bound, of one run: the
    /// ranges are a run's): its calibrated time is an extrapolation. False when the file does not say.
    bool extrapolates(double flops, double bytes) const;
};

struct Calibration {
    int schema = 1;
    std::string deviceId; ///< the device whose roofline the fit is relative to
    std::string deviceName;
    std::string measurements; ///< the measurement file fitted on
    std::string fittedOn; ///< the configuration fitted on, as roofline-cli options
    std::string created; ///< ISO date
    std::string tool; ///< "Roofline Explorer 1.4.0"
    std::vector<CalibrationGroup> groups; ///< per class and side, then the pooled "all" per side
    std::string file; ///< where it was read from (not stored)

    /// The group that predicts a row of this class and side: its own, else its parent class's
    /// (parentClass), else the side's pooled one.
    const CalibrationGroup* groupFor(std::string_view opClass, Bound bound) const;
    /// The group of exactly this class and side, or none.
    const CalibrationGroup* ownGroup(std::string_view opClass, Bound bound) const;
};

/// Rows a class needs on a side to have a fit of its own: one row, or two, are one kernel's quirk
/// (U-Net's 1x1 head writes 2 channels and runs at a quarter of its bound; ResNet's hundred 1x1
/// convolutions would have borrowed that), and the class borrows (Calibration::groupFor) instead.
inline constexpr int kMinClassSamples = 3;

/// Fits every class and side with at least kMinClassSamples samples, and each side pooled over all
/// samples; samples with non-positive or non-finite times are ignored. Throws
/// std::invalid_argument when no sample is usable. `probes` (a language model's batch probes) count
/// toward the memory-bound matrix fit's byRows alone, with its memory-bound matrix samples: the fits
/// themselves stay those of the rows measured at the configuration (rows that borrow them, the
/// attention's, run at its batch).
Calibration fitCalibration(
    const std::vector<CalibrationSample>& samples, const std::vector<CalibrationSample>& probes = {});

/// Fits one group (the problem above) on the samples given. `lentOverhead`: the overhead to take when
/// no row is small enough to measure one (the parent class's measured overhead). Not the side's pooled
/// one: the Zen 2's pooled compute overhead was its depthwise rows' 25.6 us, which lent to the 1x1
/// convolutions remade the error it was to cure.
/// `arithmeticEfficiency`: a memory-bound group's CalibrationGroup::arithmeticEfficiency (its class's
/// compute-side efficiency): the samples' arithmetic at that rate is taken off their time before the fit.
CalibrationGroup fitGroup(const std::vector<CalibrationSample>& samples,
    std::optional<double> lentOverhead = std::nullopt, double arithmeticEfficiency = 0);

/// How a row's calibrated time was predicted, for the table and the JSON: the group that predicts it
/// (its class's own, borrowed from its parent, or the side's pooled fit) and whether its size lies
/// outside what that group was fitted on.
struct CalibrationUse {
    const CalibrationGroup* group = nullptr;
    bool borrowed = false; ///< not the row's own class
    bool extrapolated = false; ///< CalibrationGroup::extrapolates
};
CalibrationUse calibrationUse(const Calibration& calibration, const LayerResult& row);
/// A row's calibrated time, second: the fit `use` names (its runs' overheads, its bound at the fit's
/// efficiency, its arithmetic where the fit pays it) at M = `rows` product rows where that fit is the
/// row's own class (0: not known); the bound where no fit applies. applyCalibration's rows and the
/// serving planner's joined rows (core/serving) alike.
double calibratedRowTime(const CalibrationUse& use, const LayerResult& row, double rows);

/// Sets every row's and the totals' calibrated time on the devices whose id is the calibration's, and
/// names the calibration there. Returns how many devices it applied to.
int applyCalibration(Report& report, const Calibration& calibration, const std::string& label);

/// The report as the calibration sees it: on calibrated devices each row's time becomes its calibrated
/// time (the bound moves to boundTime), with shares, totals (time, throughput, attained, peak share,
/// memory-bound share) and the verdict following; timesCalibrated says so. Devices without calibration
/// are unchanged.
Report calibratedView(const Report& report);
/// The same, in place (the window's recompute: no copy of the report per slider step).
void showCalibratedTimes(Report& report);

} // namespace rfx
