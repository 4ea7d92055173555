// The live window, offscreen: the first window fits its screen, in presentation type too; sliders move
// the chart's points, the table's rows and the summaries; the status bar gives the totals and steps
// aside for messages; invalid input is explained in place; the dark palette; a grab is not blank.
// The charts, the table and the work: tst_mainwindow_charts, _table, _work.
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
        auto box = [](const QRect& r) {
            return QStringLiteral("%1,%2 %3x%4").arg(r.x()).arg(r.y()).arg(r.width()).arg(r.height());
        };
        QVERIFY2(
            free.contains(w.frameGeometry()), qPrintable(box(w.frameGeometry()) + QStringLiteral(" on ") + box(free)));
        if (free.width() >= 1440 + 16 && free.height() >= 900 + 48)
            QCOMPARE(w.size(), QSize(1440, 900));
        for (QWidget* part : { static_cast<QWidget*>(w.statusBar()), static_cast<QWidget*>(w.chartArea()) }) {
            const QRect where(part->mapToGlobal(QPoint(0, 0)), part->size());
            QVERIFY2(
                part->isVisible() && free.contains(where), qPrintable(box(where) + QStringLiteral(" on ") + box(free)));
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
            QVERIFY2(free.contains(w.frameGeometry()),
                qPrintable(QString::fromUtf8(what) + QStringLiteral(": ") + box(w.frameGeometry())
                    + QStringLiteral(" on ") + box(free)));
            const QRect bar(w.statusBar()->mapToGlobal(QPoint(0, 0)), w.statusBar()->size());
            QVERIFY2(w.statusBar()->isVisible() && free.contains(bar),
                qPrintable(QString::fromUtf8(what) + QStringLiteral(": status bar ") + box(bar)));
            QVERIFY2(cutComboTexts(w).isEmpty(),
                qPrintable(
                    QString::fromUtf8(what) + QStringLiteral(": ") + cutComboTexts(w).join(QStringLiteral("; "))));
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
                        : QStringLiteral("%1: the energy view %2x%3 under its least %4x%5")
                              .arg(stepName)
                              .arg(got.width())
                              .arg(got.height())
                              .arg(least.width())
                              .arg(least.height());
                };
                QTRY_VERIFY2_WITH_TIMEOUT(squeezed().isEmpty(), qPrintable(squeezed()), 3000);
            }
        }
        QVERIFY(!w.energyDock()->isVisible());
        // Presentation hid the layer table (a window under 1000 px) and said so; back out, the message is
        // gone, not left up for its ten seconds. (Whether the table shows then is the room's: at 1024 x 640
        // the charts keep their least size and the table steps aside, saying so in its own words.)
        QVERIFY2(!w.statusBar()->currentMessage().contains(QStringLiteral("hidden for the presentation")),
            qPrintable(w.statusBar()->currentMessage()));
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
        for (QChart* c :
            { w.energyView()->energyChart(), w.energyView()->scalingChart(), w.energyView()->paretoChart() })
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
        QVERIFY2(summary->plainText().startsWith(QStringLiteral("47.7 ms per batch of 1")),
            qPrintable(summary->plainText()));
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

    void presentationMode()
    {
        MainWindow w(fresh());
        w.show();
        const qreal before = QApplication::font().pointSizeF();
        w.teaching().setPresentationMode(true);
        QCOMPARE(QApplication::font().pointSizeF(), before * 1.5);
        w.teaching().setPresentationMode(false);
        QCOMPARE(QApplication::font().pointSizeF(), before);
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
