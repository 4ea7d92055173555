// The context and batch sweeps (core/llm/llm_sweep.h, issue 36 item 5): each point is the decode step
// analyzeLlm gives at that context or batch (a second path: the whole analysis run again with the
// setting changed), each line ends where its device's memory runs out, worked by hand below.
#include "llm/llm_files.h"
#include "llm/llm_sweep.h"
#include "testutils.h"

#include <cmath>

using namespace rfx;

namespace {

LlmModel builtin(const char* id) { return test::builtinModel(id); }

} // namespace

class TestLlmSweep : public QObject {
    Q_OBJECT
private slots:
    void contextSweepIsTheDecodeStepAtEachContext()
    {
        const LlmModel llama = builtin("llama-3.1-8b");
        const std::vector<Device> devices { test::shippedDevice("h100-sxm"), test::shippedDevice("rtx-4090"),
            test::shippedDevice("geforce-mx230") };
        LlmSettings s;
        s.batch = 4;
        const LlmOutcome o = analyzeLlm(llama, s, devices);
        QVERIFY(o.analysis);
        const LlmSweep sweep = sweepLlm(llama, *o.analysis, devices, LlmSweepAxis::Context);
        QVERIFY2(sweep.error.empty(), sweep.error.c_str());
        QCOMPARE(sweep.current, std::int64_t(576)); // P + G / 2
        QCOMPARE(sweep.lines.size(), size_t(3));
        // The RTX 4090's 24 GiB: 16,060,522,496 bytes of fp16 weights (8,030,261,248 parameters x 2), the
        // prefill's largest activation, and per token of context 4 sequences x 2 (K, V) x 32 layers x 8 KV
        // heads x 128 x 2 bytes = 524,288 bytes.
        const LlmDeviceFigures& rtx = o.analysis->figures[1];
        QCOMPARE(rtx.weightsBytes, 16060522496.0);
        const double perToken = 4.0 * 2 * 32 * 8 * 128 * 2;
        const auto byHand
            = std::int64_t(std::floor((24.0 * (1 << 30) - rtx.weightsBytes - rtx.activationBytes) / perToken));
        const LlmSweepLine& line = sweep.lines[1];
        QCOMPARE(line.limit, byHand);
        QCOMPARE(line.points.back().x, byHand);
        QVERIFY(line.points.back().memoryBytes <= line.capacity);
        QVERIFY(line.points.back().memoryBytes + perToken > line.capacity);
        QVERIFY(!line.limitedByModel);
        // The H100 holds the model's whole 131,072 tokens; the MX230 not even the weights.
        QCOMPARE(sweep.lines[0].limit, std::int64_t(131072));
        QVERIFY(sweep.lines[0].limitedByModel);
        QCOMPARE(sweep.lines[0].points.back().x, std::int64_t(131072));
        QVERIFY(sweep.lines[2].points.empty());
        QCOMPARE(sweep.lines[2].limit, std::int64_t(0));
        // Powers of two from 128, the settings' own context and the RTX 4090's last.
        std::vector<std::int64_t> xs;
        for (const LlmSweepPoint& p : line.points)
            xs.push_back(p.x);
        QCOMPARE(xs, (std::vector<std::int64_t> { 128, 256, 512, 576, 1024, 2048, 4096, 8192, 16384, byHand }));
        // Every point: analyzeLlm's TPOT with the decode context set there.
        for (size_t d = 0; d < 2; ++d)
            for (const LlmSweepPoint& p : sweep.lines[d].points) {
                LlmSettings at = s;
                at.context = int(p.x);
                const LlmOutcome again = analyzeLlm(llama, at, devices);
                QVERIFY(again.analysis);
                QCOMPARE(p.tpot, again.analysis->figures[d].tpot);
                QCOMPARE(p.tokensPerSecond, 1 / p.tpot);
                QCOMPARE(p.batchTokensPerSecond, 4 / p.tpot);
            }
        // Decode is memory-bound: a longer context reads more cache, each step is slower.
        for (size_t i = 1; i < line.points.size(); ++i)
            QVERIFY(line.points[i].tpot > line.points[i - 1].tpot);
    }

    void batchSweepTradesPerSequenceForTotal()
    {
        const LlmModel mistral = builtin("mistral-7b");
        const std::vector<Device> devices { test::shippedDevice("h100-sxm"), test::shippedDevice("rtx-4090") };
        LlmSettings s;
        s.batch = 3;
        s.prompt = 1000;
        s.generate = 200;
        const LlmOutcome o = analyzeLlm(mistral, s, devices);
        QVERIFY(o.analysis);
        const LlmSweep sweep = sweepLlm(mistral, *o.analysis, devices, LlmSweepAxis::Batch);
        QVERIFY2(sweep.error.empty(), sweep.error.c_str());
        QCOMPARE(sweep.current, std::int64_t(3));
        // Each sequence holds a cache of P + G = 1,200 tokens, 2 (K, V) x 32 layers x 8 KV heads x 128 x 2
        // bytes x 1,200 = 157,286,400 bytes (Mistral-7B's config.json), and its prompt's largest activation,
        // the MLP's product of gate and up: two inputs and an output of 1,000 x 14,336 x 2 bytes, 86,016,000.
        // On the RTX 4090's 24 GiB beside 7,241,732,096 x 2 bytes of weights: floor((25,769,803,776 -
        // 14,483,464,192) / 243,302,400) = floor(46.39) = 46 sequences. On each device the last batch
        // fits and one sequence more would not. Written here, not taken from the code's largestBatch.
        const double perSequence = 2.0 * 32 * 8 * 128 * 2 * 1200 + 3.0 * 1000 * 14336 * 2;
        QCOMPARE(sweep.lines[1].limit, std::int64_t(46));
        QCOMPARE(std::int64_t(std::floor((24.0 * (1 << 30) - 2 * 7241732096.0) / perSequence)), std::int64_t(46));
        for (size_t d = 0; d < 2; ++d) {
            const LlmSweepLine& line = sweep.lines[d];
            QVERIFY(!line.points.empty());
            QVERIFY(line.points.back().memoryBytes <= line.capacity);
            QVERIFY(line.points.back().memoryBytes + perSequence > line.capacity);
            QCOMPARE(line.limit, o.analysis->figures[d].largestBatch);
            QCOMPARE(line.points.back().x, line.limit);
            QCOMPARE(line.points.front().x, std::int64_t(1));
            QVERIFY(
                std::any_of(line.points.begin(), line.points.end(), [](const LlmSweepPoint& p) { return p.x == 3; }));
            for (size_t i = 1; i < line.points.size(); ++i) {
                QVERIFY(line.points[i].tokensPerSecond <= line.points[i - 1].tokensPerSecond);
                QVERIFY(line.points[i].batchTokensPerSecond > line.points[i - 1].batchTokensPerSecond);
            }
            // The point at the settings' batch is the analysis' own TPOT.
            for (const LlmSweepPoint& p : line.points)
                if (p.x == 3)
                    QCOMPARE(p.tpot, o.analysis->figures[d].tpot);
            // One more sequence of P + G = 1,200 tokens would not fit: Mistral 7B's 2 x 32 layers x 8 KV
            // heads x 128 x 2 bytes = 131,072 bytes per token.
            const double oneMoreSequence = 1200.0 * 131072 + o.analysis->figures[d].activationBytes / 3;
            QVERIFY(line.points.back().memoryBytes <= line.capacity);
            QVERIFY(line.points.back().memoryBytes + oneMoreSequence > line.capacity);
        }
    }
};

QTEST_GUILESS_MAIN(TestLlmSweep)
#include "tst_llm_sweep.moc"
