// Tools > Measure this network on this machine (issue 18): with no device "this-machine" yet, this
// CPU's ceilings are measured first; every row of the shown network runs with oneDNN; the CSV is
// written to the user's measurement folder and shown at once as diamonds on this machine's chart,
// with the measured columns in the table. Cancelling writes nothing and changes nothing.
#include "chart/chartarea.h"
#include "features/measurementsview.h"
#include "table/layertablemodel.h"
#include "window/mainwindow.h"
#include "workspace/workspace.h"

#include "chart/rooflinechart.h"
#include "features/thislanguagemodel.h"
#include "features/thisnetwork.h"
#include "guitestutils.h"
#include "testutils.h"

#include <QDir>
#include <QElapsedTimer>
#include <QProgressDialog>
#include <QPushButton>
#include <QTimer>

using namespace rfx;

namespace {

Config smallUNet()
{
    Config c;
    c.unet.height = c.unet.width = 64;
    c.unet.padding = Padding::Same;
    c.unet.baseFilters = 8;
    return c;
}

} // namespace

class TestMeasureNetwork : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

private slots:
    void initTestCase()
    {
        test::isolateGuiTest(m_dir, QStringLiteral("tst_measurenetwork"));
        qputenv("XDG_DATA_HOME", m_dir.filePath(QStringLiteral("data")).toUtf8()); // this-machine.json and the CSVs
    }

    void cancellingWritesNothing()
    {
        MainWindow w(test::freshWindow());
        QVERIFY(test::showAtDesktopSize(w));
        Config c; // the U-Net at 128 x 128 takes seconds: long enough to cancel
        c.unet.height = c.unet.width = 128;
        c.unet.padding = Padding::Same;
        w.workspace().setConfig(c);
        const size_t devicesBefore = w.workspace().report()->results.size();
        // Cancel from the progress dialog as soon as it shows (after the ceilings, which come first).
        QElapsedTimer cancelledAt;
        QTimer cancel;
        cancel.setInterval(5);
        QObject::connect(&cancel, &QTimer::timeout, &w, [&] {
            for (QProgressDialog* d : w.findChildren<QProgressDialog*>())
                if (d->windowTitle() == QStringLiteral("Measure this network") && d->value() > 0)
                    if (auto* button = d->findChild<QPushButton*>()) {
                        cancelledAt.start();
                        button->click(); // as the user does
                    }
        });
        cancel.start();
        QString summary;
        QVERIFY(w.measureThisNetwork(LayerBenchOptions::quickMode(), test::quickMicrobench(), 65, &summary).isEmpty());
        QCOMPARE(summary, QStringLiteral("Measuring cancelled; nothing written"));
        QVERIFY(cancelledAt.isValid());
        QVERIFY2(cancelledAt.elapsed() < 1000, qPrintable(QString::number(cancelledAt.elapsed()))); // within a second
        QVERIFY(QDir(measurementFolder()).entryList(QDir::Files).isEmpty());
        QVERIFY(w.measurements().status().isEmpty());
        QCOMPARE(w.workspace().report()->results.size(),
            devicesBefore + 1); // this machine joined: its ceilings were measured
    }

    void theLayersLandUnderThisMachinesRoofline()
    {
        MainWindow w(test::freshWindow());
        QVERIFY(test::showAtDesktopSize(w));
        w.workspace().setConfig(smallUNet());
        QString summary;
        const QString path
            = w.measureThisNetwork(LayerBenchOptions::quickMode(), test::quickMicrobench(), 65, &summary);
        QVERIFY2(!path.isEmpty(), qPrintable(summary));
        QVERIFY(path.startsWith(measurementFolder()));
        QVERIFY(QFileInfo::exists(path));
        const size_t rows = w.workspace().report()->results.front().layers.size();
        QVERIFY2(
            summary.startsWith(QStringLiteral("%1 of %1 rows measured with oneDNN 2.").arg(rows)), qPrintable(summary));
        // Shown at once: the status line, the table's measured column, the diamonds on this machine's chart.
        QVERIFY2(w.measurements().status().contains(QStringLiteral("%1 layers mapped").arg(rows)),
            qPrintable(w.measurements().status()));
        QVERIFY(!w.table()->isColumnHidden(LayerTableModel::Measured));
        const Report& r = *w.workspace().report();
        int machine = -1;
        for (size_t i = 0; i < r.results.size(); ++i)
            if (r.results[i].device.id == "this-machine")
                machine = int(i);
        QVERIFY(machine >= 0);
        QCOMPARE(w.workspace().state().tableDeviceIndex, machine);
        const std::vector<RooflineChart*> charts = w.chartArea()->charts();
        const auto& layers = r.results[size_t(machine)].layers; // zero-FLOP rows (concat) have no place on the chart
        const auto plotted
            = size_t(std::count_if(layers.begin(), layers.end(), [](const LayerResult& l) { return l.flops > 0; }));
        QVERIFY(plotted < rows);
        QCOMPARE(charts[size_t(machine)]->measuredPoints().size(), plotted);
        for (const QPointF& p : charts[size_t(machine)]->measuredPoints())
            QVERIFY(std::isfinite(p.x()) && std::isfinite(p.y()) && p.y() > 0);
    }

    // Issue 50 item 1: with a language model shown, the same action measures its prefill and a
    // decode step at the window's prompt, context and batch as a CPU runs them (bf16 where the window
    // is 16-bit and the CPU has it, fp32 otherwise), and shows the file at once with those settings:
    // both phases, every row mapped by name. A batch past what it runs is refused in words.
    void aLanguageModelMeasuresBothPhases()
    {
        MainWindow w(test::freshWindow());
        QVERIFY(test::showAtDesktopSize(w));
        QDir dir(m_dir.path());
        QVERIFY(dir.mkpath(QStringLiteral("tiny-llama")));
        QFile f(dir.filePath(QStringLiteral("tiny-llama/config.json")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"model_type": "llama", "hidden_size": 128, "num_hidden_layers": 2, "num_attention_heads": 4,
                    "num_key_value_heads": 2, "intermediate_size": 256, "vocab_size": 512,
                    "max_position_embeddings": 512, "tie_word_embeddings": true})");
        f.close();
        Workspace& ws = w.workspace();
        ws.showModel(f.fileName().toStdString());
        QVERIFY(ws.state().languageModel());
        LlmWork work = ws.state().llm;
        work.settings.prompt = 16;
        work.settings.generate = 16;
        work.settings.batch = 65;
        ws.setLlm(work);
        QString summary;
        QVERIFY(w.measureThisNetwork(LayerBenchOptions::quickMode(), test::quickMicrobench(), 65, &summary).isEmpty());
        QVERIFY2(summary.contains(QStringLiteral("set the batch to 64 or fewer")), qPrintable(summary));
        work.settings.batch = 2;
        ws.setLlm(work);
        const LlmSettings measured = measurableLlmSettings(ws.state().llm.settings);
        QCOMPARE(measured.context, 24); // the generation's middle: 16 + 16 / 2
        const QString path
            = w.measureThisNetwork(LayerBenchOptions::quickMode(), test::quickMicrobench(), 65, &summary);
        QVERIFY2(!path.isEmpty(), qPrintable(summary));
        QVERIFY2(QFileInfo(path).fileName().startsWith(QStringLiteral("tiny-llama-p16-c24-b2-")), qPrintable(path));
        const QString width = measured.actBits == 16 ? QStringLiteral("bf16") : QStringLiteral("fp32");
        QVERIFY2(
            summary.startsWith(QStringLiteral("Measured at prompt 16, context 24, batch 2, %1 throughout").arg(width)),
            qPrintable(summary));
        const WorkspaceState& s = ws.state();
        QCOMPARE(s.llm.phase, LlmPhase::Both);
        QCOMPARE(s.llm.settings.actBits, measured.actBits);
        QCOMPARE(s.llm.settings.attention, LlmAttention::Naive);
        QCOMPARE(s.tableDevice, QStringLiteral("this-machine"));
        QVERIFY(s.comparison);
        const size_t rows = s.report->results[size_t(s.tableDeviceIndex)].layers.size();
        QCOMPARE(s.comparison->layers.size(), rows);
        QVERIFY2(w.measurements().status().contains(QStringLiteral("%1 layers mapped by name").arg(rows)),
            qPrintable(w.measurements().status()));
    }
};

QTEST_MAIN(TestMeasureNetwork)
#include "tst_measurenetwork.moc"
