// roofline-cli llm: a language model's prefill and decode on each device (core/llm): TTFT, TPOT,
// tokens per second, memory and whether it fits, per row of each phase.
#include "cli_commands.h"

#include "io/llm_writer.h"
#include "io/options.h"
#include "llm/llm_analysis.h"
#include "llm/llm_files.h"

#include <ostream>

namespace rfx {

int runLlm(const std::vector<std::string>& args, std::ostream& out, std::ostream& err, const std::filesystem::path& exeDir)
{
    CommonOptions common;
    LlmSettings s;
    std::string model;
    std::vector<std::string> devices;
    bool weightsGiven = false;
    std::vector<std::string> widthOptions; // the options an ONNX decoder's own widths override
    for (size_t i = 0; i < args.size(); ++i) {
        std::string error;
        if (const OptionStatus st = applyCommonOption(args, i, common, error); st != OptionStatus::NotConfigOption) {
            if (st == OptionStatus::Error)
                return usageError(err, error);
            continue;
        }
        const SplitOption split = splitOption(args[i]);
        const std::string& name = split.name;
        auto value = [&]() -> std::optional<std::string> {
            if (split.value)
                return split.value;
            if (i + 1 < args.size())
                return args[++i];
            return std::nullopt;
        };
        auto number = [&](int& target) -> std::optional<int> {
            const auto v = value();
            if (!v)
                return usageError(err, name + ": missing value");
            const auto n = parseWholeNumber(*v);
            if (!n)
                return usageError(err, name + ": expected a whole number, got '" + *v + "'");
            target = *n;
            return std::nullopt;
        };
        // A width as a number or an arithmetic type's name: --act-bits fp8, --kv-bits int4.
        auto width = [&](int& bits, NumberType* type) -> std::optional<int> {
            const auto v = value();
            if (!v)
                return usageError(err, name + ": missing value");
            if (const auto n = parseWholeNumber(*v)) {
                bits = *n;
                if (type)
                    *type = NumberType::Unset;
            } else if (const auto t = parseNumberType(*v)) {
                bits = numberBits(*t);
                if (type)
                    *type = *t;
            } else if (!type && *v == "int4")
                bits = 4;
            else
                return usageError(err, name + ": expected a width in bits or int8, fp8, fp16, bf16, fp32"
                        + std::string(type ? "" : ", int4") + ", got '" + *v + "'");
            return std::nullopt;
        };
        std::optional<int> bad;
        if (name == "--model") {
            const auto v = value();
            if (!v)
                return usageError(err, "--model: missing value (a built-in language model, config.json, a directory, a .gguf "
                                       "file or an ONNX decoder)");
            model = *v;
        } else if (name == "--prompt")
            bad = number(s.prompt);
        else if (name == "--generate")
            bad = number(s.generate);
        else if (name == "--context")
            bad = number(s.context);
        else if (name == "--batch")
            bad = number(s.batch);
        else if (name == "--kv-bits") {
            bad = width(s.kvBits, nullptr);
            widthOptions.push_back(name);
        }
        else if (name == "--act-bits")
            bad = width(s.actBits, &s.actType);
        else if (name == "--tp")
            bad = number(s.tensorParallel);
        else if (name == "--interconnect") {
            const auto v = value();
            if (!v)
                return usageError(err, "--interconnect: missing value (nvlink4, pcie5-x16, ...)");
            s.interconnect = *v;
        }
        else if (name == "--weights-bits") {
            const auto v = value();
            if (!v)
                return usageError(err, "--weights-bits: missing value (4, 8, 16, 32 or file)");
            weightsGiven = true;
            widthOptions.push_back(name);
            if (*v == "file")
                s.weightBits = 0;
            else if (const auto n = parseWholeNumber(*v))
                s.weightBits = *n;
            else if (const auto t = parseNumberType(*v))
                s.weightBits = numberBits(*t); // fp8 and int8 weights are both one byte each
            else if (*v == "int4")
                s.weightBits = 4;
            else
                return usageError(err, "--weights-bits: expected 4, 8, 16, 32 (int4, int8, fp8, fp16, bf16, fp32) or file, got '" + *v + "'");
        } else if (name == "--all-logits") {
            if (split.value)
                return usageError(err, "--all-logits takes no value");
            s.allLogits = true;
        } else if (name == "--attention") {
            const auto v = value();
            if (!v || (*v != "flash" && *v != "naive"))
                return usageError(err, "--attention: expected flash or naive");
            s.attention = *v == "flash" ? LlmAttention::Flash : LlmAttention::Naive;
            widthOptions.push_back(name);
        } else if (name == "--device") {
            const auto v = value();
            if (!v)
                return usageError(err, "--device: missing value (an id from 'roofline-cli devices', or all)");
            devices.push_back(*v);
        } else
            return usageError(err, "unknown option for 'llm': " + args[i]);
        if (bad)
            return *bad;
    }
    if (model.empty())
        return usageError(err, "llm: --model is required (a built-in language model, see 'roofline-cli networks', "
                               "a config.json, a model directory, a .gguf file or an ONNX decoder with past keys and values)");
    const std::string& format = common.format;
    if (format != "table" && format != "json" && format != "csv" && format != "markdown" && format != "latex")
        return usageError(err, "--format: expected table, json, csv, markdown or latex for 'llm', got '" + format + "'");

    LlmLoad load = loadLanguageModel(model);
    if (!load.model) {
        err << "roofline-cli: cannot use the language model: " << load.error << "\n";
        return ExitUsage;
    }
    if (!weightsGiven && load.model->storage)
        s.weightBits = 0; // a weight file: its own types
    if (load.model->onnx)
        for (const std::string& o : widthOptions) // said once each, in every format
            load.model->diagnostics.push_back({ Severity::Info, model, o,
                "not used: an ONNX decoder is analysed as its graph stores it (its weights' and cache's widths, its "
                "attention's operators); the option is for built-in models, config.json and GGUF" });
    if (s.weightBits == 0 && !load.model->storage && !load.model->onnx) {
        err << "roofline-cli: --weights-bits file: " << model
            << " gives no tensor types (a built-in model or a config.json without safetensors beside it); give 4, 8, 16 or 32\n";
        return ExitUsage;
    }
    if (auto e = validateLlmSettings(s))
        return usageError(err, *e);
    if (devices.empty())
        devices.push_back("h100-sxm");
    const DeviceLibrary lib = loadLibrary(common, exeDir, err);
    std::vector<Device> chosen;
    if (!resolveDevices(lib, devices, chosen, err))
        return ExitUsage;
    const LlmOutcome outcome = analyzeLlm(*load.model, s, chosen);
    if (!outcome.analysis) {
        err << "roofline-cli: " << outcome.error << "\n";
        return ExitUsage;
    }
    const LlmAnalysis& a = *outcome.analysis;
    if (format == "json")
        out << llmToJson(a) << "\n";
    else if (format == "csv")
        out << llmToCsv(a);
    else if (format == "markdown")
        out << llmToMarkdown(a);
    else if (format == "latex")
        out << llmToLatex(a);
    else
        out << llmToTable(a);
    if (format != "table")
        for (const Diagnostic& n : a.notes)
            err << toString(n) << "\n";
    return ExitOk;
}

} // namespace rfx
