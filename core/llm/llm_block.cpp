// A block's rows around its attention (llm_attention.cpp): the norms, the residuals, and the MLP,
// dense or a mixture of experts with a router and, in DeepSeek's, shared experts every token uses.
#include "llm/llm_builder.h"

namespace rfx::llmrows {

double Builder::normBytes(int first, LlmTensor t, double params, double repeats)
{
    const LlmTensorBytes* s = stored(first, t);
    const double b = settings.weightBits == 0 && s && s->bytes >= 0 ? s->bytes : smallBytes(params);
    resident += b * repeats;
    return b;
}

void Builder::block(int first, const std::string& prefix, double repeats, bool slides, bool moe)
{
    const std::int64_t h = a.hidden;
    const double normParams = double(h) * (a.norm == LlmNorm::Layer || a.allBiases ? 2 : 1);
    norm(prefix + "attn_norm", h, repeats, normBytes(first, LlmTensor::AttnNorm, normParams, repeats));
    if (a.latent())
        latentAttention(first, prefix, repeats);
    else
        attention(first, prefix, repeats, slides);
    if (a.normsPerBlock >= 4)
        norm(prefix + "post_attn_norm", h, repeats, normBytes(first, LlmTensor::PostAttnNorm, normParams, repeats));
    add(prefix + "attn_residual", Op::Eltwise, { { tokens(B, T, h), act }, { tokens(B, T, h), act } }, tokens(B, T, h),
        act, 1, 0, 0, repeats);
    norm(prefix + "mlp_norm", h, repeats, normBytes(first, LlmTensor::MlpNorm, normParams, repeats));
    mlp(first, prefix, repeats, moe);
    collective(double(B * T * h) * act / 8.0, repeats, true); // the MLP's partial sums
    if (a.normsPerBlock >= 4)
        norm(prefix + "post_mlp_norm", h, repeats, normBytes(first, LlmTensor::PostMlpNorm, normParams, repeats));
    add(prefix + "mlp_residual", Op::Eltwise, { { tokens(B, T, h), act }, { tokens(B, T, h), act } }, tokens(B, T, h),
        act, 1, 0, 0, repeats);
}

void Builder::mlp(int first, const std::string& prefix, double repeats, bool moe)
{
    // one GPU's part under tensor parallelism: the intermediate features; the router on every GPU
    const std::int64_t h = a.hidden, f = a.ffn / N;
    const double shareF = 1.0 / N;
    const double glu = a.mlp == LlmMlp::GeGlu ? kGeluMulOps : kSiluMulOps;
    if (moe) {
        const int E = a.experts, k = a.expertsPerToken;
        const std::int64_t fe = a.expertWidth() / N; // one expert's part on this GPU
        const double touched = expectedExpertsTouched(E, k, double(B) * double(T));
        const double pr = double(h) * E + (a.routerBias ? E : 0); // DeepSeek-V3: a bias per expert on the scores
        matmul(prefix + "router", T, h, E, pr, tensorBytes(first, LlmTensor::Router, pr, repeats), repeats, false);
        const double pe = double(h) * double(fe); // one expert's matrix
        auto expert = [&](const char* name, LlmTensor t, std::int64_t in, std::int64_t out) {
            double all = tensorBytes(first, t, pe * E, repeats, shareF);
            // gpt-oss: a bias on each expert's outputs, at the activations' width (as published: bf16) unless
            // the file's tensor holds it
            const double bias = a.expertBiases ? double(out) : 0;
            const LlmTensorBytes* s = stored(first, t);
            if (bias > 0 && !(settings.weightBits == 0 && s && s->bytes >= 0)) {
                all += smallBytes(bias * E);
                resident += smallBytes(bias * E) * repeats;
            }
            matmul(prefix + name, T * k, in, out, (pe + bias) * E, all * touched / E, repeats, bias > 0);
        };
        expert("experts.gate_proj", LlmTensor::ExpertGate, h, fe);
        expert("experts.up_proj", LlmTensor::ExpertUp, h, fe);
        add(prefix + "experts.act", Op::Eltwise, { { tokens(B, T * k, fe), act }, { tokens(B, T * k, fe), act } },
            tokens(B, T * k, fe), act, glu, 0, 0, repeats);
        expert("experts.down_proj", LlmTensor::ExpertDown, fe, h);
        add(prefix + "experts.combine", Op::Eltwise, { { tokens(B, T * k, h), act } }, tokens(B, T, h), act, 2.0 * k, 0,
            0, repeats);
        if (a.sharedExperts > 0) { // every token through them too, as a dense MLP of S x f_e features
            const std::int64_t fs = std::int64_t(a.sharedExperts) * fe;
            const double ps = double(h) * double(fs);
            matmul(prefix + "shared_experts.gate_proj", T, h, fs, ps,
                tensorBytes(first, LlmTensor::SharedGate, ps, repeats, shareF), repeats, false);
            matmul(prefix + "shared_experts.up_proj", T, h, fs, ps,
                tensorBytes(first, LlmTensor::SharedUp, ps, repeats, shareF), repeats, false);
            add(prefix + "shared_experts.act", Op::Eltwise, { { tokens(B, T, fs), act }, { tokens(B, T, fs), act } },
                tokens(B, T, fs), act, glu, 0, 0, repeats);
            matmul(prefix + "shared_experts.down_proj", T, fs, h, ps,
                tensorBytes(first, LlmTensor::SharedDown, ps, repeats, shareF), repeats, false);
        }
    } else if (a.mlp == LlmMlp::Gelu) {
        const double p1 = double(h * f) + (a.allBiases ? double(f) : 0),
                     p2 = double(f * h) + (a.allBiases ? double(h) : 0);
        matmul(
            prefix + "fc", T, h, f, p1, tensorBytes(first, LlmTensor::Up, p1, repeats, shareF), repeats, a.allBiases);
        add(prefix + "gelu", Op::Eltwise, { { tokens(B, T, f), act } }, tokens(B, T, f), act, kGeluOps, 0, 0, repeats);
        matmul(prefix + "proj", T, f, h, p2, tensorBytes(first, LlmTensor::Down, p2, repeats, shareF), repeats,
            a.allBiases);
    } else {
        const double p = double(h * f);
        if (a.fusedGateUp)
            matmul(prefix + "gate_up_proj", T, h, 2 * f, 2 * p,
                tensorBytes(first, LlmTensor::GateUp, 2 * p, repeats, shareF), repeats, false);
        else {
            matmul(prefix + "gate_proj", T, h, f, p, tensorBytes(first, LlmTensor::Gate, p, repeats, shareF), repeats,
                false);
            matmul(
                prefix + "up_proj", T, h, f, p, tensorBytes(first, LlmTensor::Up, p, repeats, shareF), repeats, false);
        }
        add(prefix + "act_mul", Op::Eltwise, { { tokens(B, T, f), act }, { tokens(B, T, f), act } }, tokens(B, T, f),
            act, glu, 0, 0, repeats);
        matmul(
            prefix + "down_proj", T, f, h, p, tensorBytes(first, LlmTensor::Down, p, repeats, shareF), repeats, false);
    }
}

} // namespace rfx::llmrows
