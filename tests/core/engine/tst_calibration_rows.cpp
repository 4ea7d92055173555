// A matrix fit's efficiency by the products' rows M (CalibrationGroup::byRows, issue 50): learnt from a
// language model's batch probes (io/llm_probes.h), interpolated between them, and applied to the weight
// products of a decode step at another batch, not to the rows that borrow the fit.
#include "engine/calibration.h"
#include "io/llm_measure_header.h"
#include "io/llm_probes.h"
#include "llm/llm_analysis.h"
#include "testutils.h"

#include <cmath>

using namespace rfx;

namespace {

// A memory-bound matrix row of M rows at `efficiency` of its bound (no overhead: bounds of milliseconds).
CalibrationSample row(double m, double bound, double efficiency, double computeTime = 0)
{
    CalibrationSample s;
    s.layer = "r";
    s.opClass = "matrix";
    s.bound = Bound::Memory;
    s.boundTime = bound;
    s.measured = bound / efficiency;
    s.bytes = bound * 1e11;
    s.flops = 2 * m * s.bytes / 4;
    s.computeTime = computeTime;
    s.matrixRows = m;
    return s;
}

LlmModel llama1b()
{
    LlmModel m;
    m.arch = *findLanguageModel("llama-3.2-1b");
    return m;
}

} // namespace

class TestCalibrationRows : public QObject {
    Q_OBJECT

private slots:
    // The configuration's rows at M 2 reach 50 % of their bound; probes at M 1 reach 40 %, at M 4 80 %
    // (their arithmetic, half their bound at the roof, is in what they took: not taken off), at M 8 two
    // rows only (under kMinClassSamples: no point), at M 128 past kMaxRowsPoint (a prefill's: no point).
    void pointsFromTheProbes()
    {
        std::vector<CalibrationSample> samples, probes;
        for (double b : { 1e-3, 2e-3, 4e-3 }) {
            samples.push_back(row(2, b, 0.5));
            probes.push_back(row(1, b, 0.4));
            probes.push_back(row(4, b, 0.8, b / 2));
            probes.push_back(row(128, b, 0.9));
        }
        probes.push_back(row(8, 1e-3, 0.3));
        probes.push_back(row(8, 2e-3, 0.3));
        for (double f : { 1e9, 2e9, 4e9 }) { // compute-bound products at 90 %: the memory fit pays arithmetic at it
            CalibrationSample s = row(256, f / 1e12, 0.9);
            s.bound = Bound::Compute;
            samples.push_back(s);
        }
        const Calibration alone = fitCalibration(samples), with = fitCalibration(samples, probes);
        const CalibrationGroup* g = with.ownGroup("matrix", Bound::Memory);
        QVERIFY(g);
        QCOMPARE(g->byRows.size(), size_t(3));
        const double expected[][2] = { { 1, 0.4 }, { 2, 0.5 }, { 4, 0.8 } };
        for (size_t i = 0; i < 3; ++i) {
            QCOMPARE(g->byRows[i].rows, expected[i][0]);
            RFX_COMPARE_REL(g->byRows[i].efficiency, expected[i][1], 1e-9);
            QCOMPARE(g->byRows[i].samples, 3);
        }
        // The fits themselves are the configuration's rows' alone: the probes change no efficiency.
        QCOMPARE(g->efficiency, alone.ownGroup("matrix", Bound::Memory)->efficiency);
        QCOMPARE(g->samples, 3);
        QCOMPARE(with.ownGroup("all", Bound::Memory)->efficiency, alone.ownGroup("all", Bound::Memory)->efficiency);
        // One M (a file without probes): no points; the fit is as before.
        QVERIFY(alone.ownGroup("matrix", Bound::Memory)->byRows.empty());
    }

    // Between two points the time per bound is linear in log M; hand-worked at M 3 between (2, 50 %) and
    // (4, 80 %): t = ln 1.5 / ln 2 = 0.58496, 1 / e = 0.41504 / 0.5 + 0.58496 / 0.8 = 1.56128, e = 64.050 %.
    void interpolatedInLogRows()
    {
        CalibrationGroup g;
        g.opClass = "matrix";
        g.efficiency = 0.5;
        g.arithmeticEfficiency = 0.9;
        g.byRows = { { 1, 0.4, 3 }, { 2, 0.5, 3 }, { 4, 0.8, 3 } };
        RFX_COMPARE_REL(g.efficiencyAtRows(3), 0.6405008719, 1e-9);
        QCOMPARE(g.efficiencyAtRows(2), 0.5);
        QCOMPARE(g.efficiencyAtRows(0.5), 0.4); // below the first M: the first's
        QCOMPARE(g.efficiencyAtRows(8), 0.8); // up to twice the last: the last's
        QCOMPARE(g.efficiencyAtRows(8.5), 0.0); // beyond: not covered
        QCOMPARE(g.efficiencyAtRows(0), 0.0); // M not known
        // Covered: bound / e(M), the arithmetic in it; not covered: bound / efficiency + arithmetic on top.
        RFX_COMPARE_REL(g.predict(1e-3, 1, 1e-3, 4), 1e-3 / 0.8, 1e-12);
        RFX_COMPARE_REL(g.predict(1e-3, 1, 1e-3, 0), 1e-3 / 0.5 + 1e-3 / 0.9, 1e-12);
        RFX_COMPARE_REL(g.predict(1e-3, 1, 1e-3, 16), 1e-3 / 0.5 + 1e-3 / 0.9, 1e-12);
    }

    // Applied to Llama-3.2 1B's decode step at batch 4 on the H100: its weight products (q_proj, the
    // MLP, lm_head: M = 4) take the point at M 4; the attention's products (rank-4 heads, which borrow
    // the matrix fit) and the prefill's products (M = 4 x 128) the fit's own efficiency.
    void appliedToADecodeStep()
    {
        const Device d = test::shippedDevice("h100-sxm");
        LlmOutcome o = analyzeLlm(llama1b(), cpuLlmSettings(128, 256, 4, 32), { d }, false);
        QVERIFY2(o.analysis, o.error.c_str());
        Calibration c;
        c.deviceId = d.id;
        for (Bound side : { Bound::Compute, Bound::Memory })
            c.groups.push_back({ "all", side, 0, 0.5, 10 });
        c.groups.push_back({ "matrix", Bound::Memory, 0, 0.5, 10 });
        c.groups.back().byRows = { { 1, 0.4, 8 }, { 4, 0.8, 8 } };
        QCOMPARE(applyCalibration(o.analysis->decode, c, "cal.json"), 1);
        int products = 0, attention = 0;
        for (const LayerResult& l : o.analysis->decode.results[0].layers) {
            if (l.bound != Bound::Memory || (l.opClass != "matrix" && l.opClass != "attention"))
                continue;
            const bool weights = l.opClass == "matrix";
            QCOMPARE(matrixRowsOf(l.out), weights ? 4.0 : 0.0);
            QVERIFY2(std::abs(l.calibratedTime - l.time / (weights ? 0.8 : 0.5)) <= 1e-12 * l.calibratedTime,
                l.name.c_str());
            products += weights;
            attention += !weights;
        }
        QCOMPARE(products, 8); // q, k, v, o, gate, up, down, lm_head
        QCOMPARE(attention, 2);
        applyCalibration(o.analysis->prefill, c, "cal.json");
        for (const LayerResult& l : o.analysis->prefill.results[0].layers)
            if (l.bound == Bound::Memory && l.opClass == "matrix" && l.name != "lm_head")
                QVERIFY2(std::abs(l.calibratedTime - l.time / 0.5) <= 1e-12 * l.calibratedTime, l.name.c_str());
    }

    // The probe rows of a measure --llm file (llm_probes.h): named by their batch, left out of what is
    // held against the phases, and held against each probed batch's decode step as samples of M rows.
    void probeRowsOfAMeasurement()
    {
        QCOMPARE(llmProbeBatch("probe.b4.blk0-15.q_proj"), 4);
        QCOMPARE(llmProbeBatch("probe.b16.lm_head"), 16);
        for (const char* not_ :
            { "decode.lm_head", "probe.b.lm_head", "probe.b4", "probe.b0.lm_head", "probe.bx.lm_head", "probe.b4x.q" })
            QVERIFY2(llmProbeBatch(not_) == 0, not_);
        QCOMPARE(llmProbePrefix(8), std::string("probe.b8."));

        const LlmModel m = llama1b();
        LlmSettings s = cpuLlmSettings(128, 512, 2, 32);
        const Device d = test::shippedDevice("h100-sxm");
        MeasurementSet set;
        set.file = "m.csv";
        const std::pair<const char*, double> named[]
            = { { "decode.lm_head", 1e-3 }, { "probe.b4.blk0-15.q_proj", 2e-3 }, { "probe.b4.lm_head", 3e-3 },
                  { "probe.b2.lm_head", 9e-3 }, { "probe.b8.blk0-15.up_proj", 4e-3 },
                  { "probe.b100000.lm_head", 1 } }; // past measure --llm's batches: not analysed
        for (const auto& [name, time] : named) {
            Measurement r;
            r.name = name;
            r.time = time;
            set.rows.push_back(r);
        }
        QCOMPARE(withoutLlmProbes(set).rows.size(), size_t(1));
        const std::vector<CalibrationSample> probes = llmProbeSamples(set, m, s, d);
        QCOMPARE(probes.size(), size_t(3)); // the file's own batch (2) is its decode rows, not a probe's; 100000 none
        s.batch = 4;
        const LlmOutcome at4 = analyzeLlm(m, s, { d }, false);
        QVERIFY(at4.analysis);
        for (const CalibrationSample& p : probes) {
            QCOMPARE(p.opClass, std::string("matrix"));
            QCOMPARE(p.matrixRows, p.layer.starts_with("probe.b4.") ? 4.0 : 8.0);
            if (p.layer == "probe.b4.lm_head") {
                QCOMPARE(p.measured, 3e-3);
                const auto& rows = at4.analysis->decode.results[0].layers;
                const auto it
                    = std::find_if(rows.begin(), rows.end(), [](const LayerResult& l) { return l.name == "lm_head"; });
                QVERIFY(it != rows.end());
                QCOMPARE(p.boundTime, it->time);
            }
        }
    }
};

QTEST_APPLESS_MAIN(TestCalibrationRows)
#include "tst_calibration_rows.moc"
