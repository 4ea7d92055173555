// Each phase of a language model (prefill, decode) as rows for the engine: per block the projections,
// attention with its KV cache, the MLP or the experts, the norms; an ONNX decoder's own graph through llm_onnx.
#include "llm/llm_phase.h"

#include "llm/llm_builder.h"
#include "llm/llm_onnx.h"

#include "base/format.h"
#include "devices/interconnects.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

namespace rfx {

namespace {

/// "0-31", "0-40/2" (every second), "3,7,12".
std::string blockSetName(const std::vector<int>& b)
{
    if (b.size() == 1)
        return std::to_string(b[0]);
    const int step = b[1] - b[0];
    bool even = true;
    for (size_t i = 1; i < b.size(); ++i)
        even = even && b[i] - b[i - 1] == step;
    if (even)
        return std::to_string(b.front()) + "-" + std::to_string(b.back())
            + (step > 1 ? "/" + std::to_string(step) : "");
    std::string s;
    int runs = 0;
    for (size_t i = 0; i < b.size(); ++i) {
        size_t j = i;
        while (j + 1 < b.size() && b[j + 1] == b[j] + 1)
            ++j;
        if (!s.empty())
            s += ",";
        s += std::to_string(b[i]) + (j > i ? "-" + std::to_string(b[j]) : "");
        ++runs;
        i = j;
    }
    if (runs <= 3)
        return s;
    // many runs: the range less what it skips where that is evenly spaced (Gemma-3's local layers:
    // "0-61 less 5-59/6", its global ones being 5-59/6)
    std::vector<int> skipped;
    for (size_t i = 1; i < b.size(); ++i)
        for (int l = b[i - 1] + 1; l < b[i]; ++l)
            skipped.push_back(l);
    const std::string less = blockSetName(skipped);
    if (less.find(',') == std::string::npos)
        return std::to_string(b.front()) + "-" + std::to_string(b.back()) + " less " + less;
    return s;
}

} // namespace

LlmPhaseBuild buildLlmPhase(const LlmModel& model, const LlmSettings& settings, LlmPhase phase, int context)
{
    if (phase == LlmPhase::Both) // two reports' rows (llm_both.h), never one network's
        return { std::nullopt, "one phase at a time: prefill or decode, not both" };
    if (model.onnx) {
        if (auto e = validateLlmSettings(settings))
            return { std::nullopt, *e };
        return buildOnnxPhase(model, settings, phase, context);
    }
    LlmPhaseBuild out;
    if (auto e = validateArch(model.arch)) {
        out.error = (model.file.empty() ? model.arch.id : model.file) + ": " + *e;
        return out;
    }
    if (auto e = validateLlmSettings(settings)) {
        out.error = *e;
        return out;
    }
    if (auto e = tensorParallelError(model.arch, settings.tensorParallel)) {
        out.error = "--tp " + std::to_string(settings.tensorParallel) + ": "
            + (model.arch.title.empty() ? model.arch.id : model.arch.title) + " cannot be split that way: " + *e;
        return out;
    }
    const LlmArch& a = model.arch;
    const int N = std::max(1, settings.tensorParallel);
    llmrows::Builder b(model, settings, phase, std::max(1, context));
    const std::int64_t B = settings.batch, T = phase == LlmPhase::Prefill ? settings.prompt : settings.decodeTokens,
                       h = a.hidden;
    const int act = settings.actBits;

    // the embedding gathers one row of the table per token (at most the whole table); tensor parallel:
    // each GPU holds 1/N of the vocabulary and the rows are all-reduced
    {
        const LlmTensorBytes* s = model.storage ? &model.storage->embedding : nullptr;
        const double params = double(a.vocab) * double(h) / N;
        const double table = b.weightBytes(s, params, 1.0 / N);
        b.resident += table;
        const double read = table * std::min(1.0, double(B * T) / a.vocab);
        b.add("embedding", Op::Copy, {}, llmrows::tokens(B, T, h), act, 0, params, read, 1);
        b.collective(double(B * T * h) * act / 8.0, 1, true);
    }
    if (a.learnedPositions) {
        const LlmTensorBytes* s = model.storage ? &model.storage->positions : nullptr;
        const double table = b.weightBytes(s, double(a.maxContext) * double(h));
        b.resident += table;
        const double rows = double(T);
        b.add("position_embedding", Op::Eltwise, { { llmrows::tokens(B, T, h), act } }, llmrows::tokens(B, T, h), act,
            1, double(a.maxContext) * double(h), table * std::min(1.0, rows / a.maxContext), 1);
    }

    // identical blocks (the same storage, the same attention window) become one set of rows
    std::vector<std::vector<int>> groups;
    std::map<std::vector<double>, size_t> bySignature;
    for (int l = 0; l < a.layers; ++l) {
        std::vector<double> sig { a.slides(l) ? 1.0 : 0.0, a.moe(l) ? 1.0 : 0.0 };
        if (settings.weightBits == 0 && model.storage && l < int(model.storage->blocks.size()))
            for (const LlmTensorBytes& t : model.storage->blocks[size_t(l)])
                sig.push_back(t.bytes);
        auto [it, fresh] = bySignature.try_emplace(sig, groups.size());
        if (fresh)
            groups.emplace_back();
        groups[it->second].push_back(l);
    }
    for (const std::vector<int>& g : groups) {
        b.blockName = "blk" + blockSetName(g);
        b.block(g.front(), b.blockName + ".", double(g.size()), a.slides(g.front()), a.moe(g.front()));
    }
    b.blockName.clear();

    {
        const LlmTensorBytes* s = model.storage ? &model.storage->finalNorm : nullptr;
        const double params = double(h) * (a.norm == LlmNorm::Layer || a.allBiases ? 2 : 1);
        const double bytes = settings.weightBits == 0 && s && s->bytes >= 0 ? s->bytes : b.smallBytes(params);
        b.resident += bytes;
        b.norm("final_norm", h, 1, bytes);
    }
    {
        // logits for the last token of each sequence only, as serving engines compute them (or for
        // every prompt token where asked); tensor parallel: 1/N of the vocabulary per GPU, the logits
        // all-gathered
        const std::int64_t vocab = (std::int64_t(a.vocab) + N - 1) / N;
        const std::int64_t scored = phase == LlmPhase::Decode || settings.allLogits ? T : 1; // a verification: each
        const double params = double(vocab) * double(h);
        const LlmTensorBytes* s = model.storage && model.storage->head.bytes >= 0 ? &model.storage->head
            : model.storage                                                       ? &model.storage->embedding
                                                                                  : nullptr;
        const double bytes = b.weightBytes(s, params, 1.0 / N);
        if (!a.tiedEmbeddings)
            b.resident += bytes;
        b.add("lm_head", Op::MatMul, { { llmrows::tokens(B, scored, h), act } }, llmrows::tokens(B, scored, vocab), act,
            2.0 * double(h), a.tiedEmbeddings ? 0 : params, bytes, 1);
        b.collective(double(B) * double(scored) * double(a.vocab) * act / 8.0, 1, false);
    }
    // A pass reads each weight and each cached key and value once: between two runs that read the same
    // ones, all the others stream through the caches (issue 50: a decode step's k_proj, 67 MB of
    // weights over 16 blocks, was bounded at a blend of L3 and DRAM speed it never reaches in a pass).
    for (size_t i : b.storedReaders)
        b.net.layers[i].passBytes = b.resident + b.cacheRead;
    out.weightBytes = b.resident;
    out.activationPeak = b.activationPeak;
    out.linkBytes = b.linkBytes;
    out.collectives = b.collectives;
    out.kvShare = double(kvHeadsPerGpu(a, N)) / a.kvHeads;
    out.network = std::move(b.net);
    return out;
}

} // namespace rfx
