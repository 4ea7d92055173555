// The live window, offscreen: sliders move the chart's points and the table's rows, points and rows
// select each other, invalid input is explained in place, and the window restores its state.
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

#include <QLegend>
#include <QLegendMarker>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QListView>
#include <QScatterSeries>
#include <QApplication>
#include <QAction>
#include <QAbstractAxis>
#include <QChart>
#include <QClipboard>
#include <QComboBox>
#include <QMessageBox>
#include <QMenu>
#include <QUndoStack>
#include <QDir>
#include <QSettings>
#include <QSlider>
#include <QSpinBox>
#include <QStatusBar>
#include <QStyle>
#include <QStyleOptionViewItem>
#include <QScrollBar>
#include <QTableView>
#include <QDockWidget>
#include <QFileInfo>
#include <QTemporaryDir>

#include <functional>
#include <utility>

using namespace rfx;

namespace {
GuiOptions fresh(const QStringList& devices = { QStringLiteral("rtx-2060-super") })
{
    return rfx::test::freshWindow(devices);
}

// The visible combo boxes of `w` whose current text is cut (wider than the box's text field), as
// "text (shown in N of M px)".
QStringList cutComboTexts(const QWidget& w)
{
    QStringList cut;
    for (QComboBox* box : w.findChildren<QComboBox*>()) {
        if (!box->isVisibleTo(&w) || box->currentText().isEmpty())
            continue;
        QStyleOptionComboBox option;
        option.initFrom(box);
        option.editable = box->isEditable();
        const QRect field = box->style()->subControlRect(QStyle::CC_ComboBox, &option, QStyle::SC_ComboBoxEditField, box);
        const int need = box->fontMetrics().horizontalAdvance(box->currentText());
        if (need > field.width())
            cut.append(QStringLiteral("%1 (shown in %2 of %3 px)").arg(box->currentText()).arg(field.width()).arg(need));
    }
    return cut;
}

QString cell(const MainWindow& w, int row, int column)
{
    return w.table()->model()->index(row, column).data().toString();
}
} // namespace

class TestMainWindow : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

private slots:
    // The first window fits the screen it opens on (issue 38: a 1280 x 720 or 1024 x 640 screen got
    // 1440 x 900, with the compute roof, the compute-bound points and the status bar off-screen). Run with
    // the suite on a 1920 x 1080 screen, and alone on 1280 x 720 and 1024 x 640 (tests/CMakeLists.txt).
    void firstWindowFitsTheScreen()
    {
        MainWindow w(rfx::test::freshWindow());
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const QRect free = w.screen()->availableGeometry();
        auto box = [](const QRect& r) { return QStringLiteral("%1,%2 %3x%4").arg(r.x()).arg(r.y()).arg(r.width()).arg(r.height()); };
        QVERIFY2(free.contains(w.frameGeometry()), qPrintable(box(w.frameGeometry()) + QStringLiteral(" on ") + box(free)));
        if (free.width() >= 1440 + 16 && free.height() >= 900 + 48)
            QCOMPARE(w.size(), QSize(1440, 900));
        for (QWidget* part : { static_cast<QWidget*>(w.statusBar()), static_cast<QWidget*>(w.chartArea()) }) {
            const QRect where(part->mapToGlobal(QPoint(0, 0)), part->size());
            QVERIFY2(part->isVisible() && free.contains(where), qPrintable(box(where) + QStringLiteral(" on ") + box(free)));
        }
        // No box cuts its text: at 1024 x 640 "Layers on" read "RTX 2060 Supe" (issue 52 item 7).
        QVERIFY2(cutComboTexts(w).isEmpty(), qPrintable(cutComboTexts(w).join(QStringLiteral("; "))));
        // The energy view (F10), presentation in and out, F10 again: at 1280 x 720 the window grew 37 px
        // past the screen's bottom and stayed there (issue 52). After every step the frame and the status
        // bar are inside the screen.
        QAction* presentation = nullptr;
        for (QAction* a : w.findChildren<QAction*>())
            if (a->text().contains(QStringLiteral("Presentation mode")))
                presentation = a;
        QVERIFY(presentation);
        const std::pair<const char*, std::function<void()>> steps[] = {
            { "F10", [&] { w.energyDock()->toggleViewAction()->trigger(); } },
            { "presentation on", [&] { presentation->setChecked(true); } },
            { "presentation off", [&] { presentation->setChecked(false); } },
            { "F10 again", [&] { w.energyDock()->toggleViewAction()->trigger(); } },
        };
        for (const auto& [what, step] : steps) {
            step();
            QTest::qWait(50);
            QVERIFY2(free.contains(w.frameGeometry()), qPrintable(QString::fromUtf8(what) + QStringLiteral(": ")
                                                                  + box(w.frameGeometry()) + QStringLiteral(" on ") + box(free)));
            const QRect bar(w.statusBar()->mapToGlobal(QPoint(0, 0)), w.statusBar()->size());
            QVERIFY2(w.statusBar()->isVisible() && free.contains(bar), qPrintable(QString::fromUtf8(what) + QStringLiteral(": status bar ") + box(bar)));
            QVERIFY2(cutComboTexts(w).isEmpty(), qPrintable(QString::fromUtf8(what) + QStringLiteral(": ") + cutComboTexts(w).join(QStringLiteral("; "))));
            // The energy view never squeezed under its least size (its legend was drawn over the charts'
            // axes at 1024 x 640 in presentation): its dock scrolls instead.
            // (The view draws on a timer and its labels ask for their lines' height after that: the
            // layout settles a few events later, sooner or later by the machine.)
            if (w.energyDock()->isVisible()) {
                const QString stepName = QString::fromUtf8(what); // (clang 14 captures no structured binding)
                auto squeezed = [&] {
                    const QSize least = w.energyView()->minimumSizeHint(), got = w.energyView()->size();
                    return got.width() >= least.width() && got.height() >= least.height()
                        ? QString()
                        : QStringLiteral("%1: the energy view %2x%3 under its least %4x%5").arg(stepName)
                              .arg(got.width()).arg(got.height()).arg(least.width()).arg(least.height());
                };
                QTRY_VERIFY2_WITH_TIMEOUT(squeezed().isEmpty(), qPrintable(squeezed()), 3000);
            }
        }
        QVERIFY(!w.energyDock()->isVisible());
        // Presentation hid the layer table (a window under 1000 px) and said so; back out, the message is
        // gone, not left up for its ten seconds. (Whether the table shows then is the room's: at 1024 x 640
        // the charts keep their least size and the table steps aside, saying so in its own words.)
        QVERIFY2(!w.statusBar()->currentMessage().contains(QStringLiteral("hidden for the presentation")), qPrintable(w.statusBar()->currentMessage()));
    }

    // Presentation mode enlarges the energy view's type as it does the roofline's, 1.5 times, also in a
    // chart drawn again while it lasts; back to the desk size after (issue 52: it kept its desk size).
    void energyViewFollowsPresentation()
    {
        MainWindow w(fresh());
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.energyDock()->show();
        w.energyView()->flush();
        QAction* presentation = nullptr;
        for (QAction* a : w.findChildren<QAction*>())
            if (a->text().contains(QStringLiteral("Presentation mode")))
                presentation = a;
        QVERIFY(presentation);
        auto labels = [](QChart* c) { return c->axes(Qt::Horizontal).first()->labelsFont().pointSizeF(); };
        QChart* roof = w.chartArea()->charts()[0]->chart();
        const double energyDesk = labels(w.energyView()->energyChart()), roofDesk = labels(roof);
        const double titleDesk = w.energyView()->paretoChart()->titleFont().pointSizeF();
        QVERIFY(energyDesk > 0 && roofDesk > 0);
        presentation->setChecked(true);
        QCOMPARE(labels(roof), roofDesk * 1.5);
        for (QChart* c : { w.energyView()->energyChart(), w.energyView()->scalingChart(), w.energyView()->paretoChart() })
            QCOMPARE(labels(c), energyDesk * 1.5);
        QCOMPARE(w.energyView()->paretoChart()->titleFont().pointSizeF(), titleDesk * 1.5);
        TuneRanges r = w.energyView()->ranges(); // the charts drawn again, new axes: still large
        r.batchMax /= 2;
        w.energyView()->setRanges(r);
        w.energyView()->flush();
        QCOMPARE(labels(w.energyView()->energyChart()), energyDesk * 1.5);
        presentation->setChecked(false);
        QCOMPARE(labels(w.energyView()->energyChart()), energyDesk);
        QCOMPARE(labels(roof), roofDesk);
    }

    void initTestCase()
    {
        rfx::test::isolateGuiTest(m_dir, QStringLiteral("tst_mainwindow"));
        qputenv("XDG_DATA_HOME", m_dir.filePath(QStringLiteral("data")).toUtf8());
    }

    void defaultWindowShowsTheClassicUNet()
    {
        MainWindow w(fresh());
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.workspace().report());
        QCOMPARE(w.workspace().report()->results.size(), size_t(1));
        QCOMPARE(w.workspace().report()->results[0].totals.params, std::int64_t(31'030'658));
        QCOMPARE(w.chartArea()->charts().size(), size_t(1));
        RooflineChart* chart = w.chartArea()->charts()[0];
        // Every layer with FLOPs is a point: all rows but the 4 concats.
        QCOMPARE(chart->layerPoints().size(), w.workspace().report()->results[0].layers.size() - 4);
        QCOMPARE(cell(w, 0, LayerTableModel::Name), QStringLiteral("enc1.conv1"));
    }

    void sliderMovesPointsAndRows()
    {
        MainWindow w(fresh());
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        RooflineChart* chart = w.chartArea()->charts()[0];
        const auto before = chart->layerPoints();
        const QString rowBefore = cell(w, 0, LayerTableModel::OutputShape);

        w.controls()->batchSpin()->setValue(8); // as a drag would
        QCOMPARE(w.workspace().report()->config.batch, 8);
        const auto after = chart->layerPoints();
        QCOMPARE(after.size(), before.size());
        QVERIFY(after != before); // weight-heavy layers moved right
        QCOMPARE(cell(w, 0, LayerTableModel::OutputShape), QStringLiteral("8\u00d764\u00d7570\u00d7570"));
        QVERIFY(cell(w, 0, LayerTableModel::OutputShape) != rowBefore);

        // The image slider snaps to sizes that work with valid padding.
        w.controls()->imageSlider()->setValue(600);
        const int h = w.workspace().report()->config.unet.height;
        QVERIFY2((h - 124) % 16 == 0, qPrintable(QString::number(h)));
        QVERIFY(std::abs(h - 600) <= 8);
        QVERIFY(w.controls()->problemText().isEmpty());

        // Bits: 16-bit halves the traffic of every row.
        const double bytes32 = w.workspace().report()->results[0].layers[0].bytes;
        w.controls()->bitsSlider()->setValue(1);
        QCOMPARE(w.workspace().report()->config.bits, 16);
        QCOMPARE(w.workspace().report()->results[0].layers[0].bytes, bytes32 / 2);
    }

    void summaryFollowsTheSliderAndCopies()
    {
        MainWindow w(fresh());
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QCOMPARE(w.chartArea()->summaries().size(), size_t(1));
        SummaryText* summary = w.chartArea()->summaries()[0];
        // The CLI's figures for the default U-Net on the RTX 2060 Super.
        QVERIFY2(summary->plainText().startsWith(QStringLiteral("47.7 ms per batch of 1")), qPrintable(summary->plainText()));
        QVERIFY(summary->plainText().contains(QStringLiteral("memory 310 MiB of 8.00 GiB (fits; up to batch 42)")));
        const int height = summary->height();
        QVERIFY(height >= 3 * summary->fontMetrics().height()); // three lines, none cut off

        w.controls()->batchSpin()->setValue(2);
        QVERIFY2(summary->plainText().contains(QStringLiteral("per batch of 2")), qPrintable(summary->plainText()));
        QCOMPARE(summary->height(), height); // sticky: the chart above is not resized by a step

        QGuiApplication::clipboard()->clear();
        QCOMPARE(summary->actions().size(), qsizetype(1));
        summary->actions().first()->trigger();
        QCOMPARE(QGuiApplication::clipboard()->text(), summary->plainText());
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
        w.controls()->useNetworkFile(QStringLiteral(ROOFLINE_TEST_SOURCE_DIR "/resources/networks/small-cnn.json"));
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

    // Hierarchical ceilings: the A100 file gives L2 and L1 bandwidths. Under the tiled model its chart gains
    // one point per matrix-product row at each inner level, at the row's own height and at x = F / Q_level,
    // the title names the ceilings, and a row bound by an inner level says which in the table.
    void hierarchicalCeilingsOnTheChart()
    {
        MainWindow w(fresh());
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.workspace().setDevices({ QStringLiteral("a100-sxm-80gb") });
        RooflineChart* chart = w.chartArea()->charts()[0];
        QVERIFY(chart->levelPoints(0).empty()); // compulsory traffic: DRAM only
        QComboBox* traffic = w.controls()->trafficCombo();
        traffic->setCurrentIndex(traffic->findData(int(TrafficModel::Tiled)));
        const DeviceResult& d = w.workspace().report()->results[0];
        QVERIFY(d.l2Bandwidth > 0 && d.l1Bandwidth > 0);
        const auto l2 = chart->levelPoints(0);
        const auto l1 = chart->levelPoints(1);
        // Rows whose inner-level traffic equals their DRAM traffic (streaming rows; the 1x1 head, which
        // reuses too little to gain from a tile) would sit on their DRAM point: they get none.
        size_t differ2 = 0, differ1 = 0;
        for (const LayerResult& l : d.layers) {
            differ2 += l.l2Bytes != l.bytes;
            differ1 += l.l1Bytes != l.bytes;
        }
        QCOMPARE(l2.size(), differ2);
        QCOMPARE(l1.size(), differ1);
        QVERIFY(l2.size() >= size_t(w.workspace().report()->convolutions) - 1);
        const LayerResult& first = d.layers[0]; // enc1.conv1
        QCOMPARE(l2[0].x(), first.flops / first.l2Bytes);
        QCOMPARE(l1[0].x(), first.flops / first.l1Bytes);
        QCOMPARE(l2[0].y(), first.attainable / chart->yScale());
        QVERIFY(chart->chart()->title().contains(QStringLiteral("L2 7.22 TB/s")));
        QVERIFY(!w.table()->isColumnHidden(LayerTableModel::IntensityL2));
        QCOMPARE(cell(w, 0, LayerTableModel::IntensityL1), QString::fromStdString(formatNumber3(first.flops / first.l1Bytes)));
        // FP16 tensor cores on the H100: enc1.conv2 is L2-bound (tst_algorithms works it out), and says so.
        w.workspace().setDevices({ QStringLiteral("h100-sxm") });
        Config fp16 = w.workspace().report()->config;
        fp16.bits = 16;
        fp16.tensorCores = true;
        w.workspace().setConfig(fp16);
        int row = -1;
        for (int r = 0; r < w.table()->model()->rowCount(); ++r)
            if (cell(w, r, LayerTableModel::Name) == QStringLiteral("enc1.conv2"))
                row = r;
        QVERIFY(row >= 0);
        QCOMPARE(cell(w, row, LayerTableModel::Bound), QStringLiteral("\u25e2 L2"));
        // Back to compulsory: the level points and columns go.
        traffic->setCurrentIndex(traffic->findData(int(TrafficModel::Compulsory)));
        QVERIFY(chart->levelPoints(0).empty());
        QVERIFY(w.table()->isColumnHidden(LayerTableModel::IntensityL1));
        // Cache-aware bounds use the caches' bandwidths but no per-level traffic: the two columns were
        // shown empty on every row (issue 38); they stay hidden.
        Config aware = w.workspace().report()->config;
        aware.cacheAware = CacheAware::On;
        w.workspace().setConfig(aware);
        QVERIFY(w.workspace().report()->results[0].l2Bandwidth > 0);
        QVERIFY(w.table()->isColumnHidden(LayerTableModel::IntensityL2));
        QVERIFY(w.table()->isColumnHidden(LayerTableModel::IntensityL1));
    }

    // A window that starts on a network file that cannot be used says why in a dialog (file, place,
    // reason) and opens on the U-Net with the rest of the configuration, not on an empty window.
    void startsOnABrokenNetworkFile()
    {
        QTemporaryDir dir;
        QFile f(dir.filePath(QStringLiteral("broken.json")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({ "schema": 1, "name": "b", "input": { "channels": 3, "height": 32, "width": 32 },
                    "layers": [ { "name": "a", "op": "conv", "kernel": 3 } ] })");
        f.close();
        GuiOptions o = fresh();
        o.config.config.model = f.fileName().toStdString();
        o.config.config.batch = 4;
        MainWindow w(o);
        w.show();
        QCoreApplication::processEvents();
        auto* box = w.findChild<QMessageBox*>(QStringLiteral("networkFileError"));
        QVERIFY(box);
        QVERIFY2(box->informativeText().contains(QStringLiteral("layers[0] (a): out_channels: missing")), qPrintable(box->informativeText()));
        QVERIFY(box->text().contains(QStringLiteral("broken.json")));
        QVERIFY(w.workspace().report());
        QCOMPARE(w.workspace().report()->config.model, std::string("unet"));
        QCOMPARE(w.workspace().report()->config.batch, 4);
        QCOMPARE(w.controls()->networkCombo()->currentData().toString(), QStringLiteral("unet"));
        QCOMPARE(w.chartArea()->charts().size(), size_t(1));
        box->close();
    }

    void axesStayPutWhilePointsStayInside()
    {
        MainWindow w(fresh());
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w)); // laid out: the axes as drawn (a marker at an edge grows its axis)
        RooflineChart* chart = w.chartArea()->charts()[0];
        // Batch 2 takes U-Net's largest convolutions to 974 FLOP/B, whose squares would cross the
        // frame at 1000: the axis grows to 10000 (growForMarkers). Batch 3 (1096 FLOP/B) stays inside.
        w.controls()->batchSpin()->setValue(2);
        QCOMPARE(chart->xRange(), QPointF(0.1, 10000));
        const QPointF x0 = chart->xRange(), y0 = chart->yRange();
        w.controls()->batchSpin()->setValue(3);
        QCOMPARE(chart->xRange(), x0);
        QCOMPARE(chart->yRange(), y0);
        // decade bounds
        QCOMPARE(std::log10(x0.x()), std::round(std::log10(x0.x())));
        QCOMPARE(std::log10(y0.y()), std::round(std::log10(y0.y())));
    }

    void clickingAPointSelectsItsRow()
    {
        MainWindow w(fresh());
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        RooflineChart* chart = w.chartArea()->charts()[0];
        // The dominant layer: the one with the largest share.
        const auto& layers = w.workspace().report()->results[0].layers;
        int target = 0;
        for (size_t i = 0; i < layers.size(); ++i)
            if (layers[i].share > layers[size_t(target)].share)
                target = int(i);
        // Find its series and click it where it is drawn.
        const QPointF value(layers[size_t(target)].intensity, layers[size_t(target)].attainable / chart->yScale());
        QScatterSeries* series = nullptr;
        for (QAbstractSeries* s : chart->chart()->series()) {
            auto* sc = qobject_cast<QScatterSeries*>(s);
            if (sc && sc->isVisible() && sc->points().contains(value) && sc->markerSize() < 25)
                series = sc;
        }
        QVERIFY(series);
        const QPointF scene = chart->chart()->mapToPosition(value, series);
        const QPoint pos = chart->mapFromScene(scene);
        QTest::mouseClick(chart->viewport(), Qt::LeftButton, {}, pos);
        QCOMPARE(w.workspace().state().selectedLayer, target);
        const QModelIndex current = w.table()->currentIndex();
        QVERIFY(current.isValid());
        QCOMPARE(current.siblingAtColumn(LayerTableModel::Name).data().toString(),
            QString::fromStdString(layers[size_t(target)].name));
        QCOMPARE(chart->selectedLayer(), target);
    }

    void legendKeepsShortEntries()
    {
        MainWindow w(fresh());
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QStringList visible;
        for (const auto& [text, box] : w.chartArea()->charts()[0]->textBoxes())
            if (text.endsWith(QStringLiteral("-bound layer")))
                visible.append(text);
        // One entry per bound, not one per marker size; the roof is described in the title. The
        // chart's own legend (Qt's is off: it elided entries in a narrow chart).
        QCOMPARE(visible, (QStringList { QStringLiteral("memory-bound layer"), QStringLiteral("compute-bound layer") }));
        QVERIFY(!w.chartArea()->charts()[0]->chart()->legend()->isVisible());
    }

    // The network's totals in the status bar, against published counts: torchvision's ResNet-50 has
    // 25,557,032 parameters and 4.09 G multiply-adds at 224 x 224 (its "4.09 GFLOPS" are MACs).
    void statusBarGivesTheTotals()
    {
        GuiOptions o = fresh();
        o.config.config.model = "resnet50";
        o.config.config.unet.height = o.config.config.unet.width = 224;
        o.config.config.unet.inChannels = 3;
        o.config.config.unet.classes = 1000;
        o.config.inputGiven = true;
        MainWindow w(o);
        QVERIFY(rfx::test::showAtDesktopSize(w));
        QString line;
        for (QLabel* l : w.statusBar()->findChildren<QLabel*>())
            if (l->text().contains(QStringLiteral("parameters")))
                line = l->text();
        QVERIFY2(line.contains(QStringLiteral("25,557,032 parameters")), qPrintable(line));
        QVERIFY2(line.contains(QStringLiteral("4.09 GMAC in products")), qPrintable(line));
        QVERIFY2(line.contains(QStringLiteral("peak memory")), qPrintable(line));
    }

    void selectingARowMarksThePoint()
    {
        MainWindow w(fresh());
        w.show();
        QTableView* table = w.table();
        const QModelIndex row = table->model()->index(3, 0);
        table->selectionModel()->setCurrentIndex(row, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        QCOMPARE(w.workspace().state().selectedLayer, 3);
        QCOMPARE(w.chartArea()->charts()[0]->selectedLayer(), 3);
    }

    void tableGridIsDrawnByTheDelegate()
    {
        // The view's own grid is off (it was 13 % of a slider step); the delegate draws the same
        // one-pixel lines on each cell's right and bottom edge, also on a selected row.
        MainWindow w(fresh());
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QTableView* table = w.table();
        QVERIFY(!table->showGrid());
        QStyleOptionViewItem option;
        option.initFrom(table);
        const QColor grid = QColor::fromRgba(QRgb(table->style()->styleHint(QStyle::SH_Table_GridLineColor, &option, table)));
        auto check = [&](int row) {
            const QModelIndex cell = table->model()->index(row, LayerTableModel::Params);
            const QRect r = table->visualRect(cell);
            const QImage image = table->viewport()->grab().toImage();
            const qreal dpr = image.devicePixelRatio();
            auto at = [&](int x, int y) { return image.pixelColor(int(x * dpr), int(y * dpr)); };
            QCOMPARE(at(r.right(), r.center().y()), grid); // right edge
            QCOMPARE(at(r.left() + 2, r.bottom()), grid); // bottom edge
            QVERIFY(at(r.left() + 2, r.bottom() - 1) != grid); // one pixel, not a band
        };
        check(1);
        table->selectRow(1);
        check(1);
    }

    // Issue 38: at 1920 x 1080 the share-of-time values sat under the vertical scroll bar, behind a
    // horizontal one, 15 px short: the share's column gives way down to what its text needs.
    void shareOfTimeIsInViewAtDesktopSize()
    {
        MainWindow w(fresh());
        QVERIFY(rfx::test::showAtDesktopSize(w));
        QTableView* table = w.table();
        QCoreApplication::processEvents();
        const int share = LayerTableModel::Share;
        QVERIFY(table->verticalScrollBar()->isVisible());
        QCOMPARE(table->horizontalScrollBar()->maximum(), 0);
        QVERIFY2(table->columnViewportPosition(share) + table->columnWidth(share) <= table->viewport()->width(),
            qPrintable(QStringLiteral("share column ends at %1 of %2").arg(table->columnViewportPosition(share) + table->columnWidth(share)).arg(table->viewport()->width())));
        // Its values whole: "6.9 %" needs its width.
        auto* delegate = qobject_cast<CellDelegate*>(table->itemDelegate());
        for (int row = 0; row < table->model()->rowCount(); ++row) {
            const QModelIndex index = table->model()->index(row, share);
            QVERIFY(QFontMetricsF(delegate->cellFont(table->font(), index)).horizontalAdvance(index.data().toString()) < table->columnWidth(share));
        }
    }

    void tableCellsFitTheirColumnsAtStart()
    {
        // Columns are sized to their contents once, on the first report: no cell of that report is
        // elided (the bold dominant layers' FLOPs once lost a pixel to the delegate-drawn grid).
        MainWindow w(fresh());
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QTableView* table = w.table();
        auto* delegate = qobject_cast<CellDelegate*>(table->itemDelegate());
        QVERIFY(delegate);
        const int margin = table->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, table) + 1;
        const int last = table->model()->columnCount() - 1; // stretched
        int checked = 0;
        for (int row = 0; row < table->model()->rowCount(); ++row)
            for (int column = 0; column < last; ++column) {
                if (table->isColumnHidden(column))
                    continue;
                const QModelIndex index = table->model()->index(row, column);
                const QString text = index.data().toString();
                const QFontMetricsF metrics(delegate->cellFont(table->font(), index));
                const double room = table->columnWidth(column) - 2 * margin - 1; // margins, grid pixel
                QVERIFY2(metrics.horizontalAdvance(text) <= room + 0.5,
                    qPrintable(QStringLiteral("row %1, column %2: '%3' is elided").arg(row).arg(column).arg(text)));
                ++checked;
            }
        QVERIFY(checked > 500);
    }

    void tableAndSummariesSkipShapingYetFollowTheFontSize()
    {
        // Live text (cells, summaries) is drawn without OpenType shaping, a tenth of a slider step;
        // only that attribute is set, so presentation mode still makes it 1.5x larger.
        MainWindow w(fresh());
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QTableView* table = w.table();
        SummaryText* summary = w.chartArea()->summaries().front();
        auto* delegate = qobject_cast<CellDelegate*>(table->itemDelegate());
        QVERIFY(delegate);
        auto cellFont = [&] { return delegate->cellFont(table->font(), table->model()->index(0, LayerTableModel::Params)); };
        const QFont cell = cellFont();
        QVERIFY(cell.styleStrategy() & QFont::PreferNoShaping);
        QVERIFY(summary->document()->defaultFont().styleStrategy() & QFont::PreferNoShaping);
        const qreal size = QApplication::font().pointSizeF();
        QCOMPARE(cell.pointSizeF(), size);
        QCOMPARE(summary->document()->defaultFont().pointSizeF(), size);
        w.teaching().setPresentationMode(true);
        QCoreApplication::processEvents(); // the application font reaches widgets by posted events
        QCOMPARE(cellFont().pointSizeF(), size * 1.5);
        QVERIFY(cellFont().styleStrategy() & QFont::PreferNoShaping);
        QCOMPARE(summary->document()->defaultFont().pointSizeF(), size * 1.5);
        w.teaching().setPresentationMode(false);
        QCoreApplication::processEvents();
        QCOMPARE(cellFont().pointSizeF(), size);
    }

    void startupMessageHidesTheAnalysisLine()
    {
        // A message given while the window is built (here: an unknown device id) used to be drawn over
        // the status bar's analysis line, both texts at once.
        MainWindow w(fresh({ QStringLiteral("rtx-2060-super"), QStringLiteral("no-such-gpu") }));
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QTRY_COMPARE(w.statusBar()->currentMessage(), QStringLiteral("Unknown device id(s) ignored: no-such-gpu"));
        QLabel* line = nullptr;
        for (QLabel* l : w.statusBar()->findChildren<QLabel*>())
            if (l->text().startsWith(QStringLiteral("U-Net")))
                line = l;
        QVERIFY(line);
        QVERIFY(!line->isVisible());
        w.statusBar()->clearMessage();
        QVERIFY(line->isVisible());
    }

    void invalidSizeIsExplainedInPlace()
    {
        MainWindow w(fresh());
        w.show();
        w.controls()->imageSpin()->setValue(580); // typed, not snapped
        const QString problem = w.controls()->problemText();
        QVERIFY2(problem.contains(QStringLiteral("572 and 588")), qPrintable(problem));
        QVERIFY(problem.contains(QStringLiteral("Use 572")));
        // The last working analysis stays on screen: no blank chart.
        QCOMPARE(w.workspace().report()->config.unet.height, 572);
        QVERIFY(!w.chartArea()->charts()[0]->layerPoints().empty());
        w.controls()->imageSpin()->setValue(588);
        QVERIFY(w.controls()->problemText().isEmpty());
        QCOMPARE(w.workspace().report()->config.unet.height, 588);

        // The one-click fix offered in the message.
        w.controls()->imageSpin()->setValue(590);
        QLabel* label = nullptr;
        for (QLabel* l : w.controls()->findChildren<QLabel*>())
            if (l->accessibleName() == QStringLiteral("Configuration problem"))
                label = l;
        QVERIFY(label && label->isVisible());
        QVERIFY(label->text().contains(QStringLiteral("href=\"604\"")));
        emit label->linkActivated(QStringLiteral("604"));
        QCOMPARE(w.workspace().report()->config.unet.height, 604);
        QCOMPARE(w.workspace().report()->config.unet.width, 604);
        QVERIFY(!label->isVisible());
    }

    void deviceSearchAndChecks()
    {
        MainWindow w(fresh());
        w.show();
        auto* picker = w.findChild<DevicePicker*>();
        QVERIFY(picker);
        auto* view = picker->findChild<QListView*>();
        picker->searchField()->setText(QStringLiteral("hopper"));
        QCOMPARE(view->model()->rowCount(), 2); // H100 and H200, by architecture
        // Checking a device adds its chart.
        const QModelIndex h100 = view->model()->index(0, 0);
        QVERIFY(h100.data().toString().contains(QStringLiteral("H100")));
        view->model()->setData(h100, Qt::Checked, Qt::CheckStateRole);
        QCOMPARE(w.workspace().report()->results.size(), size_t(2));
        QCOMPARE(w.chartArea()->charts().size(), size_t(2));
        QCOMPARE(w.workspace().report()->results[1].device.id, std::string("h100-sxm"));
        picker->searchField()->clear();
        QVERIFY(view->model()->rowCount() >= 12);
    }

    void gridAndOverlay()
    {
        MainWindow w(fresh({ QStringLiteral("geforce-mx230"), QStringLiteral("geforce-940mx-ddr3"),
            QStringLiteral("rtx-2060-super"), QStringLiteral("h100-sxm") }));
        w.show();
        QCOMPARE(w.chartArea()->charts().size(), size_t(4));
        w.chartArea()->setOverlay(true);
        QCOMPARE(w.chartArea()->charts().size(), size_t(1));
        QCOMPARE(w.chartArea()->charts()[0]->devices().size(), size_t(4));
        w.chartArea()->setOverlay(false);
        QCOMPARE(w.chartArea()->charts().size(), size_t(4));
    }

    // Screen charts cache their grid lines as pixmaps. Charts relaid out while the window is up (a
    // device added), then stepped, must still draw their titles, axis titles and grid (caching text
    // items, or caching before the view was shown, lost them on Qt 6.4).
    void cachedItemsStillDrawn()
    {
        MainWindow w(fresh());
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto step = [&](int b) {
            w.controls()->batchSpin()->setValue(b);
            QCoreApplication::processEvents();
        };
        step(2); // caches the first chart's items
        w.workspace().setDevices({ QStringLiteral("rtx-2060-super"), QStringLiteral("h100-sxm") });
        QCOMPARE(w.chartArea()->charts().size(), size_t(2));
        step(3);
        step(4);
        w.resize(1100, 800);
        QCoreApplication::processEvents();
        step(5);
        for (RooflineChart* chart : w.chartArea()->charts()) {
            const QImage image = chart->grab().toImage();
            // Dark pixels in the title strip and in the y-axis title column.
            auto dark = [&](QRect r) {
                int n = 0;
                for (int y = r.top(); y <= r.bottom(); ++y)
                    for (int x = r.left(); x <= r.right(); ++x)
                        n += qGray(image.pixel(x, y)) < 100;
                return n;
            };
            QVERIFY2(dark(QRect(0, 0, image.width(), 30)) > 100, "title not drawn");
            QVERIFY2(dark(QRect(0, 60, 30, image.height() - 120)) > 50, "y-axis title not drawn");
            // Grid: light grey, not white, along a horizontal line through the middle of the plot.
            int grey = 0;
            const int y = image.height() / 2;
            for (int x = image.width() / 4; x < image.width() * 3 / 4; ++x)
                for (int dy = -20; dy <= 20; ++dy)
                    grey += qGray(image.pixel(x, y + dy)) < 250 && qGray(image.pixel(x, y + dy)) > 150;
            QVERIFY2(grey > 100, "grid not drawn");
        }
    }

    void filterTopN()
    {
        MainWindow w(fresh());
        w.show();
        auto* topN = w.findChild<QSpinBox*>(QString(), Qt::FindChildrenRecursively);
        QVERIFY(topN);
        // Find the "Top N" spin box by its suffix.
        for (QSpinBox* s : w.findChildren<QSpinBox*>())
            if (s->suffix().contains(QStringLiteral("by time")))
                topN = s;
        topN->setValue(5);
        QCOMPARE(w.table()->model()->rowCount(), 5);
        QCOMPARE(w.chartArea()->charts()[0]->layerPoints().size(), size_t(5));
        topN->setValue(0);
        QCOMPARE(w.table()->model()->rowCount(), int(w.workspace().report()->results[0].layers.size()));
    }

    void tableAgreesWithTheEngine()
    {
        MainWindow w(fresh());
        w.show();
        Config c;
        c.batch = 4;
        c.mode = Mode::Training;
        w.workspace().setConfig(c);
        const AnalysisOutcome direct = analyzeConfig(c, { rfx::test::shippedDevice("rtx-2060-super") });
        QCOMPARE(w.workspace().report()->results[0].totals.time, direct.report->results[0].totals.time);
        const int rows = w.table()->model()->rowCount();
        QCOMPARE(rows, int(direct.report->results[0].layers.size()));
        QCOMPARE(w.table()->model()->index(rows - 1, LayerTableModel::Op).data().toString(), QStringLiteral("optimizer"));
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
        QVERIFY2(w.measurements().status().contains(QStringLiteral("3 layers mapped by name onto NVIDIA GeForce RTX 2060 Super")),
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
        QVERIFY(cell(w, 0, LayerTableModel::Measured).isEmpty() == (cell(w, 0, LayerTableModel::Name) != QStringLiteral("enc1.conv1")));
        RooflineChart* chart = w.chartArea()->charts()[0];
        const auto measured = chart->measuredPoints();
        QCOMPARE(measured.size(), size_t(3));
        // enc1.conv2 measured with its own FLOPs and bytes: x = 23,786,422,272 / 166e6, y = F / 6.62 ms.
        bool found = false;
        for (const QPointF& p : measured)
            found = found || (std::abs(p.x() - 23786422272.0 / 166e6) < 1e-9 * p.x()
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
        QVERIFY2(error.contains(QStringLiteral("bad.csv: line 2: time_s: must be a positive number of seconds")), qPrintable(error));
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
            w.close(); // saves
        }
        GuiOptions o; // restore
        MainWindow w(o);
        w.show();
        QCOMPARE(w.workspace().report()->config.unet.height, 256);
        QCOMPARE(w.workspace().report()->config.bits, 16);
        QCOMPARE(w.workspace().report()->results.size(), size_t(2));
        QCOMPARE(w.workspace().report()->results[0].device.id, std::string("t4"));
    }

    void darkPalette()
    {
        const QPalette light = QApplication::palette();
        QPalette dark;
        dark.setColor(QPalette::Window, QColor(0x2b, 0x2b, 0x2b));
        dark.setColor(QPalette::WindowText, QColor(0xe6, 0xe6, 0xe6));
        dark.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
        dark.setColor(QPalette::AlternateBase, QColor(0x26, 0x26, 0x26));
        dark.setColor(QPalette::Text, QColor(0xe6, 0xe6, 0xe6));
        dark.setColor(QPalette::Button, QColor(0x35, 0x35, 0x35));
        dark.setColor(QPalette::ButtonText, QColor(0xe6, 0xe6, 0xe6));
        QApplication::setPalette(dark);
        {
            MainWindow w(fresh());
            w.resize(1400, 900);
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            QCOMPARE(w.chartArea()->charts()[0]->chart()->theme(), QChart::ChartThemeDark);
            if (qEnvironmentVariableIsSet("RFX_SAVE_GRABS"))
                w.grab().save(QDir::temp().filePath(QStringLiteral("rfx-dark.png")));
        }
        QApplication::setPalette(light);
    }

    void grabIsNotBlank()
    {
        MainWindow w(fresh());
        w.resize(1200, 800);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const QImage image = w.grab().toImage();
        QCOMPARE(image.size(), QSize(1200, 800) * image.devicePixelRatio());
        QSet<QRgb> colours;
        for (int y = 0; y < image.height(); y += 7)
            for (int x = 0; x < image.width(); x += 7)
                colours.insert(image.pixel(x, y));
        QVERIFY2(colours.size() > 20, qPrintable(QString::number(colours.size())));
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
