// gpt-oss (issue 75): experts published in MXFP4, attention sinks, sliding windows on every other layer,
// against OpenAI's gpt-oss-120b & gpt-oss-20b model card (arXiv:2508.10925), Table 1: 116.83B total and
// 5.13B active parameters a token, 36 layers, 128 experts; 20.91B and 3.61B, 24 layers, 32 experts; 4
// experts a token; checkpoints of 60.8 GiB and 12.8 GiB (MXFP4 experts, the rest bf16). OpenAI's active
// count leaves the input embedding table out (a token reads one row of it).
// MXFP4: the OCP Microscaling spec v1.0, blocks of 32 FP4 (E2M1) values sharing an 8-bit E8M0 scale.
#include "io/llm_options.h"
#include "llm/llm_analysis.h"
#include "llm/llm_files.h"
#include "llm/llm_phase.h"
#include "llm/llm_storage.h"
#include "llm_fixtures.h"
#include "testutils.h"

#include <cmath>
#include <sstream>

using namespace rfx;
using namespace rfx::test;

namespace {

// openai/gpt-oss-20b's config.json as the Hub has it (the keys the reader uses and some it ignores).
const std::string kGptOss20bConfig = [] {
    std::string types;
    for (int l = 0; l < 24; ++l)
        types += std::string(l ? ", " : "") + (l % 2 ? "\"full_attention\"" : "\"sliding_attention\"");
    return R"({"architectures": ["GptOssForCausalLM"], "attention_bias": true, "experts_per_token": 4, "head_dim": 64,
  "hidden_act": "silu", "hidden_size": 2880, "initial_context_length": 4096, "intermediate_size": 2880, "layer_types": [)"
        + types + R"(], "max_position_embeddings": 131072, "model_type": "gpt_oss", "num_attention_heads": 64,
  "num_experts_per_tok": 4, "num_hidden_layers": 24, "num_key_value_heads": 8, "num_local_experts": 32,
  "quantization_config": {"modules_to_not_convert": ["model.layers.*.self_attn", "model.layers.*.mlp.router",
  "model.embed_tokens", "lm_head"], "quant_method": "mxfp4"}, "rms_norm_eps": 1e-05, "rope_theta": 150000,
  "sliding_window": 128, "swiglu_limit": 7.0, "tie_word_embeddings": false, "vocab_size": 201088})";
}();

LlmModel builtin(const char* id) { return test::builtinModel(id); }

} // namespace

class TestLlmMxfp4 : public QObject {
    Q_OBJECT
private slots:
    // By hand, gpt-oss-20b: h 2,880, 64 heads and 8 KV heads of 64, experts of 2,880, vocabulary 201,088.
    // Attention: q 2,880 x 4,096 + 4,096, k and v 2,880 x 512 + 512 each, o 4,096 x 2,880 + 2,880, 64 sinks:
    // 26,550,144. An expert: gate and up 2,880 x 2,880 + 2,880 each, down the same: 24,891,840; the router
    // 32 x 2,880 + 32 = 92,192; two norms 5,760. A layer 26,550,144 + 32 x 24,891,840 + 92,192 + 5,760 =
    // 823,186,976, 24 of them 19,756,487,424; the embedding and the head 579,133,440 each; the final norm
    // 2,880: 20,914,757,184. Active: 4 experts, 126,215,456 a layer, 3,029,170,944, the head and final norm
    // besides: 3,608,307,264. The 120b: 36 layers of 128 experts: 116,829,156,672 and 5,132,849,472.
    void gptOssCounts()
    {
        const LlmArch &small = *findLanguageModel("gpt-oss-20b"), &large = *findLanguageModel("gpt-oss-120b");
        QCOMPARE(llmParameterCount(small), std::int64_t(20'914'757'184));
        QCOMPARE(llmActiveParameterCount(small), std::int64_t(3'608'307'264));
        QCOMPARE(llmParameterCount(large), std::int64_t(116'829'156'672));
        QCOMPARE(llmActiveParameterCount(large), std::int64_t(5'132'849'472));
        // the card's figures, to their printed hundredths of a billion
        for (auto [count, card] :
            { std::pair { llmParameterCount(small), 20.91e9 }, { llmActiveParameterCount(small), 3.61e9 },
                { llmParameterCount(large), 116.83e9 }, { llmActiveParameterCount(large), 5.13e9 } })
            QVERIFY2(std::abs(double(count) - card) <= 0.005e9, qPrintable(QString::number(count)));
    }

    // As published: the experts' matrices in MXFP4 (4.25 bits), everything else bf16, the experts' biases
    // included. 20b: 24 x 32 x 3 x 2,880 x 2,880 = 19,110,297,600 weights x 4.25 / 8 = 10,152,345,600 B,
    // the other 1,804,459,584 parameters x 2 = 3,608,919,168 B: 13,761,264,768 B = 12.82 GiB (the card's
    // 12.8 GiB); 120b: 114,661,785,600 x 4.25 / 8 + 2,167,371,072 x 2 = 65,248,815,744 B = 60.77 GiB (60.8).
    // At batch 1 a decode step reads 4 of the experts; all of them at batch 64 nearly (E (1 - (1 - 4/E)^64)).
    void gptOssAsPublished()
    {
        LlmSettings s;
        s.weightBits = 0;
        const std::vector<Device> d { shippedDevice("h100-sxm") };
        const LlmOutcome small = analyzeLlm(builtin("gpt-oss-20b"), s, d),
                         large = analyzeLlm(builtin("gpt-oss-120b"), s, d);
        QVERIFY2(small.analysis && large.analysis, small.error.c_str());
        QCOMPARE(small.analysis->figures[0].weightsBytes, 13'761'264'768.0);
        QCOMPARE(large.analysis->figures[0].weightsBytes, 65'248'815'744.0);
        QVERIFY(std::abs(small.analysis->figures[0].weightsBytes / double(1ull << 30) - 12.8) < 0.05);
        QVERIFY(std::abs(large.analysis->figures[0].weightsBytes / double(1ull << 30) - 60.8) < 0.05);
        QVERIFY(large.analysis->figures[0].fits); // the point of MXFP4: one 80 GB GPU
        QVERIFY(llmStoresTypes(builtin("gpt-oss-20b")));
        QVERIFY(!llmStoresTypes(builtin("llama-3.1-8b")));
        // a decode step of the 20b at batch 1 reads the 4 routed experts' share of the expert bytes
        const LlmPhaseBuild decode = buildLlmPhase(builtin("gpt-oss-20b"), s, LlmPhase::Decode, 576);
        QVERIFY2(decode.network, decode.error.c_str());
        double expertBytes = 0;
        for (const Layer& l : decode.network->layers)
            if (l.name.find(".experts.") != std::string::npos && l.op == Op::MatMul)
                expertBytes += l.weightBytes * l.repeats;
        QCOMPARE(expertBytes, 24 * 4 * (3 * 2880.0 * 2880 * 4.25 / 8 + (2 * 2880 + 2880) * 2));
    }

    // Every other layer slides over 128 tokens, from layer 0: the 20b's cache at 8,192 tokens, fp16, a
    // layer's token 2 x 8 x 64 x 2 = 2,048 B: 12 x 8,192 x 2,048 + 12 x 128 x 2,048 = 204,472,320 B.
    void gptOssWindows()
    {
        const LlmArch& a = *findLanguageModel("gpt-oss-20b");
        QVERIFY(a.slides(0) && !a.slides(1) && a.slides(22) && !a.slides(23));
        QCOMPARE(kvCacheBytes(a, 8192, 16), 204'472'320.0);
    }

    // The Hub's config.json reads as the built-in, its quantization_config saying the experts are MXFP4.
    void gptOssConfigJson()
    {
        const LlmLoad l = parseHfConfig(kGptOss20bConfig, "gpt-oss-20b/config.json");
        QVERIFY2(l.model, l.error.c_str());
        const LlmArch& a = l.model->arch;
        QCOMPARE(a.family, std::string("gpt_oss"));
        QCOMPARE(llmParameterCount(a), std::int64_t(20'914'757'184));
        QCOMPARE(llmActiveParameterCount(a), std::int64_t(3'608'307'264));
        QCOMPARE(a.slidingPeriod, 2);
        QCOMPARE(a.slidingWindow, 128);
        QCOMPARE(a.expertBits, kMxfp4Bits);
        QCOMPARE(kvCacheBytes(a, 8192, 16), 204'472'320.0);
    }

    // A GGUF as llama.cpp writes a gpt-oss (architecture "gpt-oss"): 2 blocks, h 64, 4 heads and 2 KV heads
    // of 16, 4 experts of 32, 2 a token, vocabulary 100; experts MXFP4 (17 bytes per 32 weights), their
    // biases, the sinks and norms F32, the rest F16. A block: q 64 x 64 + 64, k and v 64 x 32 + 32 each,
    // o 64 x 64 + 64, 4 sinks: 4,160 + 2 x 2,080 + 4,160 + 4 = 12,484; experts 4 x (3 x 64 x 32 + 32 + 32 + 64)
    // = 25,088; router 4 x 64 + 4 = 260; two norms 128: 37,960; two blocks 75,920; embedding and head 12,800;
    // output norm 64: 88,784.
    void gptOssGguf()
    {
        GgufWriter kv;
        kv.kvStr("general.architecture", "gpt-oss");
        kv.kvU32("gpt-oss.block_count", 2);
        kv.kvU32("gpt-oss.embedding_length", 64);
        kv.kvU32("gpt-oss.feed_forward_length", 32);
        kv.kvU32("gpt-oss.attention.head_count", 4);
        kv.kvU32("gpt-oss.attention.head_count_kv", 2);
        kv.kvU32("gpt-oss.attention.key_length", 16);
        kv.kvU32("gpt-oss.context_length", 4096);
        kv.kvU32("gpt-oss.expert_count", 4);
        kv.kvU32("gpt-oss.expert_used_count", 2);
        kv.kvU32("gpt-oss.expert_feed_forward_length", 32);
        kv.kvU32("gpt-oss.attention.sliding_window", 128);
        std::vector<GgufWriter::Tensor> t { { "token_embd.weight", { 64, 100 }, 1, 6400 * 2 },
            { "output.weight", { 64, 100 }, 1, 6400 * 2 }, { "output_norm.weight", { 64 }, 0, 64 * 4 } };
        double expertBytes = 0;
        for (int b = 0; b < 2; ++b) {
            const std::string p = "blk." + std::to_string(b) + ".";
            for (auto [name, in, out] : { std::tuple { "attn_q", 64u, 64u }, { "attn_k", 64u, 32u },
                     { "attn_v", 64u, 32u }, { "attn_output", 64u, 64u } }) {
                t.push_back({ p + name + ".weight", { in, out }, 1, std::uint64_t(in) * out * 2 });
                t.push_back({ p + name + ".bias", { out }, 0, std::uint64_t(out) * 4 });
            }
            t.push_back({ p + "attn_sinks.weight", { 4 }, 0, 16 });
            t.push_back({ p + "ffn_gate_inp.weight", { 64, 4 }, 0, 256 * 4 });
            t.push_back({ p + "ffn_gate_inp.bias", { 4 }, 0, 16 });
            for (auto [name, in, out] : { std::tuple { "ffn_gate_exps", 64u, 32u }, { "ffn_up_exps", 64u, 32u },
                     { "ffn_down_exps", 32u, 64u } }) {
                t.push_back({ p + name + ".weight", { in, out, 4 }, 39, std::uint64_t(in) * out * 4 / 32 * 17 });
                t.push_back({ p + name + ".bias", { out, 4 }, 0, std::uint64_t(out) * 4 * 4 });
                expertBytes += double(in) * out * 4 / 32 * 17 + double(out) * 16;
            }
            for (const char* norm : { "attn_norm.weight", "post_attention_norm.weight" })
                t.push_back({ p + norm, { 64 }, 0, 64 * 4 });
        }
        std::istringstream in(GgufWriter::file(3, 12, kv.bytes(), t));
        const LlmLoad l = readGgufModel(in, in.str().size(), "tiny-gpt-oss.gguf");
        QVERIFY2(l.model, l.error.c_str());
        const LlmArch& a = l.model->arch;
        QCOMPARE(a.family, std::string("gpt_oss"));
        QVERIFY(a.qkvBias && a.oBias && a.attentionSinks && a.expertBiases && a.routerBias);
        QCOMPARE(llmParameterCount(a), std::int64_t(88'784));
        QCOMPARE(l.model->storage->totalParams, std::int64_t(88'784));
        QVERIFY(a.slides(0) && !a.slides(1));
        // a prefill of 512 tokens touches every expert: the rows read the experts' bytes as stored
        LlmSettings s;
        s.weightBits = 0;
        const LlmPhaseBuild p = buildLlmPhase(*l.model, s, LlmPhase::Prefill, 512);
        QVERIFY2(p.network, p.error.c_str());
        double read = 0;
        for (const Layer& row : p.network->layers)
            if (row.name.find(".experts.") != std::string::npos && row.op == Op::MatMul)
                read += row.weightBytes * row.repeats;
        QCOMPARE(read, expertBytes);
    }

    // The checkpoint's names: all of a layer's experts in one tensor, gate and up fused (MXFP4 _blocks and
    // _scales, _bias), the router, the sinks.
    void gptOssSafetensorsNames()
    {
        LlmStorage s;
        addStoredTensor(s, "model.layers.0.mlp.experts.gate_up_proj_blocks", 1000, 2000, "U8", 24);
        addStoredTensor(s, "model.layers.0.mlp.experts.gate_up_proj_scales", 100, 100, "U8", 24);
        addStoredTensor(s, "model.layers.0.mlp.experts.down_proj_bias", 40, 20, "BF16", 24);
        addStoredTensor(s, "model.layers.0.mlp.router.weight", 64, 32, "BF16", 24);
        addStoredTensor(s, "model.layers.0.self_attn.sinks", 128, 64, "BF16", 24);
        QCOMPARE(s.blocks[0][size_t(int(LlmTensor::ExpertGate))].bytes, 550.0);
        QCOMPARE(s.blocks[0][size_t(int(LlmTensor::ExpertUp))].bytes, 550.0);
        QCOMPARE(s.blocks[0][size_t(int(LlmTensor::ExpertDown))].bytes, 40.0);
        QCOMPARE(s.blocks[0][size_t(int(LlmTensor::Router))].bytes, 64.0);
        QCOMPARE(s.blocks[0][size_t(int(LlmTensor::Sinks))].bytes, 128.0);
    }

    // MXFP4 as a width for any model: --weights-bits mxfp4, 4.25 bits a weight, given back as "mxfp4".
    void mxfp4Option()
    {
        LlmOptions o;
        std::vector<std::string> args { "--weights-bits", "mxfp4" };
        std::size_t i = 0;
        std::string error;
        QCOMPARE(applyLlmOption(args, i, o, error), OptionStatus::Consumed);
        QCOMPARE(o.settings.weightBits, kMxfp4Bits);
        QVERIFY(!validateLlmSettings(o.settings));
        const std::vector<std::string> back = llmSettingsToArgs(o.settings);
        QVERIFY(std::find(back.begin(), back.end(), "mxfp4") != back.end());
        QCOMPARE(weightBytesPerParam(kMxfp4Bits), 4.25 / 8);
        LlmSettings s;
        s.weightBits = 4.5;
        QVERIFY(validateLlmSettings(s)->find("must be 4, mxfp4, 8, 16, 32") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestLlmMxfp4)
#include "tst_llm_mxfp4.moc"
