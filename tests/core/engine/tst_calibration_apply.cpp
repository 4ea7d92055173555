// A calibration applied: calibrated times on a report's rows, the other kinds of work noted, the shares
// moved by the overhead.
#include "engine/calibration.h"
#include "llm/llm_analysis.h"
#include "llm/llm_arch.h"
#include "open/analyses.h"
#include "testutils.h"

#include <set>

using namespace rfx;

class TestCalibrationApply : public QObject {
    Q_OBJECT

private slots:
    // Applied to the default U-Net: every row at efficiency 1/2 and no overhead takes twice its bound; the
    // calibrated view doubles the time, halves throughput and attained rate and keeps every share.
    void appliedToAReport()
    {
        const Device d = test::roundDevice();
        Report report = *analyzeConfig(Config {}, { d }).report;
        Calibration c;
        c.deviceId = d.id;
        for (Bound side : { Bound::Compute, Bound::Memory })
            c.groups.push_back({ "all", side, 0, 0.5, 10, 0, 1, 0, 0 });
        Report other = report;
        c.deviceId = "not-this-one";
        QCOMPARE(applyCalibration(other, c, "cal.json"), 0);
        QCOMPARE(other.results[0].totals.calibratedTime, -1.0);
        c.deviceId = d.id;
        QCOMPARE(applyCalibration(report, c, "cal.json"), 1);
        const DeviceResult& r = report.results[0];
        QCOMPARE(r.calibration, std::string("cal.json"));
        QVERIFY(r.layers.size() >= 20); // the U-Net's rows: a report without rows would pass the loop
        for (const LayerResult& l : r.layers)
            RFX_COMPARE_REL(l.calibratedTime, 2 * l.time, 1e-12);
        RFX_COMPARE_REL(r.totals.calibratedTime, 2 * r.totals.time, 1e-12);

        const Report view = calibratedView(report);
        const DeviceResult& v = view.results[0];
        QVERIFY(v.timesCalibrated);
        RFX_COMPARE_REL(v.totals.time, 2 * r.totals.time, 1e-12);
        QCOMPARE(v.totals.boundTime, r.totals.time);
        RFX_COMPARE_REL(v.totals.throughput, r.totals.throughput / 2, 1e-12);
        RFX_COMPARE_REL(v.totals.peakShare, r.totals.peakShare / 2, 1e-12);
        for (size_t i = 0; i < r.layers.size(); ++i) {
            RFX_COMPARE_REL(v.layers[i].share, r.layers[i].share, 1e-12);
            QCOMPARE(v.layers[i].boundTime, r.layers[i].time);
        }
        // Taking the view twice changes nothing more.
        QCOMPARE(calibratedView(view).results[0].totals.time, v.totals.time);
    }

    // Issue 50: on a language model's decode step (Llama-3.2 1B, 16 blocks, naive attention) a block
    // row pays the overhead once a block, and the attention rows take their class's fit: matrix rows
    // 16 x 2 us + bound / 0.8, attention 16 x 3 us + bound / 0.2, the rest the pooled 1 us + bound / 0.5.
    void languageModelRowsPayPerBlock()
    {
        LlmModel m;
        m.arch = *findLanguageModel("llama-3.2-1b");
        LlmSettings s;
        s.prompt = 128;
        s.context = 256;
        s.attention = LlmAttention::Naive;
        const Device d = test::shippedDevice("h100-sxm");
        LlmOutcome o = analyzeLlm(m, s, { d }, false);
        QVERIFY2(o.analysis, o.error.c_str());
        Report& decode = o.analysis->decode;
        Calibration c;
        c.deviceId = d.id;
        for (Bound side : { Bound::Compute, Bound::Memory }) {
            c.groups.push_back({ "matrix", side, 2e-6, 0.8, 10 });
            c.groups.push_back({ "attention", side, 3e-6, 0.2, 10 });
            c.groups.push_back({ "all", side, 1e-6, 0.5, 10 });
        }
        QCOMPARE(applyCalibration(decode, c, "cal.json"), 1);
        // Each row's class by its name, written here (not the code's own opClass): the weight products
        // and the head are matrix rows, the scores and context products attention, the rest (norms,
        // softmax, RoPE, residuals, the gate's product, the cache write, the embedding's gather) not.
        const std::set<std::string> products { "q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj",
            "down_proj", "lm_head" };
        int attention = 0, blockRows = 0, matrix = 0;
        for (const LayerResult& l : decode.results[0].layers) {
            const std::string base = l.name.substr(l.name.find('.') + 1);
            const bool isAttention = base == "attn_scores" || base == "attn_context"; // the softmax: elementwise
            const bool isMatrix = products.count(base) > 0;
            matrix += isMatrix;
            const double runs = l.block.empty() ? 1 : 16;
            QCOMPARE(l.repeats, runs);
            const double overhead = isAttention ? 3e-6
                : isMatrix                      ? 2e-6
                                                : 1e-6,
                         efficiency = isAttention ? 0.2
                : isMatrix                        ? 0.8
                                                  : 0.5;
            const double expected = runs * overhead + l.time / efficiency;
            QVERIFY2(std::abs(l.calibratedTime - expected) <= 1e-12 * expected, l.name.c_str());
            QCOMPARE(l.opClass == "attention", isAttention);
            attention += isAttention;
            blockRows += !l.block.empty();
        }
        QCOMPARE(attention, 2);
        QCOMPARE(matrix, 8);
        QVERIFY(blockRows >= 12);
    }

    // A fit applied to work of another kind says so: training rows, another precision.
    void otherKindsOfWorkAreNoted()
    {
        const Device d = test::roundDevice();
        Calibration c;
        c.deviceId = d.id;
        c.file = "cal.json";
        c.fittedOn = "--model unet --height 128 --bits 32 --mode inference";
        for (Bound side : { Bound::Compute, Bound::Memory })
            c.groups.push_back({ "all", side, 0, 0.5, 10, 0, 1, 0, 0 });
        Report same = *analyzeConfig(Config {}, { d }).report;
        const size_t before = same.diagnostics.size();
        applyCalibration(same, c, "cal.json");
        QCOMPARE(same.diagnostics.size(), before);
        Config other;
        other.bits = 16;
        other.mode = Mode::Training;
        Report training = *analyzeConfig(other, { d }).report;
        const size_t trainingBefore = training.diagnostics.size();
        applyCalibration(training, c, "cal.json");
        QCOMPARE(training.diagnostics.size(), trainingBefore + 2);
        QVERIFY(training.diagnostics[trainingBefore].message.find("training rows") != std::string::npos);
        QCOMPARE(training.diagnostics[trainingBefore + 1].field, std::string("fitted_on"));
        QVERIFY(
            training.diagnostics[trainingBefore + 1].message.find("fitted on 32-bit kernels, applied to 16-bit rows")
            != std::string::npos);
    }

    // An overhead moves time towards the many small rows: 1 ms on each of the U-Net's rows.
    void overheadShiftsTheShares()
    {
        const Device d = test::roundDevice();
        Report report = *analyzeConfig(Config {}, { d }).report;
        Calibration c;
        c.deviceId = d.id;
        for (Bound side : { Bound::Compute, Bound::Memory })
            c.groups.push_back({ "all", side, 1e-3, 1, 10, 0, 1, 0, 0 });
        applyCalibration(report, c, "cal.json");
        const DeviceResult& r = report.results[0];
        RFX_COMPARE_REL(r.totals.calibratedTime, r.totals.time + 1e-3 * double(r.layers.size()), 1e-12);
    }
};

QTEST_APPLESS_MAIN(TestCalibrationApply)
#include "tst_calibration_apply.moc"
