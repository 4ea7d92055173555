// The live window's work, offscreen: choosing networks and algorithms, the study presets, imported measurements,
// measuring this machine, settings kept between runs.
#include "base/format.h"
#include "chart/chartarea.h"
#include "features/measurementsview.h"
#include "panels/controlpanel.h"
#include "panels/devicepicker.h"
#include "panels/energyview.h"
#include "table/celldelegate.h"
#include "table/layertable.h"
#include "table/layertablemodel.h"
#include "window/mainwindow.h"
#include "window/teaching.h"
#include "workspace/sessioncontroller.h"

#include "chart/rooflinechart.h"
#include "chart/summaryview.h"
#include "guitestutils.h"
#include "testutils.h"
#include "ui/window/mainwindowtests.h"

#include <QAbstractAxis>
#include <QAction>
#include <QApplication>
#include <QChart>
#include <QClipboard>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QFileInfo>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineEdit>
#include <QLineSeries>
#include <QListView>
#include <QMenu>
#include <QMessageBox>
#include <QScatterSeries>
#include <QScrollBar>
#include <QSettings>
#include <QSlider>
#include <QSpinBox>
#include <QStatusBar>
#include <QStyle>
#include <QStyleOptionViewItem>
#include <QTableView>
#include <QTemporaryDir>
#include <QUndoStack>

#include <functional>
#include <utility>

using namespace rfx;

using namespace rfx::mainwindowtest;

class TestMainWindowWork : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

private slots:
    void initTestCase()
    {
        rfx::test::isolateGuiTest(m_dir, QStringLiteral("tst_mainwindow_work"));
        qputenv("XDG_DATA_HOME", m_dir.filePath(QStringLiteral("data")).toUtf8());
    }

    void networkPicker()
    {
        MainWindow w(fresh());
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QComboBox* combo = w.controls()->networkCombo();
        const int resnet = combo->findData(QStringLiteral("resnet50"));
        QVERIFY(resnet > 0);
        combo->setCurrentIndex(resnet);
        emit combo->activated(resnet); // as a user's pick does
        QCOMPARE(w.workspace().report()->network, std::string("ResNet-50"));
        QCOMPARE(w.workspace().report()->results[0].totals.params, std::int64_t(25'557'032));
        QCOMPARE(w.workspace().report()->input, (Shape { 1, 3, 224, 224 }));
        QVERIFY(!w.controls()->filtersSlider()->isEnabled()); // shapes the U-Net only
        QVERIFY(w.controls()->imageSlider()->isEnabled());
        QCOMPARE(cell(w, 0, LayerTableModel::Name), QStringLiteral("conv1"));

        // The image slider is not snapped to U-Net sizes for a preset.
        w.controls()->imageSpin()->setValue(256);
        QCOMPARE(w.workspace().report()->input, (Shape { 1, 3, 256, 256 }));
        QVERIFY(w.controls()->problemText().isEmpty());

        // A custom network file: its own input; the input controls are disabled.
        w.workspace().openModel(QStringLiteral(ROOFLINE_TEST_SOURCE_DIR "/resources/networks/small-cnn.json"));
        QCOMPARE(w.workspace().report()->network, std::string("Small CNN"));
        QCOMPARE(w.workspace().report()->input, (Shape { 1, 3, 32, 32 }));
        QVERIFY(!w.controls()->imageSlider()->isEnabled());
        QCOMPARE(combo->currentText(), QStringLiteral("small-cnn.json"));

        // Back to the U-Net: its published input again.
        const int unet = combo->findData(QStringLiteral("unet"));
        combo->setCurrentIndex(unet);
        emit combo->activated(unet);
        QCOMPARE(w.workspace().report()->results[0].totals.params, std::int64_t(31'030'658));
        QCOMPARE(w.workspace().report()->input, (Shape { 1, 1, 572, 572 }));
        QVERIFY(w.controls()->filtersSlider()->isEnabled());
    }

    void algorithmAndTrafficSelectors()
    {
        MainWindow w(fresh());
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        RooflineChart* chart = w.chartArea()->charts()[0];
        const auto before = chart->layerPoints();
        const double directTime = w.workspace().report()->results[0].totals.time;

        // Winograd for every 3x3 layer: the points move (fewer FLOPs, more bytes: left), the table says so.
        QVERIFY(w.table()->isColumnHidden(LayerTableModel::Algorithm)); // nothing to say with direct convolution
        QComboBox* algorithm = w.controls()->algorithmCombo();
        algorithm->setCurrentIndex(algorithm->findData(int(ConvAlgorithm::Winograd4)));
        QCOMPARE(w.workspace().report()->config.algorithm, ConvAlgorithm::Winograd4);
        QVERIFY(!w.table()->isColumnHidden(LayerTableModel::Algorithm));
        QVERIFY(!w.table()->isColumnHidden(LayerTableModel::Workspace));
        QVERIFY(chart->layerPoints() != before);
        QVERIFY(w.workspace().report()->results[0].totals.time < directTime);
        int row = -1;
        for (int r = 0; r < w.table()->model()->rowCount(); ++r)
            if (cell(w, r, LayerTableModel::Name) == QStringLiteral("enc1.conv2"))
                row = r;
        QVERIFY(row >= 0);
        QCOMPARE(cell(w, row, LayerTableModel::Algorithm), QStringLiteral("winograd4"));
        QVERIFY(!cell(w, row, LayerTableModel::Workspace).isEmpty());
        QVERIFY(!cell(w, row, LayerTableModel::Extra).isEmpty());
        int head = -1;
        for (int r = 0; r < w.table()->model()->rowCount(); ++r)
            if (cell(w, r, LayerTableModel::Name) == QStringLiteral("head.conv"))
                head = r;
        QCOMPARE(cell(w, head, LayerTableModel::Algorithm), QStringLiteral("direct \u26a0")); // 1x1: marked

        // A layer's own algorithm from the table's context menu.
        const int layer = w.table()->model()->index(row, 0).data(LayerTableModel::LayerIndexRole).toInt();
        std::unique_ptr<QMenu> menu(w.layerAlgorithmMenu(layer));
        QVERIFY(menu);
        QAction* fft = menu->findChild<QAction*>(QStringLiteral("algorithm-fft"));
        QVERIFY(fft);
        fft->trigger();
        QCOMPARE(w.workspace().report()->config.layerAlgorithms.at("enc1.conv2"), ConvAlgorithm::Fft);
        QCOMPARE(cell(w, row, LayerTableModel::Algorithm), QStringLiteral("fft"));
        QVERIFY(!w.layerAlgorithmMenu(layer + 1)); // enc1.conv2.bias: no algorithm
        w.sessions().undoStack()->undo();
        QVERIFY(w.workspace().report()->config.layerAlgorithms.empty());

        // Tiled traffic with 48 KiB: more bytes than compulsory; the on-chip box is enabled only then.
        QVERIFY(!w.controls()->onchipSpin()->isEnabled());
        QComboBox* traffic = w.controls()->trafficCombo();
        traffic->setCurrentIndex(traffic->findData(int(TrafficModel::Tiled)));
        QVERIFY(w.controls()->onchipSpin()->isEnabled());
        w.controls()->onchipSpin()->setValue(48);
        QCOMPARE(w.workspace().report()->config.onchipKiB, 48);
        QCOMPARE(w.workspace().report()->results[0].onchipBytes, 48 * 1024.0);
    }

    void presetTheStudy()
    {
        MainWindow w(fresh());
        w.show();
        w.loadPreset(1);
        QCOMPARE(w.workspace().report()->config.unet.height, 128);
        QCOMPARE(w.workspace().report()->config.batch, 16);
        QCOMPARE(w.workspace().report()->config.unet.padding, Padding::Same);
        QCOMPARE(w.workspace().report()->results.size(), size_t(3));
        QCOMPARE(w.workspace().report()->results[2].device.id, std::string("rtx-2060-super"));
    }

    // The energy study's preset (Castro et al. 2018): ResNet-50 training on the Maxwell and Pascal Titan X,
    // batch 64..256, one or two GPUs. The energy view opens with its recommendations and reasons; they
    // follow the network, the batch range and the objective live; "Use it" sets the energy-optimal clock;
    // the charts export as PNG, SVG and PDF.
    void energyStudyPreset()
    {
        MainWindow w(fresh());
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(!w.energyDock()->isVisible());
        w.loadPreset(2);
        QVERIFY(w.energyDock()->isVisible());
        EnergyView* e = w.energyView();
        e->flush();
        QCOMPARE(w.workspace().report()->config.model, std::string("resnet50"));
        QCOMPARE(w.workspace().report()->config.mode, Mode::Training);
        QCOMPARE(e->outcome().results.size(), size_t(2));
        QCOMPARE(e->outcome().results[0].device.id, std::string("titan-x-maxwell"));
        const TuneResult& pascal = e->outcome().results[1];
        QCOMPARE(pascal.points.size(), size_t(3 * 2 * 11)); // batches 64, 128, 256 x 1..2 GPUs x clocks 50..100 %
        // Pascal needs less energy than Maxwell for the same work.
        QVERIFY(pascal.points[*pascal.bestEnergy].e.energyPerImage
            < e->outcome().results[0].points[*e->outcome().results[0].bestEnergy].e.energyPerImage);
        QString html = e->recommendationsHtml();
        QVERIFY2(html.contains(QStringLiteral("Least energy: <b>batch 64 x ")), qPrintable(html));
        QVERIFY(html.contains(QStringLiteral("batch 128 needs ")));
        QVERIFY(html.contains(QStringLiteral("(recommended)")));
        QVERIFY(!e->paretoChart()->series().isEmpty());
        QVERIFY(!e->energyChart()->series().isEmpty());

        // AlexNet from the network picker: everything fits, and the largest batch wins on energy.
        QComboBox* network = w.controls()->networkCombo();
        network->setCurrentIndex(network->findData(QStringLiteral("alexnet")));
        emit network->activated(network->currentIndex()); // as a user's pick
        QCOMPARE(w.workspace().report()->config.model, std::string("alexnet"));
        e->flush();
        const TuneResult& alex = e->outcome().results[1];
        QCOMPARE(alex.points[*alex.bestEnergy].batch, 256);
        QVERIFY(e->recommendationsHtml() != html);
        // The objective changes the starred line.
        e->setObjective(Objective::Time);
        e->flush();
        QVERIFY(e->recommendationsHtml().contains(QStringLiteral("\u2605 Least time")));

        // The energy-optimal clock, one click away.
        QVERIFY(e->optimalClockPercent() > 0 && e->optimalClockPercent() < 100);
        emit e->clockRequested(e->optimalClockPercent());
        QCOMPARE(w.workspace().report()->config.clockPercent, e->optimalClockPercent());
        QCOMPARE(w.controls()->clockSlider()->value(), e->optimalClockPercent());

        QTemporaryDir dir;
        for (const char* suffix : { "png", "svg", "pdf" }) {
            const QString path = dir.filePath(QStringLiteral("energy.") + QLatin1String(suffix));
            QString error;
            QVERIFY2(e->exportCharts(path, &error), qPrintable(error));
            QVERIFY(QFileInfo(path).size() > 1000);
        }
        const QImage png(dir.filePath(QStringLiteral("energy.png")));
        QCOMPARE(png.size(), QSize(3000, 1120));
        int coloured = 0; // device-coloured pixels (the series), not just frame and text
        for (int y = 0; y < png.height(); y += 3)
            for (int x = 0; x < png.width(); x += 3) {
                const QColor c = png.pixelColor(x, y);
                coloured += c.saturation() > 120 && c.value() > 80;
            }
        QVERIFY2(coloured > 500, qPrintable(QString::number(coloured)));
        QString error;
        QVERIFY(!e->exportCharts(dir.filePath(QStringLiteral("energy.bmp")), &error));
        QVERIFY(error.contains(QStringLiteral("unknown format")));
    }

    // Measured against modelled: importing a file puts diamonds beside the modelled points, joined by a
    // line, and the measured time, share of the bound and error in the table; a bad file changes nothing.
    void importMeasurements()
    {
        MainWindow w(fresh());
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.table()->isColumnHidden(LayerTableModel::Measured));
        const QString dir = QStringLiteral(ROOFLINE_TEST_DATA_DIR "/measurements/");
        QString error;
        QVERIFY2(w.measurements().import(dir + QStringLiteral("unet-plain.csv"), &error), qPrintable(error));
        QVERIFY(!w.table()->isColumnHidden(LayerTableModel::Measured));
        QVERIFY2(w.measurements().status().contains(
                     QStringLiteral("3 layers mapped by name onto NVIDIA GeForce RTX 2060 Super")),
            qPrintable(w.measurements().status()));
        QVERIFY(w.measurements().status().contains(QStringLiteral("1 row(s) did not map")));
        int conv2 = -1, pool = -1;
        for (int r = 0; r < w.table()->model()->rowCount(); ++r) {
            if (cell(w, r, LayerTableModel::Name) == QStringLiteral("enc1.conv2"))
                conv2 = r;
            if (cell(w, r, LayerTableModel::Name) == QStringLiteral("enc1.pool"))
                pool = r;
        }
        QCOMPARE(cell(w, conv2, LayerTableModel::Measured), QStringLiteral("6.62 ms"));
        const LayerResult& model = w.workspace().report()->results[0].layers[size_t(
            w.table()->model()->index(conv2, 0).data(LayerTableModel::LayerIndexRole).toInt())];
        QCOMPARE(cell(w, conv2, LayerTableModel::OfBound), QString::fromStdString(formatPercent(model.time / 0.00662)));
        QVERIFY(cell(w, pool, LayerTableModel::OfBound).endsWith(QStringLiteral("\u26a0"))); // beats the roof
        QVERIFY(cell(w, 0, LayerTableModel::Measured).isEmpty()
            == (cell(w, 0, LayerTableModel::Name) != QStringLiteral("enc1.conv1")));
        RooflineChart* chart = w.chartArea()->charts()[0];
        const auto measured = chart->measuredPoints();
        QCOMPARE(measured.size(), size_t(3));
        // enc1.conv2 measured with its own FLOPs and bytes: x = 23,786,422,272 / 166e6, y = F / 6.62 ms.
        bool found = false;
        for (const QPointF& p : measured)
            found = found
                || (std::abs(p.x() - 23786422272.0 / 166e6) < 1e-9 * p.x()
                    && std::abs(p.y() - 23786422272.0 / 0.00662 / chart->yScale()) < 1e-9 * p.y());
        QVERIFY(found);
        // Still there after a slider step (recomputed against the new bounds).
        w.controls()->batchSpin()->setValue(2);
        QCOMPARE(chart->measuredPoints().size(), size_t(3));
        // A bad file: a message with file, line and reason; the loaded measurements stay.
        QTemporaryDir tmp;
        const QString bad = tmp.filePath(QStringLiteral("bad.csv"));
        QVERIFY(test::writeFile(bad, "layer,time_s\nenc1.conv1,-2\n"));
        QVERIFY(!w.measurements().import(bad, &error));
        QVERIFY2(error.contains(QStringLiteral("bad.csv: line 2: time_s: must be a positive number of seconds")),
            qPrintable(error));
        QCOMPARE(chart->measuredPoints().size(), size_t(3));
        w.measurements().clear();
        QVERIFY(chart->measuredPoints().empty());
        QVERIFY(w.table()->isColumnHidden(LayerTableModel::Error));
    }

    // Tools > Measure this machine: a quick run writes this-machine.json to the user device folder, which
    // appears in the device list, checked, with a chart.
    void measureThisMachine()
    {
        MainWindow w(fresh());
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const MicrobenchOptions quick = test::quickMicrobench();
        QString summary;
        QCOMPARE(w.measureThisMachine(quick, 65, &summary), QStringLiteral("this-machine"));
        QVERIFY2(summary.contains(QStringLiteral("FP32 peak: ")), qPrintable(summary));
        QVERIFY(QFileInfo::exists(QString::fromStdString((userDeviceDir() / "this-machine.json").string())));
        QCOMPARE(w.workspace().report()->results.size(), size_t(2));
        QCOMPARE(w.workspace().report()->results[1].device.id, std::string("this-machine"));
        QCOMPARE(w.workspace().report()->results[1].device.kind, std::string("cpu"));
    }

    void settingsRestoreConfigurationAndDevices()
    {
        {
            MainWindow w(fresh({ QStringLiteral("t4"), QStringLiteral("l4") }));
            w.show();
            Config c;
            c.unet.height = c.unet.width = 256;
            c.unet.padding = Padding::Same;
            c.bits = 16;
            w.workspace().setConfig(c);
            ViewSettings v = w.workspace().view(); // the view too, kept as a session is (issue 37 item 1)
            v.sharedAxes = true;
            v.powerTicks = true;
            v.layerLabels = 0;
            v.filter = { true, 4 };
            w.workspace().setView(v);
            w.close(); // saves
        }
        GuiOptions o; // restore
        MainWindow w(o);
        w.show();
        QVERIFY(w.workspace().view().sharedAxes && w.workspace().view().powerTicks);
        QCOMPARE(w.workspace().view().layerLabels, 0.0);
        QVERIFY(w.workspace().view().filter == (LayerFilter { true, 4 }));
        QVERIFY(w.chartArea()->sharedAxes());
        QCOMPARE(w.workspace().report()->config.unet.height, 256);
        QCOMPARE(w.workspace().report()->config.bits, 16);
        QCOMPARE(w.workspace().report()->results.size(), size_t(2));
        QCOMPARE(w.workspace().report()->results[0].device.id, std::string("t4"));
    }

    // What an earlier version kept (the configuration's arguments, devices, overlay under their own
    // keys) still restores the work; closing then keeps it as a session, and the old keys go.
    void settingsOfAnEarlierVersionRestore()
    {
        {
            QSettings s;
            s.remove(QStringLiteral("work/session"));
            s.setValue(QStringLiteral("analysis/configArgs"),
                QStringList { QStringLiteral("--image"), QStringLiteral("128"), QStringLiteral("--padding"),
                    QStringLiteral("same") });
            s.setValue(QStringLiteral("analysis/devices"), QStringList { QStringLiteral("t4") });
            s.setValue(QStringLiteral("view/overlay"), true);
        }
        {
            MainWindow w((GuiOptions()));
            w.show();
            QCOMPARE(w.workspace().report()->config.unet.height, 128);
            QCOMPARE(w.workspace().deviceIds(), QStringList { QStringLiteral("t4") });
            QVERIFY(w.workspace().view().overlay);
            w.close();
        }
        QSettings s;
        QVERIFY(s.contains(QStringLiteral("work/session")) && !s.contains(QStringLiteral("analysis/configArgs")));
    }
};

QTEST_MAIN(TestMainWindowWork)
#include "tst_mainwindow_work.moc"
