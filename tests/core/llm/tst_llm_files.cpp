// The language-model readers: Hugging Face config.json, safetensors headers and GGUF, written here
// byte by byte (llm_fixtures.h), read without their data; hostile headers are errors in words.
#include "llm/llm_analysis.h"
#include "llm/llm_files.h"
#include "llm/weight_files.h"
#include "llm_fixtures.h"
#include "testutils.h"

#include <QElapsedTimer>
#include <QTemporaryDir>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <sys/resource.h>

using namespace rfx;
using rfx::test::GgufWriter;
using namespace rfx::test;

namespace {

LlmLoad ggufFromBytes(const std::string& bytes)
{
    std::istringstream in(bytes);
    return readGgufModel(in, bytes.size(), "tiny.gguf");
}

std::optional<std::vector<StoredTensor>> safetensorsFromBytes(const std::string& bytes, std::string& error)
{
    std::istringstream in(bytes);
    return readSafetensors(in, bytes.size(), "model.safetensors", error);
}

double phaseFlops(const LlmAnalysis& a, bool prefill)
{
    return (prefill ? a.prefill : a.decode).results[0].totals.flops;
}

} // namespace

class TestLlmFiles : public QObject {
    Q_OBJECT
private slots:
    // Every ggml type's block, worked from ggml-common.h's block structs (llama.cpp
    // ggml/src/ggml-common.h at 37b53fd; ggml_half 2 bytes, QK_K 256, K_SCALE_SIZE 12) and ggml.c's
    // type_traits for the plain ones. Removed ids (4, 5, 31-33, 36-38) and ids past the last are not types.
    void ggufBlockSizes()
    {
        struct Known {
            std::uint32_t id;
            const char* name;
            int elements, bytes; // per block, by hand below
        };
        const Known known[] = {
            { 0, "F32", 1, 4 }, { 1, "F16", 1, 2 }, { 30, "BF16", 1, 2 }, { 28, "F64", 1, 8 }, { 24, "I8", 1, 1 },
            { 25, "I16", 1, 2 }, { 26, "I32", 1, 4 }, { 27, "I64", 1, 8 },
            { 2, "Q4_0", 32, 2 + 32 / 2 }, // d; qs[QK4_0 / 2]
            { 3, "Q4_1", 32, 2 * 2 + 32 / 2 }, // d, m; qs[16]
            { 6, "Q5_0", 32, 2 + 4 + 32 / 2 }, // d; qh[4]; qs[16]
            { 7, "Q5_1", 32, 2 * 2 + 4 + 32 / 2 }, // d, m; qh[4]; qs[16]
            { 8, "Q8_0", 32, 2 + 32 }, // d; qs[32]
            { 9, "Q8_1", 32, 2 * 2 + 32 }, // d, s; qs[32]
            { 10, "Q2_K", 256, 256 / 16 + 256 / 4 + 2 * 2 }, // scales[16]; qs[64]; d, dmin: 84
            { 11, "Q3_K", 256, 256 / 8 + 256 / 4 + 12 + 2 }, // hmask[32]; qs[64]; scales[12]; d: 110
            { 12, "Q4_K", 256, 2 * 2 + 12 + 256 / 2 }, // d, dmin; scales[12]; qs[128]: 144
            { 13, "Q5_K", 256, 2 * 2 + 12 + 256 / 8 + 256 / 2 }, // + qh[32]: 176
            { 14, "Q6_K", 256, 256 / 2 + 256 / 4 + 256 / 16 + 2 }, // ql[128]; qh[64]; scales[16]; d: 210
            { 15, "Q8_K", 256, 4 + 256 + 256 / 16 * 2 }, // float d; qs[256]; int16 bsums[16]: 292
            { 16, "IQ2_XXS", 256, 2 + 256 / 8 * 2 }, // d; uint16 qs[32]: 66
            { 17, "IQ2_XS", 256, 2 + 256 / 8 * 2 + 256 / 32 }, // + scales[8]: 74
            { 22, "IQ2_S", 256, 2 + 256 / 4 + 256 / 32 + 256 / 32 }, // d; qs[64]; qh[8]; scales[8]: 82
            { 18, "IQ3_XXS", 256, 2 + 3 * 256 / 8 }, // d; qs[96]: 98
            { 21, "IQ3_S", 256,
                2 + 256 / 4 + 256 / 32 + 256 / 8 + 256 / 64 }, // d; qs[64]; qh[8]; signs[32]; scales[4]: 110
            { 19, "IQ1_S", 256, 2 + 256 / 8 + 256 / 32 * 2 }, // d; qs[32]; uint16 qh[8]: 50
            { 29, "IQ1_M", 256, 256 / 8 + 256 / 16 + 256 / 32 }, // qs[32]; qh[16]; scales[8]: 56
            { 20, "IQ4_NL", 32, 2 + 32 / 2 }, // d; qs[16]: 18
            { 23, "IQ4_XS", 256, 2 + 2 + 256 / 64 + 256 / 2 }, // d; scales_h; scales_l[4]; qs[128]: 136
            { 34, "TQ1_0", 256, (256 - 4 * 256 / 64) / 5 + 256 / 64 + 2 }, // qs[48]; qh[4]; d: 54
            { 35, "TQ2_0", 256, 256 / 4 + 2 }, // qs[64]; d: 66
            { 39, "MXFP4", 32, 1 + 32 / 2 }, // e (E8M0); qs[16]: 17
            { 40, "NVFP4", 64, 64 / 16 + 64 / 2 }, // d[4] (UE4M3); qs[32]: 36
            { 41, "Q1_0", 128, 2 + 128 / 8 }, // d; qs[16]: 18
            { 42, "Q2_0", 64, 2 + 64 / 4 }, // d; qs[16]: 18
        };
        for (const Known& k : known) {
            const GgufType* t = ggufType(k.id);
            QVERIFY2(t, k.name);
            QCOMPARE(t->name, std::string_view(k.name));
            QCOMPARE(t->blockElements, k.elements);
            QCOMPARE(t->blockBytes, k.bytes);
        }
        // The hand-worked sizes as ggml-common.h's static_asserts and the issue state them.
        QCOMPARE(ggufType(12)->blockBytes, 144); // Q4_K: a 4096 x 4096 tensor is 65,536 blocks = 9,437,184 B
        QCOMPARE(4096.0 * 4096 / ggufType(12)->blockElements * ggufType(12)->blockBytes, 9437184.0);
        for (std::uint32_t removed : { 4u, 5u, 31u, 32u, 33u, 36u, 37u, 38u, 43u, 1000u })
            QVERIFY(!ggufType(removed));
        int types = 0;
        for (std::uint32_t id = 0; id < 64; ++id)
            types += ggufType(id) != nullptr;
        QCOMPARE(types, int(std::size(known))); // every type the reader knows is worked above
    }

    // A Q4_K_M file's weights are the sum over its tensors of blocks x bytes per block.
    void ggufWeightBytesAreTheBlocks()
    {
        double expected = 0;
        const LlmLoad load = ggufFromBytes(tinyGguf(TinyMix::Q4KM, &expected));
        QVERIFY2(load.model, load.error.c_str());
        const LlmArch& a = load.model->arch;
        QCOMPARE(a.layers, 2);
        QCOMPARE(a.vocab, 1024);
        QCOMPARE(a.kvHeads, 2);
        QCOMPARE(a.headDim, 64);
        QVERIFY(!a.tiedEmbeddings);
        QCOMPARE(llmParameterCount(a), kTinyParams);
        QCOMPARE(load.model->storage->totalBytes, expected);
        // by hand: embedding 262,144 / 32 x 34 = 278,528; head 1,024 blocks x 210 = 215,040; norms 5 x 1,024;
        // per block q, o 256 x 144, k 128 x 144, v 128 x 210, gate, up 512 x 144, down 512 x 210
        QCOMPARE(expected, 278528.0 + 215040 + 5 * 1024 + 2 * (2 * 36864 + 18432 + 26880 + 2 * 73728 + 107520));
        LlmSettings s;
        s.weightBits = 0; // as in the file
        const LlmPhaseBuild b = buildLlmPhase(*load.model, s, LlmPhase::Decode, 64);
        QVERIFY(b.network);
        QCOMPARE(b.weightBytes, expected);
        QVERIFY(load.model->storage->summary.starts_with("Q6_K"));
    }

    // A 4.2 GB file opens from its header: Llama-2-7B's shape at Q4_K (Q6_K for down and the head, F32
    // norms), written at test time as a sparse file (the data is a hole, never committed). By hand:
    // q, k, v, o 4096 x 4096 / 256 x 144 = 9,437,184 B each; gate, up 4096 x 11008 / 256 x 144 =
    // 25,362,432 B each; down 45,088,768 / 256 x 210 = 36,986,880 B; two norms 32,768 B: 125,493,248 B
    // a block, 4,015,783,936 B for 32; the embedding 131,072,000 / 256 x 144 = 73,728,000 B, the head
    // x 210 / 256 = 107,520,000 B, the final norm 16,384 B: 4,197,048,320 B. Reading it allocates
    // nothing for the data (the process's peak memory grows by less than 50 MB).
    void fourGigabyteFileOpensFromItsHeader()
    {
        std::vector<GgufWriter::Tensor> tensors { { "token_embd.weight", { 4096, 32000 }, 12, 73728000 },
            { "output_norm.weight", { 4096 }, 0, 16384 }, { "output.weight", { 4096, 32000 }, 14, 107520000 } };
        for (int b = 0; b < 32; ++b) {
            const std::string g = "blk." + std::to_string(b) + ".";
            for (const char* name : { "attn_q", "attn_k", "attn_v", "attn_output" })
                tensors.push_back({ g + name + ".weight", { 4096, 4096 }, 12, 9437184 });
            tensors.push_back({ g + "ffn_gate.weight", { 4096, 11008 }, 12, 25362432 });
            tensors.push_back({ g + "ffn_up.weight", { 4096, 11008 }, 12, 25362432 });
            tensors.push_back({ g + "ffn_down.weight", { 11008, 4096 }, 14, 36986880 });
            tensors.push_back({ g + "attn_norm.weight", { 4096 }, 0, 16384 });
            tensors.push_back({ g + "ffn_norm.weight", { 4096 }, 0, 16384 });
        }
        GgufWriter kv;
        kv.kvStr("general.architecture", "llama");
        kv.kvU32("llama.block_count", 32);
        kv.kvU32("llama.embedding_length", 4096);
        kv.kvU32("llama.feed_forward_length", 11008);
        kv.kvU32("llama.attention.head_count", 32);
        kv.kvU32("llama.attention.head_count_kv", 32);
        kv.kvU32("llama.context_length", 4096);
        const std::string header = GgufWriter::file(3, 7, kv.bytes(), tensors, false);
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("llama-2-7b.Q4_K.gguf")).toStdString();
        {
            std::ofstream out(path, std::ios::binary);
            out.write(header.data(), std::streamsize(header.size()));
        }
        std::filesystem::resize_file(path, header.size() + 4197048320ull); // a hole: no disk, no memory
        rusage before {};
        getrusage(RUSAGE_SELF, &before);
        QElapsedTimer opening; // said, not held: speed is the benchmarks' to judge
        opening.start();
        const LlmLoad load = loadLanguageModel(path);
        qInfo("opened %s (%.2f GB) in %.1f ms", path.c_str(), double(header.size() + 4197048320ull) / 1e9,
            double(opening.nsecsElapsed()) / 1e6);
        rusage after {};
        getrusage(RUSAGE_SELF, &after);
        QVERIFY2(load.model, load.error.c_str());
        QCOMPARE(load.model->storage->totalBytes, 4197048320.0);
        QCOMPARE(llmParameterCount(load.model->arch), std::int64_t(6738415616)); // Llama-2-7B's own count
        QVERIFY2(
            after.ru_maxrss - before.ru_maxrss < 50 * 1024, std::to_string(after.ru_maxrss - before.ru_maxrss).c_str());
        // a byte short of the last tensor's data: refused, naming the file
        std::filesystem::resize_file(path, header.size() + 4197048320ull - 1);
        const LlmLoad cut = loadLanguageModel(path);
        QVERIFY(!cut.model);
        QVERIFY2(cut.error.starts_with(path), cut.error.c_str());
    }

    // A 4 GB safetensors directory opens from its header, as the GGUF above: a Llama of 18 blocks, hidden
    // 3072, 24 heads over 8 KV heads, feed-forward 8192, vocabulary 32,000, untied, all BF16, written at
    // test time as a sparse file. By hand, a block: q, o 3072 x 3072 = 9,437,184 each; k, v 3072 x 1024 =
    // 3,145,728 each; gate, up, down 3072 x 8192 = 25,165,824 each; two norms 3,072: 100,669,440; 18 of
    // them 1,812,049,920; embedding and head 32,000 x 3072 = 98,304,000 each; the final norm 3,072:
    // 2,008,660,992 parameters, 4,017,321,984 bytes at two each.
    void fourGigabyteSafetensorsOpenFromTheHeader()
    {
        const std::int64_t h = 3072, kv = 1024, ff = 8192, vocab = 32000;
        std::string header = "{\"__metadata__\": {\"format\": \"pt\"}";
        std::uint64_t offset = 0;
        auto add = [&](const std::string& name, std::initializer_list<std::int64_t> shape) {
            std::uint64_t n = 1;
            std::string dims;
            for (std::int64_t d : shape) {
                n *= std::uint64_t(d);
                dims += (dims.empty() ? "" : ",") + std::to_string(d);
            }
            header += ", \"" + name + "\": {\"dtype\": \"BF16\", \"shape\": [" + dims + "], \"data_offsets\": ["
                + std::to_string(offset) + ", " + std::to_string(offset + 2 * n) + "]}";
            offset += 2 * n;
        };
        add("model.embed_tokens.weight", { vocab, h });
        for (int b = 0; b < 18; ++b) {
            const std::string l = "model.layers." + std::to_string(b) + ".";
            add(l + "self_attn.q_proj.weight", { h, h });
            add(l + "self_attn.k_proj.weight", { kv, h });
            add(l + "self_attn.v_proj.weight", { kv, h });
            add(l + "self_attn.o_proj.weight", { h, h });
            add(l + "mlp.gate_proj.weight", { ff, h });
            add(l + "mlp.up_proj.weight", { ff, h });
            add(l + "mlp.down_proj.weight", { h, ff });
            add(l + "input_layernorm.weight", { h });
            add(l + "post_attention_layernorm.weight", { h });
        }
        add("model.norm.weight", { h });
        add("lm_head.weight", { vocab, h });
        header += "}";
        QCOMPARE(offset, std::uint64_t(4'017'321'984));
        QTemporaryDir dir;
        QVERIFY(test::writeFile(dir.filePath("config.json"), R"({"model_type": "llama", "hidden_size": 3072,
            "num_hidden_layers": 18, "num_attention_heads": 24, "num_key_value_heads": 8, "intermediate_size": 8192,
            "vocab_size": 32000, "max_position_embeddings": 8192, "tie_word_embeddings": false})"));
        const std::string path = dir.filePath(QStringLiteral("model.safetensors")).toStdString();
        const std::string head = test::safetensorsFile(header, 0);
        {
            std::ofstream out(path, std::ios::binary);
            out.write(head.data(), std::streamsize(head.size()));
        }
        std::filesystem::resize_file(path, head.size() + offset); // a hole: no disk, no memory
        rusage before {};
        getrusage(RUSAGE_SELF, &before);
        QElapsedTimer opening; // said, not held: speed is the benchmarks' to judge
        opening.start();
        const LlmLoad load = loadLanguageModel(dir.path().toStdString());
        qInfo("opened %s (%.2f GB) in %.1f ms", path.c_str(), double(head.size() + offset) / 1e9,
            double(opening.nsecsElapsed()) / 1e6);
        rusage after {};
        getrusage(RUSAGE_SELF, &after);
        QVERIFY2(load.model && load.model->storage, load.error.c_str());
        QCOMPARE(load.model->storage->totalParams, std::int64_t(2'008'660'992));
        QCOMPARE(load.model->storage->totalBytes, 4017321984.0);
        QCOMPARE(llmParameterCount(load.model->arch), std::int64_t(2'008'660'992)); // the config's count agrees
        QVERIFY2(
            after.ru_maxrss - before.ru_maxrss < 50 * 1024, std::to_string(after.ru_maxrss - before.ru_maxrss).c_str());
        // a byte short of the last tensor's data: refused, naming the file
        std::filesystem::resize_file(path, head.size() + offset - 1);
        const LlmLoad cut = loadLanguageModel(dir.path().toStdString());
        QVERIFY(!cut.model);
        QVERIFY2(cut.error.find("model.safetensors") != std::string::npos, cut.error.c_str());
    }

    // The same model as GGUF (F16) and as a safetensors directory (BF16) agrees on parameters, weight
    // bytes and both phases.
    void ggufAndSafetensorsAgree()
    {
        QTemporaryDir dir;
        QVERIFY(test::writeFile(dir.filePath("config.json"), kTinyConfig));
        QVERIFY(test::writeFile(dir.filePath("model.safetensors"), QByteArray::fromStdString(tinySafetensors())));
        QVERIFY(test::writeFile(dir.filePath("tiny.gguf"), QByteArray::fromStdString(tinyGguf(TinyMix::F16))));
        const LlmLoad st = loadLanguageModel(dir.path().toStdString());
        const LlmLoad gg = loadLanguageModel(dir.filePath("tiny.gguf").toStdString());
        QVERIFY2(st.model, st.error.c_str());
        QVERIFY2(gg.model, gg.error.c_str());
        QVERIFY(st.model->storage);
        QCOMPARE(st.model->storage->totalParams, kTinyParams);
        QCOMPARE(gg.model->storage->totalParams, kTinyParams);
        QCOMPARE(st.model->storage->totalBytes, gg.model->storage->totalBytes);
        LlmSettings s;
        s.weightBits = 0;
        const std::vector<Device> d { test::shippedDevice("h100-sxm") };
        const LlmOutcome a = analyzeLlm(*st.model, s, d), b = analyzeLlm(*gg.model, s, d);
        QVERIFY(a.analysis && b.analysis);
        QCOMPARE(a.analysis->parameters, kTinyParams);
        QCOMPARE(b.analysis->parameters, kTinyParams);
        QCOMPARE(phaseFlops(*a.analysis, true), phaseFlops(*b.analysis, true));
        QCOMPARE(phaseFlops(*a.analysis, false), phaseFlops(*b.analysis, false));
        QCOMPARE(a.analysis->figures[0].weightsBytes, b.analysis->figures[0].weightsBytes);
        QCOMPARE(a.analysis->figures[0].tpot, b.analysis->figures[0].tpot);
        // a sharded directory: the index names the one shard
        QVERIFY(QFile::rename(dir.filePath("model.safetensors"), dir.filePath("model-00001-of-00001.safetensors")));
        QVERIFY(test::writeFile(dir.filePath("model.safetensors.index.json"),
            R"({"metadata": {}, "weight_map": {"lm_head.weight": "model-00001-of-00001.safetensors"}})"));
        const LlmLoad sharded = loadLanguageModel(dir.filePath("config.json").toStdString());
        QVERIFY2(sharded.model && sharded.model->storage, sharded.error.c_str());
        QCOMPARE(sharded.model->storage->totalBytes, st.model->storage->totalBytes);
    }

    // config.json of the Hub's models give the built-ins' parameter counts; missing and unknown keys are named.
    void hfConfigs()
    {
        const LlmLoad llama = parseHfConfig(R"({"model_type": "llama", "hidden_size": 4096, "num_hidden_layers": 32,
            "num_attention_heads": 32, "num_key_value_heads": 32, "intermediate_size": 11008, "vocab_size": 32000,
            "max_position_embeddings": 4096, "tie_word_embeddings": false})",
            "Llama-2-7b-hf/config.json");
        QVERIFY2(llama.model, llama.error.c_str());
        QCOMPARE(llmParameterCount(llama.model->arch), std::int64_t(6'738'415'616));
        const LlmLoad gemma = parseHfConfig(R"({"model_type": "gemma2", "hidden_size": 3584, "num_hidden_layers": 42,
            "num_attention_heads": 16, "num_key_value_heads": 8, "head_dim": 256, "intermediate_size": 14336,
            "vocab_size": 256000, "max_position_embeddings": 8192, "sliding_window": 4096})",
            "gemma-2-9b/config.json");
        QVERIFY2(gemma.model, gemma.error.c_str());
        QCOMPARE(llmParameterCount(gemma.model->arch), std::int64_t(9'241'705'984));
        QCOMPARE(gemma.model->arch.slidingPeriod, 2);
        const LlmLoad gpt2 = parseHfConfig(R"({"model_type": "gpt2", "n_embd": 768, "n_layer": 12, "n_head": 12,
            "n_positions": 1024, "vocab_size": 50257, "n_inner": null})",
            "gpt2/config.json");
        QVERIFY2(gpt2.model, gpt2.error.c_str());
        QCOMPARE(llmParameterCount(gpt2.model->arch), std::int64_t(124'439'808));
        const LlmLoad mixtral = parseHfConfig(R"({"model_type": "mixtral", "hidden_size": 4096, "num_hidden_layers": 32,
            "num_attention_heads": 32, "num_key_value_heads": 8, "intermediate_size": 14336, "vocab_size": 32000,
            "max_position_embeddings": 32768, "num_local_experts": 8, "num_experts_per_tok": 2, "sliding_window": null})",
            "c.json");
        QVERIFY2(mixtral.model, mixtral.error.c_str());
        QCOMPARE(llmParameterCount(mixtral.model->arch), std::int64_t(46'702'792'704));

        const LlmLoad missing = parseHfConfig(R"({"model_type": "llama", "num_hidden_layers": 2})", "c.json");
        QVERIFY(!missing.model);
        QVERIFY2(missing.error.starts_with("c.json: hidden_size: missing"), missing.error.c_str());
        const LlmLoad unknown = parseHfConfig(R"({"model_type": "mamba"})", "c.json");
        QVERIFY2(unknown.error.find("\"mamba\" is not an architecture") != std::string::npos, unknown.error.c_str());
        const LlmLoad text = parseHfConfig(R"({"model_type": "llama", "hidden_size": "4096"})", "c.json");
        QVERIFY2(text.error.starts_with("c.json: hidden_size: must be a whole number"), text.error.c_str());
        QVERIFY(parseHfConfig("{", "c.json").error.starts_with("c.json: not valid JSON"));
    }

    // Truncated, corrupt and hostile GGUF headers are errors naming the file and what is wrong.
    void hostileGguf()
    {
        const std::string good = tinyGguf(TinyMix::Q4KM);
        for (int i = 0; i < 16; ++i) { // cut at sixteenths: never a crash, always the file's name first
            const LlmLoad cut = ggufFromBytes(good.substr(0, good.size() * size_t(i) / 16));
            QVERIFY(!cut.model);
            QVERIFY2(cut.error.starts_with("tiny.gguf: "), cut.error.c_str());
        }
        std::uint64_t kvCount = 0;
        const std::string kvs = tinyKvs(kvCount);
        auto with = [&](std::vector<GgufWriter::Tensor> t, std::uint32_t version = 3, std::uint64_t kv = 0) {
            return ggufFromBytes(GgufWriter::file(version, kv ? kv : kvCount, kvs, t, true)).error;
        };
        QVERIFY(with({ { "x", { 1ull << 60 }, 0, 0 } }).find("cannot fit in the file") != std::string::npos);
        // The count in three digits, as people read it (it was "1152921504606846976.000000 elements").
        QVERIFY2(with({ { "x", { 1ull << 60 }, 0, 0 } }).find("tensor x: 1,152,921,504,606,846,976 elements cannot fit")
                != std::string::npos,
            with({ { "x", { 1ull << 60 }, 0, 0 } }).c_str());
        QVERIFY(with({ { "x", { 32 }, 4, 0 } }).find("type 4 is not a ggml type") != std::string::npos);
        QVERIFY(with({ { "x", { 100 }, 2, 0 } }).find("not whole blocks of 32") != std::string::npos);
        QVERIFY(with({}, 1).find("version: GGUF version 1") != std::string::npos);
        QVERIFY(with({}, 3, 1ull << 60).find("more entries than the file") != std::string::npos);
        const std::string noData = GgufWriter::file(3, kvCount, kvs, { { "x", { 64 }, 0, 256 } }, false);
        const std::string noDataError = ggufFromBytes(noData).error;
        QVERIFY2(noDataError.find("data runs past the end") != std::string::npos, noDataError.c_str());
        QVERIFY(ggufFromBytes("GGML0000").error.find("not a GGUF file") != std::string::npos);
    }

    void hostileSafetensors()
    {
        std::string error;
        QVERIFY(safetensorsFromBytes(tinySafetensors(), error));
        std::string huge(8, '\xff');
        QVERIFY(!safetensorsFromBytes(huge + "{}", error));
        QVERIFY2(error.find("runs past the end") != std::string::npos, error.c_str());
        QVERIFY(!safetensorsFromBytes(
            test::safetensorsFile(R"({"w": {"dtype": "F16", "shape": [4], "data_offsets": [0, 800]}})", 8), error));
        QVERIFY2(error.find("tensor w: data_offsets [0, 800] lie outside") != std::string::npos, error.c_str());
        QVERIFY(!safetensorsFromBytes(
            test::safetensorsFile(
                R"({"w": {"dtype": "F16", "shape": [1152921504606846976], "data_offsets": [0, 8]}})", 8),
            error));
        QVERIFY2(error.find("shape and dtype make") != std::string::npos, error.c_str());
        QVERIFY(!safetensorsFromBytes(
            test::safetensorsFile(R"({"w": {"dtype": "Q4", "shape": [4], "data_offsets": [0, 8]}})", 8), error));
        QVERIFY2(error.find("dtype: \"Q4\"") != std::string::npos, error.c_str());
        QVERIFY(!safetensorsFromBytes("abc", error));
        QVERIFY(error.starts_with("model.safetensors: shorter than"));
    }

    void namesAreResolved()
    {
        QVERIFY(isLanguageModelSpec("llama-3.1-8b"));
        QVERIFY(isLanguageModelSpec("x/Model.GGUF"));
        QVERIFY(!isLanguageModelSpec("unet"));
        QVERIFY(!isLanguageModelSpec("decoder.onnx")); // 'analyze' takes any graph; 'llm' reads a decoder's phases
        const LlmLoad none = loadLanguageModel("/nonexistent/file.gguf");
        QVERIFY2(none.error.find("no such file") != std::string::npos, none.error.c_str());
    }
};

QTEST_GUILESS_MAIN(TestLlmFiles)
#include "tst_llm_files.moc"
