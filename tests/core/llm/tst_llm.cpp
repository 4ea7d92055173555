// The language-model engine (core/llm) against published parameter counts and hand-worked rows.
// Sources: each built-in's config.json on the Hugging Face Hub (LlmArch::source) and the parameter
// count its publisher gives; the rows' formulas are DESIGN.md "Language models".
#include "engine/row_blocks.h"
#include "io/llm_options.h"
#include "llm/llm_analysis.h"
#include "llm/llm_both.h"
#include "llm/llm_files.h"
#include "testutils.h"

#include <tuple>

using namespace rfx;

namespace {

LlmModel builtin(const char* id) { return test::builtinModel(id); }

const Layer& row(const Network& n, const std::string& name)
{
    for (const Layer& l : n.layers)
        if (l.name == name)
            return l;
    qFatal("no row %s", name.c_str());
}

double rowBytes(const Layer& l) { return layerCost(l, 2, true).bytesForward; }
double rowFlops(const Layer& l) { return layerCost(l, 2, true).flopsForward; }

Network phase(const char* id, LlmPhase p, int context, LlmSettings s = {})
{
    const LlmPhaseBuild b = buildLlmPhase(builtin(id), s, p, context);
    if (!b.network)
        qFatal("%s", b.error.c_str());
    return *b.network;
}

} // namespace

class TestLlm : public QObject {
    Q_OBJECT
private slots:
    // Every built-in's parameters, by the formula and summed over the rows the builder makes, equal
    // the count its publisher gives (GPT-2 124,439,808 ... Llama-3.1-405B 405,853,388,800).
    void builtinParameterCountsArePublished()
    {
        QCOMPARE(builtinLanguageModels().size(), size_t(27));
        for (const LlmArch& a : builtinLanguageModels()) {
            QVERIFY2(a.publishedParams > 0 && !a.source.empty(), a.id.c_str());
            QCOMPARE(llmParameterCount(a), a.publishedParams);
            std::int64_t rows = 0;
            for (const Layer& l : phase(a.id.c_str(), LlmPhase::Decode, 16).layers)
                rows += l.storedParams;
            QCOMPARE(rows, a.publishedParams);
        }
    }

    // Llama-2-7B prefill of 512 tokens at fp16: q_proj is 2 x 512 x 4096 x 4096 FLOP per block and moves
    // x (512 x 4096), W (4096 x 4096) and y (512 x 4096) at 2 bytes: 41,943,040 bytes; 32 blocks.
    void llama2PrefillQProj()
    {
        const Network n = phase("llama-2-7b", LlmPhase::Prefill, 512);
        const Layer& q = row(n, "blk0-31.q_proj");
        QCOMPARE(q.repeats, 32.0);
        QCOMPARE(rowFlops(q), 32 * 2.0 * 512 * 4096 * 4096);
        QCOMPARE(rowBytes(q), 32 * (512 * 4096 * 2.0 + 4096.0 * 4096 * 2 + 512 * 4096 * 2.0));
        // FlashAttention over the causal triangle: 512 x 513 / 2 pairs per head, 4 d + 5 FLOP each
        QCOMPARE(rowFlops(row(n, "blk0-31.attention")), 32 * 32 * (512.0 * 513 / 2) * (4 * 128 + 5));
    }

    // The output head in prefill: the last token of each sequence (2 x 4096 x 32,000 FLOP per sequence),
    // or with allLogits every prompt token: 512 x that, and its logits 512 x 32,000 x 2 bytes written.
    void prefillLogitsLastOrAll()
    {
        LlmSettings s;
        s.batch = 2;
        const Network lastOnly = phase("llama-2-7b", LlmPhase::Prefill, 512, s);
        QCOMPARE(rowFlops(row(lastOnly, "lm_head")), 2 * 2.0 * 4096 * 32000);
        s.allLogits = true;
        const Network all = phase("llama-2-7b", LlmPhase::Prefill, 512, s);
        const Layer& every = row(all, "lm_head");
        QCOMPARE(rowFlops(every), 2 * 512 * 2.0 * 4096 * 32000);
        // x 1,024 tokens x 4,096 at 2 bytes + W 32,000 x 4,096 at 2 + logits 1,024 x 32,000 at 2
        QCOMPARE(rowBytes(every), 1024 * 4096 * 2.0 + 32000.0 * 4096 * 2 + 1024 * 32000 * 2.0);
        // decode is one token a sequence either way
        QCOMPARE(rowFlops(row(phase("llama-2-7b", LlmPhase::Decode, 512, s), "lm_head")), 2 * 2.0 * 4096 * 32000);
    }

    // Llama-2-7B decode at C = 512: the attention row reads the cache, 2 x 32 KV heads x 128 x 512 x 2
    // bytes per block, beside q and its output (32 x 128 x 2 bytes each); a token of cache is
    // 2 x 32 layers x 32 heads x 128 x 2 = 524,288 bytes. Llama-3.1-8B's 8 KV heads: 131,072.
    void decodeReadsTheKvCache()
    {
        const Network n = phase("llama-2-7b", LlmPhase::Decode, 512);
        QCOMPARE(rowBytes(row(n, "blk0-31.attention")), 32 * (2.0 * 32 * 128 * 512 * 2 + 2 * 32 * 128 * 2.0));
        QCOMPARE(kvCacheBytes(*findLanguageModel("llama-2-7b"), 1, 16), 524288.0);
        QCOMPARE(kvCacheBytes(*findLanguageModel("llama-3.1-8b"), 1, 16), 131072.0);
        QCOMPARE(kvCacheBytes(*findLanguageModel("llama-3.1-8b"), 1, 8), 65536.0);
        const LlmOutcome o = analyzeLlm(builtin("llama-3.1-8b"), {}, { test::shippedDevice("h100-sxm") });
        QVERIFY(o.analysis);
        QCOMPARE(o.analysis->figures[0].kvBytesPerToken, 131072.0);
        // B = 1 sequence of P + G = 640 tokens
        QCOMPARE(o.analysis->figures[0].kvBytes, 640 * 131072.0);
    }

    // Sliding windows: Mistral-7B v0.1 attends to 4096 keys at C = 8192 and caches 4096 tokens per
    // layer: 32 x 2 x 8 x 128 x 4096 x 2 = 536,870,912 bytes; Gemma-2's alternate layers: 21 local
    // (4096) and 21 global (8192) layers of 2 x 8 x 256 x 2 bytes per token: 2,113,929,216 bytes.
    void slidingWindowsCapTheCache()
    {
        QCOMPARE(kvCacheBytes(*findLanguageModel("mistral-7b"), 8192, 16), 536870912.0);
        QCOMPARE(kvCacheBytes(*findLanguageModel("gemma-2-9b"), 8192, 16), 2113929216.0);
        const Network n = phase("mistral-7b", LlmPhase::Decode, 8192);
        QCOMPARE(row(n, "blk0-31.attention").inShapes[1].h, std::int64_t(4096));
        const Network g = phase("gemma-2-9b", LlmPhase::Decode, 8192);
        QCOMPARE(row(g, "blk0-40/2.attention").inShapes[1].h, std::int64_t(4096));
        QCOMPARE(row(g, "blk1-41/2.attention").inShapes[1].h, std::int64_t(8192));
    }

    // Mixtral-8x7B: every token runs 2 experts, each reading the token's hidden state; the weights read are the
    // distinct experts the batch's tokens touch, 8 (1 - (6/8)^N): 2 at batch 1, 7.99999992 at batch 64.
    void mixtralExpertsReadWhatTheTokensTouch()
    {
        QCOMPARE(expectedExpertsTouched(8, 2, 1), 2.0);
        QVERIFY(qAbs(expectedExpertsTouched(8, 2, 64) - 7.99999992) < 1e-8);
        const double expert = 4096.0 * 14336 * 2; // one expert's gate matrix at fp16
        const Network n1 = phase("mixtral-8x7b", LlmPhase::Decode, 512);
        const Layer& b1 = row(n1, "blk0-31.experts.gate_proj");
        QCOMPARE(rowBytes(b1), 32 * (2 * expert + 2 * 4096 * 2.0 + 2 * 14336 * 2.0)); // each expert reads its tokens
        QCOMPARE(rowFlops(b1), 32 * 2.0 * 2 * 4096 * 14336);
        LlmSettings s;
        s.batch = 64;
        const Network n64 = phase("mixtral-8x7b", LlmPhase::Decode, 512, s);
        const Layer& b64 = row(n64, "blk0-31.experts.gate_proj");
        QVERIFY(qAbs(rowBytes(b64)
                    - 32 * (expectedExpertsTouched(8, 2, 64) * expert + 128 * 4096 * 2.0 + 128 * 14336 * 2.0))
            < 1);
        QCOMPARE(rowFlops(b64), 32 * 2.0 * 128 * 4096 * 14336);
        QCOMPARE(b64.storedParams, std::int64_t(32) * 8 * 4096 * 14336);
    }

    // Llama-2-70B: 68,976,648,192 parameters are 138 GB at fp16, more than an 80 GB A100 holds; at
    // 4 bits (4.125 with the scales) 35.6 GB fit, with room for a batch.
    void memoryFit()
    {
        const Device a100 = test::shippedDevice("a100-sxm-80gb");
        const LlmOutcome fp16 = analyzeLlm(builtin("llama-2-70b"), {}, { a100 });
        QVERIFY(fp16.analysis);
        const LlmDeviceFigures& f = fp16.analysis->figures[0];
        QVERIFY(f.weightsBytes > 137.9e9 && f.weightsBytes < 138.0e9);
        QVERIFY(!f.fits);
        QCOMPARE(f.largestBatch, std::int64_t(0));
        LlmSettings s;
        s.weightBits = 4;
        const LlmOutcome int4 = analyzeLlm(builtin("llama-2-70b"), s, { a100 });
        const LlmDeviceFigures& g = int4.analysis->figures[0];
        QVERIFY(g.fits);
        QVERIFY(g.weightsBytes > 35.5e9 && g.weightsBytes < 35.7e9);
        // the largest batch fills the memory: one more sequence would not fit
        const double perSequence = kvCacheBytes(*findLanguageModel("llama-2-70b"), 640, 16) + g.activationBytes;
        QVERIFY(g.weightsBytes + double(g.largestBatch) * perSequence <= g.capacity);
        QVERIFY(g.weightsBytes + double(g.largestBatch + 1) * perSequence > g.capacity);
    }

    // Decode is bound by the weights' bytes: Llama-2-7B at fp16 on an H100 (3.35 TB/s) needs at least
    // 13.48 GB / 3.35 TB/s = 4.02 ms per token; prefill of 512 tokens is compute-bound.
    void decodeIsMemoryBoundPrefillComputeBound()
    {
        const Device h100 = test::shippedDevice("h100-sxm");
        const LlmOutcome o = analyzeLlm(builtin("llama-2-7b"), {}, { h100 });
        const LlmDeviceFigures& f = o.analysis->figures[0];
        const double weights = 6738415616.0 * 2;
        QVERIFY(f.tpot >= weights / h100.dramBandwidth);
        QVERIFY(f.tpot < 1.05 * weights / h100.dramBandwidth + 1e-4);
        QVERIFY(o.analysis->decode.results[0].totals.memoryBoundTimeShare > 0.99);
        QVERIFY(o.analysis->prefill.results[0].totals.memoryBoundTimeShare < 0.5);
        QCOMPARE(f.tokensPerSecond, 1 / f.tpot);
        // P in, G out: the first token and G steps, each no faster than the first
        QVERIFY(f.generationTime >= f.ttft + 128 * o.analysis->figures[0].tpot * 0.98);
        // Without the generation (the window's analysis): the same figures, no generation time.
        const LlmOutcome steps = analyzeLlm(builtin("llama-2-7b"), {}, { h100 }, false);
        const LlmDeviceFigures& g = steps.analysis->figures[0];
        QCOMPARE(g.generationTime, 0.0);
        QCOMPARE(g.ttft, f.ttft);
        QCOMPARE(g.tpot, f.tpot);
        QCOMPARE(g.largestBatch, f.largestBatch);
        QCOMPARE(g.memoryBytes, f.memoryBytes);
        QCOMPARE(g.energyPerToken, f.energyPerToken);
    }

    // Naive attention writes and reads the scores: decode at C = 4096 moves B x H x C scores three
    // more times (written, read by the softmax and written, read by the product) than FlashAttention.
    void naiveAttentionMovesTheScores()
    {
        LlmSettings naive;
        naive.attention = LlmAttention::Naive;
        const Network f = phase("llama-2-7b", LlmPhase::Decode, 4096);
        const Network n = phase("llama-2-7b", LlmPhase::Decode, 4096, naive);
        double flash = rowBytes(row(f, "blk0-31.attention"));
        double three = rowBytes(row(n, "blk0-31.attn_scores")) + rowBytes(row(n, "blk0-31.attn_softmax"))
            + rowBytes(row(n, "blk0-31.attn_context"));
        QCOMPARE(three - flash, 32 * 4.0 * 32 * 4096 * 2);
    }

    // Tensor parallel (Megatron-LM's split, Shoeybi et al. 2019, section 3): Llama-2-70B at fp16 over two
    // 80 GB A100s holds 69.0 GB of weights per GPU (138 GB / 2, the norms on both): it fits, where one
    // GPU does not. Each GPU's q_proj has half the heads: 2 x 8192 x 4096 FLOP per decoded token. Link
    // traffic of a decode step of Llama-2-7B at batch 1 over 2 GPUs, worked by hand: 65 all-reduces (2 per
    // block, 1 for the vocabulary-split embedding) of 4096 x 2 bytes, each sending 2 (N - 1) / N = 1 x
    // its size, and the logits' all-gather sending (N - 1) / N x 32,000 x 2: 65 x 8,192 + 32,000 = 564,480 B.
    void tensorParallelSplitsRowsAndMemory()
    {
        const Device a100 = test::shippedDevice("a100-sxm-80gb");
        LlmSettings two;
        two.tensorParallel = 2;
        const LlmOutcome o = analyzeLlm(builtin("llama-2-70b"), two, { a100 });
        QVERIFY2(o.analysis, o.error.c_str());
        const LlmDeviceFigures& f = o.analysis->figures[0];
        QVERIFY(f.fits);
        QVERIFY(f.weightsBytes > 68.95e9 && f.weightsBytes < 69.1e9);
        QCOMPARE(o.analysis->parameters, std::int64_t(68976648192));
        // 8 KV heads over 2 GPUs: 4 each, half the cache per token
        QCOMPARE(f.kvBytesPerToken, 2.0 * 80 * 4 * 128 * 2);
        const Network n = phase("llama-2-70b", LlmPhase::Decode, 512, two);
        QCOMPARE(rowFlops(row(n, "blk0-79.q_proj")), 80 * 2.0 * 8192 * 4096);

        const LlmPhaseBuild d = buildLlmPhase(builtin("llama-2-7b"), two, LlmPhase::Decode, 512);
        QCOMPARE(d.linkBytes, 564480.0);
        QCOMPARE(d.collectives, 66);
        const LlmOutcome seven = analyzeLlm(builtin("llama-2-7b"), two, { a100 });
        const LlmOutcome one = analyzeLlm(builtin("llama-2-7b"), {}, { a100 });
        const LlmDeviceFigures& g = seven.analysis->figures[0];
        QCOMPARE(g.decodeLinkTime, 564480.0 / 450e9); // nvlink4: 450 GB/s per direction
        QCOMPARE(g.tpot, seven.analysis->decode.results[0].totals.time + g.decodeLinkTime);
        QVERIFY(g.tpot < 0.55 * one.analysis->figures[0].tpot); // half the weights read per GPU

        // Llama-3.1-8B has 8 KV heads: over 16 GPUs each holds one, replicated
        LlmSettings sixteen;
        sixteen.tensorParallel = 16;
        QCOMPARE(buildLlmPhase(builtin("llama-3.1-8b"), sixteen, LlmPhase::Decode, 64).kvShare, 1.0 / 8);
        LlmSettings three;
        three.tensorParallel = 3;
        const LlmOutcome bad = analyzeLlm(builtin("llama-2-7b"), three, { a100 });
        QVERIFY(!bad.analysis);
        QVERIFY2(bad.error.starts_with("--tp 3: ") && bad.error.find("32 attention heads") != std::string::npos,
            bad.error.c_str());
    }

    void badSettingsAndShapesAreNamed()
    {
        LlmSettings s;
        s.kvBits = 3;
        QVERIFY(validateLlmSettings(s)->starts_with("--kv-bits"));
        s = {};
        s.prompt = 0;
        QVERIFY(validateLlmSettings(s)->starts_with("--prompt"));
        LlmModel m = builtin("llama-3.1-8b");
        m.arch.kvHeads = 5;
        const LlmOutcome o = analyzeLlm(m, {}, { test::shippedDevice("h100-sxm") });
        QVERIFY(!o.analysis);
        QVERIFY2(o.error.find("num_key_value_heads") != std::string::npos, o.error.c_str());
    }

    // The layer table groups a block's rows (rowBlocks): Llama-3.1 8B decode is the embedding, one
    // block of 32 (its 15 rows: 2 norms, q, k, v, RoPE, the cache write, attention, o, 2 adds, gate, up,
    // SiLU x up, down), the final norm and the head. The block's parameters, worked from its
    // config.json (hidden 4096, 32 heads, 8 KV heads of 128, MLP 14336): q and o 4096 x 4096 each,
    // k and v 4096 x 1024 each, gate, up and down 4096 x 14336 each, two norms of 4096:
    // 218,112,000 per block, 6,979,584,000 for 32; with the embedding and head (128,256 x 4096 each)
    // and the final norm, Meta's published 8,030,261,248. Gemma-2 9B alternates windows: two blocks.
    // Settings a model cannot take, in the window's words with the values that work (issue 73 item 6).
    // Llama-3.1 8B reads 131,072 tokens: a prompt of 200,000 with 128 generated is 200,128; the longest
    // prompt that fits is 131,072 - 128 = 130,944. Its 32 heads, 8 KV heads and 14,336 MLP features
    // split over 2, 4, 8 or 16 GPUs but not 3, 5 or 12: the nearest below and above.
    void settingsThatDoNotWorkHaveFixes()
    {
        const LlmArch& a = *findLanguageModel("llama-3.1-8b");
        LlmSettings s;
        QVERIFY(!llmSettingsFix(a, s));
        s.prompt = 200000;
        auto fix = llmSettingsFix(a, s);
        QVERIFY(fix);
        QCOMPARE(fix->field, std::string("prompt"));
        QCOMPARE(fix->message,
            std::string(
                "Llama-3.1 8B reads at most 131,072 tokens: a prompt of 200,000 and 128 generated make 200,128."));
        QCOMPARE(fix->values, std::vector<int> { 130944 });
        s.prompt = 512;
        for (const auto& [gpus, below, above] : { std::tuple { 3, 2, 4 }, { 5, 4, 8 }, { 12, 8, 16 } }) {
            s.tensorParallel = gpus;
            fix = llmSettingsFix(a, s);
            QVERIFY(fix);
            QCOMPARE(fix->field, std::string("tp"));
            QCOMPARE(fix->values, (std::vector<int> { below, above }));
        }
        s.tensorParallel = 3;
        QCOMPARE(llmSettingsFix(a, s)->message,
            std::string("Llama-3.1 8B: its 32 attention heads do not divide among 3 GPUs."));
    }

    void blocksGroupTheirRows()
    {
        const LlmOutcome o = analyzeLlm(builtin("llama-3.1-8b"), {}, { test::shippedDevice("h100-sxm") }, false);
        QVERIFY(o.analysis);
        const std::vector<LayerResult>& rows = o.analysis->decode.results[0].layers;
        const std::vector<RowBlock> blocks = rowBlocks(rows);
        QCOMPARE(blocks.size(), size_t(1));
        QCOMPARE(blocks[0].name, std::string("blk0-31"));
        QCOMPARE(blocks[0].first, 1);
        QCOMPARE(blocks[0].count, int(rows.size()) - 3);
        QCOMPARE(blocks[0].repeats, 32.0);
        const BlockTotals t = blockTotals(rows, blocks[0]);
        QCOMPARE(t.params, std::int64_t(6'979'584'000));
        QCOMPARE(t.params + rows.front().params + rows[rows.size() - 2].params + rows.back().params,
            std::int64_t(8'030'261'248));
        double time = 0, flops = 0, bytes = 0;
        for (int i = blocks[0].first; i < blocks[0].first + blocks[0].count; ++i) {
            time += rows[size_t(i)].time;
            flops += rows[size_t(i)].flops;
            bytes += rows[size_t(i)].bytes;
        }
        QCOMPARE(t.time, time);
        QCOMPARE(t.intensity, flops / bytes);
        QVERIFY(t.memoryTime > 0.9 * t.time); // decode at batch 1: the block is on the slope
        QVERIFY(t.share > 0.9 && t.share < 1);

        const Network g = phase("gemma-2-9b", LlmPhase::Decode, 8192);
        Report r = analyze(g, llmConfig({}), { test::shippedDevice("h100-sxm") });
        const std::vector<RowBlock> two = rowBlocks(r.results[0].layers);
        QCOMPARE(two.size(), size_t(2));
        QCOMPARE(two[0].name, std::string("blk0-40/2"));
        QCOMPARE(two[1].name, std::string("blk1-41/2"));
        QCOMPARE(two[0].repeats, 21.0);
        QCOMPARE(two[1].first, two[0].first + two[0].count);
        // rows of no block (every network but a language model) group nothing
        const LayerResult plain;
        QVERIFY(rowBlocks({ plain, plain }).empty());
    }

    // Both phases as one report (the window's and figures' "both"): the prefill's rows, then the decode
    // step's, named after their phase, the same figures; its parts say where decode starts; a device's
    // totals are the two together; each phase's block is a block of its own.
    void bothPhasesAreOneReport()
    {
        const LlmOutcome o = analyzeLlm(
            builtin("llama-3.1-8b"), {}, { test::shippedDevice("h100-sxm"), test::shippedDevice("rtx-4090") }, false);
        QVERIFY(o.analysis);
        const LlmAnalysis& a = *o.analysis;
        const Report both = bothPhases(a);
        QCOMPARE(both.results.size(), size_t(2));
        const size_t p = a.prefill.results[0].layers.size(), d = a.decode.results[0].layers.size();
        QCOMPARE(both.parts.size(), size_t(2));
        QCOMPARE(both.parts[0].name, std::string("prefill"));
        QCOMPARE(both.parts[1].name, std::string("decode"));
        QCOMPARE(both.parts[1].first, int(p));
        for (size_t dev = 0; dev < 2; ++dev) {
            const DeviceResult& r = both.results[dev];
            QCOMPARE(r.layers.size(), p + d);
            QCOMPARE(r.layers[3].name, "prefill." + a.prefill.results[dev].layers[3].name);
            QCOMPARE(r.layers[3].time, a.prefill.results[dev].layers[3].time);
            QCOMPARE(r.layers[p + 3].name, "decode." + a.decode.results[dev].layers[3].name);
            QCOMPARE(r.layers[p + 3].share, a.decode.results[dev].layers[3].share); // of its own phase
            QCOMPARE(r.totals.time, a.prefill.results[dev].totals.time + a.decode.results[dev].totals.time);
        }
        const std::vector<RowBlock> blocks = rowBlocks(both.results[0].layers);
        QCOMPARE(blocks.size(), size_t(2));
        QCOMPARE(blocks[0].name, std::string("prefill.blk0-31"));
        QCOMPARE(blocks[1].name, std::string("decode.blk0-31"));
        QCOMPARE(phaseRow(a, LlmPhase::Both, int(p)).phase, LlmPhase::Decode);
        QCOMPARE(phaseRow(a, LlmPhase::Both, int(p)).row, 0);
        QCOMPARE(phaseRow(a, LlmPhase::Both, int(p) - 1).phase, LlmPhase::Prefill);
        QCOMPARE(phaseRow(a, LlmPhase::Prefill, 4).row, 4);
        QCOMPARE(&shownPhase(a, LlmPhase::Decode, both), &a.decode);
        QCOMPARE(&shownPhase(a, LlmPhase::Both, both), &both);
        // one phase is built at a time; "both" is a word the options and sessions take
        QVERIFY(!buildLlmPhase(builtin("llama-3.1-8b"), {}, LlmPhase::Both, 1).network);
        QCOMPARE(parseLlmPhase("both"), std::optional<LlmPhase>(LlmPhase::Both));
    }
};

QTEST_GUILESS_MAIN(TestLlm)
#include "tst_llm.moc"
