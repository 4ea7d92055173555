// Each phase of a language model (prefill, decode) as rows for the engine: per block the projections,
// attention with its KV cache, the MLP or the experts, the norms; an ONNX decoder's own graph through llm_onnx.
#include "llm/llm_phase.h"

#include "llm/llm_onnx.h"

#include "base/format.h"
#include "devices/interconnects.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

namespace rfx {

namespace {

Shape tokens(std::int64_t batch, std::int64_t t, std::int64_t features) { return Shape { batch, t, features, 1, 3 }; }
Shape heads(std::int64_t batch, std::int64_t h, std::int64_t t, std::int64_t d) { return Shape { batch, h, t, d, 4 }; }

struct In {
    Shape shape;
    int bits;
    bool activation = true; ///< counts toward the activation peak (the KV cache does not)
};

class Builder {
public:
    Builder(const LlmModel& m, const LlmSettings& s, LlmPhase p, int c)
        : a(m.arch), model(m), settings(s), phase(p), B(s.batch), T(p == LlmPhase::Prefill ? s.prompt : 1),
          context(c), act(s.actBits), N(std::max(1, s.tensorParallel))
    {
        net.name = a.title.empty() ? a.id : a.title;
        net.name += std::string(" ") + std::string(llmPhaseName(phase));
        net.input = tokens(B, T, 1);
    }

    Network net;
    double resident = 0;
    double cacheRead = 0; ///< the KV cache the rows read in a pass, byte
    std::vector<size_t> storedReaders; ///< rows that read mostly weights or the cache (Layer::passBytes)
    double activationPeak = 0;
    double linkBytes = 0;
    int collectives = 0;
    std::string blockName; ///< the identical blocks the rows added now stand for ("blk0-31"), or empty

    /// One GPU's part of a weight tensor: `share` of the file's bytes where the settings say "as in the
    /// file" and it gives them, else its `params` (already one GPU's) at the weights' width.
    double weightBytes(const LlmTensorBytes* stored, double params, double share = 1) const
    {
        if (settings.weightBits == 0 && stored && stored->bytes >= 0)
            return stored->bytes * share;
        return params * weightBytesPerParam(settings.weightBits == 0 ? 16 : settings.weightBits);
    }
    /// A collective over the tensor-parallel GPUs moving `bytes` per GPU (an all-reduce sends
    /// 2 (N - 1) / N of it, an all-gather (N - 1) / N), `times` times.
    void collective(double bytes, double times, bool allReduce)
    {
        if (N <= 1)
            return;
        linkBytes += (allReduce ? 2.0 : 1.0) * double(N - 1) / N * bytes * times;
        collectives += int(times);
    }
    const LlmTensorBytes* stored(int block, LlmTensor t) const
    {
        if (!model.storage || block < 0 || block >= int(model.storage->blocks.size()))
            return nullptr;
        return &model.storage->blocks[size_t(block)][size_t(int(t))];
    }
    double smallBytes(double params) const { return params * act / 8.0; } // norms and biases: activations' width

    Layer& add(std::string name, Op op, std::vector<In> ins, Shape out, int outBits, double opsPerElement,
        double params, double weightRead, double repeats, int computeBits = 0)
    {
        Layer l;
        l.name = std::move(name);
        l.op = op;
        l.inputs = { int(net.layers.size()) - 1 };
        double activations = double(out.elements()) * outBits / 8.0;
        double stored = std::max(0.0, weightRead); // a run's weights and cached keys and values, byte
        for (const In& i : ins) {
            l.inShapes.push_back(i.shape);
            l.inBits.push_back(std::uint8_t(i.bits));
            (i.activation ? activations : stored) += double(i.shape.elements()) * i.bits / 8.0;
            if (!i.activation)
                cacheRead += double(i.shape.elements()) * i.bits / 8.0 * repeats;
        }
        // Rows that read mostly weights or the cache (Layer::passBytes); a norm's 8 KB of weights beside
        // its activations, or a prefill's scores beside its keys, stay with their tensors' working set.
        if (stored > activations)
            storedReaders.push_back(net.layers.size());
        activationPeak = std::max(activationPeak, activations);
        l.out = out;
        l.outBits = std::uint8_t(outBits);
        l.opsPerElement = opsPerElement;
        l.storedParams = std::int64_t(std::llround(params * repeats));
        l.weightBytes = weightRead;
        l.weightBits = std::uint8_t(std::clamp(int(std::lround(settings.weightBits == 0 ? 16 : settings.weightBits)), 1, 64));
        l.computeBits = std::uint8_t(computeBits > 0 ? computeBits : act);
        if (computeBits <= 0)
            l.computeType = settings.actType;
        l.repeats = repeats;
        l.block = blockName;
        net.layers.push_back(std::move(l));
        return net.layers.back();
    }

    void norm(const std::string& name, std::int64_t features, double repeats, double storedBytes = -1)
    {
        const bool layerNorm = a.norm == LlmNorm::Layer;
        const double params = double(features) * (layerNorm || a.allBiases ? 2 : 1);
        const double bytes = storedBytes >= 0 ? storedBytes : smallBytes(params);
        add(name, Op::Eltwise, { { tokens(B, T, features), act } }, tokens(B, T, features), act,
            layerNorm ? kLayerNormOps : kRmsNormOps, params, bytes, repeats);
    }

    void matmul(const std::string& name, std::int64_t rows, std::int64_t in, std::int64_t out, double params,
        double bytes, double repeats, bool bias)
    {
        add(name, Op::MatMul, { { tokens(B, rows, in), act } }, tokens(B, rows, out), act, 2.0 * double(in) + (bias ? 1 : 0),
            params, bytes, repeats);
    }

    double tensorBytes(int block, LlmTensor t, double params, double repeats, double share = 1)
    {
        const double b = weightBytes(stored(block, t), params, share);
        resident += b * repeats;
        return b;
    }

    void block(int first, const std::string& prefix, double repeats, bool slides)
    {
        // one GPU's part under tensor parallelism: heads, KV heads (a replicated one where fewer than
        // the GPUs), intermediate features; the norms, residuals and the router on every GPU
        const int hq = a.heads / N, hkv = kvHeadsPerGpu(a, N);
        const std::int64_t h = a.hidden, d = a.headDim, q = std::int64_t(hq) * d, kv = std::int64_t(hkv) * d;
        const std::int64_t f = a.ffn / N;
        const double shareQ = 1.0 / N, shareKv = double(hkv) / a.kvHeads, shareF = 1.0 / N;
        const bool biasQkv = a.qkvBias || a.allBiases;
        auto normBytes = [&](LlmTensor t, double params) {
            const LlmTensorBytes* s = stored(first, t);
            const double b = settings.weightBits == 0 && s && s->bytes >= 0 ? s->bytes : smallBytes(params);
            resident += b * repeats;
            return b;
        };
        const double normParams = double(h) * (a.norm == LlmNorm::Layer || a.allBiases ? 2 : 1);

        norm(prefix + "attn_norm", h, repeats, normBytes(LlmTensor::AttnNorm, normParams));
        if (a.fusedQkv) {
            const double p = double(h) * double(q + 2 * kv) + (biasQkv ? double(q + 2 * kv) : 0);
            matmul(prefix + "qkv_proj", T, h, q + 2 * kv, p,
                tensorBytes(first, LlmTensor::Qkv, p, repeats, double(hq + 2 * hkv) / (a.heads + 2 * a.kvHeads)), repeats,
                biasQkv);
        } else {
            const double pq = double(h * q) + (biasQkv ? double(q) : 0), pk = double(h * kv) + (biasQkv ? double(kv) : 0);
            matmul(prefix + "q_proj", T, h, q, pq, tensorBytes(first, LlmTensor::Q, pq, repeats, shareQ), repeats, biasQkv);
            matmul(prefix + "k_proj", T, h, kv, pk, tensorBytes(first, LlmTensor::K, pk, repeats, shareKv), repeats, biasQkv);
            matmul(prefix + "v_proj", T, h, kv, pk, tensorBytes(first, LlmTensor::V, pk, repeats, shareKv), repeats, biasQkv);
        }
        if (a.qkNorm) // Qwen3: each head's query and key normalized over its d features, one weight vector each
            for (const auto& [name, t, width] : { std::tuple { "q_norm", LlmTensor::QNorm, q }, std::tuple { "k_norm", LlmTensor::KNorm, kv } })
                add(prefix + name, Op::Eltwise, { { tokens(B, T, width), act } }, tokens(B, T, width), act, kRmsNormOps,
                    double(d), normBytes(t, double(d)), repeats);
        if (!a.learnedPositions)
            add(prefix + "rope", Op::Eltwise, { { tokens(B, T, q + kv), act } }, tokens(B, T, q + kv), act, kRopeOps, 0, 0,
                repeats);
        // the new tokens' keys and values into the cache, at its width
        add(prefix + "kv_cache_write", Op::Copy, { { tokens(B, T, 2 * kv), act } }, tokens(B, T, 2 * kv), settings.kvBits,
            0, 0, 0, repeats);

        const std::int64_t window = slides ? a.slidingWindow : 0;
        const std::int64_t keys = phase == LlmPhase::Decode ? (window > 0 ? std::min<std::int64_t>(context, window) : context)
                                                            : T;
        const double pairs = phase == LlmPhase::Decode ? double(keys) : causalPairs(T, window);
        const Shape qShape = heads(B, hq, T, d);
        const Shape kvShape = heads(B, hkv, keys, d);
        const In kIn { kvShape, settings.kvBits, false }, vIn { kvShape, settings.kvBits, false };
        if (settings.attention == LlmAttention::Flash) {
            const double flops = double(B) * hq * pairs * (4.0 * double(d) + kSoftmaxOps);
            add(prefix + "attention", Op::MatMul, { { qShape, act }, kIn, vIn }, qShape, act,
                flops / double(qShape.elements()), 0, 0, repeats)
                .attention = true;
        } else {
            const Shape scores = heads(B, hq, T, keys);
            add(prefix + "attn_scores", Op::MatMul, { { qShape, act }, kIn }, scores, act, 2.0 * double(d), 0, 0, repeats)
                .attention = true;
            // The softmax is an elementwise pass over the scores (oneDNN's softmax primitive), calibrated
            // with the elementwise rows: in the attention class its 14 % of the bound pulled the two
            // products' fit (27 % and 67 %) down to 22 %, and the context at 2,048 tokens, batch 8, came
            // out 3x its measured time (Zen 5 set, 2026-12-06).
            add(prefix + "attn_softmax", Op::Eltwise, { { scores, act } }, scores, act, kSoftmaxOps, 0, 0, repeats);
            add(prefix + "attn_context", Op::MatMul, { { scores, act }, vIn }, qShape, act, 2.0 * double(keys), 0, 0, repeats)
                .attention = true;
        }
        {
            const double p = double(q * h) + (a.allBiases ? double(h) : 0);
            matmul(prefix + "o_proj", T, q, h, p, tensorBytes(first, LlmTensor::O, p, repeats, shareQ), repeats, a.allBiases);
            collective(double(B * T * h) * act / 8.0, repeats, true); // the heads' partial sums
        }
        if (a.normsPerBlock >= 4)
            norm(prefix + "post_attn_norm", h, repeats, normBytes(LlmTensor::PostAttnNorm, normParams));
        add(prefix + "attn_residual", Op::Eltwise, { { tokens(B, T, h), act }, { tokens(B, T, h), act } }, tokens(B, T, h),
            act, 1, 0, 0, repeats);
        norm(prefix + "mlp_norm", h, repeats, normBytes(LlmTensor::MlpNorm, normParams));

        const double glu = a.mlp == LlmMlp::GeGlu ? kGeluMulOps : kSiluMulOps;
        if (a.experts > 0) {
            const int E = a.experts, k = a.expertsPerToken;
            const std::int64_t fe = a.expertWidth() / N; // one expert's part on this GPU
            const double touched = expectedExpertsTouched(E, k, double(B) * double(T));
            const double pr = double(h) * E;
            matmul(prefix + "router", T, h, E, pr, tensorBytes(first, LlmTensor::Router, pr, repeats), repeats, false);
            const double pe = double(h) * double(fe); // one expert's matrix
            auto expert = [&](const char* name, LlmTensor t, std::int64_t in, std::int64_t out) {
                const double all = tensorBytes(first, t, pe * E, repeats, shareF);
                matmul(prefix + name, T * k, in, out, pe * E, all * touched / E, repeats, false);
            };
            expert("experts.gate_proj", LlmTensor::ExpertGate, h, fe);
            expert("experts.up_proj", LlmTensor::ExpertUp, h, fe);
            add(prefix + "experts.act", Op::Eltwise, { { tokens(B, T * k, fe), act }, { tokens(B, T * k, fe), act } },
                tokens(B, T * k, fe), act, glu, 0, 0, repeats);
            expert("experts.down_proj", LlmTensor::ExpertDown, fe, h);
            add(prefix + "experts.combine", Op::Eltwise, { { tokens(B, T * k, h), act } }, tokens(B, T, h), act, 2.0 * k, 0,
                0, repeats);
        } else if (a.mlp == LlmMlp::Gelu) {
            const double p1 = double(h * f) + (a.allBiases ? double(f) : 0), p2 = double(f * h) + (a.allBiases ? double(h) : 0);
            matmul(prefix + "fc", T, h, f, p1, tensorBytes(first, LlmTensor::Up, p1, repeats, shareF), repeats, a.allBiases);
            add(prefix + "gelu", Op::Eltwise, { { tokens(B, T, f), act } }, tokens(B, T, f), act, kGeluOps, 0, 0, repeats);
            matmul(prefix + "proj", T, f, h, p2, tensorBytes(first, LlmTensor::Down, p2, repeats, shareF), repeats, a.allBiases);
        } else {
            const double p = double(h * f);
            if (a.fusedGateUp)
                matmul(prefix + "gate_up_proj", T, h, 2 * f, 2 * p, tensorBytes(first, LlmTensor::GateUp, 2 * p, repeats, shareF),
                    repeats, false);
            else {
                matmul(prefix + "gate_proj", T, h, f, p, tensorBytes(first, LlmTensor::Gate, p, repeats, shareF), repeats, false);
                matmul(prefix + "up_proj", T, h, f, p, tensorBytes(first, LlmTensor::Up, p, repeats, shareF), repeats, false);
            }
            add(prefix + "act_mul", Op::Eltwise, { { tokens(B, T, f), act }, { tokens(B, T, f), act } }, tokens(B, T, f), act,
                glu, 0, 0, repeats);
            matmul(prefix + "down_proj", T, f, h, p, tensorBytes(first, LlmTensor::Down, p, repeats, shareF), repeats, false);
        }
        collective(double(B * T * h) * act / 8.0, repeats, true); // the MLP's partial sums
        if (a.normsPerBlock >= 4)
            norm(prefix + "post_mlp_norm", h, repeats, normBytes(LlmTensor::PostMlpNorm, normParams));
        add(prefix + "mlp_residual", Op::Eltwise, { { tokens(B, T, h), act }, { tokens(B, T, h), act } }, tokens(B, T, h),
            act, 1, 0, 0, repeats);
    }

    const LlmArch& a;
    const LlmModel& model;
    const LlmSettings& settings;
    LlmPhase phase;
    std::int64_t B, T;
    int context;
    int act;
    int N; ///< tensor-parallel GPUs
};

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
        return std::to_string(b.front()) + "-" + std::to_string(b.back()) + (step > 1 ? "/" + std::to_string(step) : "");
    std::string s;
    for (size_t i = 0; i < b.size(); ++i) {
        size_t j = i;
        while (j + 1 < b.size() && b[j + 1] == b[j] + 1)
            ++j;
        if (!s.empty())
            s += ",";
        s += std::to_string(b[i]) + (j > i ? "-" + std::to_string(b[j]) : "");
        i = j;
    }
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
    Builder b(model, settings, phase, std::max(1, context));
    const std::int64_t B = settings.batch, T = phase == LlmPhase::Prefill ? settings.prompt : 1, h = a.hidden;
    const int act = settings.actBits;

    // the embedding gathers one row of the table per token (at most the whole table); tensor parallel:
    // each GPU holds 1/N of the vocabulary and the rows are all-reduced
    {
        const LlmTensorBytes* s = model.storage ? &model.storage->embedding : nullptr;
        const double params = double(a.vocab) * double(h) / N;
        const double table = b.weightBytes(s, params, 1.0 / N);
        b.resident += table;
        const double read = table * std::min(1.0, double(B * T) / a.vocab);
        b.add("embedding", Op::Copy, {}, tokens(B, T, h), act, 0, params, read, 1);
        b.collective(double(B * T * h) * act / 8.0, 1, true);
    }
    if (a.learnedPositions) {
        const LlmTensorBytes* s = model.storage ? &model.storage->positions : nullptr;
        const double table = b.weightBytes(s, double(a.maxContext) * double(h));
        b.resident += table;
        const double rows = phase == LlmPhase::Prefill ? double(T) : 1;
        b.add("position_embedding", Op::Eltwise, { { tokens(B, T, h), act } }, tokens(B, T, h), act, 1,
            double(a.maxContext) * double(h), table * std::min(1.0, rows / a.maxContext), 1);
    }

    // identical blocks (the same storage, the same attention window) become one set of rows
    std::vector<std::vector<int>> groups;
    std::map<std::vector<double>, size_t> bySignature;
    for (int l = 0; l < a.layers; ++l) {
        std::vector<double> sig { a.slides(l) ? 1.0 : 0.0 };
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
        b.block(g.front(), b.blockName + ".", double(g.size()), a.slides(g.front()));
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
        const std::int64_t scored = phase == LlmPhase::Prefill && settings.allLogits ? T : 1;
        const double params = double(vocab) * double(h);
        const LlmTensorBytes* s = model.storage && model.storage->head.bytes >= 0 ? &model.storage->head
            : model.storage                                                       ? &model.storage->embedding
                                                                                  : nullptr;
        const double bytes = b.weightBytes(s, params, 1.0 / N);
        if (!a.tiedEmbeddings)
            b.resident += bytes;
        b.add("lm_head", Op::MatMul, { { tokens(B, scored, h), act } }, tokens(B, scored, vocab), act, 2.0 * double(h),
            a.tiedEmbeddings ? 0 : params, bytes, 1);
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
