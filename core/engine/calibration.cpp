// The calibration fit (measured ~ overhead + bound / efficiency, per class and bound side); its use on a
// report (calibrated times beside the bounds, or in their place for the views) is calibration_apply.cpp.
#include "engine/calibration.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <stdexcept>
#include <tuple>

namespace rfx {

namespace {

bool usable(const CalibrationSample& s)
{
    return std::isfinite(s.boundTime) && std::isfinite(s.measured) && s.boundTime > 0 && s.measured > 0;
}

} // namespace

namespace {

// A sample's weight in the sums: a row of `runs` kernel runs is fitted a run at a time (perRun), and
// weighs runs^2, so that the sums are those of the whole rows' times (a block row of 16 runs of 1 ms
// counts as the 16 ms it takes, not as one 1-ms row beside a 17-ms head).
double weightOf(const CalibrationSample* s) { return s->runs * s->runs; }

// 1 / efficiency by least squares on the time with the overhead fixed: c1 = Sb(m - c0) / Sbb.
double slopeGiven(const std::vector<const CalibrationSample*>& rows, double c0)
{
    double sbb = 0, sbm = 0;
    for (const CalibrationSample* s : rows) {
        sbb += weightOf(s) * s->boundTime * s->boundTime;
        sbm += weightOf(s) * s->boundTime * (s->measured - c0);
    }
    return sbm / sbb;
}

// The least-squares solution with two free parameters (the fit before issue 51, kept for a class whose
// rows are all small): minimise sum_i (c0 + c1 b_i - m_i)^2 with the normal equations
//   [n   Sb ] [c0]   [Sm ]
//   [Sb  Sbb] [c1] = [Sbm]
// and, when their solution leaves the allowed region, the overhead-free fit c1 = Sbm / Sbb.
std::pair<double, double> jointFit(const std::vector<const CalibrationSample*>& rows)
{
    double n = 0, sb = 0, sbb = 0, sm = 0, sbm = 0;
    for (const CalibrationSample* s : rows) {
        const double w = weightOf(s);
        n += w;
        sb += w * s->boundTime;
        sbb += w * s->boundTime * s->boundTime;
        sm += w * s->measured;
        sbm += w * s->boundTime * s->measured;
    }
    const double det = n * sbb - sb * sb;
    if (rows.size() >= 2 && det > 1e-12 * n * sbb) {
        const double a = (sm * sbb - sbm * sb) / det, b = (sbm * n - sm * sb) / det;
        if (a >= 0 && b > 0)
            return { a, b };
    }
    return { 0, slopeGiven(rows, 0) };
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

} // namespace

namespace {

// One kernel run's figures: a row that stands for `runs` runs (CalibrationSample::runs) is fitted as one
// run of its kernel, so that the overhead is a kernel's, whatever the rows' block counts; `runs` stays,
// for the sample's weight. The arithmetic a memory-bound row pays (arithmeticEfficiency > 0) is taken
// off its time, to a tenth of it at most (a row that hid its arithmetic wholly is not made negative).
std::vector<CalibrationSample> perRun(const std::vector<CalibrationSample>& samples, double arithmeticEfficiency)
{
    std::vector<CalibrationSample> out = samples;
    for (CalibrationSample& s : out) {
        const double runs = std::isfinite(s.runs) && s.runs > 1 ? s.runs : 1;
        s.boundTime /= runs;
        s.measured /= runs;
        s.flops /= runs;
        s.bytes /= runs;
        s.computeTime = std::isfinite(s.computeTime) && s.computeTime > 0 ? s.computeTime / runs : 0;
        s.runs = runs;
        if (arithmeticEfficiency > 0)
            s.measured = std::max(s.measured - s.computeTime / arithmeticEfficiency, 0.1 * s.measured);
    }
    return out;
}

} // namespace

namespace {

// CalibrationGroup::byRows: at each M with enough rows, 1 / efficiency by least squares on their time
// less the group's overhead (the arithmetic not taken off: at each M it is part of what was measured).
std::vector<RowsPoint> fitByRows(const std::vector<CalibrationSample>& samples, double overhead)
{
    std::map<double, std::vector<CalibrationSample>> at;
    for (const CalibrationSample& s : samples)
        if (s.matrixRows > 0 && s.matrixRows <= kMaxRowsPoint && usable(s))
            at[s.matrixRows].push_back(s);
    std::vector<RowsPoint> points;
    for (const auto& [rows, its] : at) {
        if (int(its.size()) < kMinClassSamples)
            continue;
        const std::vector<CalibrationSample> runs = perRun(its, 0);
        std::vector<const CalibrationSample*> pointers;
        for (const CalibrationSample& s : runs)
            pointers.push_back(&s);
        double c1 = slopeGiven(pointers, overhead);
        if (!(c1 > 0))
            c1 = slopeGiven(pointers, 0);
        if (c1 > 0 && std::isfinite(c1))
            points.push_back({ rows, std::clamp(1 / c1, 1e-6, 1e6), int(its.size()) });
    }
    if (points.size() < 2) // one M is the group's own fit
        points.clear();
    return points;
}

} // namespace

CalibrationGroup fitGroup(
    const std::vector<CalibrationSample>& wholeRows, std::optional<double> parentOverhead, double arithmeticEfficiency)
{
    const std::vector<CalibrationSample> samples = perRun(wholeRows, arithmeticEfficiency);
    // The overhead from the small rows, the efficiency from the large ones (calibration.h). With both
    // kinds: c1 = 1 / efficiency by least squares on the large rows' time less the overhead, the
    // overhead c0 the median of the small rows' time less c1 x bound (a median: one small row that a
    // neighbour's burst slowed does not set every small row's cost), alternated until they agree (each
    // moves the other little: the large rows' bounds dwarf the overhead).
    CalibrationGroup g;
    std::vector<const CalibrationSample*> rows, small, large;
    g.minBound = g.minFlops = g.minBytes = INFINITY;
    g.maxBound = g.maxFlops = g.maxBytes = 0;
    for (const CalibrationSample& s : samples) {
        if (!usable(s))
            continue;
        rows.push_back(&s);
        (s.boundTime <= kOverheadRowBound ? small : large).push_back(&s);
        g.minBound = std::min(g.minBound, s.boundTime);
        g.maxBound = std::max(g.maxBound, s.boundTime);
        g.minFlops = std::min(g.minFlops, s.flops);
        g.maxFlops = std::max(g.maxFlops, s.flops);
        g.minBytes = std::min(g.minBytes, s.bytes);
        g.maxBytes = std::max(g.maxBytes, s.bytes);
    }
    g.samples = int(rows.size());
    if (g.samples == 0)
        throw std::invalid_argument("no measured row with a positive time and bound to fit");
    g.opClass = rows.front()->opClass; // the caller names a pooled fit "all"
    g.bound = rows.front()->bound;
    if (!(g.maxFlops > 0))
        g.minFlops = g.maxFlops = 0;
    if (!(g.maxBytes > 0))
        g.minBytes = g.maxBytes = 0;
    double c0 = 0, c1 = 1;
    if (large.empty()) {
        // Every row small: overhead and efficiency together, on them.
        std::tie(c0, c1) = jointFit(rows);
        g.overheadSource = c0 > 0 ? OverheadSource::Joint : OverheadSource::None;
    } else if (small.empty()) {
        c0 = parentOverhead.value_or(0);
        c1 = slopeGiven(large, c0);
        g.overheadSource = parentOverhead ? OverheadSource::Parent : OverheadSource::None;
        if (!(c1 > 0)) { // the parent's overhead is more than these rows take
            c0 = 0;
            c1 = slopeGiven(large, 0);
            g.overheadSource = OverheadSource::None;
        }
    } else {
        for (int i = 0; i < 50; ++i) {
            c1 = slopeGiven(large, c0);
            std::vector<double> residual;
            for (const CalibrationSample* s : small)
                residual.push_back(s->measured - c1 * s->boundTime);
            const double next = std::max(0.0, median(residual));
            const bool settled = std::abs(next - c0) <= 1e-9 * std::max(next, 1e-12);
            c0 = next;
            if (settled)
                break;
        }
        c1 = slopeGiven(large, c0);
        if (!(c1 > 0)) {
            c0 = 0;
            c1 = slopeGiven(large, 0);
        }
        g.overheadSource = OverheadSource::Rows;
        g.overheadRows = int(small.size());
    }
    if (!std::isfinite(c0) || !std::isfinite(c1) || c1 <= 0) {
        // Times so far apart that the sums overflow (a hostile or broken file): the median ratio alone.
        std::vector<double> ratios;
        for (const CalibrationSample* s : rows)
            ratios.push_back(s->measured / s->boundTime);
        c0 = 0;
        c1 = median(ratios);
        g.overheadSource = OverheadSource::None;
        g.overheadRows = 0;
    }
    // Within what a calibration file may hold (calibration_file.cpp checks the same ranges).
    g.overhead = std::clamp(c0, 0.0, 3600.0);
    g.efficiency = std::isfinite(1 / c1) ? std::clamp(1 / c1, 1e-6, 1e6) : 1e6;
    // Fit quality on the samples: the relative error's root mean square, and R^2 of log10 time.
    double se = 0, meanLog = 0;
    for (const CalibrationSample* s : rows)
        meanLog += std::log10(s->measured);
    meanLog /= g.samples;
    double ssRes = 0, ssTot = 0;
    for (const CalibrationSample* s : rows) {
        const double p = g.predict(s->boundTime);
        se += std::pow((p - s->measured) / s->measured, 2);
        ssRes += std::pow(std::log10(p) - std::log10(s->measured), 2);
        ssTot += std::pow(std::log10(s->measured) - meanLog, 2);
    }
    g.arithmeticEfficiency = arithmeticEfficiency; // after the quality figures: they are of the time less it
    g.rmsError = std::isfinite(se) ? std::min(std::sqrt(se / g.samples), 1e12) : 1e12;
    g.r2 = ssTot > 0 ? 1 - ssRes / ssTot : (ssRes < 1e-12 ? 1 : 0);
    g.r2 = std::isfinite(g.r2) ? std::clamp(g.r2, -1e12, 1.0) : -1e12;
    return g;
}

Calibration fitCalibration(const std::vector<CalibrationSample>& samples, const std::vector<CalibrationSample>& probes)
{
    std::map<std::pair<std::string, Bound>, std::vector<CalibrationSample>> byGroup;
    std::map<Bound, std::vector<CalibrationSample>> bySide;
    for (const CalibrationSample& s : samples) {
        if (!usable(s))
            continue;
        byGroup[{ s.opClass, s.bound }].push_back(s);
        bySide[s.bound].push_back(s);
    }
    if (bySide.empty())
        throw std::invalid_argument("no measured row with a positive time and bound to fit");
    Calibration c;
    // A class with no row small enough takes its parent's measured overhead, else none; parents first.
    auto measuredOverhead = [](const CalibrationGroup* g) -> std::optional<double> {
        if (g && (g->overheadSource == OverheadSource::Rows || g->overheadSource == OverheadSource::Joint))
            return g->overhead;
        return std::nullopt;
    };
    for (Bound side : { Bound::Compute, Bound::Memory }) {
        std::map<std::string, CalibrationGroup> fitted;
        auto fit = [&](const std::string& cls) {
            auto it = byGroup.find({ cls, side });
            if (it == byGroup.end() || int(it->second.size()) < kMinClassSamples)
                return; // too few rows to speak for the class: they count in the pooled fit, the class borrows
            const std::string_view parent = parentClass(cls);
            const auto p = parent.empty() ? fitted.end() : fitted.find(std::string(parent));
            // A memory-bound matrix product pays its arithmetic at its class's own compute-side efficiency,
            // where it has one (calibration.h). Only the products: a decode step's matrix-vector rows
            // showed it (issue 50); the Zen 5's depthwise convolutions, whose compute-bound rows reach a
            // fifth of the roof, came out faster than their memory bound with it (121 %): over-counted.
            double arithmetic = 0;
            if (side == Bound::Memory && (cls == "matrix" || cls == "attention"))
                if (const CalibrationGroup* own = c.ownGroup(cls, Bound::Compute))
                    arithmetic = own->efficiency;
            fitted[cls] = fitGroup(it->second, measuredOverhead(p == fitted.end() ? nullptr : &p->second), arithmetic);
            if (side == Bound::Memory && cls == "matrix") {
                std::vector<CalibrationSample> atRows = it->second;
                for (const CalibrationSample& s : probes)
                    if (s.opClass == cls && s.bound == side && usable(s))
                        atRows.push_back(s);
                fitted[cls].byRows = fitByRows(atRows, fitted[cls].overhead);
            }
        };
        for (const std::string& cls : calibrationClasses())
            if (parentClass(cls).empty())
                fit(cls);
        for (const std::string& cls : calibrationClasses())
            if (!parentClass(cls).empty())
                fit(cls);
        for (const std::string& cls : calibrationClasses()) // in the classes' order
            if (auto it = fitted.find(cls); it != fitted.end())
                c.groups.push_back(it->second);
    }
    for (Bound side : { Bound::Compute, Bound::Memory }) {
        auto it = bySide.find(side);
        if (it == bySide.end())
            continue;
        CalibrationGroup g = fitGroup(it->second);
        g.opClass = "all";
        c.groups.push_back(g);
    }
    // A side with no sample at all borrows the other side's pooled fit (a network measured only on its
    // compute-bound rows still predicts its memory-bound ones, with the pooled fit's error).
    for (Bound side : { Bound::Compute, Bound::Memory })
        if (!bySide.count(side)) {
            CalibrationGroup g = *c.groupFor("all", side == Bound::Compute ? Bound::Memory : Bound::Compute);
            g.bound = side;
            g.samples = 0;
            c.groups.push_back(g);
        }
    return c;
}

} // namespace rfx
