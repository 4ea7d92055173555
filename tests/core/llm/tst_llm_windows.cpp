// Language models whose layers attend locally and globally (issue 75): Gemma 3's five sliding-window
// layers to one global, against the Gemma 3 Technical Report (arXiv:2503.19786), Table 1 "Parameter
// counts for the Gemma 3 models": vision encoder / embedding / non-embedding parameters
//   1B: 0 / 302M / 698M;  4B: 417M / 675M / 3,209M;  12B: 417M / 1,012M / 10,759M;  27B: 417M / 1,416M / 25,600M.
// The tool counts the text decoder (the vision encoder is the multimodal models' own); the report's
// embedding figure holds the projector from the vision encoder's 1,152 features as well (27B: 262,208 x
// 5,376 + 1,152 x 5,376 = 1,415,823,360, its 1,416M), so the text decoder's total is held within 0.5 % of
// embedding + non-embedding, and the non-embedding count to the report's million.
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

// google/gemma-3-4b-pt's config.json as the Hub has it: the text decoder's keys in text_config, only
// those that differ from transformers' Gemma3TextConfig defaults (heads 8, KV heads 4, head_dim 256,
// vocabulary 262,208), the vision encoder's in vision_config.
constexpr const char* kGemma3_4bConfig = R"({"architectures": ["Gemma3ForConditionalGeneration"], "boi_token_index": 255999,
  "eoi_token_index": 256000, "eos_token_id": [1, 106], "image_token_index": 262144, "initializer_range": 0.02,
  "mm_tokens_per_image": 256, "model_type": "gemma3",
  "text_config": {"hidden_size": 2560, "intermediate_size": 10240, "model_type": "gemma3_text", "num_hidden_layers": 34,
    "rope_scaling": {"factor": 8.0, "rope_type": "linear"}, "sliding_window": 1024},
  "torch_dtype": "bfloat16", "transformers_version": "4.50.0.dev0",
  "vision_config": {"hidden_size": 1152, "image_size": 896, "intermediate_size": 4304, "model_type": "siglip_vision_model",
    "num_attention_heads": 16, "num_hidden_layers": 27, "patch_size": 14, "vision_use_head": false}})";

// google/gemma-3-1b-pt's: the text decoder alone.
constexpr const char* kGemma3_1bConfig = R"({"architectures": ["Gemma3ForCausalLM"], "model_type": "gemma3_text",
  "attention_bias": false, "head_dim": 256, "hidden_activation": "gelu_pytorch_tanh", "hidden_size": 1152,
  "intermediate_size": 6912, "max_position_embeddings": 32768, "num_attention_heads": 4, "num_hidden_layers": 26,
  "num_key_value_heads": 1, "query_pre_attn_scalar": 256, "rms_norm_eps": 1e-06, "rope_local_base_freq": 10000,
  "rope_theta": 1000000, "sliding_window": 512, "sliding_window_pattern": 6, "vocab_size": 262144})";

bool withinPrinted(double count, double printed, double lastDigit) { return std::abs(count - printed) <= lastDigit / 2; }

} // namespace

class TestLlmWindows : public QObject {
    Q_OBJECT
private slots:
    void gemma3Counts_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<double>("embedding");
        QTest::addColumn<double>("nonEmbedding");
        QTest::newRow("1B") << "gemma-3-1b" << 302e6 << 698e6;
        QTest::newRow("4B") << "gemma-3-4b" << 675e6 << 3209e6;
        QTest::newRow("12B") << "gemma-3-12b" << 1012e6 << 10759e6;
        QTest::newRow("27B") << "gemma-3-27b" << 1416e6 << 25600e6;
    }
    void gemma3Counts()
    {
        QFETCH(QString, id);
        QFETCH(double, embedding);
        QFETCH(double, nonEmbedding);
        const LlmArch* a = findLanguageModel(id.toStdString());
        QVERIFY(a);
        const double total = double(llmParameterCount(*a)), table = double(a->vocab) * a->hidden;
        QVERIFY2(withinPrinted(total - table, nonEmbedding, 1e6), qPrintable(QString::number(total - table, 'f', 0)));
        QVERIFY2(std::abs(total / (embedding + nonEmbedding) - 1) < 0.005, qPrintable(QString::number(total, 'f', 0)));
        QCOMPARE(llmActiveParameterCount(*a), llmParameterCount(*a)); // dense
    }

    // The 27B by hand: h 5,376, 62 layers, 32 heads and 16 KV heads of 128, MLP 21,504, vocabulary 262,208,
    // the head tied. A block: q 5,376 x 4,096 + k, v 5,376 x 2,048 each + o 4,096 x 5,376 = 66,060,288;
    // GeGLU 3 x 5,376 x 21,504 = 346,816,512; four norms 21,504; q_norm and k_norm 128 each: 412,898,560.
    // 62 blocks 25,599,710,720 (the report's 25,600M), the embedding 1,409,630,208, the final norm 5,376.
    void gemma3_27bByHand()
    {
        QCOMPARE(llmParameterCount(*findLanguageModel("gemma-3-27b")), std::int64_t(27'009'346'304));
        QCOMPARE(llmParameterCount(*findLanguageModel("gemma-3-1b")), std::int64_t(999'885'952));
    }

    // Every sixth layer global (5, 11, ..., 59 of the 27B's 62: ten), the others a 1,024-token window;
    // Gemma-2 alternates from a local layer 0. The cache at 32,768 tokens, fp16, a layer's token
    // 2 x 16 x 128 x 2 = 8,192 B: 10 x 32,768 x 8,192 + 52 x 1,024 x 8,192 = 3,120,562,176 B, where
    // global attention everywhere would take 62 x 32,768 x 8,192 = 16,642,998,272.
    // A decode step at context 32,832 attends, per head and key, 2 x 128 (scores) + 2 x 128 (values) +
    // 5 (softmax) FLOPs: local 52 x 32 x 1,024 x 517, global 10 x 32 x 32,832 x 517.
    void gemma3SlidesFiveInSix()
    {
        const LlmArch& a = *findLanguageModel("gemma-3-27b");
        int global = 0;
        for (int l = 0; l < a.layers; ++l)
            if (!a.slides(l)) {
                QCOMPARE((l + 1) % 6, 0);
                ++global;
            }
        QCOMPARE(global, 10);
        const LlmArch& g2 = *findLanguageModel("gemma-2-9b");
        QVERIFY(g2.slides(0) && !g2.slides(1) && g2.slides(40) && !g2.slides(41));
        QVERIFY(findLanguageModel("mistral-7b")->slides(31));
        QCOMPARE(kvCacheBytes(a, 32768, 16), 3'120'562'176.0);
        LlmModel m;
        m.arch = a;
        const LlmPhaseBuild d = buildLlmPhase(m, LlmSettings {}, LlmPhase::Decode, 32832);
        QVERIFY2(d.network, d.error.c_str());
        double local = 0, global_ = 0;
        for (const Layer& l : d.network->layers) {
            if (!l.name.ends_with(".attention"))
                continue;
            const double f = layerCost(l, 2, true).flopsForward;
            (l.name == "blk5-59/6.attention" ? global_ : local) += f;
            if (l.name != "blk5-59/6.attention")
                QCOMPARE(QString::fromStdString(l.name), QString("blk0-61 less 5-59/6.attention"));
        }
        QCOMPARE(local, 52 * 32 * 1024 * 517.0);
        QCOMPARE(global_, 10 * 32 * 32832 * 517.0);
    }

    // The Hub's config.json files read as the built-ins: the 4B's multimodal one (text_config over
    // transformers' defaults) and the 1B's own; newer transformers list layer_types instead of the
    // pattern, which must repeat; a file without text_config is told so.
    void gemma3ConfigJson()
    {
        const LlmLoad four = parseHfConfig(kGemma3_4bConfig, "gemma-3-4b-pt/config.json");
        QVERIFY2(four.model, four.error.c_str());
        QCOMPARE(four.model->arch.family, std::string("gemma3"));
        QCOMPARE(llmParameterCount(four.model->arch), llmParameterCount(*findLanguageModel("gemma-3-4b")));
        QCOMPARE(four.model->arch.slidingWindow, 1024);
        QCOMPARE(four.model->arch.slidingPeriod, 6);
        QCOMPARE(four.model->arch.maxContext, 131072);
        const LlmLoad one = parseHfConfig(kGemma3_1bConfig, "gemma-3-1b-pt/config.json");
        QVERIFY2(one.model, one.error.c_str());
        QCOMPARE(llmParameterCount(one.model->arch), llmParameterCount(*findLanguageModel("gemma-3-1b")));
        QCOMPARE(kvCacheBytes(one.model->arch, 4096, 16), kvCacheBytes(*findLanguageModel("gemma-3-1b"), 4096, 16));

        std::string types = "[";
        for (int l = 0; l < 26; ++l)
            types += std::string(l ? ", " : "") + ((l + 1) % 6 ? "\"sliding_attention\"" : "\"full_attention\"");
        std::string listed = kGemma3_1bConfig;
        listed.replace(listed.find("\"sliding_window_pattern\": 6"), 27, "\"layer_types\": " + types + "]");
        const LlmLoad byTypes = parseHfConfig(listed, "x/config.json");
        QVERIFY2(byTypes.model, byTypes.error.c_str());
        QCOMPARE(byTypes.model->arch.slidingPeriod, 6);
        std::string odd = listed;
        odd.replace(odd.find("\"sliding_attention\""), 19, "\"full_attention\"");
        const LlmLoad refused = parseHfConfig(odd, "x/config.json");
        QVERIFY(!refused.model);
        QVERIFY2(refused.error.find("x/config.json: layer_types: layer 1 is \"sliding_attention\", out of the pattern the first full "
                                    "layer sets (0 sliding layers, then a full one, repeating)") == 0,
            refused.error.c_str());
        QVERIFY2(refused.error.find("(Gemma 3's: 5 sliding, 1 full)") != std::string::npos, refused.error.c_str());
        std::string allFull = listed; // every layer global: no window anywhere
        for (size_t at; (at = allFull.find("\"sliding_attention\"")) != std::string::npos;)
            allFull.replace(at, 19, "\"full_attention\"");
        const LlmLoad global = parseHfConfig(allFull, "x/config.json");
        QVERIFY2(global.model, global.error.c_str());
        QCOMPARE(global.model->arch.slidingWindow, 0);
        std::string noText = kGemma3_4bConfig;
        noText.replace(noText.find("\"text_config\""), 13, "\"txt_config\"");
        const LlmLoad missing = parseHfConfig(noText, "y/config.json");
        QVERIFY(!missing.model);
        QVERIFY2(missing.error.find("y/config.json: text_config: missing") == 0, missing.error.c_str());
    }

    // A GGUF as llama.cpp writes a Gemma 3 (architecture "gemma3", the head tied, no pattern key: every
    // sixth layer global): 6 blocks, h 64, 4 heads and 2 KV heads of 16, MLP 96, vocabulary 100, window
    // 32; F16, norms F32. A block: q 64 x 64 + k, v 64 x 32 + o 64 x 64 = 12,288; GeGLU 3 x 64 x 96 = 18,432;
    // four norms 256; q_norm, k_norm 16 each: 31,008; six 186,048; the embedding 6,400 and output norm 64:
    // 192,512. The cache at 100 tokens, fp16: 5 local layers of 32 tokens and 1 of 100, a layer's token
    // 2 x 2 x 16 x 2 = 128 B: 260 x 128 = 33,280 B.
    void gemma3Gguf()
    {
        GgufWriter kv;
        kv.kvStr("general.architecture", "gemma3");
        kv.kvU32("gemma3.block_count", 6);
        kv.kvU32("gemma3.embedding_length", 64);
        kv.kvU32("gemma3.feed_forward_length", 96);
        kv.kvU32("gemma3.attention.head_count", 4);
        kv.kvU32("gemma3.attention.head_count_kv", 2);
        kv.kvU32("gemma3.attention.key_length", 16);
        kv.kvU32("gemma3.context_length", 8192);
        kv.kvU32("gemma3.attention.sliding_window", 32);
        std::vector<GgufWriter::Tensor> t { { "token_embd.weight", { 64, 100 }, 1, 6400 * 2 }, { "output_norm.weight", { 64 }, 0, 64 * 4 } };
        for (int b = 0; b < 6; ++b) {
            const std::string p = "blk." + std::to_string(b) + ".";
            for (auto [name, dims] : std::vector<std::pair<const char*, std::vector<std::uint64_t>>> { { "attn_q.weight", { 64, 64 } },
                     { "attn_k.weight", { 64, 32 } }, { "attn_v.weight", { 64, 32 } }, { "attn_output.weight", { 64, 64 } },
                     { "ffn_gate.weight", { 64, 96 } }, { "ffn_up.weight", { 64, 96 } }, { "ffn_down.weight", { 96, 64 } } })
                t.push_back({ p + name, dims, 1, dims[0] * dims[1] * 2 });
            for (const char* norm : { "attn_norm.weight", "post_attention_norm.weight", "ffn_norm.weight", "post_ffw_norm.weight" })
                t.push_back({ p + norm, { 64 }, 0, 64 * 4 });
            for (const char* norm : { "attn_q_norm.weight", "attn_k_norm.weight" })
                t.push_back({ p + norm, { 16 }, 0, 16 * 4 });
        }
        std::istringstream in(GgufWriter::file(3, 9, kv.bytes(), t));
        const LlmLoad l = readGgufModel(in, in.str().size(), "tiny-gemma3.gguf");
        QVERIFY2(l.model, l.error.c_str());
        const LlmArch& a = l.model->arch;
        QVERIFY(a.qkNorm && a.tiedEmbeddings);
        QCOMPARE(a.normsPerBlock, 4);
        QCOMPARE(llmParameterCount(a), std::int64_t(192'512));
        QCOMPARE(l.model->storage->totalParams, std::int64_t(192'512));
        QVERIFY(a.slides(4) && !a.slides(5));
        QCOMPARE(kvCacheBytes(a, 100, 16), 33'280.0);
    }

    // A multimodal checkpoint's names: the text decoder's under language_model.model. (transformers 4.50)
    // or model.language_model. (4.52 on) are the decoder's; the vision encoder's and projector's are not.
    void gemma3SafetensorsNames()
    {
        LlmStorage s;
        addStoredTensor(s, "language_model.model.layers.3.self_attn.q_proj.weight", 100, 50, "BF16", 34);
        addStoredTensor(s, "model.language_model.layers.4.mlp.down_proj.weight", 200, 100, "BF16", 34);
        addStoredTensor(s, "model.language_model.embed_tokens.weight", 300, 150, "BF16", 34);
        addStoredTensor(s, "vision_tower.vision_model.encoder.layers.0.mlp.fc1.weight", 400, 200, "BF16", 34);
        addStoredTensor(s, "multi_modal_projector.mm_input_projection_weight", 500, 250, "BF16", 34);
        QCOMPARE(s.blocks[3][size_t(int(LlmTensor::Q))].bytes, 100.0);
        QCOMPARE(s.blocks[4][size_t(int(LlmTensor::Down))].bytes, 200.0);
        QCOMPARE(s.embedding.bytes, 300.0);
        QCOMPARE(s.totalParams, std::int64_t(300));
        QCOMPARE(s.totalBytes, 600.0);
    }
};

QTEST_GUILESS_MAIN(TestLlmWindows)
#include "tst_llm_windows.moc"
