// The chart at every size (issue 25): the window at sizes from 1024 x 640 to 1920 x 1080, one
// device, three overlaid and three in a grid, in normal and presentation type, with the guided tour
// closed and open. At each, read back every text the charts draw and assert that none is elided
// ("..."), none overlaps another, each lies inside its chart, no layer label is crossed by a roof or
// slope, and each chart has at least its minimum useful size (one chart, or the overlay, whole in
// view from 1280 x 720). Exported figures at 3.5, 5 and 7 inches get the same text checks.
#include "chart/chartarea.h"
#include "figure/figurelayout.h"
#include "figure/figurerenderer.h"
#include "open/analyses.h"
#include "window/mainwindow.h"
#include "window/teaching.h"

#include "chart/rooflinechart.h"
#include "chart/summaryview.h"
#include "guitestutils.h"
#include "style/chartfit.h"
#include "testutils.h"
#include "ui/chart/chartsizetests.h"

#include <QDockWidget>
#include <QRegularExpression>
#include <QScrollArea>
#include <QScrollBar>
#include <QStatusBar>

using namespace rfx;
using namespace rfx::chartsizetest;

namespace {

// Layer labels in the viewport's pixels (the chart gives them in its own coordinates).
std::vector<std::pair<QString, QRectF>> labelsInView(const RooflineChart* c)
{
    auto out = c->layerLabels();
    const QPointF shift = c->mapFromScene(c->chart()->mapToScene(QPointF(0, 0)));
    for (auto& l : out)
        l.second.translate(shift);
    return out;
}

// The docks in view and their widths ("tourDock 320 (min 300)"), for a message.
QString docks(const QMainWindow& w)
{
    QStringList out;
    for (const QDockWidget* d : w.findChildren<QDockWidget*>())
        if (d->isVisible())
            out << QStringLiteral("%1 %2 (min %3)")
                       .arg(d->objectName())
                       .arg(d->width())
                       .arg(d->minimumSizeHint().width());
    return QStringLiteral(" [docks: ") + out.join(QStringLiteral(", ")) + QLatin1Char(']');
}

} // namespace

class TestChartSizes : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    QFont m_appFont; // the application's type before any window: a window closed in presentation mode leaves it 1.5 x

private slots:
    void initTestCase()
    {
        test::isolateGuiTest(m_dir, QStringLiteral("tst_chartsizes"));
        m_appFont = QApplication::font();
    }

    void windowSweep_data()
    {
        QTest::addColumn<QString>("mode");
        // The language-model mode's states too (issue 36 item 9): its summaries (memory bar), its tour pages.
        for (const char* m : { "single", "overlay", "grid", "llm single", "llm overlay", "llm grid" })
            QTest::newRow(m) << QString::fromLatin1(m);
    }

    void windowSweep()
    {
        QFETCH(QString, mode);
        const bool llm = mode.startsWith(QLatin1String("llm "));
        if (llm)
            mode = mode.mid(4);
        // Each row a window as it starts: the row before closed its window in presentation type, which
        // leaves the application's font 1.5 x (a real window's close ends the program).
        QApplication::setFont(m_appFont);
        GuiOptions o = test::freshWindow(mode == QLatin1String("single") ? QStringList { kThree.front() } : kThree);
        o.overlay = mode == QLatin1String("overlay");
        MainWindow w(o);
        QVERIFY(test::showAtDesktopSize(w, QSize(1280, 720)));
        if (llm) {
            w.workspace().showModel("llama-3.1-70b"); // 70 B: does not fit some devices (the red bar, the warning)
            QVERIFY(w.workspace().state().languageModel());
            mode = QStringLiteral("llm ") + mode;
        }
        const QList<QSize> sizes { { 1024, 640 }, { 1280, 720 }, { 1366, 768 }, { 1440, 900 }, { 1920, 1080 } };
        QStringList failures;
        int checked = 0;
        for (bool presentation : { false, true }) {
            w.teaching().setPresentationMode(presentation);
            for (bool tour : { false, true }) {
                if (tour)
                    w.teaching().showTour();
                else if (auto* dock = w.findChild<QDockWidget*>(QStringLiteral("tourDock")))
                    dock->close();
                for (const QSize& size : sizes) {
                    w.resize(size);
                    settle();
                    const QString where = QStringLiteral("%1 %2x%3%4%5")
                                              .arg(mode)
                                              .arg(size.width())
                                              .arg(size.height())
                                              .arg(presentation ? QStringLiteral(" presentation") : QString(),
                                                  tour ? QStringLiteral(" tour") : QString());
                    const auto charts = w.chartArea()->charts();
                    if (charts.empty()) {
                        failures << where + QStringLiteral(": no chart");
                        continue;
                    }
                    for (const RooflineChart* c : charts) {
                        ++checked;
                        for (const QString& p : problems(
                                 c->textBoxes(), QRectF(c->rect()), labelsInView(c), c->roofLines(), c->leaderLines()))
                            failures << where + QStringLiteral(": ") + p;
                        const QSize min = c->minimumSizeHint();
                        if (c->width() < min.width() || c->height() < min.height())
                            failures << where
                                    + QStringLiteral(": chart %1x%2 under its minimum %3x%4")
                                          .arg(c->width())
                                          .arg(c->height())
                                          .arg(min.width())
                                          .arg(min.height());
                    }
                    // The Configuration panel's controls whole, never behind a horizontal scroll bar
                    // (presentation at 1024 x 640 cut every spin box): long rows wrap instead.
                    if (auto* config = w.findChild<QDockWidget*>(QStringLiteral("configurationDock"));
                        config && config->isVisible())
                        if (auto* scroll = qobject_cast<QScrollArea*>(config->widget());
                            scroll && scroll->horizontalScrollBar()->isVisible())
                            failures << where
                                    + QStringLiteral(
                                        ": the Configuration panel scrolls sideways (%1 px of controls in %2)")
                                          .arg(scroll->widget()->width())
                                          .arg(scroll->viewport()->width());
                    // One chart (or the overlay) whole in view from 1280 x 720: the window made room.
                    if (!mode.endsWith(QLatin1String("grid")) && size.width() >= 1280) {
                        auto* scroll = qobject_cast<QScrollArea*>(w.chartArea()->parentWidget()->parentWidget());
                        if (scroll && w.chartArea()->height() > scroll->viewport()->height() + 1)
                            failures << where
                                    + QStringLiteral(": the charts (%1 px; chart %3, its minimum %4; summary %5; %6 px "
                                                     "wide) need scrolling in %2 px")
                                          .arg(w.chartArea()->height())
                                          .arg(scroll->viewport()->height())
                                          .arg(charts.front()->height())
                                          .arg(charts.front()->minimumSizeHint().height())
                                          .arg(w.chartArea()->summaries().front()->height())
                                          .arg(w.chartArea()->width())
                                    + docks(w);
                    }
                }
            }
        }
        qInfo("%s: %d chart layouts checked, %lld problems", qPrintable(mode), checked, qlonglong(failures.size()));
        QVERIFY2(failures.isEmpty(), qPrintable(failures.mid(0, 12).join(QLatin1Char('\n'))));
    }

    // Issue 38: charts added after the first (a grid after presentation mode, a preset's devices) came
    // in 1.5 x 1.5 times the first one's type and kept a larger type after presentation mode; grid
    // cells were uneven (two devices at 1280: 530 and 290 px). Every chart of a grid has the same
    // type and the same cell, whatever came before.
    void gridAddedAfterAModeChange()
    {
        MainWindow w(test::freshWindow(QStringList { kThree.front() }));
        QVERIFY(test::showAtDesktopSize(w, QSize(1280, 720)));
        auto sameTypeAndCells = [&](const QString& where) -> QString {
            settle();
            const auto charts = w.chartArea()->charts();
            if (charts.size() < 2)
                return where + QStringLiteral(": %1 chart(s)").arg(charts.size());
            const QFont title = charts.front()->chart()->titleFont();
            for (const RooflineChart* c : charts) {
                if (c->chart()->titleFont() != title)
                    return where
                        + QStringLiteral(": title type %1 against %2")
                              .arg(c->chart()->titleFont().pointSizeF())
                              .arg(title.pointSizeF());
                if (std::abs(c->width() - charts.front()->width()) > 2)
                    return where
                        + QStringLiteral(": cells %1 and %2 px wide").arg(c->width()).arg(charts.front()->width());
            }
            return {};
        };
        w.teaching().setPresentationMode(true);
        settle();
        w.workspace().setDevices(kThree);
        QString problem = sameTypeAndCells(QStringLiteral("presentation, then three devices"));
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        w.teaching().setPresentationMode(false);
        problem = sameTypeAndCells(QStringLiteral("presentation off"));
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        w.workspace().setDevices({ kThree[0], kThree[1] });
        problem = sameTypeAndCells(QStringLiteral("two devices at 1280 x 720"));
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }

    // Issue 52 item 6: three devices at 1280 x 720 in presentation type were a 2 x 2 grid with an empty
    // fourth cell and plots 90 px high (four decades of performance in a flat strip). At every size,
    // in either type, each plot of the grid is at least four lines of its type high, or the window
    // says the charts are small and how to overlay them; the arrangement holds still once settled.
    void gridGivesThePlotsRoom()
    {
        QApplication::setFont(m_appFont);
        MainWindow w(test::freshWindow(kThree));
        QVERIFY(test::showAtDesktopSize(w, QSize(1280, 720)));
        QStringList failures;
        for (bool presentation : { false, true }) {
            w.teaching().setPresentationMode(presentation);
            for (const QSize& size : { QSize(1024, 640), QSize(1280, 720), QSize(1600, 900), QSize(1920, 1080) }) {
                w.resize(size);
                settle();
                QTest::qWait(400); // the note on small charts waits for the layout to settle
                settle();
                const QString where = QStringLiteral("%1x%2%3")
                                          .arg(size.width())
                                          .arg(size.height())
                                          .arg(presentation ? QStringLiteral(" presentation") : QString());
                ChartArea* area = w.chartArea();
                const auto charts = area->charts();
                if (charts.size() != 3) {
                    failures << where + QStringLiteral(": %1 charts").arg(charts.size());
                    continue;
                }
                const int line = area->fontMetrics().lineSpacing();
                const int columns = area->columns();
                qInfo("%s: area %dx%d, %d columns, plots %.0f px high, charts %dx%d (min %dx%d), line %d, cramped %d",
                    qPrintable(where), area->width(), area->height(), columns,
                    charts.front()->chart()->plotArea().height(), charts.front()->width(), charts.front()->height(),
                    charts.front()->minimumSizeHint().width(), charts.front()->minimumSizeHint().height(), line,
                    int(area->cramped()));
                for (const RooflineChart* c : charts) {
                    const double plot = c->chart()->plotArea().height();
                    if (plot < 4 * line && !area->cramped())
                        failures << where
                                + QStringLiteral(
                                    ": a plot %1 px high (type %2 px a line), %3 columns, and nothing said")
                                      .arg(plot, 0, 'f', 0)
                                      .arg(line)
                                      .arg(columns);
                }
                if (area->cramped()
                    && !w.statusBar()->currentMessage().contains(QStringLiteral("Overlay devices on one chart")))
                    failures << where
                            + QStringLiteral(": small charts, but the status line says '%1'")
                                  .arg(w.statusBar()->currentMessage());
                // Every cell of a row of charts the same width, and no cell empty unless one row can't hold them.
                for (const RooflineChart* c : charts)
                    if (std::abs(c->width() - charts.front()->width()) > 2)
                        failures << where
                                + QStringLiteral(": cells %1 and %2 px wide")
                                      .arg(c->width())
                                      .arg(charts.front()->width());
                settle();
                if (area->columns() != columns)
                    failures << where
                            + QStringLiteral(": the grid went from %1 to %2 columns without a resize")
                                  .arg(columns)
                                  .arg(area->columns());
            }
        }
        QVERIFY2(failures.isEmpty(), qPrintable(failures.mid(0, 12).join(QLatin1Char('\n'))));
    }

    // The arrangement follows the room: three charts in a wide, low area (1700 x 430) are one row of
    // three (2 x 2 cells would be 212 px high, under a chart's minimum with its summary line); in
    // 1000 x 800 the 2 x 2 grid gives each plot more (cells 497 x 397 against 329 x 800 of a row).
    void gridArrangementFollowsTheRoom()
    {
        Config c;
        c.model = "unet";
        std::vector<Device> devices;
        for (const QString& id : kThree)
            devices.push_back(test::shippedDevice(id.toStdString().c_str()));
        // In a scroll area, as in the window: the room is its viewport.
        QScrollArea scroll;
        scroll.setWidgetResizable(true);
        scroll.setFrameShape(QFrame::NoFrame);
        auto* charts0 = new ChartArea;
        scroll.setWidget(charts0);
        ChartArea& area = *charts0;
        area.setReport(*analyzeConfig(c, devices).report);
        scroll.resize(1700, 430);
        scroll.show();
        QVERIFY(QTest::qWaitForWindowExposed(&scroll));
        settle();
        QCOMPARE(area.columns(), 3);
        const auto charts = area.charts();
        QCOMPARE(charts.size(), size_t(3));
        for (const RooflineChart* chart : charts) // one row: every chart the area's height, a third of its width
            QVERIFY2(chart->geometry().top() < 10 && chart->width() > 500,
                qPrintable(QStringLiteral("%1 px wide").arg(chart->width())));
        scroll.resize(1000, 800);
        settle();
        QCOMPARE(area.columns(), 2);
        scroll.resize(1000, 790); // a few pixels back and forth move nothing
        settle();
        QCOMPARE(area.columns(), 2);
    }

    // What gave way at a small size is not saved as the user's layout: closing at 1280 x 720 with the
    // tour open, the next start (restoring the layout) has the Configuration panel back.
    void whatGaveWayIsNotSaved()
    {
        GuiOptions o = test::freshWindow(kThree);
        o.overlay = true;
        o.presentation = true;
        {
            MainWindow w(o);
            QVERIFY(test::showAtDesktopSize(w, QSize(1280, 720)));
            w.teaching().showTour();
            settle();
            auto* config = w.findChild<QDockWidget*>(QStringLiteral("configurationDock"));
            QVERIFY(config && config->isHidden());
            QVERIFY(w.close());
        }
        MainWindow again { GuiOptions {} };
        QVERIFY(test::showAtDesktopSize(again, QSize(1920, 1080)));
        settle();
        auto* config = again.findChild<QDockWidget*>(QStringLiteral("configurationDock"));
        QVERIFY(config && !config->isHidden());
    }
};

QTEST_MAIN(TestChartSizes)
#include "tst_chartsizes.moc"
