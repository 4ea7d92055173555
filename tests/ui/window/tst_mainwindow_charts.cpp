// The live window's charts, offscreen: the ceilings drawn, axes that stay put, points and rows
// selecting each other, the legend, the grid and the overlay, items drawn from caches, the device list,
// a chart copied to the clipboard.
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

class TestMainWindowCharts : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

private slots:
    void initTestCase()
    {
        rfx::test::isolateGuiTest(m_dir, QStringLiteral("tst_mainwindow_charts"));
        qputenv("XDG_DATA_HOME", m_dir.filePath(QStringLiteral("data")).toUtf8());
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
        QCOMPARE(cell(w, 0, LayerTableModel::IntensityL1),
            QString::fromStdString(formatNumber3(first.flops / first.l1Bytes)));
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
        QCOMPARE(
            visible, (QStringList { QStringLiteral("memory-bound layer"), QStringLiteral("compute-bound layer") }));
        QVERIFY(!w.chartArea()->charts()[0]->chart()->legend()->isVisible());
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

    void deviceSearchAndChecks()
    {
        MainWindow w(fresh());
        w.show();
        auto* picker = w.findChild<DevicePicker*>();
        QVERIFY(picker);
        auto* view = picker->findChild<QListView*>();
        picker->searchField()->setText(QStringLiteral("hopper"));
        int hoppers = 0; // H100 SXM, PCIe and NVL, H200, ...: by architecture, no name says it
        for (const Device& d : w.workspace().library().devices)
            hoppers += QString::fromStdString(d.architecture).contains(QStringLiteral("hopper"), Qt::CaseInsensitive);
        QVERIFY(hoppers >= 4);
        QCOMPARE(view->model()->rowCount(), hoppers);
        // Checking a device adds its chart.
        QModelIndex h100;
        for (int r = 0; r < view->model()->rowCount(); ++r)
            if (view->model()->index(r, 0).data().toString().contains(QStringLiteral("H100 SXM")))
                h100 = view->model()->index(r, 0);
        QVERIFY(h100.isValid());
        view->model()->setData(h100, Qt::Checked, Qt::CheckStateRole);
        QCOMPARE(w.workspace().report()->results.size(), size_t(2));
        QCOMPARE(w.chartArea()->charts().size(), size_t(2));
        QCOMPARE(w.workspace().report()->results[1].device.id, std::string("h100-sxm"));
        // By kind and vendor too (issue 73 item 9: "cpu" found nothing, no CPU's name says it).
        int cpus = 0, nvidia = 0;
        for (const Device& d : w.workspace().library().devices) {
            cpus += d.kind == "cpu";
            nvidia += QString::fromStdString(d.vendor + " " + d.name)
                          .contains(QStringLiteral("nvidia"), Qt::CaseInsensitive);
        }
        QVERIFY(cpus >= 2 && nvidia >= 8);
        picker->searchField()->setText(QStringLiteral("cpu"));
        QCOMPARE(view->model()->rowCount(), cpus);
        picker->searchField()->setText(QStringLiteral("NVIDIA"));
        QCOMPARE(view->model()->rowCount(), nvidia);
        picker->searchField()->clear();
        QVERIFY(view->model()->rowCount() >= 12);
    }

    void copyChartToClipboard()
    {
        MainWindow w(fresh());
        w.show();
        QApplication::clipboard()->clear();
        QAction* copy = nullptr;
        for (QAction* a : w.findChildren<QAction*>())
            if (a->text() == QStringLiteral("&Copy chart"))
                copy = a;
        QVERIFY(copy);
        copy->trigger();
        const QImage image = QApplication::clipboard()->image();
        QCOMPARE(image.width(), 1400); // 7 in at 200 dpi
        QVERIFY(image.height() > 800);
    }
};

QTEST_MAIN(TestMainWindowCharts)
#include "tst_mainwindow_charts.moc"
