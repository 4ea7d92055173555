// roofline-cli measure --llm: a small language model's prefill and decode rows run alone on this CPU
// with oneDNN (issue 50), written as the measurement CSV measure --network writes, and held at once
// against this machine's roofline, row by row and in tokens per second.
#include "cli_commands.h"

#include "base/format.h"
#include "devices/device_loader.h"
#include "io/llm_probes.h"
#include "io/measurements.h"
#include "llm/llm_both.h"
#include "llm/llm_files.h"
#include "measure/keep_fastest.h"
#include "measure/llm_measure.h"
#include "measure/network_run.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>

namespace rfx {

namespace {

/// "83 % of it reached": the share of a bound a measured time reaches (a time of 0 reaches all of it).
std::string reached(double bound, double measured)
{
    return formatPercent(measured > 0 ? bound / measured : 1) + " of it reached";
}

std::optional<int> wholeNumber(const std::string& option, const std::string& value, Range range, std::string& error)
{
    const std::optional<int> v = parseWholeNumber(value);
    if (!v || *v < range.min || *v > range.max) {
        error = option + ": must be a whole number from " + formatCount(range.min) + " to " + formatCount(range.max)
            + ", got '" + value + "'";
        return std::nullopt;
    }
    return v;
}

} // namespace

namespace {

// The batch probes' weight products by batch, against their bound: how this machine's matrix kernels
// stream the same weights at each batch (what a calibration's by-rows efficiency learns).
void sayProbes(
    std::ostream& report, const std::vector<CalibrationSample>& probes, const LlmMeasuredGroup& own, int batch)
{
    std::map<double, std::pair<double, double>> byBatch; // measured, bound
    byBatch[batch] = { own.measured, own.bound };
    for (const CalibrationSample& p : probes) {
        byBatch[p.matrixRows].first += p.measured;
        byBatch[p.matrixRows].second += p.boundTime;
    }
    if (probes.empty())
        return;
    report << "the decode step's weight products by batch (the batch probes; batch " << batch
           << ": the step measured above):\n";
    for (const auto& [at, times] : byBatch)
        report << "  batch " << std::llround(at) << ": measured " << formatTime(times.first) << " against a bound of "
               << formatTime(times.second) << " (" << reached(times.second, times.first) << ")\n";
}

} // namespace

int runMeasureLlm(
    const std::vector<std::string>& args, std::ostream& out, std::ostream& err, const std::filesystem::path& exeDir)
{
    CommonOptions common;
    std::string model = "llama-3.2-1b", output = "-", device;
    int prompt = 128, context = 256, batch = 1, bits = 32;
    bool quick = false, keep = false;
    for (size_t i = 0; i < args.size(); ++i) {
        std::string error;
        if (const OptionStatus st = applyCommonOption(args, i, common, error); st != OptionStatus::NotConfigOption) {
            if (st == OptionStatus::Error)
                return usageError(err, error);
            continue;
        }
        const SplitOption split = splitOption(args[i]);
        if ((split.name == "--quick" || split.name == "--full") && !split.value) {
            quick = split.name == "--quick";
            continue;
        }
        if (split.name == "--keep-fastest" && !split.value) {
            keep = true;
            continue;
        }
        if (split.name != "--model" && split.name != "--output" && split.name != "--device" && split.name != "--prompt"
            && split.name != "--context" && split.name != "--batch" && split.name != "--bits")
            return usageError(err, "unknown option for 'measure --llm': " + args[i]);
        if (!split.value && i + 1 >= args.size())
            return usageError(err, split.name + ": missing value");
        const std::string value = split.value ? *split.value : args[++i];
        std::optional<int> n;
        if (split.name == "--model")
            model = value;
        else if (split.name == "--output")
            output = value;
        else if (split.name == "--device")
            device = value;
        else if (split.name == "--bits") {
            if (value != "32" && value != "16")
                return usageError(err, "--bits: 32 (fp32) or 16 (bf16, on CPUs with AVX-512), got '" + value + "'");
            bits = std::stoi(value);
        } else if (!(n = wholeNumber(split.name, value,
                         split.name == "--batch" ? kMeasureLlmBatchRange : Range { 1, 1 << 16 }, error)))
            return usageError(err, error);
        else
            (split.name == "--prompt" ? prompt : split.name == "--context" ? context : batch) = *n;
    }
    if (context <= prompt)
        return usageError(err,
            "--context: the decode context must be past the prompt (" + std::to_string(prompt) + " tokens), got "
                + std::to_string(context) + "; give --context " + std::to_string(prompt + 1) + " or more");
    if (keep && output == "-")
        return usageError(err, "--keep-fastest: give --output FILE, the measurement to keep the fastest rows of");
    LlmLoad load = loadLanguageModel(model);
    if (!load.model) {
        err << "roofline-cli: cannot use the language model: " << load.error << "\n";
        return ExitUsage;
    }
    if (load.model->onnx) {
        err << "roofline-cli: measure --llm: " << model
            << " is an ONNX decoder; its rows are its graph's operators, which measure --llm does not run: give a "
               "built-in "
               "model, a config.json or a GGUF file\n";
        return ExitUsage;
    }
    const LlmSettings s = cpuLlmSettings(prompt, context, batch, bits);
    if (auto e = validateLlmSettings(s))
        return usageError(err, *e);
    if (const auto why = measurementRefusal(llmConfig(s))) {
        err << "roofline-cli: measure --llm: " << *why << "\n";
        return ExitUsage;
    }
    // An --output to keep the fastest rows of is read and checked before the minutes of measuring.
    std::optional<MeasurementSet> earlier;
    int earlierPasses = 1;
    if (keep && std::filesystem::exists(output)) {
        std::ifstream in(output, std::ios::binary);
        const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        earlier = parseMeasurements(text, output);
        earlierPasses = passesIn(text);
        if (!in || !earlier->ok() || earlier->configuration != llmMeasureArgs(model, s)) {
            err << "roofline-cli: measure --llm --keep-fastest: " << output
                << (!in || !earlier->ok() ? ": cannot be read as a measurement CSV"
                                          : ": was measured at other settings (its '# configuration:' line)")
                << "; nothing measured or written: give another --output, or remove the file to start again\n";
            return ExitUsage;
        }
    }
    // This CPU's ceilings first, as measure --network does, unless another device is named.
    if (device.empty()) {
        const DeviceLibrary lib = loadLibrary(common, exeDir, err);
        if (const auto why = ceilingsFirst(lib.find("this-machine"))) {
            err << "roofline-cli: measure: " << *why << "\n";
            if (const int code
                = runMeasure(quick ? std::vector<std::string> { "--quick" } : std::vector<std::string> {}, err, err))
                return code;
        }
        device = "this-machine";
    }
    const DeviceLibrary lib = loadLibrary(common, exeDir, err);
    std::vector<Device> chosen;
    if (!resolveDevices(lib, { device }, chosen, err))
        return ExitUsage;

    RowProgress progress { err };
    NetworkMeasurement m
        = measureLlm(*load.model, s, quick ? LayerBenchOptions::quickMode() : LayerBenchOptions::fullMode(),
            [&](double fraction, const std::string& row) { return progress(fraction, row); });
    progress.finish();
    if (!m.error.empty()) {
        err << "roofline-cli: measure --llm: " << m.error << "\n";
        return ExitUsage;
    }
    if (earlier) { // the passes before this one, measured apart in time: each row at its fastest of all
        if (const std::string e = keepFastest(m, *earlier, earlierPasses); !e.empty()) {
            err << "roofline-cli: measure --llm --keep-fastest: " << e << "\n";
            return ExitUsage;
        }
    }
    const std::string csv = networkMeasurementCsv(m, llmMeasureArgs(model, s), measurementDate());
    std::ostream* said = nullptr;
    if (!writeMeasurement(m, csv, output, out, err, said))
        return ExitFailure;
    std::ostream& report = *said;
    // Held against the device's roofline, row by row (both phases' rows, as the window shows them),
    // and the phases' times: measured prefill and decode step against TTFT's and TPOT's bounds.
    const LlmOutcome outcome = analyzeLlm(*load.model, s, chosen, false);
    if (!outcome.analysis) {
        err << "roofline-cli: " << outcome.error << "\n";
        return ExitUsage;
    }
    const Report both = bothPhases(*outcome.analysis);
    const MeasurementSet measuredSet = parseMeasurements(csv, output == "-" ? "measurement" : output);
    const MeasurementSet set = withoutLlmProbes(measuredSet);
    if (set.ok() && !both.results.empty()) {
        const Comparison c = compareMeasurements(set, both.results.front());
        report << comparisonToTable(c, both.results.front(), set);
        double measured[2] = { 0, 0 };
        const size_t prefillRows = size_t(both.parts.size() > 1 ? both.parts[1].first : 0);
        for (const LlmMeasuredGroup& p : measuredByPhase(c, both.results.front().layers, prefillRows))
            measured[p.phase == LlmPhase::Prefill ? 0 : 1] = p.measured;
        report << "by kind of row (what a calibration fits per class):\n";
        LlmMeasuredGroup decodeMatrix;
        for (const LlmMeasuredGroup& g : measuredByGroup(c, both.results.front().layers, prefillRows)) {
            if (g.phase == LlmPhase::Decode && g.group == "matrix")
                decodeMatrix = g;
            report << "  " << llmPhaseName(g.phase) << ", " << g.group << ": " << g.rows << " rows, "
                   << formatCount(std::llround(g.kernels)) << " kernels, " << formatTime(g.measured)
                   << " against a bound of " << formatTime(g.bound) << " (" << reached(g.bound, g.measured) << ")";
            if (g.measured > 2 * g.bound) // far under the bound: the kernels' fixed cost shows
                report << "; " << formatTime(g.beyondPerKernel()) << " a kernel beyond the bound";
            report << "\n";
        }
        const LlmDeviceFigures& f = outcome.analysis->figures.front();
        report << "prefill of " << formatCount(prompt) << " tokens x " << batch << ": measured "
               << formatTime(measured[0]) << ", bound " << formatTime(f.ttft) << " (" << reached(f.ttft, measured[0])
               << ")\n"
               << "decode step at context " << formatCount(context) << " x " << batch << ": measured "
               << formatTime(measured[1]) << " (" << formatNumber3(measured[1] > 0 ? batch / measured[1] : 0)
               << " tokens/s), bound " << formatTime(f.tpot) << " (" << formatNumber3(f.batchTokensPerSecond)
               << " tokens/s; " << reached(f.tpot, measured[1]) << ")\n";
        sayProbes(report, llmProbeSamples(measuredSet, *load.model, s, chosen.front()), decodeMatrix, batch);
    }
    return out ? ExitOk : ExitFailure;
}

} // namespace rfx
