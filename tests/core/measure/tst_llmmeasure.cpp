// A language model's rows measured on this CPU with oneDNN (issue 50, roofline-cli measure --llm):
// every row the builder makes has a kind and a kernel; a small decoder's prefill and decode rows all
// run (norms as layer normalization, the softmax, RoPE, SiLU x up, the residual adds, the matrix
// products), named as bothPhases names the analysis' rows, so the measurement maps onto it whole.
#include "io/llm_probes.h"
#include "io/measurements.h"
#include "llm/llm_both.h"
#include "llm/llm_rows.h"
#include "measure/keep_fastest.h"
#include "measure/llm_measure.h"
#include "testutils.h"

#include <map>

using namespace rfx;

namespace {

// A Llama-shaped decoder small enough to measure in a second: 2 blocks of hidden 128, 4 heads over
// 2 KV heads of 32, MLP 256, vocabulary 512.
LlmModel tiny()
{
    LlmModel m;
    m.arch = *findLanguageModel("llama-3.2-1b");
    m.arch.id = "tiny";
    m.arch.title = "tiny";
    m.arch.layers = 2;
    m.arch.hidden = 128;
    m.arch.heads = 4;
    m.arch.kvHeads = 2;
    m.arch.headDim = 32;
    m.arch.ffn = 256;
    m.arch.vocab = 512;
    m.arch.maxContext = 512;
    m.arch.publishedParams = 0;
    return m;
}

const RowMeasurement* rowNamed(const NetworkMeasurement& m, const std::string& name)
{
    for (const RowMeasurement& r : m.rows)
        if (r.layer == name)
            return &r;
    return nullptr;
}

} // namespace

class TestLlmMeasure : public QObject {
    Q_OBJECT
private slots:
    // Every row of every built-in, in both phases and with either attention, is of a kind the
    // measurement and the calibration know.
    void everyRowHasAKind()
    {
        // A list that came back empty would check nothing: at least the 24 models docs/language-models.md
        // lists, each with its rows.
        QVERIFY(builtinLanguageModels().size() >= 24);
        int rows = 0;
        for (const LlmArch& a : builtinLanguageModels())
            for (const LlmAttention attention : { LlmAttention::Flash, LlmAttention::Naive })
                for (const LlmPhase phase : { LlmPhase::Prefill, LlmPhase::Decode }) {
                    LlmModel m;
                    m.arch = a;
                    LlmSettings s;
                    s.attention = attention;
                    const LlmPhaseBuild b = buildLlmPhase(m, s, phase, 64);
                    QVERIFY2(b.network, b.error.c_str());
                    QVERIFY2(b.network->layers.size() >= 5, a.id.c_str());
                    rows += int(b.network->layers.size());
                    for (const Layer& l : b.network->layers)
                        QVERIFY2(llmRowKind(l) != LlmRowKind::Unknown, (a.id + ": " + l.name).c_str());
                }
        QVERIFY(rows > 24 * 4 * 5);
        Layer l;
        l.name = "blk0-31.q_proj";
        QCOMPARE(llmRowKind(l), LlmRowKind::Matrix);
        l.name = "blk0-31.attn_softmax";
        QCOMPARE(llmRowKind(l), LlmRowKind::Softmax);
        l.name = "final_norm";
        QCOMPARE(llmRowKind(l), LlmRowKind::Norm);
    }

    // The CPU's settings: fp32 (or bf16) throughout and attention as two products and a softmax.
    void cpuSettings()
    {
        const LlmSettings s = cpuLlmSettings(128, 256, 4, 32);
        QCOMPARE(s.prompt, 128);
        QCOMPARE(decodeContext(s), 256);
        QCOMPARE(s.batch, 4);
        QCOMPARE(s.weightBits, 32.0);
        QCOMPARE(s.kvBits, 32);
        QCOMPARE(s.actBits, 32);
        QVERIFY(s.attention == LlmAttention::Naive);
        QVERIFY(cpuLlmSettings(128, 256, 1, 16).actType == NumberType::Bf16);
        QVERIFY(!validateLlmSettings(s));
        const std::vector<std::string> args = llmMeasureArgs("llama-3.2-1b", s);
        QCOMPARE(args.front(), std::string("--llm"));
        QVERIFY(std::find(args.begin(), args.end(), "256") != args.end());
        // the header read back (calibrate, compare): the same model and settings; a line not written
        // by measure --llm, or edited past its ranges, refused with the reason
        std::string error;
        const auto back = llmMeasureHeader(args, error);
        QVERIFY2(back && back->model == "llama-3.2-1b" && back->settings == s, error.c_str());
        for (const auto& [line, says] : std::vector<std::pair<std::vector<std::string>, std::string>> {
                 { { "--model", "x" }, "not a language model's measurement" },
                 { { "--llm", "--model", "x", "--prompt", "128", "--context", "2000000", "--batch", "1", "--bits",
                       "32" },
                     "a context past the prompt (at most 1048576 tokens)" },
                 { { "--llm", "--model", "x", "--prompt", "12x" },
                     "'--prompt 12x' is not an option measure --llm writes" },
                 { { "--llm", "--model", "x", "--image", "4" }, "'--image 4' is not an option" } }) {
            error.clear();
            QVERIFY(!llmMeasureHeader(line, error));
            QVERIFY2(error.find(says) != std::string::npos, error.c_str());
        }
    }

    // A pass reads every weight and every cached key and value once: between two runs of a row that
    // reads them, the rest stream through the caches, so its working set is the pass's. Llama-3.2 1B
    // decode at fp32, context 256, batch 1: 1,235,814,400 weights (the head tied to the embedding,
    // counted once) x 4 B = 4,943,257,600 B, and the cache read by the scores (K) and the context (V):
    // 2 x 16 blocks x 8 KV heads x 256 x 64 x 4 B = 16,777,216 B; 4,960,034,816 B in all, for q_proj and
    // for attn_scores alike: past every cache, DRAM-bound on a Ryzen 9 5950X (64 MiB of L3, cache-aware).
    // The residual add reads the row before's output: its 3 x 8,192 B stay in a cache.
    void aRowsWorkingSetIsWhatAPassStreams()
    {
        LlmModel m;
        m.arch = *findLanguageModel("llama-3.2-1b");
        Device ryzen = test::shippedDevice("ryzen-9-5950x"); // with cache bandwidths, as a measured CPU's file has
        ryzen.l1Bandwidth = 2e12;
        ryzen.l2Bandwidth = 1e12;
        ryzen.l3Bandwidth = 4e11;
        const LlmOutcome o = analyzeLlm(m, cpuLlmSettings(128, 256, 1, 32), { ryzen }, false);
        QVERIFY2(o.analysis, o.error.c_str());
        const DeviceResult& d = o.analysis->decode.results[0];
        QVERIFY(d.cacheAware);
        int seen = 0;
        for (const LayerResult& l : d.layers) {
            if (l.name == "blk0-15.q_proj" || l.name == "blk0-15.attn_scores") {
                ++seen;
                QCOMPARE(l.workingSet, 4'943'257'600.0 + 16'777'216.0);
                QVERIFY(l.level == MemoryLevel::Dram);
            }
            if (l.name == "blk0-15.attn_residual") {
                ++seen;
                QCOMPARE(l.workingSet, 3 * 8192.0);
                QVERIFY(l.level != MemoryLevel::Dram);
            }
        }
        QCOMPARE(seen, 3);
    }

    // The tiny decoder's rows all run, each on the kernel CPU inference runs it with, named after
    // its phase; the CSV reads back and maps onto both phases' rows with none left over.
    void aSmallDecoderRunsEveryRow()
    {
        const LlmModel m = tiny();
        const LlmSettings s = cpuLlmSettings(16, 32, 2, 32);
        const NetworkMeasurement meas = measureLlm(m, s, LayerBenchOptions::quickMode());
        QVERIFY2(meas.error.empty(), meas.error.c_str());
        // the memory probed before the first part and after the last (5 GB/s to 2 TB/s: any server's)
        QVERIFY2(meas.dramBefore > 5e9 && meas.dramBefore < 2e12 && meas.dramAfter > 5e9 && meas.dramAfter < 2e12,
            (std::to_string(meas.dramBefore) + " " + std::to_string(meas.dramAfter)).c_str());
        const LlmOutcome o = analyzeLlm(m, s, { test::shippedDevice("ryzen-9-5950x") }, false);
        QVERIFY2(o.analysis, o.error.c_str());
        const Report both = bothPhases(*o.analysis);
        // both phases' rows, then the batch probes: the 8 weight products (q, k, v, o, gate, up, down, the
        // head) of the decode step at batches 1, 4, 8 and 16 (2 is the file's own)
        QCOMPARE(meas.rows.size(), both.results[0].layers.size() + 4 * 8);
        std::map<int, int> probes;
        for (const RowMeasurement& r : meas.rows) {
            QVERIFY2(r.measured && r.median > 0, (r.layer + ": " + r.skipped).c_str());
            if (const int b = llmProbeBatch(r.layer)) {
                ++probes[b];
                QVERIFY2(r.primitive.starts_with("matmul"), (r.layer + ": " + r.primitive).c_str());
            }
        }
        QCOMPARE(probes, (std::map<int, int> { { 1, 8 }, { 4, 8 }, { 8, 8 }, { 16, 8 } }));
        QVERIFY(rowNamed(meas, "probe.b16.lm_head") && rowNamed(meas, "probe.b1.blk0-1.down_proj"));
        auto primitive = [&](const char* name) {
            const RowMeasurement* r = rowNamed(meas, name);
            return r ? QString::fromStdString(r->primitive) : QStringLiteral("(no row %1)").arg(QLatin1String(name));
        };
        QVERIFY2(primitive("prefill.blk0-1.attn_norm").startsWith(QStringLiteral("layer_normalization")),
            qPrintable(primitive("prefill.blk0-1.attn_norm")));
        QVERIFY2(primitive("decode.blk0-1.attn_softmax").startsWith(QStringLiteral("softmax")),
            qPrintable(primitive("decode.blk0-1.attn_softmax")));
        QVERIFY2(primitive("decode.blk0-1.act_mul").startsWith(QStringLiteral("binary_mul with swish")),
            qPrintable(primitive("decode.blk0-1.act_mul")));
        QVERIFY2(primitive("prefill.blk0-1.rope").startsWith(QStringLiteral("eltwise")),
            qPrintable(primitive("prefill.blk0-1.rope")));
        QVERIFY2(primitive("prefill.blk0-1.mlp_residual").startsWith(QStringLiteral("binary")),
            qPrintable(primitive("prefill.blk0-1.mlp_residual")));
        QVERIFY2(primitive("decode.blk0-1.attn_scores").startsWith(QStringLiteral("matmul")),
            qPrintable(primitive("decode.blk0-1.attn_scores")));
        QVERIFY2(
            primitive("decode.lm_head").startsWith(QStringLiteral("matmul")), qPrintable(primitive("decode.lm_head")));
        // A block row's cache comes from memory, as in a pass: copies enough to stream what the pass
        // streams between two of its runs (all weights, about 2 MB here, over 16 KB of V cache a block
        // run), not one per block (2), which an L3 holds between runs.
        const QString context = primitive("decode.blk0-1.attn_context");
        const int copies = context.section(QStringLiteral(", "), 1).section(u' ', 0, 0).toInt();
        QVERIFY2(
            context.contains(QStringLiteral(" copies of its weights in turn")) && copies > 32, qPrintable(context));
        const std::string csv = networkMeasurementCsv(meas, llmMeasureArgs("tiny", s), "2026-12-06T08:00Z");
        QVERIFY(csv.starts_with("# Measured by roofline-cli measure --llm with oneDNN"));
        const MeasurementSet all = parseMeasurements(csv, "tiny.csv");
        QVERIFY(all.ok());
        QCOMPARE(all.rows.size(), meas.rows.size());
        for (size_t i = 0; i < all.rows.size(); ++i)
            QVERIFY2(
                std::abs(all.rows[i].time - meas.rows[i].best) <= 1e-5 * meas.rows[i].best, meas.rows[i].layer.c_str());
        const MeasurementSet set = withoutLlmProbes(all);
        // time_s is each row's fastest run (another tenant only slows a run), and the header says so.
        QVERIFY(csv.find("# time_s: the fastest timed run") != std::string::npos);
        QCOMPARE(set.rows.size(), both.results[0].layers.size());
        const Comparison c = compareMeasurements(set, both.results[0]);
        QCOMPARE(c.layers.size(), both.results[0].layers.size());
        QVERIFY(c.unmatched.empty());
        // by phase and kind: in each phase, the matrix rows (q, k, v, o, gate, up, down in 2 blocks, and
        // the head: 15 kernels), the attention's products (scores, context: 4), the rest (norms, RoPE, the
        // softmax, the cache write, the residuals, SiLU x up in 2 blocks, the embedding and the final
        // norm: 18), as the calibration's classes take them
        const std::vector<LlmMeasuredGroup> groups
            = measuredByGroup(c, both.results[0].layers, size_t(both.parts[1].first));
        QCOMPARE(groups.size(), size_t(6));
        int rows = 0;
        for (size_t g = 0; g < groups.size(); ++g) {
            QCOMPARE(groups[g].phase, g < 3 ? LlmPhase::Prefill : LlmPhase::Decode);
            QCOMPARE(groups[g].kernels, g % 3 == 0 ? 15.0 : g % 3 == 1 ? 4.0 : 18.0);
            QVERIFY(groups[g].measured > 0 && groups[g].bound > 0);
            rows += groups[g].rows;
        }
        QCOMPARE(rows, int(set.rows.size()));
    }

    // Passes kept at their fastest (--keep-fastest), worked by hand: this pass ran q_proj at best 2 ms
    // (median 2.5, 5 runs) and the head at 5 ms (median 6, 3 runs); the file's two passes before it had
    // 3 ms (median 3.2, 10 runs) and 4 ms (median 4.1, 6 runs). Kept: q_proj 2 ms of this pass, the
    // head 4 ms and median 4.1 of the file's; 15 and 9 runs; 3 passes.
    void passesKeepTheirFastestRows()
    {
        NetworkMeasurement m;
        m.timeIsBest = true;
        m.rows = { { "decode.blk0-1.q_proj", "matmul", "matmul (brg)", true, "", 2e-3, 2.5e-3, 0.1, 5 },
            { "decode.lm_head", "matmul", "matmul (brg)", true, "", 5e-3, 6e-3, 0.3, 3 },
            { "decode.blk0-1.attn_flash", "matmul", "", false, "no kernel" } };
        const std::string before = "# Measured by roofline-cli measure --llm\n# passes: 2 (--keep-fastest: ...)\n"
                                   "layer,time_s,best_s,median_s,spread,runs,reorder_s,primitive\n"
                                   "decode.blk0-1.q_proj,3e-3,3e-3,3.2e-3,0.2,10,0,matmul\n"
                                   "decode.lm_head,4e-3,4e-3,4.1e-3,0.05,6,0,matmul\n";
        QCOMPARE(passesIn(before), 2);
        QCOMPARE(passesIn("layer,time_s\n# passes: 7\n"), 1); // past the header: a row's text, not the count
        const MeasurementSet earlier = parseMeasurements(before, "before.csv");
        QVERIFY(earlier.ok());
        m.noise = "the clock moved from 3.00 GHz to 3.50 GHz during the measurement";
        QVERIFY(keepFastest(m, earlier, passesIn(before)).empty());
        // the verdict on noise is this pass's, of the three the file now holds: said so
        QCOMPARE(m.noise,
            std::string("the last of 3 passes: the clock moved from 3.00 GHz to 3.50 GHz during the measurement"));
        QCOMPARE(m.rows[0].best, 2e-3);
        QCOMPARE(m.rows[0].median, 2.5e-3);
        QCOMPARE(m.rows[0].runs, 15);
        QCOMPARE(m.rows[1].best, 4e-3);
        QCOMPARE(m.rows[1].median, 4.1e-3);
        QCOMPARE(m.rows[1].spread, 0.05);
        QCOMPARE(m.rows[1].runs, 9);
        QVERIFY(!m.rows[2].measured);
        const std::string csv = networkMeasurementCsv(m, { "--llm" }, "2026-12-06T13:00Z");
        QCOMPARE(passesIn(csv), 3);
        QVERIFY(csv.find("\ndecode.lm_head,0.004,0.004,0.0041,") != std::string::npos);
        QCOMPARE(parseMeasurements(csv, "after.csv").noise, m.noise);
        // a file of other rows, or of rows without their best runs: named, nothing merged
        NetworkMeasurement other = m;
        other.rows[0].layer = "decode.blk0-1.k_proj";
        const std::string e = keepFastest(other, earlier, 2);
        QVERIFY2(e.starts_with("before.csv: has no row 'decode.blk0-1.k_proj'"), e.c_str());
        other.rows[0].layer = "probe.b4.blk0-1.q_proj"; // a file from before the batch probes: said so
        const std::string probe = keepFastest(other, earlier, 2);
        QVERIFY2(probe.starts_with("before.csv: has no row 'probe.b4.blk0-1.q_proj': it was measured before measure "
                                   "--llm ran its batch probes"),
            probe.c_str());
        const MeasurementSet plain
            = parseMeasurements("layer,time_s\ndecode.blk0-1.q_proj,1e-3\ndecode.lm_head,1e-3\n", "plain.csv");
        const std::string p = keepFastest(m, plain, 1);
        QVERIFY2(p.starts_with("plain.csv: line 2: row 'decode.blk0-1.q_proj' has no best_s"), p.c_str());
    }

    // FlashAttention has no oneDNN 2.6 kernel: its row says so and what to do, the others run.
    void flashAttentionSaysWhyNot()
    {
        const LlmModel m = tiny();
        LlmSettings s = cpuLlmSettings(16, 32, 1, 32);
        s.attention = LlmAttention::Flash;
        const NetworkMeasurement meas = measureLlm(m, s, LayerBenchOptions::quickMode());
        const RowMeasurement* r = rowNamed(meas, "decode.blk0-1.attention");
        QVERIFY(r && !r->measured);
        QVERIFY2(r->skipped.find("FlashAttention is one fused kernel") != std::string::npos, r->skipped.c_str());
        QCOMPARE(meas.measuredCount(), int(meas.rows.size()) - 2); // the prefill's and the decode's
    }
};

QTEST_GUILESS_MAIN(TestLlmMeasure)
#include "tst_llmmeasure.moc"
