// The calibration fit (measured ~ overhead + bound / efficiency, per class and bound side) and its use on
// a report: calibrated times beside the bounds, or in their place for the views (calibratedView).
#include "calibration.h"

#include <algorithm>
#include <cstdlib>
#include <cmath>
#include <map>
#include <stdexcept>

namespace rfx {

std::string_view calibrationClass(Op op)
{
    switch (op) {
    case Op::Conv:
        return "conv";
    case Op::ConvTranspose:
        return "conv_transpose";
    case Op::Linear:
    case Op::MatMul:
        return "matrix";
    case Op::MaxPool:
    case Op::AvgPool:
    case Op::Reduce:
        return "pool";
    case Op::Concat:
    case Op::Copy:
    case Op::Uncounted:
        return "data";
    case Op::BatchNorm:
        return "batch_norm";
    case Op::Bias:
    case Op::ReLU:
    case Op::Add:
    case Op::Eltwise:
    case Op::Optimizer:
        return "elementwise";
    }
    return "elementwise";
}

std::string_view calibrationClass(const Layer& l)
{
    if (l.op != Op::Conv || l.inShapes.empty())
        return calibrationClass(l.op);
    const std::int64_t inChannels = l.inShapes.front().c;
    if (l.groups > 1 && l.groups == inChannels)
        return "depthwise";
    if (l.groups == 1 && std::int64_t(l.kd) * l.kh * l.kw == 1)
        return "conv1x1";
    return "conv";
}

std::string_view parentClass(std::string_view opClass)
{
    if (opClass == "conv1x1" || opClass == "depthwise")
        return "conv";
    if (opClass == "batch_norm")
        return "elementwise";
    return {};
}

const std::vector<std::string>& calibrationClasses()
{
    static const std::vector<std::string> names { "conv", "conv1x1", "depthwise", "conv_transpose", "matrix", "batch_norm",
        "elementwise", "pool", "data" };
    return names;
}

const CalibrationGroup* Calibration::ownGroup(std::string_view opClass, Bound bound) const
{
    for (const CalibrationGroup& g : groups)
        if (g.bound == bound && g.opClass == opClass)
            return &g;
    return nullptr;
}

const CalibrationGroup* Calibration::groupFor(std::string_view opClass, Bound bound) const
{
    if (const CalibrationGroup* own = ownGroup(opClass, bound))
        return own;
    if (const std::string_view parent = parentClass(opClass); !parent.empty())
        if (const CalibrationGroup* g = ownGroup(parent, bound))
            return g;
    return ownGroup("all", bound);
}

namespace {

bool usable(const CalibrationSample& s)
{
    return std::isfinite(s.boundTime) && std::isfinite(s.measured) && s.boundTime > 0 && s.measured > 0;
}

} // namespace

CalibrationGroup fitGroup(const std::vector<CalibrationSample>& samples)
{
    // Minimise sum_i (c0 + c1 b_i - m_i)^2 over c0 = overhead >= 0 and c1 = 1 / efficiency > 0: least
    // squares on the time itself, so that the rows that take the time weigh the most (the network's time
    // is their sum; a fit on the relative error let a hundred microsecond rows pull the big ones, and
    // missed the held-out totals by 9 to 12 points more: README "Calibration"). The normal equations
    //   [n   Sb ] [c0]   [Sm ]
    //   [Sb  Sbb] [c1] = [Sbm]
    // and, when their solution leaves the allowed region, the overhead-free fit c1 = Sbm / Sbb.
    CalibrationGroup g;
    double sxx = 0, sxy = 0, syy = 0, sx = 0, sy = 0; // n, Sb, Sbb, Sm, Sbm
    g.minBound = INFINITY;
    g.maxBound = 0;
    for (const CalibrationSample& s : samples) {
        if (!usable(s))
            continue;
        sxx += 1;
        sxy += s.boundTime;
        syy += s.boundTime * s.boundTime;
        sx += s.measured;
        sy += s.boundTime * s.measured;
        ++g.samples;
        g.minBound = std::min(g.minBound, s.boundTime);
        g.maxBound = std::max(g.maxBound, s.boundTime);
    }
    if (g.samples == 0)
        throw std::invalid_argument("no measured row with a positive time and bound to fit");
    double c0 = 0, c1 = sy / syy;
    const double det = sxx * syy - sxy * sxy;
    if (g.samples >= 2 && det > 1e-12 * sxx * syy) {
        const double a = (sx * syy - sy * sxy) / det, b = (sy * sxx - sx * sxy) / det;
        if (a >= 0 && b > 0) {
            c0 = a;
            c1 = b;
        }
    }
    if (!std::isfinite(c0) || !std::isfinite(c1) || c1 <= 0) {
        // Times so far apart that the sums overflow (a hostile or broken file): the median ratio alone.
        std::vector<double> ratios;
        for (const CalibrationSample& s : samples)
            if (usable(s))
                ratios.push_back(s.measured / s.boundTime);
        std::nth_element(ratios.begin(), ratios.begin() + std::ptrdiff_t(ratios.size() / 2), ratios.end());
        c0 = 0;
        c1 = ratios[ratios.size() / 2];
    }
    // Within what a calibration file may hold (calibration_file.cpp checks the same ranges).
    g.overhead = std::clamp(c0, 0.0, 3600.0);
    g.efficiency = std::isfinite(1 / c1) ? std::clamp(1 / c1, 1e-6, 1e6) : 1e6;
    // Fit quality on the samples: the relative error's root mean square, and R^2 of log10 time.
    double se = 0, meanLog = 0;
    for (const CalibrationSample& s : samples)
        if (usable(s))
            meanLog += std::log10(s.measured);
    meanLog /= g.samples;
    double ssRes = 0, ssTot = 0;
    for (const CalibrationSample& s : samples) {
        if (!usable(s))
            continue;
        const double p = g.predict(s.boundTime);
        se += std::pow((p - s.measured) / s.measured, 2);
        ssRes += std::pow(std::log10(p) - std::log10(s.measured), 2);
        ssTot += std::pow(std::log10(s.measured) - meanLog, 2);
    }
    g.rmsError = std::isfinite(se) ? std::min(std::sqrt(se / g.samples), 1e12) : 1e12;
    g.r2 = ssTot > 0 ? 1 - ssRes / ssTot : (ssRes < 1e-12 ? 1 : 0);
    g.r2 = std::isfinite(g.r2) ? std::clamp(g.r2, -1e12, 1.0) : -1e12;
    return g;
}

Calibration fitCalibration(const std::vector<CalibrationSample>& samples)
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
    for (Bound side : { Bound::Compute, Bound::Memory }) {
        for (const std::string& cls : calibrationClasses()) {
            auto it = byGroup.find({ cls, side });
            if (it == byGroup.end() || int(it->second.size()) < kMinClassSamples)
                continue; // too few rows to speak for the class: they count in the pooled fit, the class borrows
            CalibrationGroup g = fitGroup(it->second);
            g.opClass = cls;
            g.bound = side;
            c.groups.push_back(g);
        }
    }
    for (Bound side : { Bound::Compute, Bound::Memory }) {
        auto it = bySide.find(side);
        if (it == bySide.end())
            continue;
        CalibrationGroup g = fitGroup(it->second);
        g.opClass = "all";
        g.bound = side;
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
            const CalibrationGroup* g = calibration.groupFor(l.opClass, l.bound);
            l.calibratedTime = g ? g->predict(boundTimeOf(l)) : boundTimeOf(l);
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
