// roofline-cli's shared options: --format and --devices-dir, configuration options with usage
// errors, the device library and the device choice.
#include "cli_commands.h"

#include "io/measurements.h"

#include <ctime>

#include "devices/device_loader.h"
#include "llm/llm_files.h"
#include "model/networks.h"
#include "onnx/onnx_model.h"
#include "open/analyses.h"

#include <algorithm>
#include <fstream>

namespace rfx {

OptionStatus applyCommonOption(const std::vector<std::string>& args, size_t& i, CommonOptions& c, std::string& error)
{
    const SplitOption split = splitOption(args[i]);
    const std::string arg = split.name;
    const bool hasInline = split.value.has_value();
    std::string value = split.value.value_or("");
    if (arg != "--format" && arg != "--devices-dir")
        return OptionStatus::NotConfigOption;
    if (!hasInline) {
        if (i + 1 >= args.size()) {
            error = arg + ": missing value";
            return OptionStatus::Error;
        }
        value = args[++i];
    }
    if (arg == "--format")
        c.format = value;
    else
        c.extraDirs.emplace_back(value);
    return OptionStatus::Consumed;
}

OptionStatus applyCommonOrLlmOption(
    const std::vector<std::string>& args, size_t& i, CommonOptions& c, LlmOptions& llm, std::ostream& err)
{
    std::string error;
    OptionStatus st = applyCommonOption(args, i, c, error);
    if (st == OptionStatus::NotConfigOption)
        st = applyLlmOption(args, i, llm, error);
    if (st == OptionStatus::Error)
        usageError(err, error);
    return st;
}

DeviceLibrary loadLibrary(const CommonOptions& common, const std::filesystem::path& exeDir, std::ostream& err)
{
    return loadCliDevices(common.extraDirs, exeDir, err);
}

std::optional<int> takeOption(const std::vector<std::string>& args, size_t& i, ConfigOptions& options,
    CommonOptions& common, const char* command, std::ostream& err)
{
    std::string error;
    OptionStatus s = applyConfigOption(args, i, options, error);
    if (s == OptionStatus::NotConfigOption)
        s = applyCommonOption(args, i, common, error);
    if (s == OptionStatus::Error)
        return usageError(err, error);
    if (s == OptionStatus::NotConfigOption)
        return usageError(err, std::string(command) + ": unknown option '" + args[i] + "'");
    return std::nullopt;
}

std::optional<int> languageModelElsewhere(const std::string& model, std::ostream& err)
{
    if (model.empty() || !isLanguageModelSpec(model))
        return std::nullopt;
    err << "roofline-cli: --model " << model << ": a language model; its prefill and decode are analysed by "
        << "'roofline-cli llm --model " << model << "' (time to first token, time per token, memory)\n";
    return ExitUsage;
}

std::optional<int> chooseDevices(const ConfigOptions& options, const CommonOptions& common,
    const std::filesystem::path& exeDir, std::ostream& err, std::vector<Device>& chosen, bool firstOnly)
{
    if (auto code = languageModelElsewhere(options.config.model, err))
        return code;
    if (auto problem = validate(options.config)) {
        err << "roofline-cli: impossible configuration: " << *problem << "\n";
        return ExitUsage;
    }
    // An ONNX model's fixed extents win over the options: say so rather than ignore them silently.
    if (isOnnxFile(options.config.model))
        if (const OnnxLoad load = cachedOnnxModel(options.config.model); load.model) {
            if (options.inputGiven && !load.model->imageBound())
                err << "roofline-cli: warning: --image does not apply: " << load.model->imageFixedReason() << "\n";
            if (options.config.batch != load.model->fixedBatch() && !load.model->batchBound())
                err << "roofline-cli: warning: --batch does not apply: " << load.model->batchFixedReason()
                    << "; every figure is for its batch of " << load.model->fixedBatch() << "\n";
        }
    const DeviceLibrary lib = loadLibrary(common, exeDir, err);
    if (lib.devices.empty()) {
        err << "roofline-cli: no device files found in " << shippedDeviceDir(exeDir).string() << "\n";
        return ExitFailure;
    }
    std::vector<std::string> ids = options.devices;
    if (ids.empty())
        ids.push_back("rtx-2060-super");
    if (firstOnly)
        ids.resize(1);
    if (!resolveDevices(lib, ids, chosen, err))
        return ExitUsage;
    return std::nullopt;
}

bool takeDevicesDirs(std::vector<std::string>& args, std::vector<std::filesystem::path>& dirs, std::string& error)
{
    std::vector<std::string> rest;
    for (size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--devices-dir") {
            if (i + 1 >= args.size()) {
                error = "--devices-dir: missing value";
                return false;
            }
            dirs.emplace_back(args[++i]);
        } else if (args[i].starts_with("--devices-dir=")) {
            dirs.emplace_back(args[i].substr(14));
        } else {
            rest.push_back(args[i]);
        }
    }
    args = std::move(rest);
    return true;
}

DeviceLibrary loadCliDevices(
    const std::vector<std::filesystem::path>& extraDirs, const std::filesystem::path& exeDir, std::ostream& err)
{
    DeviceLibrary lib = loadDeviceLibrary(deviceSearchPath(exeDir, extraDirs));
    for (const Diagnostic& d : lib.diagnostics) {
        if (d.severity != Severity::Info)
            err << toString(d) << "\n";
    }
    return lib;
}

bool resolveDevices(
    const DeviceLibrary& lib, const std::vector<std::string>& ids, std::vector<Device>& chosen, std::ostream& err)
{
    DeviceLibrary::Choice c = lib.choose(ids);
    if (!c.unknown.empty()) {
        std::string known;
        for (const Device& x : lib.devices)
            known += (known.empty() ? "" : ", ") + x.id;
        err << "roofline-cli: unknown device '" << c.unknown.front() << "'; known devices: " << known << "\n";
        return false;
    }
    for (Device& d : c.devices)
        if (std::none_of(chosen.begin(), chosen.end(), [&](const Device& x) { return x.id == d.id; }))
            chosen.push_back(std::move(d));
    return true;
}

std::string configFailure(const Config& config, const std::string& error)
{
    if (isNetworkFile(config.model) && error.starts_with(config.model + ":"))
        return "roofline-cli: cannot use the model file: " + error;
    return "roofline-cli: impossible configuration: " + error;
}

bool writeFileAtomically(const std::filesystem::path& target, const std::string& text, std::ostream& err)
{
    std::error_code ec;
    if (target.has_parent_path())
        std::filesystem::create_directories(target.parent_path(), ec);
    const std::filesystem::path tmp = target.string() + ".tmp";
    {
        std::ofstream f(tmp, std::ios::binary);
        f << text;
        if (!f) {
            err << "roofline-cli: cannot write " << tmp.string() << "\n";
            return false;
        }
    }
    std::filesystem::rename(tmp, target, ec); // the old file or the new one, never half of one
    if (ec)
        err << "roofline-cli: cannot write " << target.string() << ": " << ec.message() << "\n";
    return !ec;
}

std::string utcNow(const char* format)
{
    const std::time_t t = std::time(nullptr);
    char buf[64];
    std::strftime(buf, sizeof buf, format, std::gmtime(&t));
    return buf;
}

std::optional<int> compareMeasurementFile(const std::string& file, const ConfigOptions& options,
    const CommonOptions& common, const std::string& calibration, const std::filesystem::path& exeDir, std::ostream& err,
    MeasuredRun& run)
{
    run.set = loadMeasurements(file);
    for (const Diagnostic& d : run.set.diagnostics)
        err << toString(d) << "\n";
    if (!run.set.ok())
        return ExitFailure;
    std::vector<Device> chosen;
    if (auto code = chooseDevices(options, common, exeDir, err, chosen, true))
        return code;
    AnalysisOutcome outcome = analyzeConfig(options.config, chosen);
    if (!outcome.report) {
        err << configFailure(options.config, outcome.error) << "\n";
        return ExitUsage;
    }
    run.report = std::move(*outcome.report);
    if (auto code = applyCalibrationFile(calibration, run.report, err))
        return code;
    run.comparison = compareMeasurements(run.set, run.report.results.front());
    return std::nullopt;
}

} // namespace rfx
