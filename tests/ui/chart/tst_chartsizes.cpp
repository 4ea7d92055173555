// The chart at every size (issue 25): the window at sizes from 1024 x 640 to 1920 x 1080, one
// device, three overlaid and three in a grid, in normal and presentation type, with the guided tour
// closed and open. At each, read back every text the charts draw and assert that none is elided
// ("..."), none overlaps another, each lies inside its chart, no layer label is crossed by a roof or
// slope, and each chart has at least its minimum useful size (one chart, or the overlay, whole in
// view from 1280 x 720). Exported figures at 3.5, 5 and 7 inches get the same text checks.
#include "chart/chartarea.h"
#include "figure/figurelayout.h"
#include "figure/figurerenderer.h"
#include "window/mainwindow.h"
#include "window/teaching.h"

#include "chart/rooflinechart.h"
#include "chart/summaryview.h"
#include "guitestutils.h"
#include "style/chartfit.h"
#include "testutils.h"

#include <QDockWidget>
#include <QRegularExpression>
#include <QScrollArea>
#include <QScrollBar>
#include <QStatusBar>

using namespace rfx;

namespace {

const QStringList kThree { QStringLiteral("rtx-2060-super"), QStringLiteral("h100-sxm"), QStringLiteral("geforce-mx230") };

// What is wrong with the texts of one chart, as sentences (empty: legible).
QStringList problems(const std::vector<std::pair<QString, QRectF>>& texts, const QRectF& bounds,
    const std::vector<std::pair<QString, QRectF>>& layerLabels, const std::vector<QLineF>& lines)
{
    QStringList out;
    auto box = [](const QRectF& r) { return QStringLiteral("(%1,%2 %3x%4)").arg(r.x(), 0, 'f', 0).arg(r.y(), 0, 'f', 0).arg(r.width(), 0, 'f', 0).arg(r.height(), 0, 'f', 0); };
    for (size_t i = 0; i < texts.size(); ++i) {
        const auto& [text, r] = texts[i];
        if (text.contains(QChar(0x2026)) || text.contains(QStringLiteral("...")))
            out << QStringLiteral("'%1' is elided").arg(text);
        if (!bounds.adjusted(-0.5, -0.5, 0.5, 0.5).contains(r))
            out << QStringLiteral("'%1' %2 leaves the chart %3").arg(text, box(r), box(bounds));
        for (size_t j = i + 1; j < texts.size(); ++j) {
            const QRectF a = r.adjusted(0.5, 0.5, -0.5, -0.5), b = texts[j].second.adjusted(0.5, 0.5, -0.5, -0.5);
            if (a.intersects(b))
                out << QStringLiteral("'%1' %2 overlaps '%3' %4").arg(text, box(r), texts[j].first, box(texts[j].second));
        }
    }
    for (const auto& [text, r] : layerLabels)
        for (const QLineF& l : lines)
            if (crosses(l, r.adjusted(0.5, 0.5, -0.5, -0.5)))
                out << QStringLiteral("layer label '%1' %2 is crossed by a roof line").arg(text, box(r));
    return out;
}

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
            out << QStringLiteral("%1 %2 (min %3)").arg(d->objectName()).arg(d->width()).arg(d->minimumSizeHint().width());
    return QStringLiteral(" [docks: ") + out.join(QStringLiteral(", ")) + QLatin1Char(']');
}

void settle()
{
    for (int i = 0; i < 8; ++i) {
        QCoreApplication::processEvents();
        QTest::qWait(5);
    }
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
        for (const char* m : { "single", "overlay", "grid" })
            QTest::newRow(m) << QString::fromLatin1(m);
    }

    void windowSweep()
    {
        QFETCH(QString, mode);
        GuiOptions o = test::freshWindow(mode == QLatin1String("single") ? QStringList { kThree.front() } : kThree);
        o.overlay = mode == QLatin1String("overlay");
        MainWindow w(o);
        QVERIFY(test::showAtDesktopSize(w, QSize(1280, 720)));
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
                    const QString where = QStringLiteral("%1 %2x%3%4%5").arg(mode).arg(size.width()).arg(size.height())
                                              .arg(presentation ? QStringLiteral(" presentation") : QString(), tour ? QStringLiteral(" tour") : QString());
                    const auto charts = w.chartArea()->charts();
                    if (charts.empty()) {
                        failures << where + QStringLiteral(": no chart");
                        continue;
                    }
                    for (const RooflineChart* c : charts) {
                        ++checked;
                        for (const QString& p : problems(c->textBoxes(), QRectF(c->rect()), labelsInView(c), c->roofLines()))
                            failures << where + QStringLiteral(": ") + p;
                        const QSize min = c->minimumSizeHint();
                        if (c->width() < min.width() || c->height() < min.height())
                            failures << where + QStringLiteral(": chart %1x%2 under its minimum %3x%4").arg(c->width()).arg(c->height()).arg(min.width()).arg(min.height());
                    }
                    // The Configuration panel's controls whole, never behind a horizontal scroll bar
                    // (presentation at 1024 x 640 cut every spin box): long rows wrap instead.
                    if (auto* config = w.findChild<QDockWidget*>(QStringLiteral("configurationDock")); config && config->isVisible())
                        if (auto* scroll = qobject_cast<QScrollArea*>(config->widget()); scroll && scroll->horizontalScrollBar()->isVisible())
                            failures << where + QStringLiteral(": the Configuration panel scrolls sideways (%1 px of controls in %2)")
                                                    .arg(scroll->widget()->width()).arg(scroll->viewport()->width());
                    // One chart (or the overlay) whole in view from 1280 x 720: the window made room.
                    if (mode != QLatin1String("grid") && size.width() >= 1280) {
                        auto* scroll = qobject_cast<QScrollArea*>(w.chartArea()->parentWidget()->parentWidget());
                        if (scroll && w.chartArea()->height() > scroll->viewport()->height() + 1)
                            failures << where + QStringLiteral(": the charts (%1 px; chart %3, its minimum %4; summary %5; %6 px wide) need scrolling in %2 px")
                                                    .arg(w.chartArea()->height()).arg(scroll->viewport()->height())
                                                    .arg(charts.front()->height()).arg(charts.front()->minimumSizeHint().height())
                                                    .arg(w.chartArea()->summaries().front()->height()).arg(w.chartArea()->width())
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
                    return where + QStringLiteral(": title type %1 against %2").arg(c->chart()->titleFont().pointSizeF()).arg(title.pointSizeF());
                if (std::abs(c->width() - charts.front()->width()) > 2)
                    return where + QStringLiteral(": cells %1 and %2 px wide").arg(c->width()).arg(charts.front()->width());
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
                const QString where = QStringLiteral("%1x%2%3").arg(size.width()).arg(size.height()).arg(presentation ? QStringLiteral(" presentation") : QString());
                ChartArea* area = w.chartArea();
                const auto charts = area->charts();
                if (charts.size() != 3) {
                    failures << where + QStringLiteral(": %1 charts").arg(charts.size());
                    continue;
                }
                const int line = area->fontMetrics().lineSpacing();
                const int columns = area->columns();
                qInfo("%s: area %dx%d, %d columns, plots %.0f px high, charts %dx%d (min %dx%d), line %d, cramped %d", qPrintable(where), area->width(), area->height(), columns,
                    charts.front()->chart()->plotArea().height(), charts.front()->width(), charts.front()->height(),
                    charts.front()->minimumSizeHint().width(), charts.front()->minimumSizeHint().height(), line, int(area->cramped()));
                for (const RooflineChart* c : charts) {
                    const double plot = c->chart()->plotArea().height();
                    if (plot < 4 * line && !area->cramped())
                        failures << where + QStringLiteral(": a plot %1 px high (type %2 px a line), %3 columns, and nothing said")
                                                .arg(plot, 0, 'f', 0).arg(line).arg(columns);
                }
                if (area->cramped() && !w.statusBar()->currentMessage().contains(QStringLiteral("Overlay devices on one chart")))
                    failures << where + QStringLiteral(": small charts, but the status line says '%1'").arg(w.statusBar()->currentMessage());
                // Every cell of a row of charts the same width, and no cell empty unless one row can't hold them.
                for (const RooflineChart* c : charts)
                    if (std::abs(c->width() - charts.front()->width()) > 2)
                        failures << where + QStringLiteral(": cells %1 and %2 px wide").arg(c->width()).arg(charts.front()->width());
                settle();
                if (area->columns() != columns)
                    failures << where + QStringLiteral(": the grid went from %1 to %2 columns without a resize").arg(columns).arg(area->columns());
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
            QVERIFY2(chart->geometry().top() < 10 && chart->width() > 500, qPrintable(QStringLiteral("%1 px wide").arg(chart->width())));
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

    void figureSweep_data()
    {
        QTest::addColumn<double>("widthIn");
        QTest::addColumn<bool>("overlay");
        for (double w : { 3.5, 5.0, 7.0 })
            for (bool overlay : { true, false })
                QTest::addRow("%s %.1f in", overlay ? "overlay" : "grid", w) << w << overlay;
    }

    void figureSweep()
    {
        QFETCH(double, widthIn);
        QFETCH(bool, overlay);
        qputenv("ROOFLINE_DEVICES_DIR", ROOFLINE_TEST_DEVICES_DIR);
        FigureSpec s;
        s.config.model = "unet";
        for (const QString& id : kThree)
            s.devices.push_back(id.toStdString());
        s.overlay = overlay;
        s.widthIn = widthIn;
        std::vector<Device> devices;
        for (const auto& id : s.devices)
            devices.push_back(test::shippedDevice(id.c_str()));
        const Report report = *analyzeConfig(s.config, devices).report;
        const FigureGeometry g = figureGeometry(report, s);
        QVERIFY(!g.chartTexts.empty());
        QStringList failures;
        for (size_t i = 0; i < g.chartTexts.size(); ++i)
            for (const QString& p : problems(g.chartTexts[i], g.chartBounds[i], g.chartLayerLabels[i], g.chartLines[i]))
                failures << p;
        QVERIFY2(failures.isEmpty(), qPrintable(failures.mid(0, 12).join(QLatin1Char('\n'))));
    }

    // Issue 52 item 6: a figure's title font is bold; one chart of a 7-inch grid took a form that left
    // its ceilings in it (bold figures beside its neighbours' plain). At every width each form that
    // shows the ceilings sets them in plain weight.
    void figureTitlesKeepTheFiguresPlain()
    {
        Config c;
        c.model = "unet";
        const Report report = *analyzeConfig(c, { test::shippedDevice("h100-sxm") }).report;
        int forms = 0;
        QStringList seen;
        for (int width : { 1400, 900, 520, 420, 340, 260 }) {
            RooflineChart chart;
            chart.setPrintStyle(13, false);
            chart.resize(width, 320);
            chart.setReport(report, { 0 });
            chart.show();
            settle();
            const QString title = chart.chart()->title();
            if (!title.contains(QStringLiteral("TFLOP/s")))
                continue;
            ++forms;
            if (!seen.contains(title))
                seen << title;
            const qsizetype figures = title.indexOf(QStringLiteral("FP32"));
            const qsizetype plain = title.lastIndexOf(QStringLiteral("font-weight:normal"), figures);
            QVERIFY2(plain >= 0 && title.indexOf(QStringLiteral("</span>"), plain) > figures, qPrintable(title));
        }
        QVERIFY2(seen.size() >= 2, qPrintable(seen.join(QLatin1Char('\n')))); // more than one form was tried
        QVERIFY(forms >= 3);
    }

    // Issue 52 item 5: layers taking 5 % or more of the time are named; where a chart had no room
    // for some (3 of 8 named on the single chart, 1 of 8 in a grid cell) they went without a word.
    // At every size each such layer is named on the plot or counted in "+N more over 5 %", whose
    // tooltip lists them, clear of the labels; a figure's caption lists the ones left out.
    void layersOverTheShareAreNamedOrCounted_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::newRow("desk") << QSize(1100, 620);
        QTest::newRow("grid cell") << QSize(420, 300);
        QTest::newRow("small") << QSize(300, 220);
    }
    void layersOverTheShareAreNamedOrCounted()
    {
        QFETCH(QSize, size);
        Config c;
        c.model = "unet";
        const Report report = *analyzeConfig(c, { test::shippedDevice("rtx-2060-super") }).report;
        QStringList over;
        for (const LayerResult& l : report.results[0].layers)
            if (l.share >= 0.05 && l.intensity > 0)
                over << QString::fromStdString(l.name);
        QVERIFY2(over.size() >= 4, qPrintable(over.join(QLatin1Char(' '))));
        RooflineChart chart;
        chart.resize(size);
        chart.setReport(report, { 0 });
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        settle();
        const auto named = chart.layerLabels();
        const QStringList unnamed = chart.unnamedLayers();
        QCOMPARE(int(named.size()) + int(unnamed.size()), int(over.size()));
        for (const QString& layer : over) {
            const QString prefix = layer + QLatin1Char(' ');
            const bool onPlot = std::any_of(named.begin(), named.end(), [&](const auto& l) { return QString(l.first).replace(QLatin1Char('\n'), QLatin1Char(' ')).startsWith(prefix); });
            const bool counted = std::any_of(unnamed.begin(), unnamed.end(), [&](const QString& u) { return u.startsWith(prefix); });
            QVERIFY2(onPlot != counted, qPrintable(layer));
        }
        const QRectF more = chart.moreLabelBox();
        QCOMPARE(more.isEmpty(), unnamed.isEmpty());
        if (size.width() < 500)
            QVERIFY2(!unnamed.isEmpty(), "a small chart names every layer: the test would not see the note");
        if (!unnamed.isEmpty()) {
            const auto texts = chart.textBoxes();
            const QString note = QStringLiteral("+%1 more over 5 %").arg(unnamed.size());
            QVERIFY2(std::any_of(texts.begin(), texts.end(), [&](const auto& t) { return t.first == note; }), qPrintable(note));
            QVERIFY(chart.chart()->plotArea().contains(more));
            for (const auto& [text, box] : named)
                QVERIFY2(!box.intersects(more), qPrintable(text));
        }

        // The figure of three devices at 3.5 inches: its caption names what its charts could not.
        qputenv("ROOFLINE_DEVICES_DIR", ROOFLINE_TEST_DEVICES_DIR);
        FigureSpec s;
        s.config = c;
        std::vector<Device> devices;
        for (const QString& id : kThree) {
            s.devices.push_back(id.toStdString());
            devices.push_back(test::shippedDevice(id.toStdString().c_str()));
        }
        s.widthIn = 3.5;
        const Report three = *analyzeConfig(c, devices).report;
        const FigureLayout figure(three, s);
        const QString caption = QString(figure.caption()).remove(QChar(0x2060));
        QVERIFY2(caption.contains(QStringLiteral("not named on the plots for lack of room: RTX 2060 Super: ")), qPrintable(caption));
        QVERIFY2(caption.contains(QStringLiteral(" %; H100 SXM5 80 GB: ")), qPrintable(caption)); // one group per device
        QVERIFY2(caption.contains(QRegularExpression(QStringLiteral("\\. Roofline Explorer [0-9.]+$"))), qPrintable(caption)); // the stamp last
    }
};

QTEST_MAIN(TestChartSizes)
#include "tst_chartsizes.moc"
