// An ONNX decoder with past keys and values (Optimum's and ONNX Runtime GenAI's exports) as a language
// model: its phases are the file's own graph, built by the ONNX importer with the new tokens and the
// cached ones bound by the decoder's extent names (prefill: P new over nothing cached; a decode step:
// one new over C - 1 cached), each tensor at the width the file stores it.
#include "llm/llm_onnx.h"

#include "engine/cost.h"
#include "onnx/onnx_model.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>

namespace rfx {

namespace fs = std::filesystem;

namespace {

/// The context a decoder was trained for, where a file beside it says: ONNX Runtime GenAI's
/// genai_config.json (model.context_length) or Optimum's config.json (max_position_embeddings); with the
/// heads, the hidden size and the vocabulary the config gives. 0 where none says.
void readConfigBeside(const fs::path& model, LlmArch& a)
{
    auto read = [](const fs::path& p) -> nlohmann::json {
        std::ifstream in(p);
        if (!in)
            return nullptr;
        return nlohmann::json::parse(in, nullptr, false); // a damaged file beside the model is not the model's fault
    };
    auto number = [](const nlohmann::json& j, const char* key) {
        return j.is_object() && j.contains(key) && j[key].is_number_integer()
            ? int(std::clamp<std::int64_t>(j[key].get<std::int64_t>(), 0, 1 << 30))
            : 0;
    };
    const nlohmann::json genai = read(model.parent_path() / "genai_config.json");
    if (genai.is_object() && genai.contains("model")) {
        const nlohmann::json& m = genai["model"];
        a.maxContext = number(m, "context_length");
        a.vocab = number(m, "vocab_size");
        if (m.contains("decoder")) {
            a.hidden = number(m["decoder"], "hidden_size");
            a.heads = number(m["decoder"], "num_attention_heads");
        }
        return;
    }
    const nlohmann::json hf = read(model.parent_path() / "config.json");
    a.maxContext = number(hf, "max_position_embeddings");
    a.vocab = number(hf, "vocab_size");
    a.hidden = number(hf, "hidden_size");
    a.heads = number(hf, "num_attention_heads");
}

} // namespace

bool isOnnxLanguageModel(const LlmModel& model) { return model.onnx != nullptr; }

LlmLoad readOnnxDecoder(const std::string& path)
{
    const OnnxLoad load = cachedOnnxModel(path);
    if (!load.model)
        return { std::nullopt, load.error };
    const std::optional<OnnxDecoderDims>& d = load.model->decoder();
    if (!d)
        return { std::nullopt,
            path
                + ": not a decoder with past keys and values (no rank-4 inputs named past..., as "
                  "Optimum and ONNX Runtime GenAI export them), so it has no decode phase; analyse "
                  "it with 'roofline-cli analyze --model "
                + path + "'" };
    if (d->past.empty())
        return { std::nullopt,
            path + ": input '" + d->pastInputs.front()
                + "': the cache's length (extent 2) is fixed "
                  "in the file or has no name; the context sets it, so export the decoder with a named symbolic past "
                  "sequence length (dynamic_axes {2: \"past_sequence_length\"})" };
    if (d->sequence.empty())
        return { std::nullopt,
            path
                + ": the new tokens' extent (extent 1 of input_ids) is fixed in the file or has no "
                  "name; the prompt and the decode step set it, so export the decoder with a named "
                  "symbolic sequence length" };
    LlmModel m;
    m.file = path;
    m.onnx = load.model;
    LlmArch& a = m.arch;
    a.id = fs::path(path).filename().string();
    a.title = load.model->name();
    a.family = "onnx";
    a.source = path;
    a.layers = d->layers;
    a.kvHeads = int(d->kvHeads);
    a.headDim = int(d->headDim);
    readConfigBeside(fs::path(path), a);
    m.diagnostics = load.model->loadWarnings();
    return { std::move(m), {} };
}

LlmPhaseBuild buildOnnxPhase(const LlmModel& model, const LlmSettings& settings, LlmPhase phase, int context)
{
    LlmPhaseBuild out;
    if (settings.tensorParallel > 1) {
        out.error = "--tp " + std::to_string(settings.tensorParallel)
            + ": an ONNX decoder is one GPU's graph; tensor "
              "parallelism needs the model's config.json or GGUF";
        return out;
    }
    const OnnxDecoderDims& d = *model.onnx->decoder();
    // a decode step: its tokens (1, or a verification's K + 1) after the past that makes up the context
    const std::int64_t tokens = phase == LlmPhase::Prefill ? settings.prompt : settings.decodeTokens;
    const std::int64_t past = phase == LlmPhase::Prefill ? 0 : std::max<std::int64_t>(0, std::max(1, context) - tokens);
    Config c;
    c.model = model.file;
    c.batch = settings.batch;
    c.bits = settings.actBits;
    c.bitsAsInFile = true;
    c.tensorCores = true;
    c.dims = decoderExtents(d, tokens, past);
    if (!d.batch.empty())
        c.dims[d.batch] = settings.batch;
    if (!d.cacheFlag.empty()) // Optimum's merged decoder: the prefill's graph starts from nothing cached
        c.inputValues[d.cacheFlag] = phase == LlmPhase::Decode ? 1.0 : 0.0;
    BuildResult r = model.onnx->build(c);
    if (!r.network) {
        out.error = r.error;
        return out;
    }
    // the activations each row reads and writes, the cache's past inputs included in a decode step
    for (const Layer& l : r.network->layers) {
        const RowWidths w = rowWidths(l, settings.actBits / 8.0, true);
        out.activationPeak = std::max(out.activationPeak, w.inputBytes + double(l.out.elements()) * w.output);
    }
    r.network->name = model.arch.title + " " + std::string(llmPhaseName(phase));
    out.network = std::move(r.network);
    out.weightBytes = model.onnx->weightBytes();
    return out;
}

} // namespace rfx
