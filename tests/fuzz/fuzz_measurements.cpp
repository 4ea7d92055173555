// Measurement files (plain CSV, Nsight Compute CSV, PyTorch trace): any bytes give a set of finite,
// non-negative timings or a message naming file and reason, never a crash, an exception or undefined
// behaviour; a usable set compares against the default U-Net without NaN or infinity in its figures
// or its text.
#include "engine/roofline.h"
#include "fuzzdevice.h"
#include "io/measurements.h"
#include "open/analyses.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace {

const rfx::DeviceResult& defaultResult()
{
    static const rfx::Report report = *rfx::analyzeConfig(rfx::Config {}, { rfx::fuzz::device() }).report;
    return report.results.front();
}

bool finiteOrUnmeasured(double v) { return std::isfinite(v) && v >= -1; }

bool showsNonNumber(const std::string& text)
{
    return text.find("nan") != std::string::npos || text.find("inf") != std::string::npos;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const rfx::MeasurementSet set
        = rfx::parseMeasurements(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.csv");
    if (!set.ok()) {
        for (const rfx::Diagnostic& d : set.diagnostics)
            if (d.file != "fuzz.csv" || d.message.empty())
                __builtin_trap(); // every message names the file and a reason
        return 0;
    }
    if (set.rows.empty())
        __builtin_trap(); // a usable set has rows
    for (const rfx::Measurement& m : set.rows)
        if (!std::isfinite(m.time) || m.time < 0 || !finiteOrUnmeasured(m.flops) || !finiteOrUnmeasured(m.bytes))
            __builtin_trap();

    const rfx::DeviceResult& result = defaultResult();
    const rfx::Comparison c = rfx::compareMeasurements(set, result);
    if (!std::isfinite(c.measuredTotal) || !std::isfinite(c.boundTotal))
        __builtin_trap();
    for (const rfx::LayerComparison& l : c.layers)
        if (l.layer >= result.layers.size() || !std::isfinite(l.measured) || !std::isfinite(l.efficiency)
            || !std::isfinite(l.error))
            __builtin_trap();
    // The calibration fitted on whatever was measured predicts finite, non-negative times.
    if (const auto samples = rfx::calibrationSamples(c, result); !samples.empty()) {
        const rfx::Calibration cal = rfx::fitCalibration(samples);
        for (const rfx::CalibrationGroup& g : cal.groups)
            if (!std::isfinite(g.overhead) || g.overhead < 0 || !std::isfinite(g.efficiency) || g.efficiency <= 0
                || !std::isfinite(g.rmsError))
                __builtin_trap();
    }
    // Names come from the file and may hold any text; the figures around them must not.
    rfx::MeasurementSet unnamed = set;
    for (rfx::Measurement& m : unnamed.rows)
        m.name = "row";
    const rfx::Comparison byOrder = rfx::compareMeasurements(unnamed, result);
    if (showsNonNumber(rfx::comparisonToTable(byOrder, result, unnamed))
        || showsNonNumber(rfx::comparisonToCsv(byOrder, result)))
        __builtin_trap();
    return 0;
}
