// A block's attention: the usual one (multi-head, grouped-query, multi-query; a sliding window) and
// DeepSeek's multi-head latent attention.
#include "llm/llm_builder.h"

#include <tuple>

namespace rfx::llmrows {

void Builder::attention(int first, const std::string& prefix, double repeats, bool slides)
{
    // one GPU's part under tensor parallelism: heads, KV heads (a replicated one where fewer than the GPUs)
    const int hq = a.heads / N, hkv = kvHeadsPerGpu(a, N);
    const std::int64_t h = a.hidden, d = a.headDim, q = std::int64_t(hq) * d, kv = std::int64_t(hkv) * d;
    const double shareQ = 1.0 / N, shareKv = double(hkv) / a.kvHeads;
    const bool biasQkv = a.qkvBias || a.allBiases;
    if (a.fusedQkv) {
        const double p = double(h) * double(q + 2 * kv) + (biasQkv ? double(q + 2 * kv) : 0);
        matmul(prefix + "qkv_proj", T, h, q + 2 * kv, p,
            tensorBytes(first, LlmTensor::Qkv, p, repeats, double(hq + 2 * hkv) / (a.heads + 2 * a.kvHeads)), repeats,
            biasQkv);
    } else {
        const double pq = double(h * q) + (biasQkv ? double(q) : 0), pk = double(h * kv) + (biasQkv ? double(kv) : 0);
        matmul(prefix + "q_proj", T, h, q, pq, tensorBytes(first, LlmTensor::Q, pq, repeats, shareQ), repeats, biasQkv);
        matmul(
            prefix + "k_proj", T, h, kv, pk, tensorBytes(first, LlmTensor::K, pk, repeats, shareKv), repeats, biasQkv);
        matmul(
            prefix + "v_proj", T, h, kv, pk, tensorBytes(first, LlmTensor::V, pk, repeats, shareKv), repeats, biasQkv);
    }
    if (a.qkNorm) // Qwen3: each head's query and key normalized over its d features, one weight vector each
        for (const auto& [name, t, width] :
            { std::tuple { "q_norm", LlmTensor::QNorm, q }, std::tuple { "k_norm", LlmTensor::KNorm, kv } })
            add(prefix + name, Op::Eltwise, { { tokens(B, T, width), act } }, tokens(B, T, width), act, kRmsNormOps,
                double(d), normBytes(first, t, double(d), repeats), repeats);
    if (!a.learnedPositions)
        add(prefix + "rope", Op::Eltwise, { { tokens(B, T, q + kv), act } }, tokens(B, T, q + kv), act, kRopeOps, 0, 0,
            repeats);
    // the new tokens' keys and values into the cache, at its width
    add(prefix + "kv_cache_write", Op::Copy, { { tokens(B, T, 2 * kv), act } }, tokens(B, T, 2 * kv), settings.kvBits,
        0, 0, 0, repeats);

    // a local layer: the last `window` tokens, or (chunked, Llama 4) those of the token's own chunk
    const std::int64_t window = slides ? a.slidingWindow : 0;
    const bool chunked = window > 0 && a.chunkedAttention;
    const std::int64_t local
        = chunked ? (std::max(1, context) - 1) % window + 1 : std::min<std::int64_t>(context, window);
    const std::int64_t keys = phase == LlmPhase::Decode ? (window > 0 ? local : context) : T;
    const double pairs = phase == LlmPhase::Decode
        ? (chunked ? decodePairs(T, local, 0) : decodePairs(T, context, window))
        : chunked ? chunkedPairs(T, window)
                  : causalPairs(T, window);
    const Shape qShape = heads(B, hq, T, d);
    const Shape kvShape = heads(B, hkv, keys, d);
    const In kIn { kvShape, settings.kvBits, false }, vIn { kvShape, settings.kvBits, false };
    // gpt-oss's sinks: a learned logit per head in each softmax (its FLOPs, one per query and head, left out)
    const double sinks = a.attentionSinks ? double(hq) : 0;
    const double sinkBytes = sinks > 0 ? normBytes(first, LlmTensor::Sinks, sinks, repeats) : 0;
    if (settings.attention == LlmAttention::Flash) {
        const double flops = double(B) * hq * pairs * (4.0 * double(d) + kSoftmaxOps);
        add(prefix + "attention", Op::MatMul, { { qShape, act }, kIn, vIn }, qShape, act,
            flops / double(qShape.elements()), sinks, sinkBytes, repeats)
            .attention
            = true;
    } else {
        const Shape scores = heads(B, hq, T, keys);
        add(prefix + "attn_scores", Op::MatMul, { { qShape, act }, kIn }, scores, act, 2.0 * double(d), 0, 0, repeats)
            .attention
            = true;
        // The softmax is an elementwise pass over the scores (oneDNN's softmax primitive), calibrated
        // with the elementwise rows: in the attention class its 14 % of the bound pulled the two
        // products' fit (27 % and 67 %) down to 22 %, and the context at 2,048 tokens, batch 8, came
        // out 3x its measured time (Zen 5 set, 2026-12-06).
        add(prefix + "attn_softmax", Op::Eltwise, { { scores, act } }, scores, act, kSoftmaxOps, sinks, sinkBytes,
            repeats);
        add(prefix + "attn_context", Op::MatMul, { { scores, act }, vIn }, qShape, act, 2.0 * double(keys), 0, 0,
            repeats)
            .attention
            = true;
    }
    {
        const bool bias = a.allBiases || a.oBias;
        const double p = double(q * h) + (bias ? double(h) : 0);
        matmul(prefix + "o_proj", T, q, h, p, tensorBytes(first, LlmTensor::O, p, repeats, shareQ), repeats, bias);
        collective(double(B * T * h) * act / 8.0, repeats, true); // the heads' partial sums
    }
}

void Builder::latentAttention(int first, const std::string& prefix, double repeats)
{
    // Heads divide among the GPUs; the latent projections and the cache of latents are on every GPU.
    const int hq = a.heads / N;
    const std::int64_t h = a.hidden, nope = a.qkNope, rope = a.qkRope, dv = a.vHeadDim, c = a.kvLora;
    const std::int64_t qk = nope + rope;
    const double share = 1.0 / N;
    if (a.qLora > 0) {
        const std::int64_t r = a.qLora;
        const double pa = double(h * r), pb = double(r) * double(a.heads) * double(qk);
        matmul(prefix + "q_a_proj", T, h, r, pa, tensorBytes(first, LlmTensor::QA, pa, repeats), repeats, false);
        add(prefix + "q_a_norm", Op::Eltwise, { { tokens(B, T, r), act } }, tokens(B, T, r), act, kRmsNormOps,
            double(r), normBytes(first, LlmTensor::QANorm, double(r), repeats), repeats);
        matmul(prefix + "q_b_proj", T, r, hq * qk, pb * share,
            tensorBytes(first, LlmTensor::QB, pb * share, repeats, share), repeats, false);
    } else {
        const double p = double(h) * double(a.heads) * double(qk);
        matmul(prefix + "q_proj", T, h, hq * qk, p * share, tensorBytes(first, LlmTensor::Q, p * share, repeats, share),
            repeats, false);
    }
    const double pkva = double(h) * double(c + rope);
    matmul(
        prefix + "kv_a_proj", T, h, c + rope, pkva, tensorBytes(first, LlmTensor::KvA, pkva, repeats), repeats, false);
    add(prefix + "kv_a_norm", Op::Eltwise, { { tokens(B, T, c), act } }, tokens(B, T, c), act, kRmsNormOps, double(c),
        normBytes(first, LlmTensor::KvANorm, double(c), repeats), repeats);
    add(prefix + "rope", Op::Eltwise, { { tokens(B, T, hq * rope + rope), act } }, tokens(B, T, hq * rope + rope), act,
        kRopeOps, 0, 0, repeats);
    // the cache holds each token's latent and rotary key, at its width
    add(prefix + "kv_cache_write", Op::Copy, { { tokens(B, T, c + rope), act } }, tokens(B, T, c + rope),
        settings.kvBits, 0, 0, 0, repeats);
    // kv_b_proj: c -> H (nope + v), its key part W_UK and value part W_UV
    const double pkvb = double(c) * double(a.heads) * double(nope + dv) * share;
    const double kvbBytes = tensorBytes(first, LlmTensor::KvB, pkvb, repeats, share);
    const double ukShare = double(nope) / double(nope + dv);
    if (phase == LlmPhase::Prefill) {
        // Prefill decompresses: every prompt token's keys and values per head, then attention as usual
        // (keys of nope + rope features, values of v), causal.
        matmul(prefix + "kv_b_proj", T, c, hq * (nope + dv), pkvb, kvbBytes, repeats, false);
        const double pairs = causalPairs(T, 0);
        const Shape qShape = heads(B, hq, T, qk);
        const In kIn { heads(B, hq, T, qk), act }, vIn { heads(B, hq, T, dv), act };
        const double flops = double(B) * hq * pairs * (2.0 * double(qk) + 2.0 * double(dv) + kSoftmaxOps);
        add(prefix + "attention", Op::MatMul, { { qShape, act }, kIn, vIn }, heads(B, hq, T, dv), act,
            flops / double(heads(B, hq, T, dv).elements()), 0, 0, repeats)
            .attention
            = true;
    } else {
        // A decode step in the absorbed form (DeepSeek-V2 section 2.1.3, as serving engines run it):
        // each head's query taken into the latent's space through W_UK, attention over the cached
        // latents and rotary keys (one "key/value head" every head reads), the result out through W_UV.
        const std::int64_t keys = context;
        add(prefix + "q_absorb", Op::MatMul, { { heads(B, hq, T, nope), act } }, heads(B, hq, T, c), act,
            2.0 * double(nope), pkvb * ukShare, kvbBytes * ukShare, repeats);
        const Shape latents = heads(B, 1, keys, c + rope);
        const double flops
            = double(B) * hq * decodePairs(T, keys, 0) * (2.0 * double(c + rope) + 2.0 * double(c) + kSoftmaxOps);
        add(prefix + "attention", Op::MatMul,
            { { heads(B, hq, T, c + rope), act }, { latents, settings.kvBits, false } }, heads(B, hq, T, c), act,
            flops / double(heads(B, hq, T, c).elements()), 0, 0, repeats)
            .attention
            = true;
        add(prefix + "v_absorb", Op::MatMul, { { heads(B, hq, T, c), act } }, heads(B, hq, T, dv), act, 2.0 * double(c),
            pkvb * (1 - ukShare), kvbBytes * (1 - ukShare), repeats);
    }
    const double po = double(a.heads) * double(dv) * double(h) * share;
    matmul(prefix + "o_proj", T, hq * dv, h, po, tensorBytes(first, LlmTensor::O, po, repeats, share), repeats, false);
    collective(double(B * T * h) * act / 8.0, repeats, true); // the heads' partial sums
}

} // namespace rfx::llmrows
