// The architectures of issue 75 (today's language models) against their publishers' figures, each
// count worked by hand here from the model's config.json on the Hugging Face Hub:
//  - Qwen3-8B (huggingface.co/Qwen/Qwen3-8B): model card "Number of Parameters: 8.2B", "(Non-Embedding): 6.95B";
//  - Qwen3-30B-A3B (huggingface.co/Qwen/Qwen3-30B-A3B): "30.5B in total and 3.3B activated";
//  - Qwen3-235B-A22B (huggingface.co/Qwen/Qwen3-235B-A22B): "235B in total and 22B activated".
// Qwen3: a norm over each head's query and key (head_dim weights each), head_dim 128, no biases,
// untied head; the MoE models' experts are moe_intermediate_size wide, 8 of 128 a token, no shared one.
#include "engine/cost.h"
#include "io/llm_writer.h"
#include "llm/llm_analysis.h"
#include "llm/llm_files.h"
#include "llm_fixtures.h"
#include "testutils.h"

#include <cmath>
#include <sstream>

using namespace rfx;
using namespace rfx::test;

namespace {

LlmModel builtin(const char* id) { return test::builtinModel(id); }

/// Within the card's printed precision: "3.3B" is 3.25-3.35 B.
bool withinPrinted(double count, double printed, double lastDigit)
{
    return std::abs(count - printed) <= lastDigit / 2 + 1e-9 * printed;
}

double sumOf(const Network& n, std::string_view part, double (*what)(const Layer&))
{
    double s = 0;
    for (const Layer& l : n.layers)
        if (l.name.find(part) != std::string::npos)
            s += what(l);
    return s;
}

// Qwen3-30B-A3B's config.json as the Hub has it (the keys the reader uses; the rest of the file is ignored).
constexpr const char* kQwen3MoeConfig = R"({"architectures": ["Qwen3MoeForCausalLM"], "model_type": "qwen3_moe",
  "hidden_size": 2048, "intermediate_size": 6144, "moe_intermediate_size": 768, "num_hidden_layers": 48,
  "num_attention_heads": 32, "num_key_value_heads": 4, "head_dim": 128, "num_experts": 128, "num_experts_per_tok": 8,
  "decoder_sparse_step": 1, "mlp_only_layers": [], "norm_topk_prob": true, "vocab_size": 151936,
  "max_position_embeddings": 40960, "tie_word_embeddings": false, "attention_bias": false, "use_sliding_window": false,
  "sliding_window": null, "rms_norm_eps": 1e-06, "rope_theta": 1000000.0, "torch_dtype": "bfloat16"})";

// DeepSeek-V3's config.json as the Hub has it (huggingface.co/deepseek-ai/DeepSeek-V3; the keys the reader
// uses, and some it ignores).
constexpr const char* kDeepSeekV3Config = R"({"architectures": ["DeepseekV3ForCausalLM"], "model_type": "deepseek_v3",
  "hidden_size": 7168, "intermediate_size": 18432, "moe_intermediate_size": 2048, "num_hidden_layers": 61,
  "num_nextn_predict_layers": 1, "num_attention_heads": 128, "num_key_value_heads": 128, "n_shared_experts": 1,
  "n_routed_experts": 256, "routed_scaling_factor": 2.5, "kv_lora_rank": 512, "q_lora_rank": 1536, "qk_rope_head_dim": 64,
  "v_head_dim": 128, "qk_nope_head_dim": 128, "topk_method": "noaux_tc", "n_group": 8, "topk_group": 4,
  "num_experts_per_tok": 8, "moe_layer_freq": 1, "first_k_dense_replace": 3, "norm_topk_prob": true,
  "scoring_func": "sigmoid", "vocab_size": 129280, "max_position_embeddings": 163840, "tie_word_embeddings": false,
  "attention_bias": false, "rms_norm_eps": 1e-06, "rope_theta": 10000, "torch_dtype": "bfloat16"})";

} // namespace

class TestLlmToday : public QObject {
    Q_OBJECT
private slots:
    // Qwen3-8B: h 4096, 36 layers, 32 heads and 8 KV heads of 128, MLP 12,288, vocabulary 151,936.
    void qwen3DenseCount()
    {
        const std::int64_t embedding = 151936LL * 4096; // 622,329,856, and the head the same (untied)
        const std::int64_t attention = 4096LL * 4096 + 2 * 4096LL * 1024 + 4096LL * 4096; // q, k, v, o: 41,943,040
        const std::int64_t mlp = 3 * 4096LL * 12288; // 150,994,944
        const std::int64_t norms = 2 * 4096 + 2 * 128; // attention and MLP norms, q_norm and k_norm
        const std::int64_t block = attention + mlp + norms; // 192,946,432
        const std::int64_t total = 2 * embedding + 36 * block + 4096; // 8,190,735,360
        QCOMPARE(total, std::int64_t(8'190'735'360));
        const LlmArch& a = *findLanguageModel("qwen3-8b");
        QCOMPARE(llmParameterCount(a), total);
        QCOMPARE(llmActiveParameterCount(a), total);
        QVERIFY(withinPrinted(double(total), 8.2e9, 0.1e9));
        QVERIFY(withinPrinted(double(total - 2 * embedding), 6.95e9, 0.01e9)); // the card's non-embedding count
        QVERIFY(std::abs(double(total) / 8.2e9 - 1) < 0.005);
    }

    // Qwen3-30B-A3B: h 2048, 48 layers, 32 heads and 4 KV heads of 128, 128 experts of 768, 8 a token.
    void qwen3MoeCounts_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<qint64>("total");
        QTest::addColumn<qint64>("active");
        QTest::addColumn<double>("cardTotal");
        QTest::addColumn<double>("cardTotalDigit");
        QTest::addColumn<double>("cardActive");
        QTest::addColumn<double>("cardActiveDigit");
        { // q 2048 x 4096, k and v 2048 x 512, o 4096 x 2048: 18,874,368; an expert 3 x 2048 x 768 = 4,718,592;
          // the router 2048 x 128 = 262,144; norms 2 x 2048 + 2 x 128; embedding and head 2 x 311,164,928
            const qint64 shared = 18'874'368 + 262'144 + 4096 + 256;
            const qint64 total = 2 * 311'164'928LL + 48 * (shared + 128 * 4'718'592LL) + 2048;
            const qint64 active = 2 * 311'164'928LL + 48 * (shared + 8 * 4'718'592LL) + 2048;
            QTest::newRow("qwen3-30b-a3b") << "qwen3-30b-a3b" << total << active << 30.5e9 << 0.1e9 << 3.3e9 << 0.11e9;
        }
        { // q 4096 x 8192, k and v 4096 x 512, o 8192 x 4096: 71,303,168; an expert 3 x 4096 x 1536 = 18,874,368;
          // the router 4096 x 128 = 524,288; norms 2 x 4096 + 2 x 128; embedding and head 2 x 622,329,856
            const qint64 shared = 71'303'168 + 524'288 + 8192 + 256;
            const qint64 total = 2 * 622'329'856LL + 94 * (shared + 128 * 18'874'368LL) + 4096;
            const qint64 active = 2 * 622'329'856LL + 94 * (shared + 8 * 18'874'368LL) + 4096;
            QTest::newRow("qwen3-235b-a22b") << "qwen3-235b-a22b" << total << active << 235e9 << 1e9 << 22e9 << 1e9;
        }
    }
    void qwen3MoeCounts()
    {
        QFETCH(QString, id);
        QFETCH(qint64, total);
        QFETCH(qint64, active);
        QFETCH(double, cardTotal);
        QFETCH(double, cardTotalDigit);
        QFETCH(double, cardActive);
        QFETCH(double, cardActiveDigit);
        const LlmArch& a = *findLanguageModel(id.toStdString());
        QCOMPARE(llmParameterCount(a), total);
        QCOMPARE(llmActiveParameterCount(a), active);
        // Totals within 0.5 % of the card; the active counts within what the card prints: "22B" for
        // 22,190,763,520, and "3.3B" for 3,353,032,704, which rounds to 3.4 B: the card cut it to two
        // figures, 1.6 % under (hence 0.11 B: the count is the config's, worked above, not the card's).
        QVERIFY(std::abs(double(total) / cardTotal - 1) < 0.005);
        QVERIFY(withinPrinted(double(total), cardTotal, cardTotalDigit));
        QVERIFY2(withinPrinted(double(active), cardActive, cardActiveDigit), qPrintable(QString::number(active)));
    }

    // The rows: q_norm and k_norm in every block (128 weights each); a decode step at batch 1 reads the
    // weights of the 8 experts its token routes to, at batch 8 those of 128 (1 - (120/128)^8) = 51.62.
    void qwen3Rows()
    {
        const LlmPhaseBuild dense = buildLlmPhase(builtin("qwen3-8b"), LlmSettings {}, LlmPhase::Decode, 1024);
        QVERIFY2(dense.network, dense.error.c_str());
        QCOMPARE(sumOf(*dense.network, ".q_norm", [](const Layer& l) { return double(l.storedParams); }), 36.0 * 128);
        QCOMPARE(sumOf(*dense.network, ".k_norm", [](const Layer& l) { return double(l.storedParams); }), 36.0 * 128);

        LlmSettings s; // weights at 16 bits: an expert's three matrices are 2 x 4,718,592 bytes
        const double expertBytes = 2.0 * 4'718'592;
        const LlmPhaseBuild decode = buildLlmPhase(builtin("qwen3-30b-a3b"), s, LlmPhase::Decode, 1024);
        QVERIFY2(decode.network, decode.error.c_str());
        const double read
            = sumOf(*decode.network, ".experts.", [](const Layer& l) { return l.weightBytes * l.repeats; });
        QCOMPARE(read, 48 * 8 * expertBytes);
        s.batch = 8; // 128 (1 - (1 - 8/128)^8) = 51.62 experts a layer
        const LlmPhaseBuild batch8 = buildLlmPhase(builtin("qwen3-30b-a3b"), s, LlmPhase::Decode, 1024);
        const double read8
            = sumOf(*batch8.network, ".experts.", [](const Layer& l) { return l.weightBytes * l.repeats; });
        QVERIFY(std::abs(read8 / (48 * expertBytes) - 128 * (1 - std::pow(120.0 / 128, 8))) < 1e-9 * read8);
        QVERIFY(std::abs(128 * (1 - std::pow(120.0 / 128, 8)) - 51.62) < 0.005);
    }

    // llm's table says the active count beside the total, for a mixture only.
    void activeParametersAreSaid()
    {
        const LlmOutcome moe = analyzeLlm(builtin("qwen3-30b-a3b"), LlmSettings {}, { shippedDevice("h100-sxm") });
        QVERIFY2(moe.analysis, moe.error.c_str());
        QCOMPARE(moe.analysis->parameters, std::int64_t(30'532'122'624));
        QCOMPARE(moe.analysis->activeParameters, std::int64_t(3'353'032'704));
        // its KV cache: keys and values, 48 layers x 4 KV heads x 128 at 2 bytes = 98,304 bytes a token
        QCOMPARE(moe.analysis->figures.front().kvBytesPerToken, 2.0 * 48 * 4 * 128 * 2);
        const std::string table = llmToTable(*moe.analysis);
        QVERIFY2(table.find("30,532,122,624 parameters, 3,353,032,704 active a token (8 of 128 experts)")
                != std::string::npos,
            table.c_str());
        const LlmOutcome dense = analyzeLlm(builtin("qwen3-8b"), LlmSettings {}, { shippedDevice("h100-sxm") });
        QVERIFY(dense.analysis);
        QVERIFY(llmToTable(*dense.analysis).find("active") == std::string::npos);
    }

    // DeepSeek-V3 (arXiv:2412.19437; the config above): h 7,168, 61 layers, 128 heads; latent attention
    // (queries through 1,536, keys and values through 512, 128 + 64 query/key features a head, values
    // of 128); the first 3 layers a dense MLP of 18,432, the other 58 256 routed experts of 2,048, top 8,
    // and 1 shared; vocabulary 129,280, untied. Its card: "671B total parameters with 37B activated".
    void deepSeekV3Counts()
    {
        using I = std::int64_t;
        const I h = 7168, H = 128;
        const I attention = h * 1536 + 1536 + 1536 * H * 192 // q_a_proj, q_a_norm, q_b_proj: 48,760,320
            + h * (512 + 64) + 512 + 512 * H * (128 + 128) // kv_a_proj, kv_a_norm, kv_b_proj: 20,906,496
            + H * 128 * h; // o_proj: 117,440,512
        QCOMPARE(attention, I(187'107'328));
        const I norms = 2 * h;
        const I dense = 3 * h * 18432; // 396,361,728
        const I expert = 3 * h * 2048; // 44,040,192
        const I router = h * 256 + 256; // and its bias per expert
        const I embedding = 129280 * h; // 926,679,040, and the head the same
        const I total = 2 * embedding + h + 61 * (attention + norms) + 3 * dense + 58 * ((256 + 1) * expert + router);
        QCOMPARE(total, I(671'026'419'200));
        const I active = 2 * embedding + h + 61 * (attention + norms) + 3 * dense + 58 * ((8 + 1) * expert + router);
        QCOMPARE(active, I(37'552'297'472));
        const LlmArch& a = *findLanguageModel("deepseek-v3");
        QCOMPARE(llmParameterCount(a), total);
        QCOMPARE(llmActiveParameterCount(a), active);
        QVERIFY(withinPrinted(double(total), 671e9, 1e9));
        QVERIFY(std::abs(double(active) / 37e9 - 1) < 0.02); // "37B": 37.55 B
        // the config.json the Hub has reads to the same model
        const LlmLoad l = parseHfConfig(kDeepSeekV3Config, "DeepSeek-V3/config.json");
        QVERIFY2(l.model, l.error.c_str());
        QCOMPARE(llmParameterCount(l.model->arch), total);
        QCOMPARE(llmActiveParameterCount(l.model->arch), active);
        QCOMPARE(l.model->arch.kvHeads, 1);
        QCOMPARE(l.model->arch.headDim, 192);
    }

    // The cache of a latent: 512 + 64 elements a token a layer, 576 x 61 x 2 bytes = 70,272 bytes a token
    // at fp16 (DeepSeek-V2 paper, Table 1: (d_c + d_h^R) l), where 128 heads' keys of 192 and values of
    // 128 would take 128 x 320 x 61 x 2 = 4,997,120. A decode step at context 576, batch 1, in the
    // absorbed form: per layer and head 576 keys of 2 x 576 (scores over latent and rotary key) + 2 x 512
    // (the latent's weighted sum) + 5 (softmax) FLOPs; the routed experts 2 x 7,168 x 2,048 a matrix for
    // each of 8 experts, the shared one once; the first 3 layers dense.
    void deepSeekV3Rows()
    {
        const LlmOutcome o = analyzeLlm(builtin("deepseek-v3"), LlmSettings {}, { shippedDevice("h200-sxm") });
        QVERIFY2(o.analysis, o.error.c_str());
        QCOMPARE(o.analysis->figures[0].kvBytesPerToken, 70272.0);
        const LlmPhaseBuild d = buildLlmPhase(builtin("deepseek-v3"), LlmSettings {}, LlmPhase::Decode, 576);
        const LlmPhaseBuild p = buildLlmPhase(builtin("deepseek-v3"), LlmSettings {}, LlmPhase::Prefill, 576);
        QVERIFY2(d.network && p.network, d.error.c_str());
        const Network& decode = *d.network;
        const auto rowFlops = [](const Layer& l) { return layerCost(l, 2, true).flopsForward; };
        auto flops = [&](const char* name) { return sumOf(decode, name, rowFlops); };
        QCOMPARE(flops("blk3-60.attention"), 58 * 128 * 576.0 * (2 * 576 + 2 * 512 + 5));
        QCOMPARE(flops("blk3-60.experts.gate_proj"), 58 * 8 * 2.0 * 7168 * 2048);
        QCOMPARE(flops("blk3-60.shared_experts.gate_proj"), 58 * 2.0 * 7168 * 2048);
        QCOMPARE(flops("blk0-2.gate_proj"), 3 * 2.0 * 7168 * 18432);
        QCOMPARE(flops("blk3-60.q_absorb"), 58 * 128 * 2.0 * 128 * 512); // W_UK: each head's 128 -> 512
        QCOMPARE(sumOf(decode, "kv_b_proj", rowFlops), 0.0); // not decompressed in a decode step
        // the prefill decompresses every prompt token's keys and values instead
        QVERIFY(sumOf(*p.network, "blk3-60.kv_b_proj", rowFlops) > 0);
        QCOMPARE(sumOf(*p.network, "q_absorb", rowFlops), 0.0);
    }

    // The Hub's config.json of Qwen3-30B-A3B reads as the built-in; a dense layer among the experts is
    // refused by its key rather than counted as experts.
    void qwen3MoeConfigJson()
    {
        const LlmLoad l = parseHfConfig(kQwen3MoeConfig, "Qwen3-30B-A3B/config.json");
        QVERIFY2(l.model, l.error.c_str());
        const LlmArch& a = l.model->arch;
        QCOMPARE(a.family, std::string("qwen3_moe"));
        QVERIFY(a.qkNorm);
        QCOMPARE(a.expertFfn, 768);
        QCOMPARE(llmParameterCount(a), llmParameterCount(*findLanguageModel("qwen3-30b-a3b")));
        QCOMPARE(llmActiveParameterCount(a), std::int64_t(3'353'032'704));
        std::string dense = kQwen3MoeConfig;
        dense.replace(dense.find("\"mlp_only_layers\": []"), 21, "\"mlp_only_layers\": [0]");
        const LlmLoad refused = parseHfConfig(dense, "x/config.json");
        QVERIFY(!refused.model);
        QVERIFY2(refused.error.find("x/config.json: mlp_only_layers: [0] names dense layers among the experts, which "
                                    "the tool does not model yet")
                != std::string::npos,
            refused.error.c_str());
    }

    // A GGUF as llama.cpp writes a Qwen3-MoE (architecture "qwen3moe"): 2 blocks, h 64, 4 heads and 2 KV
    // heads of 32, 8 experts of 48, 2 a token, vocabulary 100, F16 but F32 norms. Parameters by hand:
    // q 64 x 128 + k, v 64 x 64 + o 128 x 64 = 24,576; experts 8 x 3 x 64 x 48 = 73,728; router 512;
    // norms 128 + q_norm, k_norm 64: 98,880 a block; embedding and head 2 x 6,400; output norm 64.
    void qwen3MoeGguf()
    {
        GgufWriter kv;
        kv.kvStr("general.architecture", "qwen3moe");
        kv.kvU32("qwen3moe.block_count", 2);
        kv.kvU32("qwen3moe.embedding_length", 64);
        kv.kvU32("qwen3moe.feed_forward_length", 192);
        kv.kvU32("qwen3moe.attention.head_count", 4);
        kv.kvU32("qwen3moe.attention.head_count_kv", 2);
        kv.kvU32("qwen3moe.attention.key_length", 32);
        kv.kvU32("qwen3moe.context_length", 4096);
        kv.kvU32("qwen3moe.expert_count", 8);
        kv.kvU32("qwen3moe.expert_used_count", 2);
        kv.kvU32("qwen3moe.expert_feed_forward_length", 48);
        std::vector<GgufWriter::Tensor> t { { "token_embd.weight", { 64, 100 }, 1, 6400 * 2 },
            { "output.weight", { 64, 100 }, 1, 6400 * 2 }, { "output_norm.weight", { 64 }, 0, 64 * 4 } };
        for (int b = 0; b < 2; ++b) {
            const std::string p = "blk." + std::to_string(b) + ".";
            for (auto [name, dims] : std::vector<std::pair<const char*, std::vector<std::uint64_t>>> {
                     { "attn_q.weight", { 64, 128 } }, { "attn_k.weight", { 64, 64 } }, { "attn_v.weight", { 64, 64 } },
                     { "attn_output.weight", { 128, 64 } }, { "ffn_gate_inp.weight", { 64, 8 } },
                     { "ffn_gate_exps.weight", { 64, 48, 8 } }, { "ffn_up_exps.weight", { 64, 48, 8 } },
                     { "ffn_down_exps.weight", { 48, 64, 8 } } }) {
                std::uint64_t n = 1;
                for (auto d : dims)
                    n *= d;
                t.push_back({ p + name, dims, 1, n * 2 });
            }
            for (const char* norm : { "attn_norm.weight", "ffn_norm.weight" })
                t.push_back({ p + norm, { 64 }, 0, 64 * 4 });
            for (const char* norm : { "attn_q_norm.weight", "attn_k_norm.weight" })
                t.push_back({ p + norm, { 32 }, 0, 32 * 4 });
        }
        std::istringstream in(GgufWriter::file(3, 11, kv.bytes(), t));
        const LlmLoad l = readGgufModel(in, in.str().size(), "tiny-qwen3moe.gguf");
        QVERIFY2(l.model, l.error.c_str());
        const LlmArch& a = l.model->arch;
        QCOMPARE(a.family, std::string("qwen3_moe"));
        QVERIFY(a.qkNorm);
        QCOMPARE(a.expertWidth(), 48);
        const std::int64_t block = 24'576 + 73'728 + 512 + 128 + 64;
        QCOMPARE(llmParameterCount(a), 2 * 6400 + 2 * block + 64);
        QCOMPARE(l.model->storage->totalParams, 2 * 6400 + 2 * block + 64);
        // active: 2 of the 8 experts, 3 x 64 x 48 each
        QCOMPARE(llmActiveParameterCount(a), 2 * 6400 + 2 * (block - 6 * 9216) + 64);
    }

    // A GGUF as llama.cpp writes a DeepSeek-V3 (architecture "deepseek2", a router bias exp_probs_b): 2
    // blocks, the first dense (MLP 96), the second 4 experts of 24, top 2, 1 shared; h 64, 4 heads,
    // queries through 32, keys and values through 16, key 16 + 8 rotary, value 16; vocabulary 100; F16,
    // norms and the bias F32. Parameters by hand: attention q_a 2,048 + its norm 32 + q_b 32 x 4 x 24 =
    // 3,072 + kv_a 64 x 24 = 1,536 + its norm 16 + kv_b 16 x 4 x 32 = 2,048 + o 64 x 64 = 4,096: 12,848;
    // norms 128 a block; dense MLP 3 x 64 x 96 = 18,432; experts 4 x 4,608 + shared 4,608 + router 256 + 4:
    // 23,300; embedding and head 12,800, output norm 64: 80,548 (active: 2 experts, 71,332).
    void deepSeekGguf()
    {
        GgufWriter kv;
        kv.kvStr("general.architecture", "deepseek2");
        for (auto [key, value] :
            std::vector<std::pair<const char*, std::uint32_t>> { { "block_count", 2 }, { "embedding_length", 64 },
                { "feed_forward_length", 96 }, { "attention.head_count", 4 }, { "attention.head_count_kv", 4 },
                { "attention.key_length", 24 }, { "attention.value_length", 16 }, { "attention.q_lora_rank", 32 },
                { "attention.kv_lora_rank", 16 }, { "rope.dimension_count", 8 }, { "context_length", 4096 },
                { "expert_count", 4 }, { "expert_used_count", 2 }, { "expert_shared_count", 1 },
                { "expert_feed_forward_length", 24 }, { "leading_dense_block_count", 1 } })
            kv.kvU32(std::string("deepseek2.") + key, value);
        std::vector<GgufWriter::Tensor> t { { "token_embd.weight", { 64, 100 }, 1, 6400 * 2 },
            { "output.weight", { 64, 100 }, 1, 6400 * 2 }, { "output_norm.weight", { 64 }, 0, 64 * 4 } };
        auto add = [&](const std::string& name, std::vector<std::uint64_t> dims, bool f32) {
            std::uint64_t n = 1;
            for (auto d : dims)
                n *= d;
            t.push_back({ name, dims, f32 ? 0u : 1u, n * (f32 ? 4 : 2) });
        };
        for (int b = 0; b < 2; ++b) {
            const std::string p = "blk." + std::to_string(b) + ".";
            add(p + "attn_q_a.weight", { 64, 32 }, false);
            add(p + "attn_q_a_norm.weight", { 32 }, true);
            add(p + "attn_q_b.weight", { 32, 96 }, false);
            add(p + "attn_kv_a_mqa.weight", { 64, 24 }, false);
            add(p + "attn_kv_a_norm.weight", { 16 }, true);
            add(p + "attn_kv_b.weight", { 16, 128 }, false);
            add(p + "attn_output.weight", { 64, 64 }, false);
            add(p + "attn_norm.weight", { 64 }, true);
            add(p + "ffn_norm.weight", { 64 }, true);
            if (b == 0) {
                for (const char* m : { "ffn_gate.weight", "ffn_up.weight" })
                    add(p + m, { 64, 96 }, false);
                add(p + "ffn_down.weight", { 96, 64 }, false);
                continue;
            }
            add(p + "ffn_gate_inp.weight", { 64, 4 }, false);
            add(p + "exp_probs_b.bias", { 4 }, true);
            for (const char* m : { "ffn_gate_exps.weight", "ffn_up_exps.weight" })
                add(p + m, { 64, 24, 4 }, false);
            add(p + "ffn_down_exps.weight", { 24, 64, 4 }, false);
            for (const char* m : { "ffn_gate_shexp.weight", "ffn_up_shexp.weight" })
                add(p + m, { 64, 24 }, false);
            add(p + "ffn_down_shexp.weight", { 24, 64 }, false);
        }
        std::istringstream in(GgufWriter::file(3, 17, kv.bytes(), t));
        const LlmLoad l = readGgufModel(in, in.str().size(), "tiny-deepseek.gguf");
        QVERIFY2(l.model, l.error.c_str());
        const LlmArch& a = l.model->arch;
        QCOMPARE(a.family, std::string("deepseek_v3"));
        QVERIFY(a.latent() && a.routerBias);
        QCOMPARE(a.qkNope, 16);
        QCOMPARE(a.kvHeads, 1);
        QCOMPARE(llmParameterCount(a), std::int64_t(80'548));
        QCOMPARE(l.model->storage->totalParams, std::int64_t(80'548));
        QCOMPARE(llmActiveParameterCount(a), std::int64_t(71'332));
        // Read as stored (F16 and F32), a pass holds every tensor of the file once.
        LlmSettings s;
        s.weightBits = 0;
        const LlmPhaseBuild decode = buildLlmPhase(*l.model, s, LlmPhase::Decode, 64);
        QVERIFY2(decode.network, decode.error.c_str());
        QCOMPARE(decode.weightBytes, l.model->storage->totalBytes);
    }
};

QTEST_MAIN(TestLlmToday)
#include "tst_llm_today.moc"
