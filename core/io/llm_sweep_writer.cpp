#include "io/llm_sweep_writer.h"

#include "base/format.h"
#include "io/csv.h"

#include <nlohmann/json.hpp>

#include <iomanip>
#include <sstream>

namespace rfx {

namespace {
const char* axisWord(const LlmSweep& s) { return s.axis == LlmSweepAxis::Context ? "context" : "batch"; }

std::string limitText(const LlmSweep& s, const LlmSweepLine& l)
{
    if (l.limit <= 0)
        return "does not fit at " + std::string(s.axis == LlmSweepAxis::Context ? "context 1" : "batch 1");
    return "fits up to " + std::string(axisWord(s)) + " " + formatCount(l.limit)
        + (l.limitedByModel ? " (the model's max_position_embeddings)" : " (then memory runs out)");
}
} // namespace

std::string llmSweepToTable(const LlmSweep& s, const std::string& settingsLine)
{
    std::ostringstream o;
    o << "Decode step against the "
      << (s.axis == LlmSweepAxis::Context ? "context (tokens per sequence in the KV cache)"
                                          : "batch (sequences decoded together)")
      << "; " << settingsLine
      << "\nTimes are roofline bounds (the best case a kernel can reach), not measurements. * marks the settings' own "
         "value.\n";
    for (const LlmSweepLine& l : s.lines) {
        o << "\n" << l.device << ": " << limitText(s, l) << "\n";
        if (l.points.empty())
            continue;
        o << std::right << std::setw(10) << axisWord(s) << std::setw(11) << "TPOT" << std::setw(12) << "tok/s"
          << std::setw(14) << "batch tok/s" << std::setw(12) << "memory"
          << "\n";
        for (const LlmSweepPoint& p : l.points)
            o << std::setw(9) << formatCount(p.x) << (p.x == s.current ? "*" : " ") << std::setw(11)
              << formatTime(p.tpot) << std::setw(12) << formatNumber3(p.tokensPerSecond) << std::setw(14)
              << formatNumber3(p.batchTokensPerSecond) << std::setw(12) << formatMemory(p.memoryBytes) << "\n";
    }
    return o.str();
}

std::string llmSweepToCsv(const LlmSweep& s)
{
    std::ostringstream o;
    o << "device," << axisWord(s) << ",tpot_s,tokens_per_s,batch_tokens_per_s,memory_bytes,capacity_bytes\n";
    for (const LlmSweepLine& l : s.lines)
        for (const LlmSweepPoint& p : l.points)
            o << csv::field(l.device) << "," << p.x << "," << csv::numberField(p.tpot) << ","
              << csv::numberField(p.tokensPerSecond) << "," << csv::numberField(p.batchTokensPerSecond) << ","
              << csv::numberField(p.memoryBytes) << "," << csv::numberField(l.capacity) << "\n";
    return o.str();
}

std::string llmSweepToJson(const LlmSweep& s, const std::string& settingsLine)
{
    using json = nlohmann::ordered_json;
    json devices = json::array();
    for (const LlmSweepLine& l : s.lines) {
        json points = json::array();
        for (const LlmSweepPoint& p : l.points)
            points.push_back({ { axisWord(s), p.x }, { "tpot_s", p.tpot }, { "tokens_per_s", p.tokensPerSecond },
                { "batch_tokens_per_s", p.batchTokensPerSecond }, { "memory_bytes", p.memoryBytes } });
        devices.push_back({ { "id", l.device }, { "limit", l.limit }, { "limited_by_model", l.limitedByModel },
            { "capacity_bytes", l.capacity }, { "points", points } });
    }
    const json doc { { "axis", axisWord(s) }, { "current", s.current }, { "settings", settingsLine },
        { "devices", devices } };
    return doc.dump(2);
}

} // namespace rfx
