// A language model's calibration from measured throughputs (core/llm/llm_calibrate.h), worked by hand
// on phases of made-up rows, and on a built-in model's: the fit makes the phases take the measured times.
#include "llm/llm_analysis.h"
#include "llm/llm_arch.h"
#include "llm/llm_calibrate.h"
#include "testutils.h"

using namespace rfx;

namespace {

LayerResult row(Bound side, double time)
{
    LayerResult l;
    l.bound = side;
    l.time = time;
    return l;
}

// A decode step of 10 ms of memory-bound and 1 ms of compute-bound rows; a prefill of 100 prompt
// tokens of 20 ms and 100 ms; batch 1.
LlmAnalysis madeUp()
{
    LlmAnalysis a;
    a.settings.batch = 1;
    a.settings.prompt = 100;
    a.figures.push_back({});
    a.figures[0].device = "cpu";
    a.decode.results.resize(1);
    a.decode.results[0].layers = { row(Bound::Memory, 6e-3), row(Bound::Compute, 1e-3), row(Bound::Memory, 4e-3) };
    a.prefill.results.resize(1);
    a.prefill.results[0].layers = { row(Bound::Memory, 20e-3), row(Bound::Compute, 100e-3) };
    return a;
}

} // namespace

class TestLlmCalibrate : public QObject {
    Q_OBJECT

private slots:
    // Both phases, worked by hand: measured at e_m = 1/2 and e_c = 2/5, the decode step takes
    // 10 / 0.5 + 1 / 0.4 = 22.5 ms (1 / 0.0225 = 44.44 tokens/s) and the prefill 20 / 0.5 + 100 / 0.4
    // = 290 ms (100 / 0.29 = 344.8 tokens/s). The 2 x 2 system gives them back:
    //   det = 10 x 100 - 1 x 20 = 980; 1/e_m = (22.5 x 100 - 1 x 290) / 980 = 2; 1/e_c = (10 x 290 - 22.5 x 20) / 980
    //   = 2.5.
    void bothPhasesGiveBothSides()
    {
        const ThroughputFit f = calibrationFromThroughput(madeUp(), 0, 1 / 0.0225, 100 / 0.29);
        QVERIFY2(f.calibration, f.error.c_str());
        RFX_COMPARE_REL(f.memoryEfficiency, 0.5, 1e-12);
        RFX_COMPARE_REL(f.computeEfficiency, 0.4, 1e-12);
        QCOMPARE(f.calibration->deviceId, std::string("cpu"));
        QCOMPARE(f.calibration->groupFor("matrix", Bound::Memory)->efficiency, f.memoryEfficiency);
        QCOMPARE(f.calibration->groupFor("attention", Bound::Compute)->efficiency, f.computeEfficiency);
        QCOMPARE(f.calibration->groupFor("matrix", Bound::Memory)->overhead, 0.0);
        QVERIFY(f.notes.empty());
    }

    // The decode alone: one efficiency, 11 ms / 22 ms = 1/2 for both sides, and a note that the
    // prefill's calibrated time is a guess. A throughput beyond the bound is said.
    void decodeAloneGivesOneEfficiency()
    {
        ThroughputFit f = calibrationFromThroughput(madeUp(), 0, 1 / 0.022, 0);
        QVERIFY(f.calibration);
        RFX_COMPARE_REL(f.memoryEfficiency, 0.5, 1e-12);
        RFX_COMPARE_REL(f.computeEfficiency, 0.5, 1e-12);
        QCOMPARE(f.notes.size(), size_t(1));
        QVERIFY(f.notes[0].find("the prefill's calibrated time is a guess") != std::string::npos);
        f = calibrationFromThroughput(madeUp(), 0, 1 / 0.005, 0); // 5 ms where the bound is 11 ms
        QVERIFY(f.calibration);
        QVERIFY(f.notes.back().find("faster than the roofline's bound (220 % of it)") != std::string::npos);
        f = calibrationFromThroughput(madeUp(), 0, 1 / 0.002, 0); // 2 ms where the bound is 11: 5.5 times, refused
        QVERIFY(!f.calibration);
        QVERIFY2(f.error.find("the measured throughput is 5.50 times what the roofline's bound allows on cpu")
                != std::string::npos,
            f.error.c_str());
        f = calibrationFromThroughput(madeUp(), 0, 0, 0);
        QVERIFY(!f.calibration);
        QVERIFY(f.error.find("positive number of tokens a second") != std::string::npos);
    }

    // On a built-in model: Llama-3.2 1B at batch 4 on an H100; measured at 60 % of the memory roof and
    // 45 % of the compute roof, the calibrated report's TTFT and TPOT are the measured times.
    void calibratedPhasesTakeTheMeasuredTimes()
    {
        LlmModel m;
        m.arch = *findLanguageModel("llama-3.2-1b");
        LlmSettings s;
        s.prompt = 256;
        s.context = 512;
        s.batch = 4;
        const Device d = test::shippedDevice("h100-sxm");
        LlmOutcome o = analyzeLlm(m, s, { d }, false);
        QVERIFY2(o.analysis, o.error.c_str());
        double t[2] = { 0, 0 };
        int i = 0;
        for (const Report* r : { &o.analysis->decode, &o.analysis->prefill }) {
            for (const LayerResult& l : r->results[0].layers)
                t[i] += l.time / (l.bound == Bound::Memory ? 0.6 : 0.45);
            ++i;
        }
        const ThroughputFit f = calibrationFromThroughput(*o.analysis, 0, 4 / t[0], 256 * 4 / t[1]);
        QVERIFY2(f.calibration, f.error.c_str());
        RFX_COMPARE_REL(f.memoryEfficiency, 0.6, 1e-9);
        RFX_COMPARE_REL(f.computeEfficiency, 0.45, 1e-9);
        applyCalibration(o.analysis->decode, *f.calibration, "fit");
        applyCalibration(o.analysis->prefill, *f.calibration, "fit");
        RFX_COMPARE_REL(o.analysis->decode.results[0].totals.calibratedTime, t[0], 1e-9);
        RFX_COMPARE_REL(o.analysis->prefill.results[0].totals.calibratedTime, t[1], 1e-9);
    }
};

QTEST_GUILESS_MAIN(TestLlmCalibrate)
#include "tst_llm_calibrate.moc"
