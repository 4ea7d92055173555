// The language-model mode's sweeps in the window (issue 36 item 5): the view draws what the engine's
// sweep gives for the workspace's model, settings and devices, follows its edits, says how to get a
// language model when a network is shown, gives each point's figures on hover, and exports the sweep
// as a figure whose sidecar roofline-cli reproduces (tst_export draws the CLI's side).
#include "features/exportcontroller.h"
#include "sweep/sweepview.h"
#include "workspace/workspace.h"

#include "guitestutils.h"
#include "testutils.h"

#include "io/figure.h"
#include "llm/llm_files.h"

#include <QChart>
#include <QFile>
#include <QImageReader>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QtTest>

using namespace rfx;

namespace {
void startWorkspace(Workspace& ws)
{
    ws.setLibrary(loadDeviceLibrary({ std::filesystem::path(ROOFLINE_TEST_DEVICES_DIR) }));
    ws.setWork(Config {}, { QStringLiteral("h100-sxm"), QStringLiteral("rtx-4090"), QStringLiteral("geforce-mx230") });
    ws.startHistory();
}

// The first line series of the chart named after `device`.
const QLineSeries* lineOf(QChart* chart, const QString& device)
{
    for (QAbstractSeries* s : chart->series())
        if (auto* line = qobject_cast<QLineSeries*>(s); line && line->name() == device)
            return line;
    return nullptr;
}
} // namespace

class TestSweepView : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

private slots:
    void initTestCase() { test::isolateGuiTest(m_dir, QStringLiteral("tst_sweepview")); }

    void theViewDrawsTheEnginesSweeps()
    {
        Workspace ws;
        startWorkspace(ws);
        SweepView view;
        view.follow(&ws);
        view.resize(1200, 500);
        view.show();
        view.flush();
        QVERIFY2(
            view.message().contains(QStringLiteral("choose one in the Network selector")), qPrintable(view.message()));
        ws.showModel("llama-3.1-8b");
        LlmWork w = ws.state().llm;
        w.settings.batch = 4;
        ws.setLlm(w);
        view.flush();
        QVERIFY(view.message().isEmpty());
        // What the engine gives for the same model, settings and devices.
        LlmModel llama;
        llama.arch = *findLanguageModel("llama-3.1-8b");
        const LlmOutcome o = analyzeLlm(llama, w.settings, ws.checkedDevices());
        QVERIFY(o.analysis);
        const LlmSweep context = sweepLlm(llama, *o.analysis, ws.checkedDevices(), LlmSweepAxis::Context);
        const LlmSweep& shown = view.sweep(LlmSweepAxis::Context);
        QCOMPARE(shown.lines.size(), size_t(3));
        for (size_t d = 0; d < 3; ++d) {
            QCOMPARE(shown.lines[d].limit, context.lines[d].limit);
            QCOMPARE(shown.lines[d].points.size(), context.lines[d].points.size());
        }
        // The RTX 4090's line on the chart: tokens per second per sequence at each context, to the
        // 18,182 tokens that fit (tst_llm_sweep works it out by hand).
        const QLineSeries* rtx = lineOf(view.chart(LlmSweepAxis::Context), QStringLiteral("RTX 4090"));
        QVERIFY(rtx);
        QCOMPARE(rtx->count(), int(context.lines[1].points.size()));
        QCOMPARE(rtx->at(rtx->count() - 1).x(), 18182.0);
        QCOMPARE(rtx->at(0).y(), context.lines[1].points[0].tokensPerSecond);
        QVERIFY(!lineOf(view.chart(LlmSweepAxis::Context), QStringLiteral("MX230"))); // not even the weights fit
        const QString last = view.pointText(LlmSweepAxis::Context, 1, rtx->count() - 1);
        QVERIFY2(last.contains(QStringLiteral("context 18,182 tokens, batch 4"))
                && last.contains(QStringLiteral("the last that fits")),
            qPrintable(last));
        // The batch sweep: per sequence against the batch's total, from batch 1.
        const QLineSeries* h100 = lineOf(view.chart(LlmSweepAxis::Batch), QStringLiteral("H100 SXM5 80 GB"));
        QVERIFY(h100);
        const LlmSweepPoint& one = view.sweep(LlmSweepAxis::Batch).lines[0].points.front();
        QCOMPARE(one.x, std::int64_t(1));
        QCOMPARE(h100->at(0), QPointF(one.batchTokensPerSecond, one.tokensPerSecond));
        // An edit of the settings redraws it: a longer prompt and the KV cache at 8 bits fit more context.
        w.settings.kvBits = 8;
        ws.setLlm(w);
        view.flush();
        QVERIFY(view.sweep(LlmSweepAxis::Context).lines[1].limit > 2 * 18182 - 10);
        // Back to a network: the view says what it needs.
        ws.showModel("unet");
        view.flush();
        QVERIFY(!view.message().isEmpty());
    }

    void theSweepExportsAsAFigure()
    {
        Workspace ws;
        startWorkspace(ws);
        ws.showModel("mistral-7b");
        ExportController exporter(
            &ws, [] { return FigureSpec {}; }, nullptr);
        FigureSpec spec;
        spec.file = m_dir.filePath(QStringLiteral("batch.png")).toStdString();
        spec.widthIn = 3.5;
        spec.sidecar = true;
        const RenderResult r = exporter.exportSweep(LlmSweepAxis::Batch, spec);
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(r.size.widthPx, 1050);
        const QString caption = QImageReader(QString::fromStdString(spec.file)).text(QStringLiteral("Description"));
        QVERIFY2(caption.startsWith(QStringLiteral("Mistral-7B v0.1"))
                && caption.contains(QStringLiteral("against the whole batch's"))
                && caption.contains(QStringLiteral("Devices: h100-sxm, rtx-4090, geforce-mx230")),
            qPrintable(caption));
        QFile side(QString::fromStdString(spec.file) + QStringLiteral(".json"));
        QVERIFY(side.open(QIODevice::ReadOnly));
        std::string error;
        const auto back = figureFromJson(side.readAll().toStdString(), error);
        QVERIFY2(back && back->llm && back->sweep, error.c_str());
        QVERIFY(*back->sweep == LlmSweepAxis::Batch);
        QCOMPARE(back->llm->model, std::string("mistral-7b"));
        // With a network shown there is nothing to export, and it says so.
        ws.showModel("unet");
        spec.file = m_dir.filePath(QStringLiteral("none.png")).toStdString();
        const RenderResult none = exporter.exportSweep(LlmSweepAxis::Context, spec);
        QVERIFY(!none.ok && none.error.contains(QStringLiteral("no language model")));
        QVERIFY(!QFile::exists(QString::fromStdString(spec.file)));
    }
};

QTEST_MAIN(TestSweepView)
#include "tst_sweepview.moc"
