// ONNX decoders as language models (issue 49 item 3 and 4, issue 75 item 2): the graph's own phases with
// the context bound to the past inputs, and the same small model three ways (GGUF, safetensors with
// config.json, ONNX) giving the same parameters, matrix rows, bytes and times, each difference worked out
// here; PyTorch's export with grouped-query attention and Optimum's merged decoder.
#include "engine/cost.h"
#include "llm/llm_analysis.h"
#include "llm/llm_files.h"
#include "llm/llm_onnx.h"
#include "llm_fixtures.h"
#include "model/networks.h"
#include "onnx/onnx_model.h"
#include "open/build_network.h"
#include "testpaths.h"
#include "testutils.h"

#include <QTemporaryDir>

using namespace rfx;
using namespace rfx::test;

namespace {

std::string wild(const char* name) { return std::string(ROOFLINE_TEST_DATA_DIR) + "/onnx/wild/" + name + ".onnx"; }

/// What one phase's rows add up to: the matrix products carrying weights (projections and the head), the
/// other matrix rows (attention), the weights read, every FLOP.
struct Sums {
    double weighted = 0, attention = 0, weightBytes = 0, flops = 0, rope = 0;
};
Sums sums(const Network& n)
{
    Sums s;
    for (const Layer& l : n.layers) {
        const double f = forwardFlops(l);
        s.flops += f;
        const std::int64_t params = layerParams(l);
        if (params > 0)
            s.weightBytes
                += (l.weightBytes >= 0 ? l.weightBytes : double(params) * rowWidths(l, 2, true).weight) * l.repeats;
        if (l.op == Op::MatMul)
            (params > 0 ? s.weighted : s.attention) += f;
        if (l.name.ends_with("rope"))
            s.rope += f;
    }
    return s;
}

LlmLoad load(const std::string& spec)
{
    LlmLoad l = loadLanguageModel(spec);
    if (!l.model)
        qWarning("%s", l.error.c_str());
    return l;
}

Network phase(const LlmModel& m, const LlmSettings& s, LlmPhase p, int context)
{
    LlmPhaseBuild b = buildLlmPhase(m, s, p, context);
    if (!b.network)
        qFatal("%s", b.error.c_str());
    return *b.network;
}

} // namespace

class TestLlmOnnx : public QObject {
    Q_OBJECT

private slots:
    // The decoder's extents by role, read from the inputs (make_fixtures.py): PyTorch's export names them
    // batch / sequence_length / past_sequence_length / total_sequence_length, ONNX Runtime GenAI's
    // batch_size / sequence_length / past_sequence_length / total_sequence_length; decoder_past has no mask.
    void decoderRecognized()
    {
        for (const char* name : { "tiny_llama_past", "tiny_llama_genai" }) {
            const OnnxLoad l = cachedOnnxModel(wild(name));
            QVERIFY2(l.model, l.error.c_str());
            const auto& d = l.model->decoder();
            QVERIFY(d);
            QCOMPARE(d->layers, 2);
            QCOMPARE(d->kvHeads, 2);
            QCOMPARE(d->headDim, 64);
            QCOMPARE(d->kvBits, std::string(name) == "tiny_llama_past" ? 32 : 16);
            QCOMPARE(d->sequence, std::string("sequence_length"));
            QCOMPARE(d->past, std::string("past_sequence_length"));
            QCOMPARE(d->total, std::string("total_sequence_length"));
            QCOMPARE(d->pastInputs.size(), size_t(4));
        }
        const OnnxLoad past = cachedOnnxModel(wild("decoder_past"));
        QVERIFY(past.model && past.model->decoder());
        QCOMPARE(past.model->decoder()->total, std::string());
        const OnnxLoad cnn = cachedOnnxModel(std::string(ROOFLINE_TEST_DATA_DIR) + "/onnx/resnet50.onnx");
        QVERIFY(cnn.model && !cnn.model->decoder());
        const LlmLoad refused = loadLanguageModel(std::string(ROOFLINE_TEST_DATA_DIR) + "/onnx/resnet50.onnx");
        QVERIFY(!refused.model);
        QVERIFY2(
            refused.error.find("not a decoder with past keys and values") != std::string::npos, refused.error.c_str());
        QVERIFY2(refused.error.find("roofline-cli analyze --model") != std::string::npos, refused.error.c_str());
    }

    // Without --dim a decoder opens as a prefill from an empty cache, the sequence length the image height
    // (224 here): the past extents 0, the total 224. By hand, tiny_llama_genai's q_proj at 224 tokens:
    // 2 x 224 x 256 x 256 = 29,360,128 FLOP.
    void decoderOpensAsAPrefill()
    {
        Config c;
        c.model = wild("tiny_llama_genai");
        c.unet.height = c.unet.width = 224;
        const BuildResult b = buildNetwork(c);
        QVERIFY2(b.network, b.error.c_str());
        const auto q = std::find_if(b.network->layers.begin(), b.network->layers.end(),
            [](const Layer& l) { return l.name.find("layers.0.attn.q_proj") != std::string::npos; });
        QVERIFY(q != b.network->layers.end());
        QCOMPARE(forwardFlops(*q), 29360128.0);
    }

    // ONNX Runtime GenAI's int4 decoder against the same model as a GGUF of Q4_0 matrices and F16 embedding
    // and norms: MatMulNBits with blocks of 32 and an fp16 scale each (no zero points) stores 16 + 2 = 18
    // bytes per 32 weights, Q4_0's block. By hand, at P = 512, a decode step at C = 576, fp16 cache:
    //  - parameters 1,705,216 both (the rotary cos and sin tables are not learned);
    //  - resident weights: GGUF 1024 x 256 x 2 (embedding) + 2 x (65,536 + 2 x 32,768 + 65,536 + 3 x 131,072)
    //    x 18 / 32 + 5 x 256 x 2 (norms) + 262,144 x 18 / 32 (head) = 524,288 + 663,552 + 2,560 + 147,456 =
    //    1,337,856 B; the ONNX file holds the cos and sin tables besides, 2 x 2048 x 32 x 2 = 262,144 B;
    //  - weights read in a decode step: the same rows, the embedding one row of 256 x 2 = 512 B;
    //  - the KV cache per token 2 layers x (K, V) x 2 heads x 64 x 2 B = 1,024 B both;
    //  - GroupQueryAttention counts the 1/sqrt(d) scale per score (1 FLOP, as Attention-23), FlashAttention's
    //    row folds it into q: over H x pairs = 4 x (512 x 513 / 2) = 525,312 scores per block in prefill,
    //    4 x 576 = 2,304 in decode, two blocks; its rotary embedding (3 FLOP per element of q and k) is the
    //    engine's rope row.
    void genaiAgreesWithGguf()
    {
        QTemporaryDir dir;
        QVERIFY(writeFile(dir.filePath("tiny.gguf"), QByteArray::fromStdString(tinyGguf(TinyMix::Q4_0))));
        const LlmLoad gg = load(dir.filePath("tiny.gguf").toStdString());
        const LlmLoad ox = load(wild("tiny_llama_genai"));
        QVERIFY(gg.model && ox.model);
        LlmSettings s;
        s.prompt = 512;
        s.generate = 128;
        s.weightBits = 0;
        s.allLogits = true; // the graph's logits are [B, S, V]
        const std::vector<Device> d { shippedDevice("h100-sxm") };
        const LlmOutcome a = analyzeLlm(*gg.model, s, d), b = analyzeLlm(*ox.model, s, d);
        QVERIFY2(a.analysis, a.error.c_str());
        QVERIFY2(b.analysis, b.error.c_str());
        QCOMPARE(a.analysis->parameters, kTinyParams);
        QCOMPARE(b.analysis->parameters, kTinyParams);
        QCOMPARE(a.analysis->figures[0].weightsBytes, 1337856.0);
        QCOMPARE(b.analysis->figures[0].weightsBytes, 1337856.0 + 262144.0);
        QCOMPARE(a.analysis->figures[0].kvBytesPerToken, 1024.0);
        QCOMPARE(b.analysis->figures[0].kvBytesPerToken, 1024.0);
        QCOMPARE(a.analysis->figures[0].kvBytes, b.analysis->figures[0].kvBytes);
        for (LlmPhase p : { LlmPhase::Prefill, LlmPhase::Decode }) {
            const int C = p == LlmPhase::Prefill ? 512 : 576;
            const Sums e = sums(phase(*gg.model, s, p, C)), g = sums(phase(*ox.model, s, p, C));
            QCOMPARE(g.weighted, e.weighted);
            QCOMPARE(g.weightBytes, e.weightBytes);
            const double scores = p == LlmPhase::Prefill ? 4.0 * 512 * 513 / 2 : 4.0 * 576;
            QCOMPARE(g.attention, e.attention + e.rope + 2 * scores);
        }
        QCOMPARE(sums(phase(*ox.model, s, LlmPhase::Decode, 576)).weightBytes,
            2 * (65536.0 + 2 * 32768 + 65536 + 3 * 131072) * 18 / 32 + 262144.0 * 18 / 32 + 512 + 5 * 512);
        // the times: the same matrix rows; the graph's SiLU is Sigmoid, Mul, Mul (three rows through memory
        // where the engine has one) and its norms carry the residual sum: within 10 %, never faster
        const LlmDeviceFigures &fe = a.analysis->figures[0], &fg = b.analysis->figures[0];
        qInfo("TTFT %.4g vs %.4g s (%.3f), TPOT %.4g vs %.4g s (%.3f)", fe.ttft, fg.ttft, fg.ttft / fe.ttft, fe.tpot,
            fg.tpot, fg.tpot / fe.tpot);
        QVERIFY(fg.ttft >= fe.ttft * 0.99 && fg.ttft <= fe.ttft * 1.10);
        QVERIFY(fg.tpot >= fe.tpot * 0.99 && fg.tpot <= fe.tpot * 1.10);
    }

    // PyTorch's export of the same model (fp32, Hugging Face's LlamaModel written out: the attention as
    // MatMul, Softmax, MatMul over the whole [S, T] square with the causal mask added) against the
    // safetensors directory and the GGUF, all F32, with naive attention and every prompt token's logits:
    //  - parameters: the file's 1,705,216 (the 32 rotary inverse frequencies stored as an initializer reach only
    //    Cos and Sin: a buffer, not learned);
    //  - every matrix product's FLOPs the same: projections and head, Q K^T and P V over the full square
    //    (prefill T x T, decode 1 x C);
    //  - weight bytes 4 per parameter, and the file's weights the frequencies' 128 B besides (held in memory
    //    and read by the rotary Mul, a row without parameters); the cache 2,048 B a token.
    void pytorchExportAgreesWithSafetensorsAndGguf()
    {
        QTemporaryDir dir;
        QVERIFY(writeFile(dir.filePath("config.json"), kTinyConfig));
        QVERIFY(writeFile(dir.filePath("model.safetensors"), QByteArray::fromStdString(tinySafetensors(true))));
        QVERIFY(writeFile(dir.filePath("tiny.gguf"), QByteArray::fromStdString(tinyGguf(TinyMix::F32))));
        const LlmLoad st = load(dir.path().toStdString()), gg = load(dir.filePath("tiny.gguf").toStdString());
        const LlmLoad ox = load(wild("tiny_llama_past"));
        QVERIFY(st.model && gg.model && ox.model);
        LlmSettings s;
        s.prompt = 100;
        s.generate = 40;
        s.weightBits = 0;
        s.kvBits = 32;
        s.actBits = 32;
        s.attention = LlmAttention::Naive;
        s.allLogits = true;
        const std::vector<Device> d { shippedDevice("h100-sxm") };
        const LlmOutcome a = analyzeLlm(*st.model, s, d), b = analyzeLlm(*gg.model, s, d),
                         c = analyzeLlm(*ox.model, s, d);
        QVERIFY(a.analysis && b.analysis);
        QVERIFY2(c.analysis, c.error.c_str());
        QCOMPARE(a.analysis->parameters, kTinyParams);
        QCOMPARE(b.analysis->parameters, kTinyParams);
        QCOMPARE(c.analysis->parameters, kTinyParams);
        QCOMPARE(a.analysis->figures[0].weightsBytes, 4.0 * double(kTinyParams));
        QCOMPARE(b.analysis->figures[0].weightsBytes, 4.0 * double(kTinyParams));
        QCOMPARE(c.analysis->figures[0].weightsBytes, 4.0 * double(kTinyParams + 32));
        for (const LlmOutcome* o : { &a, &b, &c })
            QCOMPARE(o->analysis->figures[0].kvBytesPerToken, 2048.0);
        for (LlmPhase p : { LlmPhase::Prefill, LlmPhase::Decode }) {
            const int C = p == LlmPhase::Prefill ? 100 : 120;
            const Sums x = sums(phase(*st.model, s, p, C)), y = sums(phase(*gg.model, s, p, C)),
                       z = sums(phase(*ox.model, s, p, C));
            QCOMPARE(y.weighted, x.weighted);
            QCOMPARE(z.weighted, x.weighted);
            QCOMPARE(z.attention, x.attention);
            QCOMPARE(z.weightBytes, x.weightBytes);
        }
        // Speculative decoding's verification: 5 tokens a sequence at C = 120, the graph run at sequence length
        // 5 after a past of 115: the same products as the rows, each token's 5 times a single token's (every
        // weight row and the head for each of the 5; naive attention over the 5 x 120 rectangle, masked).
        {
            LlmSettings v = s;
            v.decodeTokens = 5;
            const Sums one = sums(phase(*st.model, s, LlmPhase::Decode, 120));
            const Sums x = sums(phase(*st.model, v, LlmPhase::Decode, 120)),
                       z = sums(phase(*ox.model, v, LlmPhase::Decode, 120));
            QCOMPARE(z.weighted, x.weighted);
            QCOMPARE(z.attention, x.attention);
            QCOMPARE(x.weighted, 5 * one.weighted);
            QCOMPARE(x.attention, 5 * one.attention);
            QCOMPARE(x.weightBytes, one.weightBytes + 4 * 256 * 4.0); // every weight once; the embedding's 4 more rows
        }
        // the graph moves more than the rows: the cache concatenated, each KV head expanded to the query
        // heads, K transposed, the rotary embedding and the norms in pieces (at most 3x here)
        const LlmDeviceFigures &fe = a.analysis->figures[0], &fg = c.analysis->figures[0];
        qInfo("TTFT %.4g vs %.4g s (%.3f), TPOT %.4g vs %.4g s (%.3f)", fe.ttft, fg.ttft, fg.ttft / fe.ttft, fe.tpot,
            fg.tpot, fg.tpot / fe.tpot);
        QVERIFY(fg.ttft > fe.ttft && fg.ttft < 3 * fe.ttft);
        QVERIFY(fg.tpot > fe.tpot && fg.tpot < 3 * fe.tpot);
    }

    // The decoder of issue 75's report: PyTorch's export of a Llama-style decoder of 4 blocks, 8 query heads over 2
    // KV heads of 32, the KV heads repeated from the cache's own shape as Hugging Face's repeat_kv does
    // (make_optimum.py). Its parameters are the module's sum(p.numel()): the embedding 1024 x 256 = 262,144; a
    // block 256 x 256 (q) + 2 x 256 x 64 (k, v) + 256 x 256 (o) + 3 x 256 x 512 (MLP) + 2 x 256 (norms) = 557,568,
    // four of them 2,230,272; the final norm 256; the head 262,144: 2,754,816 (the rotary inverse frequencies are
    // a buffer, not a parameter). The cache 4 blocks x (K, V) x 2 heads x 32 x 4 B = 2,048 B a token.
    // At P = 100, every logit: Q K^T and P V over the whole square, per block 2 x (2 x 8 x 100 x 100 x 32) =
    // 10,240,000 FLOP, four 40,960,000; the weighted products 2 x 100 x (4 x 557,056 + 262,144) = 498,073,600.
    // A decode step at C = 120: 4 x 2 x (2 x 8 x 120 x 32) = 491,520 and 2 x 2,490,368 = 4,980,736.
    void pytorchGqaExport()
    {
        const LlmLoad ox = load(wild("gqa_repeat_kv"));
        QVERIFY(ox.model);
        LlmSettings s;
        s.prompt = 100;
        s.generate = 40;
        s.allLogits = true;
        const LlmOutcome o = analyzeLlm(*ox.model, s, { shippedDevice("h100-sxm") });
        QVERIFY2(o.analysis, o.error.c_str());
        QCOMPARE(o.analysis->parameters, std::int64_t(2754816));
        QCOMPARE(o.analysis->figures[0].kvBytesPerToken, 2048.0);
        const Sums prefill = sums(phase(*ox.model, s, LlmPhase::Prefill, 100)),
                   decode = sums(phase(*ox.model, s, LlmPhase::Decode, 120));
        QCOMPARE(prefill.attention, 40960000.0);
        QCOMPARE(prefill.weighted, 498073600.0);
        QCOMPARE(decode.attention, 491520.0);
        QCOMPARE(decode.weighted, 4980736.0);
    }

    // Optimum's decoder_model_merged.onnx of the same model: one If on use_cache_branch over the decoder without
    // the past (else) and the one with it (then), their initializers shared. The prefill runs the first, a decode
    // step the second, each adding up to the rows of the export above; opened as a network, the flag follows the
    // cache (nothing cached: the graph without the past), so no If is left to the user.
    void optimumMergedDecoder()
    {
        const OnnxLoad merged = cachedOnnxModel(wild("optimum_merged"));
        QVERIFY2(merged.model, merged.error.c_str());
        QVERIFY(merged.model->decoder());
        QCOMPARE(merged.model->decoder()->cacheFlag, std::string("use_cache_branch"));
        QCOMPARE(merged.model->name(), std::string("optimum_merged"));
        const LlmLoad m = load(wild("optimum_merged")), single = load(wild("gqa_repeat_kv"));
        QVERIFY(m.model && single.model);
        LlmSettings s;
        s.prompt = 100;
        s.generate = 40;
        s.allLogits = true;
        const LlmOutcome o = analyzeLlm(*m.model, s, { shippedDevice("h100-sxm") });
        QVERIFY2(o.analysis, o.error.c_str());
        QCOMPARE(o.analysis->parameters, std::int64_t(2754816));
        QCOMPARE(o.analysis->figures[0].kvBytesPerToken, 2048.0);
        for (LlmPhase p : { LlmPhase::Prefill, LlmPhase::Decode }) {
            const int C = p == LlmPhase::Prefill ? 100 : 120;
            const Network n = phase(*m.model, s, p, C);
            const Sums a = sums(n), b = sums(phase(*single.model, s, p, C));
            QCOMPARE(a.attention, b.attention);
            QCOMPARE(a.weighted, b.weighted);
            QCOMPARE(a.weightBytes, b.weightBytes);
            // the rows carry the branch's name: the prefill the graph without the past, decode the other
            const char* other = p == LlmPhase::Prefill ? "then" : "else";
            for (const Layer& l : n.layers)
                QVERIFY2(l.name.find(std::string("/") + other + "/") == std::string::npos, l.name.c_str());
            for (const Diagnostic& d : n.diagnostics)
                QVERIFY2(d.message.find("not known before the run") == std::string::npos, d.message.c_str());
        }
        Config c;
        c.model = wild("optimum_merged");
        const BuildResult b = buildNetwork(c);
        QVERIFY2(b.network, b.error.c_str());
        for (const Diagnostic& d : b.network->diagnostics)
            QVERIFY2(d.message.find("not known before the run") == std::string::npos, d.message.c_str());
    }

    // What the engine's rows choose, the graph fixes: --tp is refused in words, the cache's width is the file's.
    void graphDecides()
    {
        const LlmLoad ox = load(wild("tiny_llama_past"));
        QVERIFY(ox.model);
        LlmSettings s;
        s.tensorParallel = 2;
        const LlmOutcome tp = analyzeLlm(*ox.model, s, { shippedDevice("h100-sxm") });
        QVERIFY(!tp.analysis);
        QVERIFY2(tp.error.find("--tp 2: an ONNX decoder is one GPU's graph") != std::string::npos, tp.error.c_str());
        s.tensorParallel = 1;
        s.kvBits = 8;
        const LlmOutcome kv = analyzeLlm(*ox.model, s, { shippedDevice("h100-sxm") });
        QVERIFY(kv.analysis);
        QCOMPARE(kv.analysis->settings.kvBits, 32);
        QVERIFY(kv.analysis->graph);
        // no max_position_embeddings beside the file: the longest context is the tool's limit, not the model's
        QVERIFY(!kv.analysis->figures[0].contextLimitedByModel);
    }
};

QTEST_GUILESS_MAIN(TestLlmOnnx)
#include "tst_llm_onnx.moc"
