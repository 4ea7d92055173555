#pragma once

#include "llm/llm_sweep.h"

#include <string>

namespace rfx {

/// A sweep (core/llm/llm_sweep.h) for people and scripts: a table per device, CSV (one line per device
/// and value: device, context or batch, tpot_s, tokens_per_s, batch_tokens_per_s, memory_bytes,
/// capacity_bytes), JSON ({"axis", "current", "devices": [{"id", "limit", "limited_by_model",
/// "capacity_bytes", "points": [...]}]}).
std::string llmSweepToTable(const LlmSweep& sweep, const std::string& settingsLine);
std::string llmSweepToCsv(const LlmSweep& sweep);
std::string llmSweepToJson(const LlmSweep& sweep, const std::string& settingsLine);

} // namespace rfx
