#pragma once
// Calibration files (.cal.json): a fitted calibration (core/engine/calibration.h) for one device, as
// `roofline-cli calibrate` and the window's Tools > Calibrate write it and `analyze --calibration`,
// `compare --calibration` and the window's View > Calibrated times read it.

#include "base/diagnostic.h"
#include "engine/calibration.h"
#include "io/measurements.h"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rfx {

inline constexpr int kCalibrationSchema = 1;
inline constexpr std::size_t kMaxCalibrationBytes = 1 << 20;

std::string calibrationToJson(const Calibration& calibration);

struct CalibrationLoad {
    std::optional<Calibration> calibration;
    std::vector<Diagnostic> diagnostics; ///< an error names the file, the field and the reason
};
/// Reads a calibration document; `file` names it in messages and in Calibration::file.
CalibrationLoad parseCalibration(std::string_view text, const std::string& file);
CalibrationLoad loadCalibration(const std::filesystem::path& path);

/// Fits a calibration on the measurements held against `result` (the comparison's matched rows) and
/// stamps it: the device, the measurement file, the configuration it was fitted on (as options: the
/// file's own `measured` configuration line where it is a language model's, "--llm ...", else
/// `config`'s), the date (ISO, given) and the tool. Throws std::invalid_argument when no row can be
/// fitted. Used by roofline-cli calibrate and the window's Tools > Calibrate alike.
/// `probes`: a language model's batch probes (llmProbeSamples), for the matrix fit's efficiency by rows
/// (fitCalibration).
Calibration calibrateFrom(const Comparison& comparison, const DeviceResult& result, const Config& config,
    const std::vector<std::string>& measured, const std::string& measurementFile, const std::string& date,
    const std::vector<CalibrationSample>& probes = {});

/// The fit as a table for people: one line per class and side (rows, overhead, efficiency, fit error).
std::string calibrationToTable(const Calibration& calibration);

} // namespace rfx
