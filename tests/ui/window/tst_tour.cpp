// The guided tour marks on the chart what each page explains: the memory slope, the compute roof,
// the ridge, the layer that takes the most time; the marks lie on those items. Its panel is docked
// beside the charts, not over them.
#include "chart/chartarea.h"
#include "open/analyses.h"
#include "panels/explain.h"
#include "window/mainwindow.h"
#include "window/teaching.h"

#include "chart/rooflinechart.h"
#include "guitestutils.h"
#include "onnx/onnx_model.h"
#include "panels/tourpanel.h"
#include "testutils.h"

#include <QChart>
#include <QDockWidget>
#include <QLineSeries>
#include <QTextBrowser>

using namespace rfx;

namespace {
// With ROOFLINE_TOUR_SHOTS=DIR, the window at each page goes to DIR/tour-N.png, for a person to look at.
void shot(QWidget& w, int page)
{
    const QString dir = qEnvironmentVariable("ROOFLINE_TOUR_SHOTS");
    if (!dir.isEmpty())
        w.grab().save(QStringLiteral("%1/tour-%2.png").arg(dir).arg(page + 1));
}
} // namespace

class TestTour : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

private slots:
    void initTestCase() { test::isolateGuiTest(m_dir, QStringLiteral("tst_tour")); }

    // The tour suggests only the sliders that move the network shown: for a model whose file fixes the
    // batch, not the batch. The text takes what the file fixes from the workspace's model (issue 37
    // item 4: no view reads the model cache).
    void theTourOffersOnlyWhatTheFileLeavesOpen()
    {
        MainWindow w(test::freshWindow());
        QVERIFY(test::showAtDesktopSize(w));
        w.teaching().showTour();
        QCoreApplication::processEvents();
        QVERIFY(w.teaching().tourPanel());
        QString page = w.teaching().tourPanel()->pages().at(3);
        QVERIFY2(page.contains(QStringLiteral("Move the batch, bits or filters sliders")), qPrintable(page));
        w.workspace().openModel(QStringLiteral(ROOFLINE_TEST_DATA_DIR "/onnx/wild/fixed_batch.onnx"));
        QVERIFY(w.workspace().state().model && !w.workspace().state().model->batchBound());
        QVERIFY(w.workspace().state().problem.isEmpty());
        page = w.teaching().tourPanel()->pages().at(3);
        QVERIFY2(!page.contains(QStringLiteral("batch")), qPrintable(page));
        QVERIFY2(
            page.contains(QStringLiteral("Change the device")), qPrintable(page)); // its own precision: no slider left
    }

    // Issue 52 item 7: overlaid, step 2 said the roof is "the flat line at the top" while the device
    // it names (the L4 between the RTX 2060 Super and the H100) has the middle one.
    void theRoofPageSaysWhichLineOverlaid()
    {
        Config c;
        c.model = "unet";
        const Report report = *analyzeConfig(
            c, { test::shippedDevice("rtx-2060-super"), test::shippedDevice("l4"), test::shippedDevice("h100-sxm") })
                                   .report;
        const QString alone = tourPages(report, 1).at(1), overlaid = tourPages(report, 1, true).at(1);
        QVERIFY2(alone.contains(QStringLiteral("the flat line at the top")), qPrintable(alone));
        QVERIFY2(!overlaid.contains(QStringLiteral("at the top")), qPrintable(overlaid));
        QVERIFY2(overlaid.contains(QStringLiteral("the flat part of the NVIDIA L4's roof, in its colour")),
            qPrintable(overlaid));
        // The window passes the overlay on: the tour opened over overlaid charts says it.
        GuiOptions o
            = test::freshWindow({ QStringLiteral("rtx-2060-super"), QStringLiteral("l4"), QStringLiteral("h100-sxm") });
        o.overlay = true;
        MainWindow w(o);
        QVERIFY(test::showAtDesktopSize(w));
        w.teaching().showTour();
        QCoreApplication::processEvents();
        QVERIFY(w.teaching().tourPanel());
        const QStringList pages = w.teaching().tourPanel()->pages();
        QVERIFY(pages.size() > 1);
        QVERIFY2(!pages.at(1).contains(QStringLiteral("at the top")), qPrintable(pages.at(1)));
        // Toggled while the tour is open, the overlay changes its words at once (they stayed as they were).
        w.chartArea()->setOverlay(false);
        QCoreApplication::processEvents();
        QVERIFY2(w.teaching().tourPanel()->pages().at(1).contains(QStringLiteral("the flat line at the top")),
            qPrintable(w.teaching().tourPanel()->pages().at(1)));
        w.chartArea()->setOverlay(true);
        QCoreApplication::processEvents();
        QVERIFY2(!w.teaching().tourPanel()->pages().at(1).contains(QStringLiteral("at the top")),
            qPrintable(w.teaching().tourPanel()->pages().at(1)));
    }

    void marksWhatEachPageExplains()
    {
        MainWindow w(test::freshWindow());
        QVERIFY(test::showAtDesktopSize(w));
        w.teaching().showTour();
        QCoreApplication::processEvents();
        TourPanel* tour = w.teaching().tourPanel();
        QVERIFY(tour);
        auto* dock = w.findChild<QDockWidget*>(QStringLiteral("tourDock"));
        QVERIFY(dock && dock->isVisible());
        RooflineChart* chart = w.chartArea()->charts().front();
        // Beside the chart: the panel and the chart do not overlap on screen.
        const QRect chartOnScreen(chart->mapToGlobal(QPoint(0, 0)), chart->size());
        const QRect dockOnScreen(dock->mapToGlobal(QPoint(0, 0)), dock->size());
        QVERIFY(!chartOnScreen.intersects(dockOnScreen));

        const DeviceResult& d = w.workspace().report()->results.front();
        const double s = chart->yScale();
        // Map through the roof series, which every chart has and which uses the log axes.
        QLineSeries* roof = nullptr;
        for (QAbstractSeries* series : chart->chart()->series())
            if (auto* line = qobject_cast<QLineSeries*>(series); line && !roof && line->count() == 3)
                roof = line;
        QVERIFY(roof);
        auto pos = [&](double x, double y) { return chart->chart()->mapToPosition(QPointF(x, y / s), roof); };
        const QPointF ridge = pos(d.ridge, d.ceiling.flops);
        // The mark is drawn inside the plot only: a ring at its edge covered a tick label (issue 73 item 8).
        auto inPlot = [&] {
            return chart->chart()->plotArea().adjusted(-0.5, -0.5, 0.5, 0.5).contains(chart->highlightDrawnRect());
        };
        auto drawn = [&] {
            const QRectF a = chart->highlightDrawnRect(), p = chart->chart()->plotArea();
            return QStringLiteral("mark drawn at %1,%2 %3x%4, plot %5,%6 %7x%8")
                .arg(a.x())
                .arg(a.y())
                .arg(a.width())
                .arg(a.height())
                .arg(p.x())
                .arg(p.y())
                .arg(p.width())
                .arg(p.height());
        };

        // 1. The memory slope: from the left to the ridge, through a point of the slope.
        QCOMPARE(tour->page(), 0);
        QCOMPARE(chart->highlight(), RooflineChart::Highlight::Slope);
        QRectF r = chart->highlightRect();
        QVERIFY(r.adjusted(-2, -2, 2, 2).contains(ridge));
        QVERIFY(r.adjusted(-2, -2, 2, 2).contains(pos(d.ridge / 10, d.ridge / 10 * d.bandwidth)));
        QVERIFY(r.right() <= ridge.x() + 2); // nothing right of the ridge
        shot(w, 0);
        QVERIFY2(inPlot(), qPrintable(drawn()));
        QVERIFY(tour->text()
                    ->toPlainText()
                    .remove(QChar(0x2060))
                    .replace(QChar(0x00a0), QLatin1Char(' '))
                    .contains(QStringLiteral("448 GB/s")));

        // 2. The roof: from the ridge to the right, flat at P.
        tour->setPage(1);
        QCOMPARE(chart->highlight(), RooflineChart::Highlight::Roof);
        r = chart->highlightRect();
        QVERIFY(std::abs(r.top() - ridge.y()) < 1 && std::abs(r.bottom() - ridge.y()) < 1);
        QVERIFY(std::abs(r.left() - ridge.x()) < 1);
        QVERIFY(r.right() > ridge.x() + 100);
        shot(w, 1);
        QVERIFY2(inPlot(), qPrintable(drawn()));

        // 3. The ridge: a ring centred on it.
        tour->setPage(2);
        QCOMPARE(chart->highlight(), RooflineChart::Highlight::Ridge);
        r = chart->highlightRect();
        QVERIFY((r.center() - ridge).manhattanLength() < 1);
        shot(w, 2);
        QVERIFY2(inPlot(), qPrintable(drawn()));

        // 4. The layer taking the most time: a ring on its point, named on the page.
        tour->setPage(3);
        QCOMPARE(chart->highlight(), RooflineChart::Highlight::Layer);
        const int top = tourLayer(*w.workspace().report(), 0);
        QVERIFY(top >= 0);
        const LayerResult& l = d.layers[size_t(top)];
        r = chart->highlightRect();
        QVERIFY((r.center() - pos(l.intensity, l.attainable)).manhattanLength() < 1);
        QVERIFY(tour->text()
                    ->toPlainText()
                    .remove(QChar(0x2060))
                    .replace(QChar(0x00a0), QLatin1Char(' '))
                    .contains(QString::fromStdString(l.name)));
        shot(w, 3);
        QVERIFY2(inPlot(), qPrintable(drawn()));

        // Closing the tour removes the mark.
        dock->close();
        QCoreApplication::processEvents();
        QCOMPARE(chart->highlight(), RooflineChart::Highlight::None);
        QVERIFY(chart->highlightRect().isEmpty());
    }
};

QTEST_MAIN(TestTour)
#include "tst_tour.moc"
