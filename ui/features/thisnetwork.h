#pragma once

#include "measure/network_run.h"

#include <QString>

class QWidget;

namespace rfx {

/// Tools > Measure this network on this machine, step 3 and 4 of core's workflow (measure/network_run.h):
/// every row of the prepared network run alone on this CPU with oneDNN on a worker thread behind a
/// progress dialog that can cancel, written atomically as a plain measurement CSV in the user's
/// measurement folder. Returns the file written, or empty (refused, cancelled: nothing written, or
/// failed; `summary` then says why); on success `summary` says how many rows ran and which did not, and why.
QString measureThisNetwork(
    QWidget* parent, const NetworkRun& run, const LayerBenchOptions& options, QString* summary = nullptr);

/// A measurement's CSV written atomically to the user's measurement folder as STEM-yyyyMMdd-HHmmss.csv
/// (measureThisNetwork, measureThisLanguageModel); `summary` says how many rows ran and which did not,
/// or why nothing was written. Returns the file, or empty.
QString saveMeasurement(const NetworkMeasurement& m, const std::string& csv, const QString& stem, QString* summary);

/// Where measureThisNetwork writes: the user data folder's "measurements" (XDG_DATA_HOME).
QString measurementFolder();

} // namespace rfx
