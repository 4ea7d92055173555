#pragma once

#include "base/enum_words.h"
#include "llm/llm_arch.h"
#include "model/config.h"
#include "model/network.h"

#include <optional>
#include <string>
#include <vector>

namespace rfx {

/// Both: the two phases' rows on one chart and in one table (the window's and figures' choice;
/// buildLlmPhase builds one phase, prefill or decode).
enum class LlmPhase { Prefill, Decode, Both };
/// FlashAttention keeps the scores on chip (one row reads Q, K, V and writes the output); naive
/// attention writes the scores, reads them for the softmax, writes the probabilities and reads them for
/// the product with V (three rows), and computes every score of the causal square in prefill.
enum class LlmAttention { Flash, Naive };
inline constexpr EnumWord<LlmPhase> kLlmPhaseWords[]
    = { { LlmPhase::Prefill, "prefill" }, { LlmPhase::Decode, "decode" }, { LlmPhase::Both, "both" } };
inline constexpr EnumWord<LlmAttention> kLlmAttentionWords[]
    = { { LlmAttention::Flash, "flash" }, { LlmAttention::Naive, "naive" } };
std::string_view llmPhaseName(LlmPhase p); ///< "prefill", "decode", "both"
std::string_view llmAttentionName(LlmAttention a); ///< "flash", "naive"

/// What is asked of the model: P prompt tokens in, G generated, B sequences, each tensor's precision.
struct LlmSettings {
    int prompt = 512; ///< P
    int generate = 128; ///< G
    int context = 0; ///< the decode context C a TPOT is quoted at; 0: P + G / 2 (the generation's middle)
    int batch = 1; ///< B sequences decoded together
    double weightBits
        = 16; ///< 32, 16, 8, 4 (int4 carries an fp16 scale per 128 weights) or kMxfp4Bits; 0: as in the file
    int kvBits = 16; ///< the KV cache's element width: 32, 16, 8 or 4
    int actBits = 16; ///< activations' width and the matrix rows' arithmetic: 32, 16 or 8
    /// The arithmetic where the width does not say it: fp8 (8 bits; tensor FP8, not INT8) or bf16 (16 bits;
    /// the BF16 ceilings, not FP16's). Unset: numberTypeOfBits(actBits), i.e. int8, fp16 or fp32.
    NumberType actType = NumberType::Unset;
    LlmAttention attention = LlmAttention::Flash;
    /// Prefill computes the logits of every prompt token (B x P rows of the output head: scoring a
    /// prompt, speculative decoding's verification), not only of each sequence's last one.
    bool allLogits = false;
    /// Tensor parallelism over N GPUs of one kind (Megatron-LM's split): attention heads, the MLP's
    /// intermediate features, each expert's features and the vocabulary divided among them, norms and
    /// the router on every GPU; per block two all-reduces of the hidden states over `interconnect`.
    int tensorParallel = 1;
    std::string interconnect = "nvlink4"; ///< resources/interconnects.json
    /// The tokens of each sequence a decode step takes: 1, or speculative decoding's verification of K
    /// drafted tokens and the next (K + 1): each token's rows and logits, each sequence's cache read once.
    int decodeTokens = 1;
    friend bool operator==(const LlmSettings&, const LlmSettings&) = default;
};
/// A language model as the user works on it (the window's mode, a session): which one, what is asked
/// of it, and the phase whose rows are shown.
struct LlmWork {
    std::string model; ///< a built-in id ("llama-3.1-8b") or a model file; empty: none
    LlmSettings settings;
    LlmPhase phase = LlmPhase::Decode;
    friend bool operator==(const LlmWork&, const LlmWork&) = default;
};
inline constexpr Range kPromptRange { 1, 1 << 20 };
inline constexpr Range kGenerateRange { 1, 1 << 20 };
inline constexpr Range kLlmBatchRange { 1, 65536 };
inline constexpr Range kTensorParallelRange { 1, 64 };
inline constexpr Range kDecodeTokensRange { 1, 17 }; ///< a verification of at most 16 drafted tokens
/// The decode context of the settings: `context` where set, else P + G / 2.
int decodeContext(const LlmSettings& settings);
/// Checks the settings; a message naming the option, or nothing.
std::optional<std::string> validateLlmSettings(const LlmSettings& settings);

/// Bytes per weight at `bits`: bits / 8, and for 4 bits one fp16 scale per group of 128 weights
/// (GPTQ's, AWQ's and ONNX MatMulNBits' default group): 4.125 / 8; MXFP4 (kMxfp4Bits) 4.25 / 8.
double weightBytesPerParam(double bits);
/// OCP Microscaling MXFP4 (OCP MX spec v1.0): blocks of 32 FP4 (E2M1) values sharing one 8-bit (E8M0)
/// scale, (32 x 4 + 8) / 32 = 4.25 bits a weight; gpt-oss's experts are published so.
inline constexpr double kMxfp4Bits = 4.25;
/// The model says its tensors' widths: a weight file's types, or a built-in publisher's checkpoint
/// (gpt-oss: MXFP4 experts); "as in the file" then means them.
bool llmStoresTypes(const LlmModel& model);

/// FLOPs per element of the rows that are not matrix products (DESIGN.md "Language models").
inline constexpr double kRmsNormOps = 4; ///< square, sum, scale by 1/rms, scale by the weight
inline constexpr double kLayerNormOps = 7; ///< sum, subtract the mean, square, sum, scale, weight, bias
inline constexpr double kRopeOps = 3; ///< x cos + rotate(x) sin, per element of q and k
inline constexpr double kSoftmaxOps
    = 5; ///< max, subtract, exp, sum, divide per score (the 1/sqrt(d) scale is folded into q)
inline constexpr double kSiluMulOps = 5; ///< SiLU(g) = g / (1 + exp(-g)): 4, times u: 1
inline constexpr double kGeluOps = 8; ///< the tanh approximation
inline constexpr double kGeluMulOps = 9; ///< GeGLU: GELU(g) x u

/// One phase of a language model as rows (a Network the roofline engine analyses):
///  prefill: T = P tokens per sequence, attention over the causal triangle (a query at position i sees
///  min(i, window) keys; FlashAttention counts those pairs, naive attention the whole P x P square);
///  decode: T = decodeTokens (1; K + 1 verifying K drafted ones) per sequence at context C, the cache
///  after the step holding C tokens (query j of T sees C - T + j keys, at most the window); logits for each.
/// Rows: embedding gather; per block attention norm, q/k/v projections (one fused where the model
/// has it), rotary embedding, the KV cache write (the new k, v at the cache's width), attention
/// (FlashAttention: one row reading Q and the cached K and V; naive: scores, softmax, scores x V),
/// output projection, residual add, MLP norm, gate/up, activation, down (or router, experts and
/// their combination), residual add; final norm; the output head for the last token of each
/// sequence. Identical blocks are one set of rows run `repeats` times, named "blk0-31.q_proj".
struct LlmPhaseBuild {
    std::optional<Network> network;
    std::string error;
    double weightBytes = 0; ///< every weight resident in memory (all experts, a tied head once), byte
    double activationPeak = 0; ///< the largest row's activation inputs and output, byte
    /// Tensor parallel: what one GPU sends over the link in the phase's collectives (a ring all-reduce
    /// of S bytes sends 2 (N - 1) / N x S, an all-gather (N - 1) / N x S), byte; 0 on one GPU.
    double linkBytes = 0;
    int collectives = 0; ///< the phase's all-reduces and all-gathers
    double kvShare = 1; ///< the share of the KV cache one GPU holds (KV heads / N, or all of a replicated head)
};
LlmPhaseBuild buildLlmPhase(const LlmModel& model, const LlmSettings& settings, LlmPhase phase, int context);

/// The KV cache of one sequence holding `tokens` tokens: sum over layers of
/// 2 x KV heads x head dim x min(tokens, window) x the cache's bytes per element.
double kvCacheBytes(const LlmArch& arch, std::int64_t tokens, int kvBits);
/// Tensor parallel over `gpus`: the KV heads one GPU holds (KV heads / N; 1, replicated, where there are
/// fewer KV heads than GPUs), and why the model does not split that way (nothing when it does).
int kvHeadsPerGpu(const LlmArch& arch, int gpus);
std::optional<std::string> tensorParallelError(const LlmArch& arch, int gpus);

/// Settings a model cannot be analysed at, in a window's words beside the field they concern, with the
/// values that would work there (issue 73 item 6: the window said the CLI's "--prompt 200,000 and
/// --generate 128: ..." away from the field, with no fix): a prompt and generation longer than the
/// model reads (field "prompt": the longest prompt that fits with the tokens generated), a tensor-
/// parallel split the heads do not divide into (field "tp": the nearest GPU counts, below and above,
/// that work). Nothing where the settings work for the model.
struct LlmSettingsFix {
    std::string field; ///< "prompt" or "tp"
    std::string message; ///< a sentence, the model named
    std::vector<int> values; ///< the field's values that work, nearest first
};
std::optional<LlmSettingsFix> llmSettingsFix(const LlmArch& arch, const LlmSettings& settings);
/// Causal attention over a prompt of `p` tokens: the (query, key) pairs it scores, the sum over query
/// positions i = 1..p of min(i, window) (window 0: none): p (p + 1) / 2 without a window.
double causalPairs(std::int64_t p, std::int64_t window);
/// The (query, key) pairs of a decode step of t tokens a sequence at context c (the cache holding c
/// tokens after it): query j = 1..t sees c - t + j keys, at most `window` (0: none), at least 1:
/// c at t = 1; t c - t (t - 1) / 2 without a window (speculative decoding's verification).
double decodePairs(std::int64_t t, std::int64_t context, std::int64_t window);
/// The (query, key) pairs of a causal prefill of p tokens in chunks of `chunk` (Llama 4's local layers:
/// each token attends to its own chunk's tokens up to itself): C (C + 1) / 2 per whole chunk and
/// r (r + 1) / 2 for the r left.
double chunkedPairs(std::int64_t p, std::int64_t chunk);
/// Mixture of experts: the expected number of distinct experts N tokens touch when each picks k of E
/// uniformly: E (1 - (1 - k / E)^N).
double expectedExpertsTouched(int experts, int perToken, double tokens);

} // namespace rfx
