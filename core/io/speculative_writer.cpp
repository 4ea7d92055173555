// Speculative decoding's round beside the plain decode step (speculative_writer.h).
#include "io/speculative_writer.h"

#include "base/format.h"

#include <nlohmann/json.hpp>

#include <sstream>

namespace rfx {

std::string speculativeToTable(
    const std::string& draft, const Speculation& speculation, const std::vector<SpeculativeRow>& rows, int batch)
{
    const double e = expectedTokensPerRound(speculation.accept, speculation.lookahead);
    std::ostringstream o;
    o << "\nSpeculative decoding with " << draft << ": K = " << speculation.lookahead
      << " drafted a round, A = " << formatNumber3(speculation.accept) << " accepted each: (1 - A^"
      << speculation.lookahead + 1 << ") / (1 - A) = " << formatNumber3(e) << " tokens a round (bounds)\n";
    for (const SpeculativeRow& r : rows) {
        o << "  " << r.device << ": ";
        if (!r.outcome.point) {
            o << r.outcome.error << "\n";
            continue;
        }
        const ServingPoint& p = *r.outcome.point;
        const double round = p.tpot * p.tokensPerRound;
        o << "TPOT " << formatTime(p.tpot) << " (" << formatNumber3(p.userTokensPerSecond) << " tokens/s per sequence";
        if (batch > 1)
            o << ", " << formatNumber3(p.replicaTokensPerSecond) << " for the batch";
        o << "): a round of " << formatTime(round) << " = " << p.lookahead << " draft steps of "
          << formatTime(p.draftStepTime) << " + a verification of " << p.lookahead + 1 << " tokens a sequence, "
          << formatTime(p.step.time) << "; ";
        if (r.plainTpot > 0)
            o << formatNumber3(r.plainTpot / p.tpot) << " x plain decoding's " << formatTime(r.plainTpot);
        o << "; the draft holds " << formatNumber3(p.draftBytes / 1e9) << " GB a GPU"
          << (p.draftTensorParallel == 1 && p.tensorParallel > 1 ? " (whole on each GPU: its heads do not split)" : "")
          << "\n";
    }
    return o.str();
}

nlohmann::json speculativeToJson(
    const std::string& draft, const Speculation& speculation, const std::vector<SpeculativeRow>& rows)
{
    using nlohmann::json;
    json devices = json::array();
    for (const SpeculativeRow& r : rows) {
        if (!r.outcome.point) {
            devices.push_back(json { { "device", r.device }, { "error", r.outcome.error } });
            continue;
        }
        const ServingPoint& p = *r.outcome.point;
        devices.push_back(
            json { { "device", r.device }, { "tpot_s", p.tpot }, { "tokens_per_s", p.userTokensPerSecond },
                { "batch_tokens_per_s", p.replicaTokensPerSecond }, { "round_s", p.tpot * p.tokensPerRound },
                { "draft_step_s", p.draftStepTime }, { "verification_s", p.step.time }, { "plain_tpot_s", r.plainTpot },
                { "speedup", r.plainTpot > 0 ? r.plainTpot / p.tpot : 0.0 }, { "draft_bytes_per_gpu", p.draftBytes },
                { "draft_tensor_parallel", p.draftTensorParallel }, { "energy_per_token_j", p.energyPerToken } });
    }
    return json { { "draft", draft }, { "accept", speculation.accept }, { "lookahead", speculation.lookahead },
        { "tokens_per_round", expectedTokensPerRound(speculation.accept, speculation.lookahead) },
        { "devices", devices } };
}

} // namespace rfx
