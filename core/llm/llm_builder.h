#pragma once
// The rows of one phase of a language model, built block by block (llm_phase.cpp builds the phase,
// llm_block.cpp a block's MLP and norms, llm_attention.cpp its attention). Internal to core/llm.
#include "llm/llm_phase.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace rfx::llmrows {

inline Shape tokens(std::int64_t batch, std::int64_t t, std::int64_t features)
{
    return Shape { batch, t, features, 1, 3 };
}
inline Shape heads(std::int64_t batch, std::int64_t h, std::int64_t t, std::int64_t d)
{
    return Shape { batch, h, t, d, 4 };
}

struct In {
    Shape shape;
    int bits;
    bool activation = true; ///< counts toward the activation peak (the KV cache does not)
};

class Builder {
public:
    Builder(const LlmModel& m, const LlmSettings& s, LlmPhase p, int c)
        : a(m.arch)
        , model(m)
        , settings(s)
        , phase(p)
        , B(s.batch)
        , T(p == LlmPhase::Prefill ? s.prompt : s.decodeTokens)
        , context(c)
        , act(s.actBits)
        , N(std::max(1, s.tensorParallel))
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
        l.weightBits
            = std::uint8_t(std::clamp(int(std::lround(settings.weightBits == 0 ? 16 : settings.weightBits)), 1, 64));
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
        add(name, Op::MatMul, { { tokens(B, rows, in), act } }, tokens(B, rows, out), act,
            2.0 * double(in) + (bias ? 1 : 0), params, bytes, repeats);
    }

    double tensorBytes(int block, LlmTensor t, double params, double repeats, double share = 1)
    {
        const bool expert = t == LlmTensor::ExpertGate || t == LlmTensor::ExpertUp || t == LlmTensor::ExpertDown;
        // a built-in model as published (gpt-oss: the routed experts in MXFP4, the rest at 16 bits)
        const double b = settings.weightBits == 0 && !model.storage && a.expertBits > 0 && expert
            ? params * weightBytesPerParam(a.expertBits)
            : weightBytes(stored(block, t), params, share);
        resident += b * repeats;
        return b;
    }

    /// One block's rows (or `repeats` identical blocks'): its norms, attention (llm_attention.cpp) and MLP.
    void block(int first, const std::string& prefix, double repeats, bool slides, bool moe);
    /// The attention of a block: projections, rotary embedding, the cache's write, attention, output.
    void attention(int first, const std::string& prefix, double repeats, bool slides);
    /// Multi-head latent attention (DeepSeek): the latent projections, the cache of latents, and in a
    /// decode step the absorbed form (queries into the latent's space, attention over the latents).
    void latentAttention(int first, const std::string& prefix, double repeats);
    /// The feed-forward part: a dense MLP, or a mixture of experts with its router and shared experts.
    void mlp(int first, const std::string& prefix, double repeats, bool moe);
    /// A weight tensor's bytes on this GPU as read by a pass (kept in `resident`).
    double normBytes(int first, LlmTensor t, double params, double repeats);

    const LlmArch& a;
    const LlmModel& model;
    const LlmSettings& settings;
    LlmPhase phase;
    std::int64_t B, T;
    int context;
    int act;
    int N; ///< tensor-parallel GPUs
};

} // namespace rfx::llmrows
