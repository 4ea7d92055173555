// roofline-cli networks: the built-in networks at their published input, or (--model FILE) what an
// imported or custom model file holds and how the configuration binds it.
#include "cli_commands.h"

#include "base/format.h"
#include "engine/cost.h"
#include "engine/roofline.h"
#include "io/options.h"
#include "llm/llm_arch.h"
#include "model/networks.h"
#include "onnx/onnx_model.h"
#include "open/build_network.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <iomanip>
#include <map>
#include <ostream>
#include <sstream>

namespace rfx {

namespace {

struct Counts {
    std::int64_t params = 0;
    double macs = 0;
};

Counts countsOf(const Network& net)
{
    Counts c;
    for (const Layer& l : net.layers) {
        c.params += layerParams(l);
        if (runsOnMatrixUnits(l.op))
            c.macs += forwardFlops(l) / 2;
    }
    return c;
}

std::string gmacText(double macs)
{
    char gmac[32];
    std::snprintf(gmac, sizeof gmac, "%.2f", macs / 1e9);
    return gmac;
}

// One model file: its inputs and what binds them, its counts at the configuration, its operators.
int describeModel(const std::string& path, std::ostream& out, std::ostream& err, bool json, nlohmann::json& list)
{
    ConfigOptions options;
    std::string error;
    if (!parseConfigArgs({ "--model", path }, options, error)) {
        err << "roofline-cli: " << error << "\n";
        return ExitUsage;
    }
    const Config& c = options.config;
    const BuildResult built = buildNetwork(c);
    if (!built.network) {
        err << configFailure(c, built.error) << "\n";
        return ExitUsage;
    }
    const Network& net = *built.network;
    const Counts counts = countsOf(net);
    std::map<std::string, int> operators; // by ONNX op type (our op names for JSON networks)
    int uncounted = 0;
    for (const Layer& l : net.layers) {
        if (l.origin >= 0 && (l.op == Op::Bias && net.origins[size_t(l.origin)].onnxOp != "Add"))
            continue; // the bias row of a Conv or Gemm node: the node is counted once
        ++operators[l.origin >= 0 ? net.origins[size_t(l.origin)].onnxOp : std::string(opName(l.op))];
        uncounted += l.op == Op::Uncounted;
    }
    std::string inputs, binding;
    nlohmann::json inputsJson = nlohmann::json::array();
    std::shared_ptr<const OnnxModel> model;
    if (isOnnxFile(path))
        model = cachedOnnxModel(path).model;
    if (model) {
        for (const OnnxInput& in : model->inputs()) {
            std::string dims;
            for (const std::string& d : in.dims)
                dims += (dims.empty() ? "" : " x ") + d;
            inputs += (inputs.empty() ? "" : "; ") + in.name + ": " + dims + (in.floating ? "" : " (integers)");
            inputsJson.push_back({ { "name", in.name }, { "dims", in.dims }, { "batch_bound", in.batchBound },
                { "height_bound", in.heightBound }, { "width_bound", in.widthBound } });
        }
        binding = (model->batchBound() ? std::string("the batch from --batch") : model->batchFixedReason()) + "; "
            + (model->imageBound()
                    ? "the image size from --image (opens at " + std::to_string(model->defaultImageSize()) + ")"
                    : model->imageFixedReason());
    } else {
        inputs = shapeString(net.input);
        binding = "the file fixes the input; the batch from --batch";
    }
    std::string ops;
    for (const auto& [op, count] : operators)
        ops += (ops.empty() ? "" : ", ") + op + " " + std::to_string(count);
    if (json) {
        list.push_back({ { "file", path }, { "name", net.name }, { "inputs", inputsJson }, { "binding", binding },
            { "params", counts.params }, { "macs", counts.macs }, { "image", c.unet.height },
            { "rows", net.layers.size() }, { "uncounted_rows", uncounted }, { "operators", operators } });
        return ExitOk;
    }
    out << "model file  " << path << "\n"
        << "network     " << net.name << "\n"
        << "input       " << inputs << "\n"
        << "binding     " << binding << "\n"
        << "parameters  " << formatCount(counts.params) << "\n"
        << "GMAC        " << gmacText(counts.macs) << " (batch 1, " << shapeString(net.input) << " in)\n"
        << "rows        " << net.layers.size()
        << (uncounted ? ", " + std::to_string(uncounted) + " not counted" : std::string()) << "\n"
        << "operators   " << ops << "\n";
    for (const Diagnostic& d : net.diagnostics)
        out << "note        " << (d.field.empty() ? "" : d.field + ": ") << d.message << "\n";
    return ExitOk;
}

} // namespace

namespace {

// The built-in networks as table rows and JSON entries: each built at its published input, with its
// parameters and the multiply-accumulates of its convolutions and linear layers. False (and why, on
// `err`) where one does not build.
bool listNetworks(std::ostream& table, nlohmann::json& list, std::ostream& err)
{
    int idWidth = 11, nameWidth = 34; // each column as wide as its longest entry, and a gap
    for (const ModelInfo& m : builtinModels()) {
        idWidth = std::max(idWidth, int(m.id.size()) + 2);
        nameWidth = std::max(nameWidth, int(m.title.size()) + 2);
    }
    table << std::left << std::setw(idWidth) << "model" << std::setw(nameWidth) << "network" << std::setw(16) << "input"
          << std::right << std::setw(13) << "parameters" << std::setw(10) << "GMAC"
          << "\n";
    for (const ModelInfo& m : builtinModels()) {
        Config c;
        c.model = std::string(m.id);
        c.unet.height = m.height;
        c.unet.width = m.width;
        c.unet.inChannels = m.channels;
        c.unet.classes = m.classes;
        const BuildResult built = buildNetwork(c);
        if (!built.network) {
            err << "roofline-cli: " << m.id << ": " << built.error << "\n";
            return false;
        }
        std::int64_t params = 0;
        double macs = 0;
        for (const Layer& l : built.network->layers) {
            params += layerParams(l);
            if (runsOnMatrixUnits(l.op))
                macs += forwardFlops(l) / 2;
        }
        const std::string input
            = std::to_string(m.channels) + "x" + std::to_string(m.height) + "x" + std::to_string(m.width);
        list.push_back({ { "id", m.id }, { "name", m.title }, { "kind", "network" },
            { "input", { m.channels, m.height, m.width } }, { "classes", m.classes }, { "params", params },
            { "macs", macs } });
        const std::string gmac = gmacText(macs);
        table << std::left << std::setw(idWidth) << m.id << std::setw(nameWidth) << m.title << std::setw(16) << input
              << std::right << std::setw(13) << formatCount(params) << std::setw(10) << gmac << "\n";
    }
    return true;
}

// The language models 'roofline-cli llm' takes, each with the count its publisher gives beside ours.
void listLanguageModels(std::ostream& llms, nlohmann::json& list)
{
    int llmWidth = 11, titleWidth = 34;
    for (const LlmArch& a : builtinLanguageModels()) {
        llmWidth = std::max(llmWidth, int(a.id.size()) + 2);
        titleWidth = std::max(titleWidth, int(a.title.size()) + 2);
    }
    llms << std::left << std::setw(llmWidth) << "llm" << std::setw(titleWidth) << "language model" << std::setw(16)
         << "blocks x hidden" << std::right << std::setw(17) << "parameters" << std::setw(10) << "context"
         << "\n";
    for (const LlmArch& a : builtinLanguageModels()) {
        const std::int64_t params = llmParameterCount(a);
        std::string attention = std::to_string(a.heads) + " heads";
        if (a.kvHeads != a.heads)
            attention += ", " + std::to_string(a.kvHeads) + " KV";
        nlohmann::json entry
            = { { "id", a.id }, { "name", a.title }, { "kind", "language model" }, { "family", a.family },
                  { "layers", a.layers }, { "hidden", a.hidden }, { "heads", a.heads }, { "kv_heads", a.kvHeads },
                  { "head_dim", a.headDim }, { "ffn", a.ffn }, { "vocab", a.vocab }, { "context", a.maxContext },
                  { "params", params }, { "published_params", a.publishedParams }, { "source", a.source } };
        if (a.experts > 0) {
            entry["experts"] = a.experts;
            entry["experts_per_token"] = a.expertsPerToken;
            entry["expert_ffn"] = a.expertWidth();
            entry["active_params"] = llmActiveParameterCount(a);
        }
        list.push_back(std::move(entry));
        llms << std::left << std::setw(llmWidth) << a.id << std::setw(titleWidth) << a.title << std::setw(16)
             << (std::to_string(a.layers) + " x " + std::to_string(a.hidden)) << std::right << std::setw(17)
             << formatCount(params) << std::setw(10) << a.maxContext << "\n";
    }
}

} // namespace

int runNetworks(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    std::string format = "table";
    std::vector<std::string> models;
    for (size_t i = 0; i < args.size(); ++i) {
        const SplitOption split = splitOption(args[i]);
        if (split.name == "--model") {
            if (split.value)
                models.push_back(*split.value);
            else if (i + 1 < args.size())
                models.push_back(args[++i]);
            else
                return usageError(err, "--model: missing value");
            continue;
        }
        if (split.name == "--format-help" && !split.value) {
            out << networkFormatHelp();
            return ExitOk;
        }
        if (split.name == "--format") {
            if (split.value)
                format = *split.value;
            else if (i + 1 < args.size())
                format = args[++i];
            else
                return usageError(err, "--format: missing value");
            continue;
        }
        return usageError(err, "networks: unknown option '" + args[i] + "'");
    }
    if (format != "table" && format != "json")
        return usageError(err, "--format: expected table or json for 'networks', got '" + format + "'");
    nlohmann::json list = nlohmann::json::array();
    if (!models.empty()) {
        for (size_t i = 0; i < models.size(); ++i) {
            if (auto code = languageModelElsewhere(models[i], err))
                return *code;
            if (i > 0 && format == "table")
                out << "\n";
            if (int code = describeModel(models[i], out, err, format == "json", list); code != ExitOk)
                return code;
        }
        if (format == "json")
            out << list.dump(2) << "\n";
        return ExitOk;
    }
    std::ostringstream table, llms;
    if (!listNetworks(table, list, err))
        return ExitFailure;
    listLanguageModels(llms, list);
    if (format == "json")
        out << list.dump(2) << "\n";
    else
        out << table.str()
            << "GMAC: multiply-accumulates of convolutions and linear layers, forward, batch 1 (1 MAC = 2 FLOP).\n"
            << "\n"
            << llms.str()
            << "Language models: 'roofline-cli llm --model ID', or a Hugging Face config.json, a model directory or a "
               "GGUF file.\n"
            << "Custom networks: --model FILE.json; 'roofline-cli networks --format-help' documents the format.\n"
            << "ONNX models: --model FILE.onnx; 'roofline-cli networks --model FILE.onnx' describes one.\n";
    return ExitOk;
}

} // namespace rfx
