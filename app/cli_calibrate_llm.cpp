// roofline-cli calibrate and compare on a measure --llm file (issue 50 item 3): the language model
// and settings its header names, analysed in both phases on the device, the measured rows held
// against them (and against a calibration's prediction: a fit at one context and batch checked at
// another).
#include "cli_commands.h"

#include "io/llm_probes.h"
#include "llm/llm_both.h"
#include "llm/llm_files.h"
#include "measure/llm_measure.h"

namespace rfx {

std::optional<LlmMeasureHeader> llmMeasurementOf(const std::string& file, std::string& error)
{
    bool readable = false; // an unreadable file is said where it is read as a measurement
    const std::optional<std::vector<std::string>> args = configurationWords(file, readable);
    if (!args || args->empty() || args->front() != "--llm")
        return std::nullopt; // a network's: the usual way
    auto h = llmMeasureHeader(*args, error);
    if (!h)
        error = file + ": " + error;
    return h;
}

std::optional<int> compareLlmMeasurementFile(const std::string& file, const LlmMeasureHeader& header,
    const ConfigOptions& options, const CommonOptions& common, const std::string& calibration,
    const std::filesystem::path& exeDir, std::ostream& err, MeasuredRun& run)
{
    run.set = loadMeasurements(file);
    for (const Diagnostic& d : run.set.diagnostics)
        err << toString(d) << "\n";
    if (!run.set.ok())
        return ExitFailure;
    LlmLoad load = loadLanguageModel(header.model);
    if (!load.model) {
        err << "roofline-cli: " << file << ": cannot use the language model it was measured on: " << load.error << "\n";
        return ExitUsage;
    }
    std::vector<Device> chosen;
    if (auto code = chooseDevices(options, common, exeDir, err, chosen, true))
        return code;
    const LlmOutcome outcome = analyzeLlm(*load.model, header.settings, { chosen.front() }, false);
    if (!outcome.analysis) {
        err << "roofline-cli: " << file << ": " << outcome.error << "\n";
        return ExitUsage;
    }
    LlmProbeSplit split = splitLlmProbes(run.set, *load.model, header.settings, chosen.front());
    run.set = std::move(split.rows);
    run.probeSamples = std::move(split.probes);
    run.report = bothPhases(*outcome.analysis);
    if (auto code = applyCalibrationFile(calibration, run.report, err))
        return code;
    run.comparison = compareMeasurements(run.set, run.report.results.front());
    return std::nullopt;
}

} // namespace rfx
