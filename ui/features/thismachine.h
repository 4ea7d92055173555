#pragma once

#include "measure/microbench.h"

#include <QString>

class QWidget;

namespace rfx {

/// Tools > Measure this machine: runs the CPU micro-benchmarks on a worker thread behind a progress
/// dialog that can cancel, and writes the device file "this-machine.json" to the user device folder
/// (atomically). `tdpWatts` <= 0 asks for it. Returns the device id written, or empty (cancelled or
/// failed; `summary` then says why); on success `summary` lists the measured ceilings.
QString measureThisMachine(
    QWidget* parent, const MicrobenchOptions& options, double tdpWatts, QString* summary = nullptr);

} // namespace rfx
