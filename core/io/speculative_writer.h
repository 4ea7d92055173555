#pragma once
// `roofline-cli llm --draft`: speculative decoding's round beside the plain decode step, per device.

#include "serving/serving.h"

#include <nlohmann/json_fwd.hpp>

#include <string>
#include <vector>

namespace rfx {

struct SpeculativeRow {
    std::string device; ///< its id
    double plainTpot = 0; ///< `llm`'s TPOT without a draft, second
    ServingOutcome outcome; ///< speculativeDecode's
};

/// "Speculative decoding with Llama-3.2 1B: K = 4 drafted a round, A = 0.70: 2.77 tokens a round" and a
/// line a device: TPOT, its round, against plain decoding, the draft's memory.
std::string speculativeToTable(
    const std::string& draft, const Speculation& speculation, const std::vector<SpeculativeRow>& rows, int batch);
nlohmann::json speculativeToJson(
    const std::string& draft, const Speculation& speculation, const std::vector<SpeculativeRow>& rows);

} // namespace rfx
