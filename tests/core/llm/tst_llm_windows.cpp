// Language models whose layers attend locally and globally (issue 75): Llama 4's three chunked layers to
// one global (below), Gemma 3's five sliding-window layers to one global, against the Gemma 3 Technical Report
// (arXiv:2503.19786), Table 1 "Parameter counts for the Gemma 3 models": vision encoder / embedding / non-embedding
// parameters
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
constexpr const char* kGemma3_4bConfig
    = R"({"architectures": ["Gemma3ForConditionalGeneration"], "boi_token_index": 255999,
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

bool withinPrinted(double count, double printed, double lastDigit)
{
    return std::abs(count - printed) <= lastDigit / 2;
}

// meta-llama/Llama-4-Maverick-17B-128E's config.json, text_config (the keys the reader uses; vision_config
// and the rest left out).
constexpr const char* kMaverickConfig = R"({"architectures": ["Llama4ForConditionalGeneration"], "model_type": "llama4",
  "text_config": {"attention_chunk_size": 8192, "head_dim": 128, "hidden_size": 5120, "intermediate_size": 8192,
    "intermediate_size_mlp": 16384, "interleave_moe_layer_step": 2, "max_position_embeddings": 1048576,
    "model_type": "llama4_text", "num_attention_heads": 40, "num_experts_per_tok": 1, "num_hidden_layers": 48,
    "num_key_value_heads": 8, "num_local_experts": 128, "rope_theta": 500000.0, "tie_word_embeddings": false,
    "use_qk_norm": false, "vocab_size": 202048}})";

} // namespace

class TestLlmWindows : public QObject {
    Q_OBJECT
private slots:
    // Llama 4's text decoders by hand: h 5,120, 48 layers, 40 heads and 8 KV heads of 128, vocabulary
    // 202,048, the head untied. Attention 2 x 5,120 x 5,120 + 2 x 5,120 x 1,024 = 62,914,560, two norms
    // 10,240; an expert (routed or shared) 3 x 5,120 x 8,192 = 125,829,120; a dense MLP 3 x 5,120 x 16,384 =
    // 251,658,240; the router E x 5,120. Scout, every layer 16 experts + 1 shared: 2,202,101,760 a layer,
    // 105,700,884,480, the embedding and head 2 x 1,034,485,760, the final norm: 107,769,861,120; active (one
    // routed and the shared expert) 17,172,894,720. Maverick, 24 dense layers of 314,583,040 and 24 of 128 + 1
    // experts of 16,295,536,640: 400,711,848,960; active 17,184,691,200. The card's 109B and 400B count the
    // vision encoder too (transformers' Llama4VisionModel from vision_config: patch embedding 588 x 1,408 =
    // 827,904, class embedding 1,408, positions 577 x 1,408 = 812,416, two layer norms 5,632, 34 layers of
    // 4 x (1,408^2 + 1,408) + 1,408 x 5,632 + 5,632 + 5,632 x 1,408 + 1,408 + 2 x 2,816 = 23,807,872, the
    // pixel-shuffle MLP 5,632 x 4,096 + 4,096^2 = 39,845,888, the projector 4,096 x 5,120 = 20,971,520:
    // 871,932,416): 108.64B and 401.58B, within 0.5 % of the card; 17.17B and 17.18B active, its "17B".
    void llama4Counts()
    {
        const LlmArch &scout = *findLanguageModel("llama-4-scout"), &maverick = *findLanguageModel("llama-4-maverick");
        QCOMPARE(llmParameterCount(scout), std::int64_t(107'769'861'120));
        QCOMPARE(llmActiveParameterCount(scout), std::int64_t(17'172'894'720));
        QCOMPARE(llmParameterCount(maverick), std::int64_t(400'711'848'960));
        QCOMPARE(llmActiveParameterCount(maverick), std::int64_t(17'184'691'200));
        const double vision = 827'904 + 1'408 + 812'416 + 5'632 + 34 * 23'807'872.0 + 39'845'888 + 20'971'520;
        QCOMPARE(vision, 871'932'416.0);
        QVERIFY(std::abs((double(llmParameterCount(scout)) + vision) / 109e9 - 1) < 0.005);
        QVERIFY(std::abs((double(llmParameterCount(maverick)) + vision) / 400e9 - 1) < 0.005);
        QVERIFY(withinPrinted(double(llmActiveParameterCount(scout)), 17e9, 1e9));
        QVERIFY(withinPrinted(double(llmActiveParameterCount(maverick)), 17e9, 1e9));
        int moe = 0;
        for (int l = 0; l < maverick.layers; ++l)
            moe += maverick.moe(l) ? 1 : 0;
        QCOMPARE(moe, 24);
        QVERIFY(!maverick.moe(0) && maverick.moe(1) && scout.moe(0));
    }

    // Three layers in four attend within chunks of 8,192 tokens, the fourth (3, 7, ..., 47) to everything.
    // The cache at 32,768 tokens, fp16, a layer's token 2 x 8 x 128 x 2 = 4,096 B: 12 x 32,768 x 4,096 + 36 x
    // 8,192 x 4,096 = 2,818,572,288 B. A prefill of 10,000 tokens: a chunked layer scores 8,192 x 8,193 / 2 +
    // 1,808 x 1,809 / 2 = 35,193,864 pairs a head (a global one 50,005,000); a decode step at context 10,000
    // attends to the 1,808 tokens of its chunk: per head and key 2 x 128 + 2 x 128 + 5 FLOPs.
    void llama4ChunkedAttention()
    {
        const LlmArch& a = *findLanguageModel("llama-4-scout");
        QVERIFY(a.slides(0) && a.slides(2) && !a.slides(3) && !a.slides(47));
        QCOMPARE(kvCacheBytes(a, 32768, 16), 2'818'572'288.0);
        QCOMPARE(chunkedPairs(10000, 8192), 35'193'864.0);
        QCOMPARE(chunkedPairs(100, 8192), 5'050.0);
        LlmModel m;
        m.arch = a;
        const LlmPhaseBuild d = buildLlmPhase(m, LlmSettings {}, LlmPhase::Decode, 10000);
        QVERIFY2(d.network, d.error.c_str());
        double local = 0, global = 0;
        for (const Layer& l : d.network->layers)
            if (l.name.ends_with(".attention"))
                (l.name.find("blk3-47/4") != std::string::npos ? global : local) += layerCost(l, 2, true).flopsForward;
        QCOMPARE(local, 36 * 40 * 1808 * 517.0);
        QCOMPARE(global, 12 * 40 * 10000 * 517.0);
    }

    // The Hub's Maverick config.json reads as the built-in; no_rope_layers says which layers are global;
    // a moe_layers list off the interval is refused.
    void llama4ConfigJson()
    {
        const LlmLoad l = parseHfConfig(kMaverickConfig, "Llama-4-Maverick/config.json");
        QVERIFY2(l.model, l.error.c_str());
        const LlmArch& a = l.model->arch;
        QCOMPARE(a.family, std::string("llama4"));
        QCOMPARE(llmParameterCount(a), std::int64_t(400'711'848'960));
        QCOMPARE(llmActiveParameterCount(a), std::int64_t(17'184'691'200));
        QVERIFY(a.chunkedAttention);
        QCOMPARE(a.slidingWindow, 8192);
        QCOMPARE(a.slidingPeriod, 4);
        QCOMPARE(kvCacheBytes(a, 32768, 16), kvCacheBytes(*findLanguageModel("llama-4-maverick"), 32768, 16));
        std::string noRope = kMaverickConfig, flags = "[";
        for (int i = 0; i < 48; ++i)
            flags += std::string(i ? ", " : "") + ((i + 1) % 4 ? "1" : "0");
        noRope.replace(noRope.find("\"use_qk_norm\""), 13, "\"no_rope_layers\": " + flags + "], \"use_qk_norm\"");
        const LlmLoad listed = parseHfConfig(noRope, "x/config.json");
        QVERIFY2(listed.model, listed.error.c_str());
        QCOMPARE(listed.model->arch.slidingPeriod, 4);
        std::string odd = kMaverickConfig;
        odd.replace(odd.find("\"use_qk_norm\""), 13, "\"moe_layers\": [0, 2], \"use_qk_norm\"");
        const LlmLoad refused = parseHfConfig(odd, "y/config.json");
        QVERIFY(!refused.model);
        QVERIFY2(
            refused.error.find("y/config.json: moe_layers: [0,2] is not every interleave_moe_layer_step-th layer") == 0,
            refused.error.c_str());
    }

    // A GGUF as llama.cpp writes a Llama 4 (architecture "llama4", interleave_moe_layer_step 2): 4 blocks, h 64,
    // 4 heads and 2 KV heads of 16, dense MLP 96, 4 experts of 32 and a shared one, top 1, vocabulary 100,
    // F16. Attention 64 x 64 x 2 + 64 x 32 x 2 = 12,288, two norms 128; a dense block's MLP 3 x 64 x 96 = 18,432;
    // an expert block's 5 x 3 x 64 x 32 + 4 x 64 = 30,976: 2 x 30,848 + 2 x 43,392 + 12,800 + 64 = 161,344.
    void llama4Gguf()
    {
        GgufWriter kv;
        kv.kvStr("general.architecture", "llama4");
        for (auto [key, v] : { std::pair { "block_count", 4u }, { "embedding_length", 64u },
                 { "feed_forward_length", 96u }, { "attention.head_count", 4u }, { "attention.head_count_kv", 2u },
                 { "context_length", 8192u }, { "expert_count", 4u }, { "expert_used_count", 1u },
                 { "expert_feed_forward_length", 32u }, { "interleave_moe_layer_step", 2u } })
            kv.kvU32(std::string("llama4.") + key, v);
        std::vector<GgufWriter::Tensor> t { { "token_embd.weight", { 64, 100 }, 1, 12800 },
            { "output.weight", { 64, 100 }, 1, 12800 }, { "output_norm.weight", { 64 }, 0, 256 } };
        for (int b = 0; b < 4; ++b) {
            const std::string p = "blk." + std::to_string(b) + ".";
            std::vector<std::pair<std::string, std::vector<std::uint64_t>>> w { { "attn_q", { 64, 64 } },
                { "attn_k", { 64, 32 } }, { "attn_v", { 64, 32 } }, { "attn_output", { 64, 64 } } };
            if (b % 2 == 0)
                w.insert(w.end(), { { "ffn_gate", { 64, 96 } }, { "ffn_up", { 64, 96 } }, { "ffn_down", { 96, 64 } } });
            else
                w.insert(w.end(),
                    { { "ffn_gate_inp", { 64, 4 } }, { "ffn_gate_exps", { 64, 32, 4 } },
                        { "ffn_up_exps", { 64, 32, 4 } }, { "ffn_down_exps", { 32, 64, 4 } },
                        { "ffn_gate_shexp", { 64, 32 } }, { "ffn_up_shexp", { 64, 32 } },
                        { "ffn_down_shexp", { 32, 64 } } });
            for (const auto& [name, dims] : w) {
                std::uint64_t n = 1;
                for (auto d : dims)
                    n *= d;
                t.push_back({ p + name + ".weight", dims, 1, n * 2 });
            }
            for (const char* norm : { "attn_norm.weight", "ffn_norm.weight" })
                t.push_back({ p + norm, { 64 }, 0, 256 });
        }
        std::istringstream in(GgufWriter::file(3, 11, kv.bytes(), t));
        const LlmLoad l = readGgufModel(in, in.str().size(), "tiny-llama4.gguf");
        QVERIFY2(l.model, l.error.c_str());
        const LlmArch& a = l.model->arch;
        QCOMPARE(a.family, std::string("llama4"));
        QCOMPARE(a.sharedExperts, 1);
        QVERIFY(a.chunkedAttention && !a.moe(0) && a.moe(1) && !a.slides(3));
        QCOMPARE(llmParameterCount(a), std::int64_t(161'344));
        QCOMPARE(l.model->storage->totalParams, std::int64_t(161'344));
    }

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
        QVERIFY2(refused.error.find(
                     "x/config.json: layer_types: layer 1 is \"sliding_attention\", out of the pattern the first full "
                     "layer sets (0 sliding layers, then a full one, repeating)")
                == 0,
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
        const LlmLoad text = parseHfConfig(R"({"model_type": "gemma3", "text_config": "oops"})", "z/config.json");
        QVERIFY2(!text.model && text.error.find("z/config.json: text_config: must be an object, got \"oops\"") == 0,
            text.error.c_str());
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
        std::vector<GgufWriter::Tensor> t { { "token_embd.weight", { 64, 100 }, 1, 6400 * 2 },
            { "output_norm.weight", { 64 }, 0, 64 * 4 } };
        for (int b = 0; b < 6; ++b) {
            const std::string p = "blk." + std::to_string(b) + ".";
            for (auto [name, dims] : std::vector<std::pair<const char*, std::vector<std::uint64_t>>> {
                     { "attn_q.weight", { 64, 64 } }, { "attn_k.weight", { 64, 32 } }, { "attn_v.weight", { 64, 32 } },
                     { "attn_output.weight", { 64, 64 } }, { "ffn_gate.weight", { 64, 96 } },
                     { "ffn_up.weight", { 64, 96 } }, { "ffn_down.weight", { 96, 64 } } })
                t.push_back({ p + name, dims, 1, dims[0] * dims[1] * 2 });
            for (const char* norm :
                { "attn_norm.weight", "post_attention_norm.weight", "ffn_norm.weight", "post_ffw_norm.weight" })
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
