// Calibrated times in the window (issue 18): Tools > Calibrate from the measurements fits the imported
// measurements and saves the file; View > Calibrated times then turns every time into the calibrated
// one (table, summary, chart points, exports stamped "calibrated with FILE"); measurements of a batch
// it was not fitted on show the calibrated prediction's error per layer and in total. Synthetic
// measurements that follow the model exactly (measured = 10 us + bound / 0.5) make every figure checkable.
#include "base/format.h"
#include "chart/chartarea.h"
#include "chart/summaryview.h"
#include "features/calibrationview.h"
#include "features/measurementsview.h"
#include "guitestutils.h"
#include "io/calibration_file.h"
#include "io/figure.h"
#include "io/llm_measure_header.h"
#include "io/llm_probes.h"
#include "io/report_writer.h"
#include "llm/llm_analysis.h"
#include "llm/llm_both.h"
#include "table/layertablemodel.h"
#include "testutils.h"
#include "window/mainwindow.h"

#include <QAction>
#include <QLabel>
#include <QStatusBar>

using namespace rfx;

namespace {

Config unet128(int batch)
{
    Config c;
    c.unet.height = c.unet.width = 128;
    c.unet.padding = Padding::Same;
    c.batch = batch;
    return c;
}

// measured = 10 us + bound / 0.5 for every row of the window's first device.
bool writeSynthetic(const Report& report, const QString& path)
{
    QByteArray csv = "layer,time_s\n";
    for (const LayerResult& l : report.results[0].layers)
        csv += QByteArray::fromStdString(l.name) + ',' + QByteArray::number(10e-6 + boundTimeOf(l) / 0.5, 'g', 17)
            + '\n';
    return test::writeFile(path, csv);
}

QString header(const MainWindow& w, int column)
{
    return w.tableModel()->headerData(column, Qt::Horizontal, Qt::DisplayRole).toString();
}

} // namespace

class TestCalibrationView : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

private slots:
    void initTestCase()
    {
        test::isolateGuiTest(m_dir, QStringLiteral("tst_calibrationview"));
        qputenv("XDG_DATA_HOME", m_dir.filePath(QStringLiteral("data")).toUtf8());
    }

    // A measurement whose header gives its run's verdict ("# noisy:", roofline-cli measure's own):
    // the status line says it, the tooltip gives the reason, and calibrating on it warns first.
    void aNoisyMeasurementIsSaidSo()
    {
        MainWindow w(test::freshWindow());
        QVERIFY(test::showAtDesktopSize(w));
        w.workspace().setConfig(unet128(1));
        const QString quiet = m_dir.filePath(QStringLiteral("quiet.csv")),
                      noisy = m_dir.filePath(QStringLiteral("noisy.csv"));
        QVERIFY(writeSynthetic(*w.workspace().report(), quiet));
        QFile in(quiet);
        QVERIFY(in.open(QIODevice::ReadOnly));
        const QByteArray why = "the clock moved from 3.00 GHz to 3.50 GHz during the measurement";
        QVERIFY(test::writeFile(noisy, "# noisy: " + why + "\n" + in.readAll()));
        QString error, summary;
        QVERIFY(w.measurements().import(quiet, &error));
        QVERIFY2(!w.measurements().status().contains(QStringLiteral("noisy")), qPrintable(w.measurements().status()));
        QVERIFY(w.measurements().import(noisy, &error));
        QVERIFY2(w.measurements().status().startsWith(
                     QStringLiteral("Measured: noisy.csv (plain CSV, \u26a0 measured while the machine was noisy): ")),
            qPrintable(w.measurements().status()));
        QVERIFY2(w.measurements().label()->toolTip().contains(
                     QStringLiteral("by the file's own header: ") + QString::fromUtf8(why)),
            qPrintable(w.measurements().label()->toolTip()));
        QVERIFY2(w.calibrateFromMeasurements(m_dir.filePath(QStringLiteral("noisy.cal.json")), &summary, &error),
            qPrintable(error));
        QVERIFY2(
            summary.startsWith(
                QStringLiteral("Warning: noisy.csv was measured while the machine was noisy, by its own header (\u201c")
                + QString::fromUtf8(why)),
            qPrintable(summary));
    }

    void calibrateShowAndHoldOut()
    {
        MainWindow w(test::freshWindow());
        QVERIFY(test::showAtDesktopSize(w));
        QAction* toggle = w.calibrationView()->toggleAction();
        QVERIFY(!toggle->isEnabled()); // nothing to show yet
        w.workspace().setConfig(unet128(1));
        const Report bounds = *w.workspace().report();

        QString summary, error;
        QVERIFY(!w.calibrateFromMeasurements(m_dir.filePath(QStringLiteral("x.cal.json")), &summary, &error));
        QVERIFY2(error.contains(QStringLiteral("Import measurements first")), qPrintable(error));

        const QString b1 = m_dir.filePath(QStringLiteral("b1.csv"));
        QVERIFY(writeSynthetic(bounds, b1));
        QVERIFY(w.measurements().import(b1, &error));
        const QString cal = CalibrationView::defaultPath(QStringLiteral("rtx-2060-super"));
        QVERIFY2(w.calibrateFromMeasurements(cal, &summary, &error), qPrintable(error));
        QVERIFY2(summary.contains(QStringLiteral("conv           compute")), qPrintable(summary));
        QVERIFY(QFileInfo::exists(cal));
        QVERIFY(loadCalibration(cal.toStdString()).calibration);
        QVERIFY(toggle->isEnabled() && toggle->isChecked());

        // Every view shows calibrated times: the table's Time column and its header, the summary, the points.
        const DeviceResult& d = w.workspace().report()->results[0];
        QVERIFY(d.timesCalibrated);
        QCOMPARE(header(w, LayerTableModel::Time), QStringLiteral("Calibrated time"));
        QCOMPARE(header(w, LayerTableModel::Error), QStringLiteral("Cal. error"));
        // Each row by its class's fit: exactly 10 us + 2 x bound where the fit measured the overhead on
        // rows under 20 us (issue 51), the fit's own line where it had none to measure it on.
        const Calibration fitted = *loadCalibration(cal.toStdString()).calibration;
        int exact = 0;
        for (size_t i = 0; i < d.layers.size(); ++i) {
            const LayerResult& b = bounds.results[0].layers[i];
            const CalibrationGroup* g = fitted.groupFor(b.opClass, b.bound);
            QVERIFY(g);
            QCOMPARE(d.layers[i].calibratedBy, std::string_view(g->opClass));
            RFX_COMPARE_REL(d.layers[i].time, g->predict(b.time), 1e-9);
            if (g->overheadSource != OverheadSource::None) {
                RFX_COMPARE_REL(d.layers[i].time, 10e-6 + 2 * b.time, 1e-6);
                ++exact;
            }
            QCOMPARE(d.layers[i].boundTime, bounds.results[0].layers[i].time);
            if (d.layers[i].flops > 0) // the point sits at the calibrated rate, under the roof
                RFX_COMPARE_REL(plottedRate(d.layers[i]), d.layers[i].flops / d.layers[i].time, 1e-12);
        }
        QVERIFY2(exact > int(d.layers.size()) / 2,
            qPrintable(QString::number(exact))); // the bias, ReLU, pool and concat rows
        const QModelIndex time = w.tableModel()->index(0, LayerTableModel::Time);
        QCOMPARE(w.tableModel()->data(time, LayerTableModel::SortRole).toDouble(), d.layers[0].time);
        QVERIFY(w.currentFigure().calibration == cal.toStdString());
        QVERIFY(figureCaption(w.currentFigure(), reportTitle(*w.workspace().report()))
                    .find("Times calibrated with rtx-2060-super-")
            != std::string::npos);
        // The summary's one-line form (a short window) gives the calibrated time and says so.
        w.chartArea()->setCompactSummaries(true);
        const QString line = w.chartArea()->summaries()[0]->plainText();
        QVERIFY2(
            line.startsWith(QStringLiteral("calibrated ") + QString::fromStdString(formatTime(d.totals.time, true))),
            qPrintable(line));
        w.chartArea()->setCompactSummaries(false);

        // Held out: a batch of 4, measured the same way, against the calibration fitted on batch 1.
        w.workspace().setConfig(unet128(4));
        Report b4Bounds = *w.workspace().report();
        const QString b4 = m_dir.filePath(QStringLiteral("b4.csv"));
        QVERIFY(writeSynthetic(b4Bounds, b4));
        QVERIFY(w.measurements().import(b4, &error));
        const QString status = w.measurements().status();
        QVERIFY2(status.contains(QStringLiteral("(plain CSV): calibrated "))
                && status.contains(QStringLiteral(" measured ("))
                && status.contains(QStringLiteral(", rtx-2060-super-")),
            qPrintable(status));
        // On the status bar it ends in "…" where the window is short of room (at 1280 px it ran off
        // the edge), whole in its tooltip.
        QCOMPARE(w.measurements().label()->text(), status);
        QVERIFY(w.measurements().label()->toolTip().startsWith(status));
        QVERIFY(w.measurements().label()->minimumSizeHint().width() < 100);
        // Exact but for the classes with no row under 20 us (the 3x3 convolutions, about 0.6 GFLOP each,
        // and the up-convolutions): no overhead is measured there, so the 10 us each of their rows spent
        // went into the slope at batch 1, and batch 4's four-times-larger rows are predicted 1.6 % slow.
        const Comparison held
            = compareMeasurements(loadMeasurements(b4.toStdString()), w.workspace().report()->results[0]);
        QVERIFY(held.calibratedTotal > 0);
        QVERIFY2(held.calibratedTotal / held.measuredTotal - 1 > 0.005
                && held.calibratedTotal / held.measuredTotal - 1 < 0.03,
            qPrintable(QString::number(held.calibratedTotal / held.measuredTotal - 1)));
        const QModelIndex err
            = w.tableModel()->index(1, LayerTableModel::Error); // enc1.conv1.bias: its overhead measured
        QCOMPARE(w.tableModel()->data(err, Qt::DisplayRole).toString(), QStringLiteral("0 %"));
        const QModelIndex conv = w.tableModel()->index(3, LayerTableModel::Error); // enc1.conv2: none to measure, slow
        QVERIFY(w.tableModel()->data(conv, Qt::DisplayRole).toString().startsWith(QLatin1Char('+')));
        // Batch 4's rows are four times those fitted on: their calibrated times are marked, and the tooltip says why.
        const DeviceResult& d4 = w.workspace().report()->results[0];
        int marked = 0;
        for (size_t i = 0; i < d4.layers.size(); ++i) {
            const QModelIndex t = w.tableModel()->index(int(i), LayerTableModel::Time);
            const bool mark = w.tableModel()->data(t, Qt::DisplayRole).toString().endsWith(QStringLiteral(" \u26a0"));
            QCOMPARE(mark, d4.layers[i].calibrationExtrapolated);
            QCOMPARE(w.tableModel()
                         ->data(t, Qt::ToolTipRole)
                         .toString()
                         .contains(QStringLiteral("Calibrated time extrapolated")),
                mark);
            marked += mark;
        }
        QVERIFY(marked > 0);

        // Off: the bounds again, and the headers say so.
        toggle->setChecked(false);
        QVERIFY(!w.workspace().report()->results[0].timesCalibrated);
        QCOMPARE(header(w, LayerTableModel::Time), QStringLiteral("Time"));
        QCOMPARE(w.workspace().report()->results[0].totals.time, boundTimeOf(b4Bounds.results[0].totals));
        QVERIFY(w.currentFigure().calibration.empty());
    }

    // Issue 50: Tools > Calibrate on a measure --llm file fits its batch probes as roofline-cli calibrate
    // does: the weight products' efficiency at each batch. Synthetic: every row of Llama-3.2 1B's two
    // phases at batch 2 at half its bound, the probes' products at 40 % (batch 1) and 80 % (batch 4).
    void aLanguageModelsBatchProbes()
    {
        MainWindow w(test::freshWindow());
        QVERIFY(test::showAtDesktopSize(w));
        const std::vector<std::string> args { "--llm", "--model", "llama-3.2-1b", "--prompt", "128", "--context", "512",
            "--batch", "2", "--bits", "32" };
        std::string why;
        const auto h = llmMeasureHeader(args, why);
        QVERIFY2(h, why.c_str());
        LlmModel m;
        m.arch = *findLanguageModel("llama-3.2-1b");
        const Device device
            = w.workspace().report()->results[size_t(std::max(0, w.workspace().state().tableDeviceIndex))].device;
        QByteArray csv = "# configuration: --llm --model llama-3.2-1b --prompt 128 --context 512 --batch 2 --bits "
                         "32\nlayer,time_s\n";
        for (const int batch : { 2, 1, 4 }) {
            LlmSettings at = h->settings;
            at.batch = batch;
            const LlmOutcome o = analyzeLlm(m, at, { device }, false);
            QVERIFY2(o.analysis, o.error.c_str());
            const Report both = bothPhases(*o.analysis);
            for (const LayerResult& l : (batch == 2 ? both : o.analysis->decode).results[0].layers)
                if (batch == 2 || (l.opClass == "matrix" && l.bound == Bound::Memory))
                    csv += QByteArray::fromStdString((batch == 2 ? "" : llmProbePrefix(batch)) + l.name) + ','
                        + QByteArray::number(boundTimeOf(l)
                                / (batch == 2        ? 0.5
                                        : batch == 1 ? 0.4
                                                     : 0.8),
                            'g', 17)
                        + '\n';
        }
        const QString file = m_dir.filePath(QStringLiteral("llm-probes.csv"));
        QVERIFY(test::writeFile(file, csv));
        QString summary, error;
        QVERIFY2(w.measurements().import(file, &error), qPrintable(error));
        QVERIFY(w.workspace().state().languageModel());
        QVERIFY(w.workspace().state().comparison);
        QVERIFY(w.workspace().state().comparison->unmatched.empty()); // the probes are not the phases' rows
        const QString cal = m_dir.filePath(QStringLiteral("llm.cal.json"));
        QVERIFY2(w.calibrateFromMeasurements(cal, &summary, &error), qPrintable(error));
        QVERIFY2(summary.contains(QStringLiteral(
                     "by the products' rows M (batch probes; used for M up to 8): M 1 40 %, M 2 50 %, M 4 80 %")),
            qPrintable(summary));
        const auto fitted = loadCalibration(cal.toStdString()).calibration;
        QVERIFY(fitted);
        const CalibrationGroup* g = fitted->ownGroup("matrix", Bound::Memory);
        QVERIFY(g && g->byRows.size() == 3);
        RFX_COMPARE_REL(g->efficiencyAtRows(4), 0.8, 1e-3); // the window's device and the file's bounds, to 2e-5
        // A network shown with this file open: its rows are not the network's; nothing is fitted or
        // written (a Llama file was mapped by order onto U-Net's rows and saved as a calibration).
        w.workspace().showModel("unet");
        QVERIFY(!w.workspace().state().languageModel() && !w.workspace().state().comparison);
        const QString onUnet = m_dir.filePath(QStringLiteral("unet-from-llm.cal.json"));
        QVERIFY(!w.calibrateFromMeasurements(onUnet, &summary, &error));
        QVERIFY2(error.startsWith(QStringLiteral(
                     "llm-probes.csv is a language model's measurement (measure --llm): its rows are not ")),
            qPrintable(error));
        QVERIFY(!QFileInfo::exists(onUnet));
    }

    void aBadFileChangesNothing()
    {
        MainWindow w(test::freshWindow());
        QVERIFY(test::showAtDesktopSize(w));
        const QString bad = m_dir.filePath(QStringLiteral("bad.cal.json"));
        QVERIFY(test::writeFile(
            bad, "{\"schema\": 1, \"kind\": \"roofline-explorer calibration\", \"device\": \"x\", \"groups\": 3}"));
        QString error;
        QVERIFY(!w.calibrationView()->open(bad, &error));
        QVERIFY2(error.contains(bad) && error.contains(QStringLiteral("groups: must be a non-empty list")),
            qPrintable(error));
        QVERIFY(!w.calibrationView()->calibration());
        QVERIFY(!w.calibrationView()->toggleAction()->isEnabled());
        QVERIFY(!w.workspace().report()->results[0].timesCalibrated);
    }
};

QTEST_MAIN(TestCalibrationView)
#include "tst_calibrationview.moc"
