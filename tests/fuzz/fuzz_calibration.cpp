// Calibration files: any bytes give a calibration or a message naming the file, field and reason, never
// a crash, an exception or undefined behaviour; a usable calibration applied to the default U-Net gives
// finite, positive calibrated times, and its table and the report's text show no NaN or infinity.
#include "fuzzdevice.h"
#include "io/calibration_file.h"
#include "io/report_writer.h"
#include "open/analyses.h"

#include <cctype>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace {

// "nan" or "inf" as a word of its own (printf's spelling of a non-number), not inside "inference".
bool showsNonNumber(const std::string& text)
{
    for (const char* word : { "nan", "inf" })
        for (size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) {
            const bool letterBefore = at > 0 && std::isalpha(static_cast<unsigned char>(text[at - 1]));
            const bool letterAfter = at + 3 < text.size() && std::isalpha(static_cast<unsigned char>(text[at + 3]));
            if (!letterBefore && !letterAfter)
                return true;
        }
    return false;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const rfx::CalibrationLoad load
        = rfx::parseCalibration(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.cal.json");
    if (!load.calibration) {
        if (load.diagnostics.empty())
            __builtin_trap();
        for (const rfx::Diagnostic& d : load.diagnostics)
            if (d.file != "fuzz.cal.json" || d.message.empty())
                __builtin_trap(); // every message names the file and a reason
        return 0;
    }
    rfx::Calibration cal = *load.calibration;
    const rfx::Device device = rfx::fuzz::device();
    cal.deviceId = device.id; // whatever device it names, try it on one
    rfx::Report report = *rfx::analyzeConfig(rfx::Config {}, { device }).report;
    if (rfx::applyCalibration(report, cal, "fuzz.cal.json") != 1)
        __builtin_trap();
    for (const rfx::LayerResult& l : report.results.front().layers)
        if (!std::isfinite(l.calibratedTime) || l.calibratedTime < 0)
            __builtin_trap();
    const rfx::Report view = rfx::calibratedView(report);
    if (!std::isfinite(view.results.front().totals.time))
        __builtin_trap();
    // The device name comes from the file and may hold any text; the figures around it must not.
    cal.deviceName = "device";
    if (showsNonNumber(rfx::calibrationToTable(cal)) || showsNonNumber(rfx::reportToTable(report)))
        __builtin_trap();
    return 0;
}
