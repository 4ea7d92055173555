#pragma once
// Passes of one measurement measured apart in time, kept at each row's fastest (roofline-cli measure
// --llm --keep-fastest, issue 50): on a machine whose other tenants load the memory bus for minutes
// at a time, one pass's best run can still be a slow one; the fastest over passes spread over the
// hour is what the machine does.

#include "io/measurements.h"
#include "measure/layer_bench.h"

#include <string>

namespace rfx {

/// `m` (this pass) with each measured row at the faster of its own and `earlier`'s row of the same
/// name (a file this command wrote for the same configuration): best and median from the pass whose
/// best run is faster, the runs of both counted. `earlierPasses` is how many passes `earlier` holds;
/// m.notes says how many `m` holds now, and m.noise, where this pass was noisy, that the verdict is the
/// last pass's ("the last of 3 passes: the clock moved ..."). Returns an error naming the file and the row when
/// `earlier` is not a measurement of the same rows (a row of `m` missing from it, or it has no best_s column).
std::string keepFastest(NetworkMeasurement& m, const MeasurementSet& earlier, int earlierPasses);

/// The passes a file written with keep-fastest holds (its "# passes: N" line), 1 for any other
/// file's text.
int passesIn(std::string_view csvText);

} // namespace rfx
