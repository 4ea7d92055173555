#include "measure/keep_fastest.h"

#include "io/llm_probes.h"

#include <charconv>
#include <unordered_map>

namespace rfx {

namespace {
constexpr std::string_view kPasses = "# passes: ";
} // namespace

std::string keepFastest(NetworkMeasurement& m, const MeasurementSet& earlier, int earlierPasses)
{
    std::unordered_map<std::string, const Measurement*> byName;
    for (const Measurement& r : earlier.rows)
        byName.emplace(r.name, &r);
    for (const RowMeasurement& r : m.rows) { // every row checked before any is changed
        if (!r.measured)
            continue;
        const auto it = byName.find(r.layer);
        if (it == byName.end() && llmProbeBatch(r.layer) > 0) // a file measure --llm wrote before its batch probes
            return earlier.file + ": has no row '" + r.layer
                + "': it was measured before measure --llm ran its batch probes; give another --output, or remove the "
                  "file to "
                  "start again";
        if (it == byName.end())
            return earlier.file + ": has no row '" + r.layer
                + "': it is not a measurement of this configuration; give another --output, or remove the file to "
                  "start again";
        const Measurement& e = *it->second;
        if (!(e.best > 0) || !(e.median > 0) || e.runs < 1)
            return earlier.file + ": line " + std::to_string(e.line) + ": row '" + r.layer
                + "' has no best_s, median_s or runs: it is not a file roofline-cli measure wrote; give another "
                  "--output";
    }
    for (RowMeasurement& r : m.rows) {
        if (!r.measured)
            continue;
        const Measurement& e = *byName.at(r.layer);
        if (e.best < r.best) {
            r.best = e.best;
            r.median = e.median;
            r.spread = e.spread;
            r.reorder = e.reorder >= 0 ? e.reorder : r.reorder;
        }
        r.runs += int(e.runs);
    }
    const int passes = std::max(1, earlierPasses) + 1;
    // The verdict on noise is this pass's (its clock, its runs): said so, the file holding several.
    if (!m.noise.empty())
        m.noise = "the last of " + std::to_string(passes) + " passes: " + m.noise;
    m.notes.push_back(std::string(kPasses.substr(2)) + std::to_string(passes)
        + " (--keep-fastest: each row's fastest run over this run and the earlier ones in this file)");
    return {};
}

int passesIn(std::string_view text)
{
    for (size_t at = 0; at < text.size();) {
        const size_t end = std::min(text.find('\n', at), text.size());
        const std::string_view line = text.substr(at, end - at);
        if (!line.starts_with('#'))
            break; // the header is over
        if (line.starts_with(kPasses)) {
            int n = 1;
            const std::string_view v = line.substr(kPasses.size());
            if (std::from_chars(v.data(), v.data() + v.size(), n).ec == std::errc() && n >= 1)
                return n;
        }
        at = end + 1;
    }
    return 1;
}

} // namespace rfx
