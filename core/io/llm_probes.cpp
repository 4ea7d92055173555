// measure --llm's batch probes (llm_probes.h): their names, and their rows held against each batch's
// decode step for a calibration.
#include "io/llm_probes.h"

#include "io/llm_measure_header.h"
#include "llm/llm_analysis.h"

#include <charconv>
#include <map>

namespace rfx {

std::string llmProbePrefix(int batch) { return "probe.b" + std::to_string(batch) + "."; }

int llmProbeBatch(std::string_view name)
{
    constexpr std::string_view start = "probe.b";
    if (!name.starts_with(start))
        return 0;
    name.remove_prefix(start.size());
    int batch = 0;
    const auto [end, ec] = std::from_chars(name.data(), name.data() + name.size(), batch);
    if (ec != std::errc() || end == name.data() + name.size() || *end != '.' || batch < 1)
        return 0;
    return batch;
}

MeasurementSet withoutLlmProbes(const MeasurementSet& set)
{
    MeasurementSet out = set;
    std::erase_if(out.rows, [](const Measurement& m) { return llmProbeBatch(m.name) > 0; });
    return out;
}

std::vector<CalibrationSample> llmProbeSamples(
    const MeasurementSet& set, const LlmModel& model, const LlmSettings& settings, const Device& device)
{
    std::map<int, MeasurementSet> byBatch;
    for (const Measurement& m : set.rows)
        // the batches measure --llm runs: a file naming thousands of others is not analysed thousands of times
        if (const int b = llmProbeBatch(m.name); b > 0 && b != settings.batch && b <= kMeasureLlmBatchRange.max) {
            MeasurementSet& its = byBatch[b];
            its.file = set.file;
            its.rows.push_back(m);
        }
    std::vector<CalibrationSample> samples;
    for (const auto& [batch, probes] : byBatch) {
        LlmSettings at = settings;
        at.batch = batch;
        const LlmOutcome outcome = analyzeLlm(model, at, { device }, false);
        if (!outcome.analysis || outcome.analysis->decode.results.empty())
            continue; // a batch this model cannot be analysed at: its probes say nothing
        DeviceResult step = outcome.analysis->decode.results.front();
        for (LayerResult& l : step.layers)
            l.name = llmProbePrefix(batch) + l.name;
        const Comparison c = compareMeasurements(probes, step);
        if (c.mapping != "by name")
            continue;
        const std::vector<CalibrationSample> its = calibrationSamples(c, step);
        samples.insert(samples.end(), its.begin(), its.end());
    }
    return samples;
}

LlmProbeSplit splitLlmProbes(
    const MeasurementSet& set, const LlmModel& model, const LlmSettings& settings, const Device& device)
{
    return { withoutLlmProbes(set), llmProbeSamples(set, model, settings, device) };
}

} // namespace rfx
