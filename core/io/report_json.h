#pragma once
// The JSON report's pieces that other writers reuse (core/io/llm_writer.cpp writes a language model's
// rows as `analyze` writes a network's).
#include "engine/roofline.h"

#include <nlohmann/json.hpp>

namespace rfx {

/// One row of a device's result: the members of reportToJson's "layers" entries, in their written order.
nlohmann::ordered_json layerJson(const LayerResult& row, const DeviceResult& device, const Report& report);

} // namespace rfx
