// The language-model mode with both phases shown (issue 36 item 3): one chart, the prefill's rows as
// open marks and the decode step's filled, a legend entry for each, each phase's verdict, and Explain
// finding a row's phase.
#include "chart/rooflinechart.h"
#include "chart/summaryview.h"
#include "llmmode_panes.h"
#include "panels/llmcontrols.h"

#include "guitestutils.h"
#include "testutils.h"

#include "base/format.h"
#include "engine/calibration.h"
#include "io/figure.h"
#include "io/measurements.h"
#include "io/report_writer.h"
#include "llm/llm_both.h"
#include "workspace/workspace.h"

#include <QComboBox>
#include <QScatterSeries>
#include <QSignalSpy>
#include <QtTest>

#include <algorithm>

using namespace rfx;

namespace {
bool hasRow(const Report& r, const std::string& name)
{
    const auto& rows = r.results.front().layers;
    return std::any_of(rows.begin(), rows.end(), [&](const LayerResult& l) { return l.name == name; });
}
} // namespace

using namespace rfx::test;

class TestLlmPhases : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

private slots:
    void initTestCase() { test::isolateGuiTest(m_dir, QStringLiteral("tst_llmphases")); }

    // Issue 36 item 3: both phases on one chart: the prefill's rows as open marks, the decode step's
    // filled, a legend entry for each; the table groups each phase's block; Explain finds the row's phase.
    void bothPhasesOnOneChart()
    {
        Panes panes;
        Workspace& ws = panes.ws;
        ControlPanel& panel = panes.panel;
        ChartArea& charts = panes.charts;
        QVERIFY(QTest::qWaitForWindowExposed(&charts));
        ws.showModel("llama-3.1-8b");
        QComboBox* phase = panel.llmControls()->phaseCombo();
        const int both = phase->findData(int(LlmPhase::Both));
        QVERIFY(both >= 0);
        phase->setCurrentIndex(both);
        QCOMPARE(ws.state().llm.phase, LlmPhase::Both);
        const Report& r = *ws.state().report;
        const LlmAnalysis& a = *ws.state().llmAnalysis;
        const size_t prefillRows = a.prefill.results[0].layers.size(), decodeRows = a.decode.results[0].layers.size();
        QCOMPARE(r.results[0].layers.size(), prefillRows + decodeRows);
        QCOMPARE(r.parts.size(), size_t(2));
        QCOMPARE(r.parts[1].first, int(prefillRows));
        QCOMPARE(r.results[0].layers[prefillRows + 1].flops, a.decode.results[0].layers[1].flops);
        QCOMPARE(r.results[0].layers.front().name, std::string("prefill.embedding"));
        // the chart: the prefill's points in the open series, the decode's in the filled
        RooflineChart* chart = charts.charts().front();
        int open = 0, filled = 0;
        for (QAbstractSeries* series : chart->chart()->series())
            if (auto* p = qobject_cast<QScatterSeries*>(series)) {
                if (p->name().startsWith(QStringLiteral("prefill, "))) {
                    open += int(p->count());
                    QCOMPARE(p->color().alpha(), 0);
                } else if (p->name().startsWith(QStringLiteral("decode, "))) {
                    filled += int(p->count());
                    QCOMPARE(p->color().alpha(), 255);
                }
            }
        auto plotted = [](const std::vector<LayerResult>& rows) {
            return int(std::count_if(
                rows.begin(), rows.end(), [](const LayerResult& l) { return l.intensity > 0 && l.attainable > 0; }));
        };
        QCOMPARE(open, plotted(a.prefill.results[0].layers));
        QCOMPARE(filled, plotted(a.decode.results[0].layers));
        QStringList legend;
        for (const LegendEntry& e : chart->legendItems())
            legend << e.text;
        QVERIFY2(legend.contains(QStringLiteral("open: prefill")) && legend.contains(QStringLiteral("filled: decode")),
            qPrintable(legend.join(QStringLiteral(" | "))));
        // the summaries give each phase's verdict
        const QString h100 = charts.summaries()[0]->plainText();
        QVERIFY2(h100.contains(QStringLiteral("prefill: compute-bound"))
                && h100.contains(QStringLiteral("decode: memory-bound")),
            qPrintable(h100));
        // a row of the decode part is the decode's row to Explain
        const PhaseRow row = phaseRow(a, LlmPhase::Both, int(prefillRows) + 3);
        QCOMPARE(row.phase, LlmPhase::Decode);
        QCOMPARE(row.row, 3);
        QCOMPARE(phaseRow(a, LlmPhase::Both, 3).phase, LlmPhase::Prefill);
        // back to one phase: one part, the decode's rows
        phase->setCurrentIndex(phase->findData(int(LlmPhase::Decode)));
        QVERIFY(ws.state().report->parts.empty());
        QCOMPARE(ws.state().report->results[0].layers.size(), decodeRows);
    }

    // Issue 50: a measure --llm file's rows, named by phase, map onto the phase shown by name (the
    // prefix taken off for one phase, kept for "both"); a network's measurement maps onto none.
    void measuredRowsMapByPhase()
    {
        Workspace ws;
        startWorkspace(ws);
        ws.showModel("llama-3.1-8b");
        auto set = std::make_shared<MeasurementSet>(parseMeasurements(
            "layer,time_s\nprefill.blk0-31.q_proj,0.25\ndecode.blk0-31.q_proj,0.004\ndecode.lm_head,0.002\n",
            "llm.csv"));
        QVERIFY(set->ok());
        ws.setMeasurements(set);
        LlmWork work = ws.state().llm;
        QCOMPARE(work.phase, LlmPhase::Decode);
        QVERIFY(ws.state().comparison);
        QCOMPARE(ws.state().comparison->layers.size(), size_t(2));
        RFX_COMPARE_REL(ws.state().comparison->measuredTotal, 0.006, 1e-12);
        work.phase = LlmPhase::Prefill;
        ws.setLlm(work);
        QVERIFY(ws.state().comparison);
        QCOMPARE(ws.state().comparison->layers.size(), size_t(1));
        RFX_COMPARE_REL(ws.state().comparison->measuredTotal, 0.25, 1e-12);
        work.phase = LlmPhase::Both;
        ws.setLlm(work);
        QVERIFY(ws.state().comparison);
        QCOMPARE(ws.state().comparison->layers.size(), size_t(3));
        ws.setMeasurements(std::make_shared<MeasurementSet>(
            parseMeasurements("layer,time_s\nconv1,0.001\nconv2,0.002\n", "unet.csv")));
        QVERIFY(!ws.state().comparison);
        // A measure --llm file's header brings its model and settings, both phases shown, so that its
        // rows meet their own bounds: Llama-3.2 1B at fp32, prompt 128, context 512, batch 2.
        ws.setMeasurements(std::make_shared<MeasurementSet>(parseMeasurements(
            "# configuration: --llm --model llama-3.2-1b --prompt 128 --context 512 --batch 2 --bits 32\n"
            "layer,time_s\nprefill.blk0-15.q_proj,0.05\ndecode.blk0-15.q_proj,0.006\n",
            "llm.csv")));
        const WorkspaceState& st = ws.state();
        QCOMPARE(st.llm.model, std::string("llama-3.2-1b"));
        QCOMPARE(st.llm.phase, LlmPhase::Both);
        QCOMPARE(st.llm.settings.prompt, 128);
        QCOMPARE(st.llm.settings.context, 512);
        QCOMPARE(st.llm.settings.batch, 2);
        QCOMPARE(st.llm.settings.actBits, 32);
        QCOMPARE(st.llm.settings.attention, LlmAttention::Naive);
        QVERIFY(st.comparison);
        QCOMPARE(st.comparison->layers.size(), size_t(2));
        // At another batch its rows are not these rows: nothing maps (batch 2's rows against batch
        // 16's bounds read "above the roof"); back at batch 2 they map again.
        LlmWork other = st.llm;
        other.settings.batch = 16;
        ws.setLlm(other);
        QVERIFY(!st.comparison);
        // said in the status line, not gone without a word
        QVERIFY2(measurementsLine(st).contains(
                     QStringLiteral("llm.csv holds llama-3.2-1b at prompt 128, decode context 512, batch 2: "
                                    "not shown at these settings")),
            qPrintable(measurementsLine(st)));
        other.settings.batch = 2;
        ws.setLlm(other);
        QVERIFY(st.comparison);
        // Another model: its rows are not these; the views are told (the status line followed stale).
        QSignalSpy spy(&ws, &Workspace::changed);
        ws.showModel("llama-3.1-8b");
        QVERIFY(!st.comparison);
        QVERIFY(!spy.isEmpty());
        QVERIFY(spy.last().at(1).value<Workspace::Parts>() & Workspace::Measurements);
        // A network shown: the language model's rows are not its rows, and are not mapped by order
        // onto them (U-Net's rows read "-53 %" and "above the roof"); the status line says why.
        ws.showModel("unet");
        QVERIFY(!st.languageModel());
        QVERIFY(!st.comparison);
        QVERIFY2(measurementsLine(st).contains(
                     QStringLiteral("llm.csv holds llama-3.2-1b at prompt 128, decode context 512, batch 2: "
                                    "not shown on a network's rows")),
            qPrintable(measurementsLine(st)));
    }

    // Issue 50 item 3: a calibration applies in the language-model mode too. Each phase's rows get
    // runs x overhead + bound / efficiency of their class (hand-worked below for q_proj), the table and
    // the charts show calibrated times where asked, the summary says the calibrated TTFT and TPOT, and
    // beside a measurement, measured against calibrated with the error, of the rows measured.
    void calibratedInTheLanguageModelMode()
    {
        Panes panes;
        Workspace& ws = panes.ws;
        QVERIFY(QTest::qWaitForWindowExposed(&panes.charts));
        ws.showModel("llama-3.2-1b");
        const std::string device = ws.state().report->results[0].device.id;
        Calibration cal;
        cal.deviceId = device;
        cal.file = "/tmp/llama.cal.json";
        for (Bound side : { Bound::Compute, Bound::Memory }) {
            cal.groups.push_back({ "matrix", side, 2e-6, 0.5, 10 });
            cal.groups.push_back({ "all", side, 1e-6, 0.25, 10 });
        }
        ws.setCalibration(std::make_shared<const Calibration>(cal), true);
        QCOMPARE(ws.state().llm.phase, LlmPhase::Decode);
        const DeviceResult& decode = ws.state().report->results[0];
        QVERIFY(decode.timesCalibrated);
        const auto q = std::find_if(decode.layers.begin(), decode.layers.end(),
            [](const LayerResult& l) { return l.name == "blk0-15.q_proj"; });
        QVERIFY(q != decode.layers.end());
        // 16 blocks' runs at 2 us each, and the bound at half speed: the table's time is this.
        RFX_COMPARE_REL(q->time, 16 * 2e-6 + q->boundTime / 0.5, 1e-12);
        RFX_COMPARE_REL(decode.totals.time, decode.totals.calibratedTime, 1e-12);
        const LlmAnalysis& a = *ws.state().llmAnalysis; // until the next recompute
        const double ttft = a.prefill.results[0].totals.calibratedTime,
                     tpot = a.decode.results[0].totals.calibratedTime;
        QVERIFY(ttft > a.figures[0].ttft && tpot > a.figures[0].tpot); // slower than the bounds, which stay
        const QString summary = panes.charts.summaries()[0]->plainText();
        const QString expected
            = QStringLiteral("calibrated (llama.cal.json): TTFT %1 \u00b7 TPOT %2")
                  .arg(QString::fromStdString(formatTime(ttft, true)), QString::fromStdString(formatTime(tpot, true)));
        QVERIFY2(summary.contains(expected), qPrintable(summary + QStringLiteral(" / ") + expected));
        QVERIFY2(summary.startsWith(QStringLiteral("bound: TTFT ")), qPrintable(summary));
        // The one-line form (a short window, the overlay's device lines) gives the times the chart
        // shows, the calibrated ones, and says so (it gave the bounds, unsaid).
        panes.charts.setCompactSummaries(true);
        const QString line = panes.charts.summaries()[0]->plainText();
        const QString expectedLine
            = QStringLiteral("calibrated TTFT %1 \u00b7 TPOT %2 \u00b7 %3 tokens/s")
                  .arg(QString::fromStdString(formatTime(ttft, true)), QString::fromStdString(formatTime(tpot, true)),
                      QString::fromStdString(formatNumber3(1 / tpot)));
        QVERIFY2(line.startsWith(expectedLine), qPrintable(line + QStringLiteral(" / ") + expectedLine));
        panes.charts.setCompactSummaries(false);
        // Both phases: the sum of the two calibrated phases.
        LlmWork work = ws.state().llm;
        work.phase = LlmPhase::Both;
        ws.setLlm(work);
        RFX_COMPARE_REL(ws.state().report->results[0].totals.calibratedTime, ttft + tpot, 1e-12);
        RFX_COMPARE_REL(ws.state().report->results[0].totals.time, ttft + tpot, 1e-12);
        // A measurement of two rows: measured against the calibrated prediction of those two rows.
        ws.setMeasurements(std::make_shared<MeasurementSet>(
            parseMeasurements("layer,time_s\nprefill.blk0-15.q_proj,0.05\ndecode.blk0-15.q_proj,0.006\n", "llm.csv")));
        QVERIFY(ws.state().comparison);
        const auto& rows = ws.state().report->results[0].layers;
        const auto calibratedOf = [&](const std::string& name) {
            const auto r = std::find_if(rows.begin(), rows.end(), [&](const LayerResult& l) { return l.name == name; });
            return r == rows.end() ? -1.0 : r->calibratedTime;
        };
        const double decodeQ = calibratedOf("decode.blk0-15.q_proj");
        QVERIFY(decodeQ > 0);
        const QString measured = panes.charts.summaries()[0]->plainText();
        const QString tpotLine = QStringLiteral("TPOT 6.00 ms (calibrated %1, %2, 1 of %3 rows)")
                                     .arg(QString::fromStdString(formatTime(decodeQ, true)),
                                         QString::fromStdString(formatSignedPercent(decodeQ / 0.006 - 1, true)))
                                     .arg(ws.state().llmAnalysis->decode.results[0].layers.size());
        QVERIFY2(
            measured.contains(QStringLiteral("measured: TTFT 50.0 ms (calibrated ")) && measured.contains(tpotLine),
            qPrintable(measured + QStringLiteral(" / ") + tpotLine));
        // Without the calibration: the bound's share reached instead, and the bounds in the table.
        ws.setCalibration(nullptr, false);
        QVERIFY(!ws.state().report->results[0].timesCalibrated);
        QVERIFY2(panes.charts.summaries()[0]->plainText().contains(QStringLiteral("of the bound reached, 1 of")),
            qPrintable(panes.charts.summaries()[0]->plainText()));
        panes.charts.setCompactSummaries(true);
        QVERIFY2(panes.charts.summaries()[0]->plainText().startsWith(QStringLiteral("TTFT ")),
            qPrintable(panes.charts.summaries()[0]->plainText()));
    }

    void aLanguageModelIsShownInBothPhases()
    {
        Workspace ws;
        startWorkspace(ws);
        QCOMPARE(ws.report()->network, std::string("U-Net"));
        ws.showModel("llama-3.1-8b");
        const WorkspaceState& s = ws.state();
        QVERIFY(s.languageModel());
        QVERIFY(s.problem.isEmpty());
        QVERIFY(s.llmAnalysis);
        QCOMPARE(s.report->results.size(), size_t(2));
        QVERIFY(hasRow(*s.report, "blk0-31.q_proj"));
        // The rows shown are the decode step's, the figures the engine's for the same settings.
        LlmModel llama;
        llama.arch = *findLanguageModel("llama-3.1-8b");
        const LlmOutcome direct = analyzeLlm(llama, LlmSettings {}, ws.checkedDevices());
        QVERIFY(direct.analysis);
        for (size_t d = 0; d < 2; ++d) {
            QCOMPARE(s.llmAnalysis->figures[d].tpot, direct.analysis->figures[d].tpot);
            QCOMPARE(s.llmAnalysis->figures[d].ttft, direct.analysis->figures[d].ttft);
            QCOMPARE(s.report->results[d].totals.time, direct.analysis->decode.results[d].totals.time);
        }
        // 8 B parameters at fp16 are 15 GiB: they fit in an H100's 80 GB, not in an MX230's 2 GB.
        QVERIFY(s.llmAnalysis->figures[0].fits);
        QVERIFY(!s.llmAnalysis->figures[1].fits);
        // A figure exported now states the configuration the phase was analysed under, not the network's.
        const FigureSpec figure = figureOf(s);
        QCOMPARE(figure.config, s.report->config);
        const std::string caption = figureCaption(figure, reportTitle(*s.report), false);
        QVERIFY2(caption.find("Llama-3.1 8B") != std::string::npos && caption.find("U-Net") == std::string::npos,
            caption.c_str());
        // ... and the settings (the sidecar's language_model reproduces the phase through roofline-cli).
        QVERIFY(figure.llm && *figure.llm == s.llm);
        QVERIFY2(caption.find("Prompt 512, generate 128 (decode at context 576), batch 1") != std::string::npos,
            caption.c_str());
        // The prefill's rows: the whole prompt per row.
        LlmWork w = s.llm;
        w.phase = LlmPhase::Prefill;
        ws.setLlm(w);
        QCOMPARE(ws.state().report->results[0].totals.time, direct.analysis->prefill.results[0].totals.time);
        QVERIFY(
            ws.state().report->results[0].layers[1].flops > 100 * direct.analysis->decode.results[0].layers[1].flops);
    }
};

QTEST_MAIN(TestLlmPhases)
#include "tst_llmphases.moc"
