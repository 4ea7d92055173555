#pragma once
// Internal to app/: what roofline-cli's subcommands share. Each subcommand is one file
// (cli_analyze.cpp, cli_calibrate.cpp, cli_devices.cpp, cli_tune.cpp, cli_compare.cpp, cli_measure.cpp,
// cli_measure_network.cpp, cli_networks.cpp, cli_llm.cpp; export and reproduce in cli_export.cpp and cli_reproduce.cpp,
// which need Qt), over the options below (cli_options.cpp) and the configuration options of core/io/options.h.

#include "cli.h"
#include "engine/roofline.h"
#include "io/llm_options.h"
#include "io/measurements.h"
#include "io/options.h"
#include "measure/layer_bench.h"
#include "measure/llm_measure.h"
#include "serving/speculative.h"

#include <filesystem>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace rfx {

/// The options every subcommand takes: --format and --devices-dir.
struct CommonOptions {
    std::string format = "table";
    std::vector<std::filesystem::path> extraDirs;
};

/// Applies args[i] when it is --format or --devices-dir (with its value); NotConfigOption otherwise.
OptionStatus applyCommonOption(const std::vector<std::string>& args, size_t& i, CommonOptions& c, std::string& error);
/// args[i] as a common or a language-model option (llm, plan, calibrate --measured-tokens-per-s):
/// Consumed, NotConfigOption, or Error with the usage already said on `err`.
OptionStatus applyCommonOrLlmOption(
    const std::vector<std::string>& args, size_t& i, CommonOptions& c, LlmOptions& llm, std::ostream& err);

/// The shipped, --devices-dir and user device folders; prints file problems to `err`.
DeviceLibrary loadLibrary(const CommonOptions& common, const std::filesystem::path& exeDir, std::ostream& err);

/// Applies args[i] as a configuration or common option; the usage error's exit code when it is neither
/// or its value is bad.
std::optional<int> takeOption(const std::vector<std::string>& args, size_t& i, ConfigOptions& options,
    CommonOptions& common, const char* command, std::ostream& err);

/// Checks the configuration, then picks the devices the options name (the RTX 2060 Super when none; only
/// the first with `firstOnly`) from the shipped, extra and user folders; the exit code after saying why
/// when either fails.
std::optional<int> chooseDevices(const ConfigOptions& options, const CommonOptions& common,
    const std::filesystem::path& exeDir, std::ostream& err, std::vector<Device>& chosen, bool firstOnly);

/// Writes `text` to `target` through a temporary file and a rename: the old file or the new one,
/// never half of one; false after saying why on `err`.
bool writeFileAtomically(const std::filesystem::path& target, const std::string& text, std::ostream& err);

/// Takes args[i] when it is --calibration FILE: nothing when it is not; ExitOk when taken, or the usage
/// error's exit code.
std::optional<int> takeCalibrationOption(
    const std::vector<std::string>& args, size_t& i, std::string& file, std::ostream& err);
/// Loads the calibration file (when `file` is not empty) and applies it to the report's device of its
/// id; the exit code after saying why when the file is bad or names no device analysed.
std::optional<int> applyCalibrationFile(const std::string& file, Report& report, std::ostream& err);

/// --draft MODEL, --accept A and --lookahead K (llm, plan): speculative decoding.
struct SpeculationOptions {
    std::string draft; ///< as given; empty: none
    std::optional<double> accept;
    int lookahead = 4;
    bool lookaheadGiven = false;
    std::optional<LlmModel> model; ///< the draft, loaded by finishSpeculation
    Speculation speculation() const; ///< pointing at `model` (keep the options alive while it is used)
};
/// Takes args[i] when it is one of the three: nothing when it is not; ExitOk when taken, or the usage
/// error's exit code.
std::optional<int> takeSpeculationOption(
    const std::vector<std::string>& args, size_t& i, SpeculationOptions& options, std::ostream& err);
/// Checks the three together and loads the draft: nothing when fine (or no draft asked for), else the
/// exit code after saying why.
std::optional<int> finishSpeculation(SpeculationOptions& options, std::ostream& err);

/// The current UTC time in strftime's `format`.
std::string utcNow(const char* format);

/// A measurement file held against the configured network on the first chosen device (calibrated
/// with `calibration` when it is not empty).
struct MeasuredRun {
    MeasurementSet set;
    Report report;
    Comparison comparison;
    /// A language model's batch probes (llm_probes.h), held against each probed batch's decode step;
    /// `set` holds the other rows.
    std::vector<CalibrationSample> probeSamples;
};
/// Loads, analyses and compares; the exit code after saying why when a step fails.
std::optional<int> compareMeasurementFile(const std::string& file, const ConfigOptions& options,
    const CommonOptions& common, const std::string& calibration, const std::filesystem::path& exeDir, std::ostream& err,
    MeasuredRun& run);

int runAnalyze(
    const std::vector<std::string>& args, std::ostream& out, std::ostream& err, const std::filesystem::path& exeDir);
int runDevices(
    const std::vector<std::string>& args, std::ostream& out, std::ostream& err, const std::filesystem::path& exeDir);
int runTune(
    const std::vector<std::string>& args, std::ostream& out, std::ostream& err, const std::filesystem::path& exeDir);
/// The words of a measurement CSV's "# configuration:" header line (measure --network and --llm write
/// it), among its first 20 comment lines; nothing without one; `readable` false when it cannot be opened.
std::optional<std::vector<std::string>> configurationWords(const std::string& file, bool& readable);
/// A measure --llm file (its "# configuration:" line starts with --llm): the model and settings it
/// names; nothing for a network's file, or with `error` set when the line cannot be read
/// (cli_calibrate_llm.cpp).
std::optional<LlmMeasureHeader> llmMeasurementOf(const std::string& file, std::string& error);
/// compareMeasurementFile for such a file: both phases of its model on the first chosen device.
std::optional<int> compareLlmMeasurementFile(const std::string& file, const LlmMeasureHeader& header,
    const ConfigOptions& options, const CommonOptions& common, const std::string& calibration,
    const std::filesystem::path& exeDir, std::ostream& err, MeasuredRun& run);
/// roofline-cli compare on several measure --llm files (cli_compare_llm.cpp): a line each, the measured
/// prefill and decode step beside their bound and, with a calibration, its prediction and error.
int compareLlmFiles(const std::vector<std::string>& files, const ConfigOptions& options, const CommonOptions& common,
    const std::string& calibration, const std::filesystem::path& exeDir, std::ostream& out, std::ostream& err);
/// The configuration a measurement CSV's "# configuration:" header line names (roofline-cli measure
/// --network writes it), applied to `options`; the exit code after saying why when there is none.
std::optional<int> configurationOfMeasurement(
    const std::string& file, ConfigOptions& options, CommonOptions& common, std::ostream& err);
/// roofline-cli calibrate (cli_calibrate.cpp).
int runCalibrate(
    const std::vector<std::string>& args, std::ostream& out, std::ostream& err, const std::filesystem::path& exeDir);
/// A calibration written to `output` (- for `out`), atomically; the stream its report then goes to
/// (`err` when the file went to standard output), or nullptr after saying why it could not be written.
std::ostream* writeCalibration(
    const Calibration& calibration, const std::string& output, std::ostream& out, std::ostream& err);
/// "wrote CAL.json; apply it with: roofline-cli llm --model M ... --calibration CAL.json" (nothing for -).
void sayHowToApplyLlm(std::ostream& report, const std::string& output, const std::string& model,
    const LlmSettings& settings, const std::string& deviceId);
/// roofline-cli calibrate --measured-tokens-per-s X (cli_calibrate_throughput.cpp): a language model's
/// calibration from a measured throughput.
int runCalibrateThroughput(
    const std::vector<std::string>& args, std::ostream& out, std::ostream& err, const std::filesystem::path& exeDir);
int runCompare(
    const std::vector<std::string>& args, std::ostream& out, std::ostream& err, const std::filesystem::path& exeDir);
int runMeasure(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
/// roofline-cli measure --llm (cli_measure_llm.cpp); `args` without "--llm".
int runMeasureLlm(
    const std::vector<std::string>& args, std::ostream& out, std::ostream& err, const std::filesystem::path& exeDir);
/// roofline-cli measure --network (cli_measure_network.cpp); `args` without "--network".
int runMeasureNetwork(
    const std::vector<std::string>& args, std::ostream& out, std::ostream& err, const std::filesystem::path& exeDir);
/// Measuring rows (measure --network, measure --llm): one progress line a row on `err`, wiped at the end.
struct RowProgress {
    explicit RowProgress(std::ostream& to)
        : err(to)
    {
    }
    std::ostream& err;
    std::string shown;
    bool printed = false;
    bool operator()(double fraction, const std::string& row);
    void finish();
};
/// The measurement written (CSV to `output`, or standard output for "-") and what both commands say
/// of it (rows measured, rows not run and why, the clock, noise) on the stream the CSV leaves free,
/// which is returned through `report`; false when the file could not be written.
bool writeMeasurement(const NetworkMeasurement& m, const std::string& csv, const std::string& output, std::ostream& out,
    std::ostream& err, std::ostream*& report);
/// Where `model` names a language model (a built-in one, a GGUF or safetensors file, a config.json or
/// its directory), says that 'roofline-cli llm' analyses it and returns ExitUsage; else nothing.
std::optional<int> languageModelElsewhere(const std::string& model, std::ostream& err);
int runNetworks(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
/// roofline-cli llm (cli_llm.cpp): a language model's prefill and decode per device.
int runLlm(
    const std::vector<std::string>& args, std::ostream& out, std::ostream& err, const std::filesystem::path& exeDir);
/// roofline-cli plan (cli_plan.cpp): a language model served, searched over devices and configurations.
int runPlan(
    const std::vector<std::string>& args, std::ostream& out, std::ostream& err, const std::filesystem::path& exeDir);

} // namespace rfx
