#pragma once
// Internal to io/: the measurement importers' shared limit and the trace reader
// (measurement_trace.cpp), which parseMeasurements() calls for JSON input.

#include "io/measurements.h"

#include <string>
#include <string_view>

namespace rfx {

/// Longer than this for one layer or kernel is a unit error, not a measurement, second (11.6 days).
inline constexpr double kMaxSeconds = 1e6;
inline constexpr const char* kTooLongKernelWhy = "is more than 1e6 s (11.6 days) for one kernel";

/// A PyTorch profiler trace: complete "kernel" events summed per launching operator (MeasurementFormat).
MeasurementSet parsePyTorchTrace(std::string_view text, const std::string& file);

} // namespace rfx
