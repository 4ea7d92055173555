#pragma once

#include "roofline.h"

#include <QString>

namespace rfx {

/// The summary of one device's result as rich text: time, throughput, attained against peak,
/// memory against capacity (with the largest batch that fits) and the verdict.
QString summaryHtml(const DeviceResult& result, const Config& config);

} // namespace rfx
