// Calibrated times: a fitted calibration applied to a report's rows (applyCalibration), the
// calibrated view the window and the CLI show, and which fit each row took (calibrationUse).
#include "engine/calibration.h"

#include <algorithm>
#include <cstdlib>
#include <string>

namespace rfx {

namespace {

// The value of "--bits N" in the configuration a calibration was fitted on, or 0.
int fittedBits(const std::string& fittedOn)
{
    const auto at = fittedOn.find("--bits ");
    if (at == std::string::npos)
        return 0;
    const long bits = std::strtol(fittedOn.c_str() + at + 7, nullptr, 10); // clamps, where atoi's overflow is undefined
    return bits > 0 && bits <= 64 ? int(bits) : 0;
}

} // namespace

namespace {
// A class name that outlives the calibration it came from (rows keep a view of it).
std::string_view staticClassName(const std::string& name)
{
    for (const std::string& c : calibrationClasses())
        if (c == name)
            return c;
    return "all";
}
} // namespace

CalibrationUse calibrationUse(const Calibration& calibration, const LayerResult& row)
{
    CalibrationUse use;
    use.group = calibration.groupFor(row.opClass, row.bound);
    const double runs = row.repeats > 1 ? row.repeats : 1; // a fit's ranges are one kernel run's
    const double flops = row.flops / runs, bytes = row.bytes / runs;
    if (use.group && use.group->overheadSource == OverheadSource::Joint && use.group->extrapolates(flops, bytes)) {
        // A class fitted on small rows only (overhead and efficiency together, on kernels that are most
        // of them overhead) knows nothing of how a row many times larger runs: such a row takes its
        // parent's fit, else the side's pooled one, where that one saw large rows. MobileNetV2's
        // depthwise rows at batch 8 (memory-bound, 8 x 96 x 112 x 112) took the 38 % efficiency of three
        // probe rows of 1 to 3 MB and came out 2.3 times their measured time.
        const std::string_view parent = parentClass(row.opClass);
        for (const CalibrationGroup* g : { parent.empty() ? nullptr : calibration.ownGroup(parent, row.bound),
                 calibration.ownGroup("all", row.bound) })
            if (g && g->overheadSource != OverheadSource::Joint) {
                use.group = g;
                break;
            }
    }
    if (use.group) {
        use.borrowed = use.group->opClass != row.opClass;
        use.extrapolated = use.group->extrapolates(flops, bytes);
    }
    return use;
}

double calibratedRowTime(const CalibrationUse& use, const LayerResult& row, double rows)
{
    if (!use.group)
        return boundTimeOf(row);
    // M for the products of the class the group fitted (an attention row borrowing matrix has none)
    const double m = use.group->opClass == row.opClass ? rows : 0;
    return use.group->predict(boundTimeOf(row), std::max(1.0, row.repeats), row.peak > 0 ? row.flops / row.peak : 0, m);
}

int applyCalibration(Report& report, const Calibration& calibration, const std::string& label)
{
    // What the fit saw and what it is asked to predict can differ in kind: said, not refused.
    const std::string where = calibration.file.empty() ? label : calibration.file;
    if (report.config.mode == Mode::Training)
        report.diagnostics.push_back({ Severity::Warning, where, "",
            "fitted on inference kernels, applied to training rows (forward + backward): a rougher prediction" });
    if (const int bits = fittedBits(calibration.fittedOn); bits > 0 && bits != report.config.bits)
        report.diagnostics.push_back({ Severity::Warning, where, "fitted_on",
            "fitted on " + std::to_string(bits) + "-bit kernels, applied to " + std::to_string(report.config.bits)
                + "-bit rows: their kernels differ, so does their efficiency" });
    int applied = 0;
    for (DeviceResult& d : report.results) {
        if (d.device.id != calibration.deviceId)
            continue;
        double total = 0;
        for (LayerResult& l : d.layers) {
            const CalibrationUse use = calibrationUse(calibration, l);
            l.calibratedTime = calibratedRowTime(use, l, matrixRowsOf(l.out));
            l.calibratedBy = use.group ? staticClassName(use.group->opClass) : std::string_view();
            l.calibrationExtrapolated = use.extrapolated;
            total += l.calibratedTime;
        }
        d.totals.calibratedTime = total;
        d.calibration = label;
        ++applied;
    }
    return applied;
}

Report calibratedView(const Report& report)
{
    Report view = report;
    showCalibratedTimes(view);
    return view;
}

void showCalibratedTimes(Report& view)
{
    for (DeviceResult& d : view.results) {
        if (d.totals.calibratedTime < 0 || d.timesCalibrated)
            continue;
        Totals& t = d.totals;
        double memoryBound = 0;
        for (LayerResult& l : d.layers) {
            l.boundTime = l.time;
            l.time = l.calibratedTime;
            if (l.bound == Bound::Memory)
                memoryBound += l.time;
        }
        t.boundTime = t.time;
        t.time = t.calibratedTime;
        for (LayerResult& l : d.layers)
            l.share = t.time > 0 ? l.time / t.time : 0;
        t.throughput = t.time > 0 ? view.config.batch / t.time : 0;
        t.attained = t.time > 0 ? t.flops / t.time : 0;
        t.peakShare = d.ceiling.flops > 0 ? t.attained / d.ceiling.flops : 0;
        t.memoryBoundTimeShare = t.time > 0 ? memoryBound / t.time : 0;
        d.verdict = verdictText(t.memoryBoundTimeShare);
        d.timesCalibrated = true;
    }
}

} // namespace rfx
