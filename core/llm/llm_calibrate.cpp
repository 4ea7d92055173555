// A calibration from measured throughputs (llm_calibrate.h): the phases' memory- and compute-bound
// time on the device, and the two efficiencies that make them the measured times.
#include "llm/llm_calibrate.h"

#include "base/format.h"

#include <cmath>

namespace rfx {

namespace {

struct Sides {
    double memory = 0, compute = 0; ///< the bounds of the phase's memory- and compute-bound rows, second
};

Sides sidesOf(const Report& phase, size_t device)
{
    Sides s;
    for (const LayerResult& l : phase.results[device].layers)
        (l.bound == Bound::Memory ? s.memory : s.compute) += boundTimeOf(l);
    return s;
}

CalibrationGroup allGroup(Bound side, double efficiency, int samples)
{
    CalibrationGroup g;
    g.opClass = "all";
    g.bound = side;
    g.efficiency = efficiency;
    g.samples = samples;
    g.r2 = 1; // the measured phases are met exactly
    return g;
}

} // namespace

ThroughputFit calibrationFromThroughput(
    const LlmAnalysis& a, size_t device, double decodeTokensPerS, double prefillTokensPerS)
{
    ThroughputFit fit;
    if (device >= a.figures.size() || device >= a.decode.results.size() || device >= a.prefill.results.size()) {
        fit.error = "no such device in the analysis";
        return fit;
    }
    if (!(decodeTokensPerS > 0) || !std::isfinite(decodeTokensPerS) || prefillTokensPerS < 0
        || !std::isfinite(prefillTokensPerS)) {
        fit.error = "a throughput must be a positive number of tokens a second";
        return fit;
    }
    const LlmDeviceFigures& f = a.figures[device];
    const double batch = a.settings.batch;
    // The measured phases less what the rows do not hold (tensor parallelism's all-reduces over the link).
    const double decode = batch / decodeTokensPerS - f.decodeLinkTime;
    const double prefill
        = prefillTokensPerS > 0 ? double(a.settings.prompt) * batch / prefillTokensPerS - f.prefillLinkTime : 0;
    if (!(decode > 0) || (prefillTokensPerS > 0 && !(prefill > 0))) {
        fit.error
            = "the measured time is shorter than the all-reduces over the link alone: check the throughput and --tp";
        return fit;
    }
    const Sides d = sidesOf(a.decode, device), p = sidesOf(a.prefill, device);
    double invMemory = 0, invCompute = 0; // 1 / efficiency
    bool solved = false;
    if (prefillTokensPerS > 0) {
        const double det = d.memory * p.compute - d.compute * p.memory;
        if (std::abs(det) > 1e-9 * (d.memory * p.compute + d.compute * p.memory)) {
            invMemory = (decode * p.compute - d.compute * prefill) / det;
            invCompute = (d.memory * prefill - decode * p.memory) / det;
            solved = invMemory > 0 && invCompute > 0;
        }
        if (!solved)
            fit.notes.push_back(
                "the two throughputs do not fit one memory and one compute efficiency (the prefill's rows are "
                "as memory-bound as the decode's, or one phase ran relatively much faster): fitted on the "
                "decode alone, one efficiency for both sides");
    }
    if (!solved) {
        invMemory = invCompute = decode / (d.memory + d.compute);
        if (prefillTokensPerS <= 0)
            fit.notes.push_back(
                "fitted on the decode alone: one efficiency for both sides; the prefill's calibrated time "
                "is a guess (give --measured-prefill-tokens-per-s too)");
    }
    fit.memoryEfficiency = 1 / invMemory;
    fit.computeEfficiency = 1 / invCompute;
    if (const double beyond = std::max(fit.memoryEfficiency, fit.computeEfficiency); beyond > kThroughputBeyondBound) {
        // Caches beat a DRAM roof by a fraction, never by this much: a unit (tokens of one sequence
        // against the batch's, prompt against generated) or a setting is not what was measured.
        fit.error = "the measured throughput is " + formatNumber3(beyond)
            + " times what the roofline's bound allows on " + f.device
            + ": check that it is the whole batch's generated tokens a second, and that the model, its widths, the "
              "batch and the context are those it was measured at";
        return fit;
    }
    if (fit.memoryEfficiency > 1.05 || fit.computeEfficiency > 1.05)
        fit.notes.push_back("faster than the roofline's bound ("
            + formatPercent(std::max(fit.memoryEfficiency, fit.computeEfficiency))
            + " of it): check that the throughput is the whole batch's tokens a second, and that the model, its "
              "widths, the batch "
              "and the context are those it was measured at");
    Calibration c;
    c.deviceId = f.device;
    const int samples = prefillTokensPerS > 0 ? 2 : 1;
    c.groups = { allGroup(Bound::Compute, fit.computeEfficiency, samples),
        allGroup(Bound::Memory, fit.memoryEfficiency, samples) };
    fit.calibration = std::move(c);
    return fit;
}

} // namespace rfx
