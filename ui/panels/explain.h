#pragma once

#include "engine/roofline.h"
#include "model/network.h"

#include <QString>
#include <QStringList>

namespace rfx {

class OnnxModel;

/// Teaching text for one layer on one device: its FLOP, byte, intensity and time formulas with its
/// own numbers filled in, where it sits against the ridge, and what would move it. `layer` indexes
/// report.results[device].layers; `network` is the network the report was computed from; `model`, the
/// imported model it was built from (the workspace's; null for built-in networks): what its file
/// fixes (the batch) is not offered as a move.
QString explainLayer(
    const Report& report, int device, int layer, const Network& network, const OnnxModel* model = nullptr);

/// The text shown when no layer is selected: how to read the chart, with the device's own ceilings.
QString explainOverview(const Report& report, int device);

/// The guided tour of the roofline model, one page at a time, with the device's numbers; `overlay`:
/// the chart draws every device's roofs (the device's roof is one of several, not the top line);
/// `model` as for explainLayer().
QStringList tourPages(const Report& report, int device, bool overlay = false, const OnnxModel* model = nullptr,
    bool languageModel = false);
/// The layer the tour's last page rings: the one that takes the most time (-1 if none).
int tourLayer(const Report& report, int device);

} // namespace rfx
