// Explain and the tour in the live window, offscreen: the selected layer worked out with its own numbers,
// only the controls that can change it suggested, what is there said (and nothing that is not), the roof
// named, the panel following the selection.
#include "base/format.h"
#include "chart/chartarea.h"
#include "devices/device_loader.h"
#include "features/calibrationview.h"
#include "features/exportcontroller.h"
#include "features/exportdialog.h"
#include "features/measurementsview.h"
#include "figure/figurerenderer.h"
#include "model/networks.h"
#include "open/analyses.h"
#include "open/build_network.h"
#include "panels/controlpanel.h"
#include "panels/explain.h"
#include "table/layertablemodel.h"
#include "testpaths.h"
#include "window/mainwindow.h"
#include "window/teaching.h"
#include "workspace/sessioncontroller.h"

#include "guitestutils.h"
#include "model/unet.h"
#include "testutils.h"

#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QSettings>
#include <QSlider>
#include <QSpinBox>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QTextDocument>
#include <QUndoStack>

namespace {
// Explain and the tour keep each figure with its unit (a no-break space, a word joiner after a slash):
// the tests read them as plain words.
QString words(QString s) { return s.remove(QChar(0x2060)).replace(QChar(0x00a0), QLatin1Char(' ')); }
template <typename... A> QString plainExplain(A&&... a) { return words(rfx::explainLayer(std::forward<A>(a)...)); }
template <typename... A> QStringList plainTour(A&&... a)
{
    QStringList pages = rfx::tourPages(std::forward<A>(a)...);
    for (QString& p : pages)
        p = words(p);
    return pages;
}
} // namespace

using namespace rfx;

namespace {
GuiOptions fresh(const QStringList& devices = { QStringLiteral("rtx-2060-super") })
{
    return rfx::test::freshWindow(devices);
}
} // namespace

class TestSessionsExplain : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    QString path(const char* name) const { return m_dir.filePath(QString::fromLatin1(name)); }

private slots:
    void initTestCase()
    {
        rfx::test::isolateGuiTest(m_dir, QStringLiteral("tst_sessions_explain"));
        qputenv("XDG_DATA_HOME", m_dir.filePath(QStringLiteral("data")).toUtf8());
    }

    // A session keeps the whole screen (issue 37 item 1): every view setting, the table's device, the
    // selected row, the measurements and the calibration shown; opened in another window it shows the
    // same (the session each window makes of its state is the same). A file it names that has gone is
    // said, and the rest opens.
    void aSessionKeepsTheWholeScreen()
    {
        const QString measured = path("b1.csv"), cal = path("b1.cal.json"), session = path("whole.rfx.json");
        Session saved;
        {
            MainWindow w(fresh({ QStringLiteral("rtx-2060-super"), QStringLiteral("h100-sxm") }));
            QVERIFY(test::showAtDesktopSize(w));
            Config c;
            c.unet.height = c.unet.width = 128;
            c.unet.padding = Padding::Same;
            w.workspace().setConfig(c);
            QByteArray csv = "layer,time_s\n";
            for (const LayerResult& l : w.workspace().report()->results[0].layers)
                csv += QByteArray::fromStdString(l.name) + ','
                    + QByteArray::number(10e-6 + boundTimeOf(l) / 0.5, 'g', 17) + '\n';
            QVERIFY(test::writeFile(measured, csv));
            QString error, summary;
            QVERIFY(w.measurements().import(measured, &error));
            QVERIFY2(w.calibrateFromMeasurements(cal, &summary, &error), qPrintable(error));
            ViewSettings v = w.workspace().view();
            v.sharedAxes = true;
            v.powerTicks = true;
            v.layerLabels = 0;
            v.filter = { true, 6 };
            w.workspace().setView(v);
            w.workspace().setTableDevice(QStringLiteral("h100-sxm"));
            w.workspace().selectLayer(3);
            QVERIFY2(w.sessions().save(session, &error), qPrintable(error));
            saved = sessionOf(w.workspace().state());
        }
        QVERIFY(saved.view.sharedAxes && saved.view.powerTicks && saved.view.layerLabels == 0
            && saved.view.filter.topN == 6);
        QCOMPARE(saved.tableDevice, std::string("h100-sxm"));
        QVERIFY(!saved.selectedLayer.empty() && saved.measurements == measured.toStdString() && saved.calibrated);
        MainWindow w(fresh());
        QVERIFY(test::showAtDesktopSize(w));
        QString error;
        QVERIFY2(w.sessions().open(session, &error), qPrintable(error));
        QVERIFY(sessionOf(w.workspace().state()) == saved);
        QVERIFY(w.chartArea()->sharedAxes() && w.chartArea()->powerTicks());
        QVERIFY(w.workspace().state().comparison.has_value()); // the diamonds against the table's device
        QVERIFY(w.calibrationView()->shown());
        QCOMPARE(w.table()->currentIndex().isValid(), true);

        // The measurements have gone since: said on the status bar, the rest of the session open.
        QVERIFY(QFile::remove(measured));
        MainWindow again(fresh());
        QVERIFY(test::showAtDesktopSize(again));
        QVERIFY2(again.sessions().open(session, &error), qPrintable(error));
        QVERIFY(!again.workspace().state().measurements);
        QVERIFY(again.workspace().view().sharedAxes && again.calibrationView()->shown());
        QTRY_VERIFY(again.statusBar()->currentMessage().contains(QStringLiteral("b1.csv")));
    }

    void explainSelectedLayer()
    {
        const Report r = *analyzeConfig(Config {}, { rfx::test::shippedDevice("rtx-2060-super") }).report;
        const Network net = *buildUNet(UNetParams {}, 1, false).network;
        const QString html = plainExplain(r, 0, 0, net); // enc1.conv1
        QVERIFY(html.contains(QStringLiteral("enc1.conv1")));
        QVERIFY(html.contains(QStringLiteral("2\u00b71\u00b764\u00b7570\u00b7570\u00b71\u00b73\u00b73")));
        QVERIFY(html.contains(QStringLiteral("374 MFLOP")));
        // (327,184 + 576 + 20,793,600) elements x 4 B = 84.5 MB
        QVERIFY(html.contains(QStringLiteral("inputs 327,184 + weights 576 + outputs 20,793,600")));
        QVERIFY(html.contains(QStringLiteral("84.5 MB")));
        QVERIFY(html.contains(QStringLiteral("memory-bound")));
        QVERIFY(html.contains(QStringLiteral("16.0 FLOP/B")));
        QVERIFY(html.contains(QStringLiteral("What would move it")));
        // a ReLU: fusion removes it; batch cannot move it
        int relu = 0;
        while (r.results[0].layers[size_t(relu)].op != Op::ReLU)
            ++relu;
        const QString reluHtml = plainExplain(r, 0, relu, net);
        QVERIFY(reluHtml.contains(QStringLiteral("Fusion")));
        QVERIFY(reluHtml.contains(QStringLiteral("cannot move it")));
        QCOMPARE(plainTour(r, 0).size(), 4);
        QVERIFY(plainTour(r, 0)[2].contains(QStringLiteral("16.0 FLOP/B")));

        // Another algorithm and traffic model: the panel says what the row really counts.
        Config c;
        c.algorithm = ConvAlgorithm::Winograd4;
        c.traffic = TrafficModel::Tiled;
        c.onchipKiB = 48;
        const Report w = *analyzeConfig(c, { rfx::test::shippedDevice("rtx-2060-super") }).report;
        const QString wHtml = plainExplain(w, 0, 3, net); // enc1.conv2
        QVERIFY2(wHtml.contains(QStringLiteral("Computed <b>winograd4</b>")), qPrintable(wHtml));
        QVERIFY(wHtml.contains(QStringLiteral("6.64 GFLOP")));
        QVERIFY(wHtml.contains(QStringLiteral("tiled traffic, reuse in 48 KiB of shared memory")));
        const QString head = plainExplain(w, 0, int(w.results[0].layers.size()) - 2, net); // head.conv, 1x1
        QVERIFY2(head.contains(QStringLiteral("needs an ungrouped 3x3 kernel at stride 1; computed direct")),
            qPrintable(head));

        // Cache-aware, on the shipped EPYC: U-Net 128's enc1.conv1.relu, W = 8,388,608 B, an L3 row whose
        // first 2 MiB the L2 holds: 25 % at 368 GB/s, 75 % at 219 GB/s, B = 1 / (0.25 / 368e9 + 0.75 /
        // 219e9) = 244 GB/s, t = 8,388,608 / 244e9 = 34.4 us (README "Cache-aware ceilings").
        const DeviceLoad epyc
            = loadDeviceFile(ROOFLINE_TEST_SOURCE_DIR "/resources/measurements/device/epyc-2vcpu-vm.json");
        QVERIFY(epyc.device);
        Config small;
        small.unet.height = small.unet.width = 128;
        small.unet.padding = Padding::Same;
        const Report ca = *analyzeConfig(small, { *epyc.device }).report;
        QVERIFY(ca.results[0].cacheAware);
        const QString cached = plainExplain(ca, 0, 2, *buildNetwork(small).network);
        QVERIFY2(cached.contains(QStringLiteral("which the L3 holds")), qPrintable(cached));
        QVERIFY2(cached.contains(QStringLiteral("The L2 holds 25 % of it at best")), qPrintable(cached));
        QVERIFY2(cached.contains(QStringLiteral("= 244 GB/s")), qPrintable(cached));
        QVERIFY2(cached.contains(QStringLiteral("34.4")), qPrintable(cached));
        // The tour's first page names the cache slopes where the chart draws them, and only there.
        QVERIFY2(plainTour(ca, 0)[0].contains(QStringLiteral("caches' (L1 1.01 TB/s, L2 368 GB/s, L3 219 GB/s)")),
            qPrintable(plainTour(ca, 0)[0]));
        QVERIFY(!plainTour(r, 0)[0].contains(QStringLiteral("caches'")));
    }

    // Explain suggests only what this network and device can change, and names the roof it uses.
    void explainSuggestsOnlyWhatCanChange()
    {
        const Device rtx = rfx::test::shippedDevice("rtx-2060-super");
        // ResNet-50's conv1 is memory-bound at batch 1, but its filters are fixed: no "More filters".
        Config c;
        c.model = "resnet50";
        c.unet.height = c.unet.width = 224;
        c.unet.inChannels = 3;
        c.unet.classes = 1000;
        const Report r = *analyzeConfig(c, { rtx }).report;
        const Network net = *buildCheckedNetwork(c).network;
        int conv1 = -1;
        for (size_t i = 0; i < r.results[0].layers.size(); ++i)
            if (r.results[0].layers[i].name == "conv1")
                conv1 = int(i);
        QVERIFY(conv1 >= 0);
        const QString html = plainExplain(r, 0, conv1, net);
        QVERIFY2(!html.contains(QStringLiteral("More filters")), qPrintable(html));
        // The U-Net's memory-bound enc1.conv1 keeps the suggestion (its filters are a control).
        const Report u = *analyzeConfig(Config {}, { rtx }).report;
        const Network unet = *buildUNet(UNetParams {}, 1, false).network;
        QVERIFY(plainExplain(u, 0, 0, unet).contains(QStringLiteral("More filters")));
        // A compute-bound convolution: tensor cores are suggested while off, not once on.
        const int enc1conv2 = 3;
        QCOMPARE(u.results[0].layers[enc1conv2].bound, Bound::Compute);
        QVERIFY(plainExplain(u, 0, enc1conv2, unet).contains(QStringLiteral("tensor cores")));
        Config t;
        t.tensorCores = true;
        const Report ut = *analyzeConfig(t, { rtx }).report;
        if (ut.results[0].layers[enc1conv2].bound == Bound::Compute)
            QVERIFY(!plainExplain(ut, 0, enc1conv2, unet).contains(QStringLiteral("tensor cores")));
    }

    // Rich text that says what it means for every network: a share under 0.1 % ("<0.1 %") no longer
    // opens a tag and swallows the rest; a fused row joins the row before it by name and operation,
    // not "the convolution"; the tour speaks of the dashed line only when one is drawn, and of the
    // sliders that are on (filters for the U-Net alone).
    void explainAndTourSayWhatIsThere()
    {
        const Device rtx = rfx::test::shippedDevice("rtx-2060-super");
        Config c;
        c.model = ROOFLINE_TEST_DATA_DIR "/onnx/alexnet.onnx";
        c.unet.height = c.unet.width = 224;
        const Report r = *analyzeConfig(c, { rtx }).report;
        const Network net = *buildCheckedNetwork(c).network;
        int tiny = -1, afterGemm = -1;
        for (size_t i = 0; i < r.results[0].layers.size(); ++i) {
            const LayerResult& l = r.results[0].layers[i];
            if (tiny < 0 && l.share > 0 && l.share < 0.0005)
                tiny = int(i);
            if (afterGemm < 0 && i > 0 && isElementwise(l.op) && r.results[0].layers[i - 1].op == Op::Linear)
                afterGemm = int(i);
        }
        QVERIFY(tiny >= 0);
        QVERIFY(afterGemm > 0);
        QTextDocument doc;
        doc.setHtml(plainExplain(r, 0, tiny, net));
        QVERIFY2(doc.toPlainText()
                     .remove(QChar(0x2060))
                     .replace(QChar(0x00a0), QLatin1Char(' '))
                     .contains(QStringLiteral("<0.1 % of the network's")),
            qPrintable(doc.toPlainText().remove(QChar(0x2060)).replace(QChar(0x00a0), QLatin1Char(' '))));
        doc.setHtml(plainExplain(r, 0, afterGemm, net));
        const QString fused = doc.toPlainText().remove(QChar(0x2060)).replace(QChar(0x00a0), QLatin1Char(' '));
        QVERIFY2(fused.contains(QStringLiteral("its FLOPs join %1 (linear)")
                                    .arg(QString::fromStdString(r.results[0].layers[size_t(afterGemm) - 1].name))),
            qPrintable(fused));
        QVERIFY(!fused.contains(QStringLiteral("join the convolution")));
        // Tour, AlexNet file: no filters slider to move; no dashed line without tensor cores.
        const QStringList pages = plainTour(r, 0);
        QVERIFY2(!pages[3].contains(QStringLiteral("filters")), qPrintable(pages[3]));
        QVERIFY(pages[3].contains(QStringLiteral("batch")));
        QVERIFY2(!pages[1].contains(QStringLiteral("The dashed line")), qPrintable(pages[1]));
        Config t = c;
        t.tensorCores = true;
        t.bits = 16;
        const QStringList tensor = plainTour(*analyzeConfig(t, { rtx }).report, 0);
        QVERIFY2(tensor[1].contains(QStringLiteral("The dashed line")), qPrintable(tensor[1]));
        // The U-Net: its filters are a control.
        QVERIFY(plainTour(*analyzeConfig(Config {}, { rtx }).report, 0)[3].contains(QStringLiteral("filters")));
    }

    // At 8 bits with tensor cores the elementwise rows run under the vector roof, the convolutions
    // under the matrix roof; each says which, with its own ridge (the chart draws the vector roof dashed).
    void explainNamesTheRoof()
    {
        Config c;
        c.bits = 8;
        c.tensorCores = true;
        const Report r = *analyzeConfig(c, { rfx::test::shippedDevice("rtx-2060-super") }).report;
        const Network net = *buildUNet(UNetParams {}, 1, false).network;
        const DeviceResult& d = r.results[0];
        int relu = 0;
        while (d.layers[size_t(relu)].op != Op::ReLU)
            ++relu;
        const QString conv = plainExplain(r, 0, 0, net), elementwise = plainExplain(r, 0, relu, net);
        QVERIFY2(conv.contains(QStringLiteral("the <b>matrix roof</b> (tensor INT8)")), qPrintable(conv));
        QVERIFY2(elementwise.contains(QStringLiteral("the <b>vector roof</b>")), qPrintable(elementwise));
        QVERIFY(elementwise.contains(QStringLiteral("the chart's dashed roof")));
        QVERIFY(conv.contains(
            QString::fromStdString(formatNumber3(d.ceiling.flops / d.bandwidth)) + QStringLiteral(" FLOP/B")));
        QVERIFY(elementwise.contains(
            QString::fromStdString(formatNumber3(d.vectorCeiling.flops / d.bandwidth)) + QStringLiteral(" FLOP/B")));
        QVERIFY(conv.contains(QStringLiteral("OP/s"))); // integer rates
    }

    void explainPanelFollowsTheSelection()
    {
        MainWindow w(fresh());
        w.resize(1400, 900);
        w.show();
        QAction* toggle = nullptr;
        for (QAction* a : w.findChildren<QAction*>())
            if (a->text() == QStringLiteral("Explain"))
                toggle = a;
        QVERIFY(toggle);
        toggle->trigger();
        QVERIFY(w.teaching().explainView()->isVisible());
        QVERIFY(w.teaching()
                    .explainView()
                    ->toPlainText()
                    .remove(QChar(0x2060))
                    .replace(QChar(0x00a0), QLatin1Char(' '))
                    .contains(QStringLiteral("Reading the roofline")));
        w.table()->selectionModel()->setCurrentIndex(
            w.table()->model()->index(3, 0), QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        QVERIFY(w.teaching()
                    .explainView()
                    ->toPlainText()
                    .remove(QChar(0x2060))
                    .replace(QChar(0x00a0), QLatin1Char(' '))
                    .contains(QStringLiteral("enc1.conv2")));
        if (qEnvironmentVariableIsSet("RFX_SAVE_GRABS"))
            w.grab().save(QDir::temp().filePath(QStringLiteral("rfx-explain.png")));
    }
};

QTEST_MAIN(TestSessionsExplain)
#include "tst_sessions_explain.moc"
