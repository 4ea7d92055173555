// What Nsight Compute and Intel Advisor users expect of a roofline chart: the wheel zooms about the
// cursor, a rubber band zooms to its box (a click still picks a point), arrows pan, Home resets;
// a cursor read-out says where the cursor is and which roof bounds it; the layers that take the
// most time are named beside their points, never over another label or a point.
#include "chart/chartarea.h"
#include "chart/rooflinechart.h"
#include "chartoracle.h"
#include "guitestutils.h"
#include "panels/controlpanel.h"
#include "style/labelplacer.h"
#include "testutils.h"
#include "window/mainwindow.h"

#include <QChart>
#include <QRegularExpression>
#include <QSettings>
#include <QSlider>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QWheelEvent>

#include <cmath>

using namespace rfx;

namespace {
void wheel(QWidget* viewport, QPoint at, int notches)
{
    QWheelEvent e(at, viewport->mapToGlobal(at), QPoint(), QPoint(0, 120 * notches), Qt::NoButton, Qt::NoModifier,
        Qt::NoScrollPhase, false);
    QCoreApplication::sendEvent(viewport, &e);
    QCoreApplication::processEvents();
}

double decades(double lo, double hi) { return std::log10(hi / lo); }

QRectF toViewport(const RooflineChart* c, const QRectF& chartRect)
{
    return c->mapFromScene(c->chart()->mapToScene(chartRect)).boundingRect();
}
} // namespace

class TestChartNavigation : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

private slots:
    void initTestCase() { rfx::test::isolateGuiTest(m_dir, QStringLiteral("tst_chartnavigation")); }

    void wheelZoomsAboutTheCursorAndHomeResets()
    {
        MainWindow w(rfx::test::freshWindow());
        QVERIFY(rfx::test::showAtDesktopSize(w));
        RooflineChart* chart = w.chartArea()->charts()[0];
        const auto before = chart->viewRange();
        const QPoint at = chart->viewportPosition(QPointF(10, 1000));
        wheel(chart->viewport(), at, 2); // two notches in: 1.25^2
        QVERIFY(chart->zoomed());
        const auto after = chart->viewRange();
        QCOMPARE_LT(decades(after.xlo, after.xhi), decades(before.xlo, before.xhi) / 1.5);
        // The value under the cursor stays under it.
        const QPoint again = chart->viewportPosition(QPointF(10, 1000));
        QVERIFY2(
            (again - at).manhattanLength() <= 2, qPrintable(QStringLiteral("%1,%2").arg(again.x()).arg(again.y())));
        // The zoom is kept while the analysis changes, and drawn as a fresh chart would draw it.
        w.controls()->batchSpin()->setValue(8);
        QCoreApplication::processEvents();
        QVERIFY(chart->zoomed());
        QCOMPARE(chart->viewRange().xlo, after.xlo);
        const QString stale = rfx::test::chartDiffersFromFresh(chart, QStringLiteral("zoomed"));
        QVERIFY2(stale.isEmpty(), qPrintable(stale));
        // Arrows pan: right moves the view to higher intensities.
        chart->setFocus();
        QTest::keyClick(chart, Qt::Key_Right);
        QCOMPARE_GT(chart->viewRange().xlo, after.xlo);
        // Home: back to the decade fit of what is shown now (batch 8 reaches 10^4 FLOP/B).
        QTest::keyClick(chart, Qt::Key_Home);
        QVERIFY(!chart->zoomed());
        const QPointF fit = chart->xRange();
        QCOMPARE(std::log10(fit.x()), std::round(std::log10(fit.x())));
        QCOMPARE(std::log10(fit.y()), std::round(std::log10(fit.y())));
        QCOMPARE(chart->viewRange().xlo, fit.x() / 1.0001);
        // A zoom no log axis can show is refused, not applied.
        for (int i = 0; i < 40; ++i)
            wheel(chart->viewport(), at, 3);
        const auto deep = chart->viewRange();
        QVERIFY(deep.xhi / deep.xlo >= 3.99 && std::isfinite(deep.xlo));
    }

    void rubberBandZoomsAndAClickStillPicks()
    {
        MainWindow w(rfx::test::freshWindow());
        QVERIFY(rfx::test::showAtDesktopSize(w));
        RooflineChart* chart = w.chartArea()->charts()[0];
        int clicks = 0;
        connect(chart, &RooflineChart::layerClicked, this, [&] { ++clicks; });
        const QPoint a = chart->viewportPosition(QPointF(1, 100)), b = chart->viewportPosition(QPointF(100, 10000));
        QTest::mousePress(chart->viewport(), Qt::LeftButton, {}, a);
        QTest::mouseMove(chart->viewport(), (a + b) / 2);
        QTest::mouseMove(chart->viewport(), b);
        QTest::mouseRelease(chart->viewport(), Qt::LeftButton, {}, b);
        QCoreApplication::processEvents();
        QVERIFY(chart->zoomed());
        const auto v = chart->viewRange();
        QVERIFY2(std::abs(std::log10(v.xlo)) < 0.05 && std::abs(std::log10(v.xhi) - 2) < 0.05,
            qPrintable(QStringLiteral("%1 .. %2").arg(v.xlo).arg(v.xhi)));
        QVERIFY2(std::abs(std::log10(v.ylo) - 2) < 0.05 && std::abs(std::log10(v.yhi) - 4) < 0.05,
            qPrintable(QStringLiteral("%1 .. %2").arg(v.ylo).arg(v.yhi)));
        QCOMPARE(clicks, 0); // a drag is no click
        // A plain click on a point still selects its layer.
        const auto pts = chart->layerPoints();
        QPointF target;
        for (const QPointF& p : pts)
            if (p.x() > v.xlo && p.x() < v.xhi && p.y() > v.ylo && p.y() < v.yhi)
                target = p;
        QVERIFY(target.x() > 0);
        QTest::mouseClick(chart->viewport(), Qt::LeftButton, {}, chart->viewportPosition(target));
        QCOMPARE(clicks, 1);
    }

    // Issue 52 item 3: the read-out sat in the plot's top-left corner over whatever was there, a
    // layer's name included. Each labelled point in turn is brought to that corner (the view zoomed
    // around it): the read-out takes another corner, clear of every label.
    void readoutKeepsOffTheLabels()
    {
        MainWindow w(rfx::test::freshWindow());
        QVERIFY(rfx::test::showAtDesktopSize(w));
        RooflineChart* chart = w.chartArea()->charts()[0];
        const std::vector<QPointF> points = chart->layerPoints();
        QVERIFY(points.size() > 5);
        int cornerTaken = 0;
        for (const QPointF& p : points)
            for (double above : { 1.06, 1.25 }) {
                chart->setView({ p.x() / 1.25, p.x() * 300, p.y() / 300, p.y() * above });
                QCoreApplication::processEvents();
                const auto labels = chart->layerLabels();
                // The same pixel every time (the view moves with the point): moved away first, or no move.
                const QPoint middle = chart->viewportPosition(QPointF(p.x() * 15, p.y() / 15));
                QTest::mouseMove(chart->viewport(), middle + QPoint(5, 5));
                QTest::mouseMove(chart->viewport(), middle);
                const QRectF readout = chart->readoutBox();
                QVERIFY(!chart->readoutShown().isEmpty() && !readout.isEmpty());
                const QRectF topLeft(chart->chart()->plotArea().topLeft() + QPointF(4, 4), readout.size());
                for (const auto& [text, box] : labels) {
                    QVERIFY2(
                        !box.intersects(readout), qPrintable(QStringLiteral("the read-out covers \"%1\"").arg(text)));
                    cornerTaken += box.intersects(topLeft);
                }
            }
        chart->resetView();
        QVERIFY2(cornerTaken > 0, "no label came to the top-left corner: the test proves nothing");
    }

    // The read-out describes the point under the cursor; a new type size (presentation in or out) or a
    // new size moves the plot under a cursor that did not move, so the read-out goes until the next
    // mouse move (issue 52: it stayed, naming what was no longer under the cursor).
    void readoutGoesWhenThePlotMoves()
    {
        MainWindow w(rfx::test::freshWindow());
        QVERIFY(rfx::test::showAtDesktopSize(w));
        QTest::qWait(100);
        RooflineChart* chart = w.chartArea()->charts()[0];
        const std::pair<const char*, std::function<void()>> changes[] = {
            { "type x 1.5", [&] { chart->setFontScale(1.5); } },
            { "type x 1", [&] { chart->setFontScale(1.0); } },
            { "resize", [&] { chart->resize(chart->size() - QSize(40, 30)); } },
        };
        for (const auto& [what, change] : changes) {
            QTest::mouseMove(chart->viewport(), chart->viewportPosition(QPointF(1, 100)));
            QVERIFY2(!chart->readoutShown().isEmpty(), what); // shown before: the test can fail
            change();
            QCoreApplication::processEvents();
            QVERIFY2(chart->readoutShown().isEmpty(),
                qPrintable(QString::fromUtf8(what) + QStringLiteral(": ") + chart->readoutShown()));
        }
        QTest::mouseMove(chart->viewport(), QPoint(2, 2)); // away: the next test's first move is a move
    }

    void cursorReadoutNamesTheRoof()
    {
        MainWindow w(rfx::test::freshWindow());
        QVERIFY(rfx::test::showAtDesktopSize(w));
        QTest::qWait(100); // the layout settled (a later resize hides the read-out, rightly)
        RooflineChart* chart = w.chartArea()->charts()[0];
        // RTX 2060 Super: 448 GB/s, 7.18 TFLOP/s, ridge 16.0 FLOP/B. At I = 1 the slope allows
        // 448 GFLOP/s; 100 GFLOP/s is under it, 2000 is above it. The cursor's pixel is a hair off
        // I = 1 (448 x 1.004 = 450): within 1 %.
        QTest::mouseMove(chart->viewport(), chart->viewportPosition(QPointF(1, 100)));
        // (The cursor sits on a whole pixel: the intensity under it is 1 to a few parts in a thousand.)
        QVERIFY2(chart->readoutShown().contains(QRegularExpression(
                     QStringLiteral("under the memory slope \\((44[4-9]|45[0-2]) GFLOP/s there\\)"))),
            qPrintable(chart->readoutShown()));
        QVERIFY(chart->readoutShown().startsWith(QStringLiteral("I 1")));
        QTest::mouseMove(chart->viewport(), chart->viewportPosition(QPointF(1, 2000)));
        QVERIFY2(chart->readoutShown().contains(QStringLiteral("not attainable")), qPrintable(chart->readoutShown()));
        // A point drawn on the slope, with the cursor two pixels above the line: on that roof.
        const QPoint onSlope = chart->viewportPosition(QPointF(1, 448)) - QPoint(0, 2);
        QTest::mouseMove(chart->viewport(), onSlope);
        QVERIFY2(chart->readoutShown().contains(
                     QRegularExpression(QStringLiteral("on the memory slope \\((44[4-9]|45[0-2]) GFLOP/s\\)"))),
            qPrintable(chart->readoutShown()));
        QTest::mouseMove(chart->viewport(), chart->viewportPosition(QPointF(100, 1000)));
        QVERIFY2(chart->readoutShown().contains(QStringLiteral("under the compute roof (7.18 TFLOP/s there)")),
            qPrintable(chart->readoutShown()));
        // Two pixels above the compute roof: on it (issue 38: "P 7.23 TFLOP/s: under ... (7.18 TFLOP/s there)").
        QTest::mouseMove(chart->viewport(), chart->viewportPosition(QPointF(100, 7180)) - QPoint(0, 2));
        QVERIFY2(chart->readoutShown().contains(QStringLiteral("on the compute roof (7.18 TFLOP/s)")),
            qPrintable(chart->readoutShown()));
        // Cache-aware bounds draw the caches' slopes, and the read-out names them as the points' tooltips
        // do ("L2-bound"; issue 38: it said "above the roof, not attainable" there). H100: DRAM 3.35 TB/s,
        // L2 10.1 TB/s, L1 33.5 TB/s, FP32 66.9 TFLOP/s; at I = 1, 5 TFLOP/s is above the DRAM slope and
        // under the L2 one, 40 above every roof.
        w.workspace().setDevices({ QStringLiteral("h100-sxm") });
        Config aware = w.workspace().report()->config;
        const CacheAware before = aware.cacheAware;
        aware.cacheAware = CacheAware::On;
        w.workspace().setConfig(aware);
        QCoreApplication::processEvents();
        chart = w.chartArea()->charts()[0];
        QCOMPARE(chart->yScale(), 1e12);
        QTest::mouseMove(chart->viewport(), chart->viewportPosition(QPointF(1, 5)));
        QVERIFY2(chart->readoutShown().contains(
                     QRegularExpression(QStringLiteral("under the L2 slope \\(10\\.[0-2] TFLOP/s there\\)"))),
            qPrintable(chart->readoutShown()));
        // The L1 slope is drawn, and named, only where the cache-aware model uses the level: a GPU's
        // L1 is left out of it (its file's "cores" count CUDA cores, not SMs, so all L1s together are
        // unknown; core/engine/roofline.cpp), so over the H100's L2 slope (10.1 TFLOP/s at I = 1),
        // 20 TFLOP/s is not attainable, although devices/h100-sxm.json gives an L1 of 33.5 TB/s.
        QTest::mouseMove(chart->viewport(), chart->viewportPosition(QPointF(1, 20)));
        QVERIFY2(chart->readoutShown().contains(QStringLiteral("above the roof, not attainable")),
            qPrintable(chart->readoutShown()));
        QTest::mouseMove(chart->viewport(), chart->viewportPosition(QPointF(1, 2)));
        QVERIFY2(
            chart->readoutShown().contains(QStringLiteral("under the DRAM slope")), qPrintable(chart->readoutShown()));
        QTest::mouseMove(chart->viewport(), chart->viewportPosition(QPointF(1, 40)));
        QVERIFY2(chart->readoutShown().contains(QStringLiteral("not attainable")), qPrintable(chart->readoutShown()));
        aware.cacheAware = before;
        w.workspace().setConfig(aware);
        // In the overlay the bounding roof is named with its device: at I = 1, 100 GFLOP/s is under the
        // MX230's compute roof? No: the MX230 FP32 roof is 784 GFLOP/s and its slope allows 48 GFLOP/s
        // at I = 1, so the lowest roof above the point is the 2060 Super's slope (448 GFLOP/s).
        w.workspace().setDevices({ QStringLiteral("geforce-mx230"), QStringLiteral("rtx-2060-super") });
        w.chartArea()->setOverlay(true);
        QCoreApplication::processEvents();
        chart = w.chartArea()->charts()[0];
        QTest::mouseMove(chart->viewport(), chart->viewportPosition(QPointF(1, 100)));
        QVERIFY2(chart->readoutShown().contains(QStringLiteral("under RTX 2060 Super's memory slope")),
            qPrintable(chart->readoutShown()));
        QTest::mouseMove(chart->viewport(), chart->viewportPosition(QPointF(1, 20)));
        QVERIFY2(chart->readoutShown().contains(
                     QRegularExpression(QStringLiteral("under MX230's memory slope \\(4[78]\\.\\d GFLOP/s there\\)"))),
            qPrintable(chart->readoutShown()));
    }

    void topLayersAreNamedWithoutOverlap()
    {
        MainWindow w(rfx::test::freshWindow());
        QVERIFY(rfx::test::showAtDesktopSize(w));
        RooflineChart* chart = w.chartArea()->charts()[0];
        const auto labels = chart->layerLabels();
        QVERIFY(!labels.empty());
        const auto markers = chart->markerRects();
        for (size_t i = 0; i < labels.size(); ++i) {
            const QRectF box = toViewport(chart, labels[i].second);
            QVERIFY2(labels[i].first.contains(QStringLiteral(" %")), qPrintable(labels[i].first));
            for (const QRectF& m : markers)
                QVERIFY2(!box.intersects(m), qPrintable(labels[i].first));
            for (size_t j = i + 1; j < labels.size(); ++j) // apart, not touching: "6.9 %dec4.conv1" read as one
                QVERIFY(!labels[i].second.adjusted(-1.5, -1.5, 1.5, 1.5).intersects(labels[j].second));
        }
        // The largest layer (U-Net: dec4.conv1, 8.0 % of the time at the defaults) is the first named.
        QVERIFY2(labels.front().first.startsWith(QStringLiteral("dec4.conv1")), qPrintable(labels.front().first));
        // Selected, each named layer's ring is drawn over no label text: the labels make way.
        const auto& layers = w.workspace().report()->results[0].layers;
        for (size_t i = 0; i < layers.size(); ++i) {
            if (layers[i].share < 0.05)
                continue;
            chart->setSelectedLayer(int(i));
            QCoreApplication::processEvents();
            const QRectF ring = chart->selectionRect();
            QVERIFY(ring.isValid());
            for (const auto& [text, box] : chart->layerLabels())
                QVERIFY2(!toViewport(chart, box).intersects(ring),
                    qPrintable(
                        QStringLiteral("%1 under the ring of %2").arg(text, QString::fromStdString(layers[i].name))));
        }
        chart->setLayerLabels(0);
        QVERIFY(chart->layerLabels().empty());
    }

    // Tick labels as powers of ten: one per decade on both axes, drawn at Qt's own ticks (whose text
    // is hidden); in a figure too; off again, the plain numbers are back.
    void powerTicks()
    {
        MainWindow w(rfx::test::freshWindow());
        QVERIFY(rfx::test::showAtDesktopSize(w));
        RooflineChart* chart = w.chartArea()->charts()[0];
        w.chartArea()->setPowerTicks(true);
        QCoreApplication::processEvents();
        // RTX 2060 Super, U-Net defaults: x 0.1 .. 1000, y 10 .. 100000 GFLOP/s.
        const QStringList labels = chart->powerTickLabels();
        for (const char* t : { "10\u207b\u00b9", "10\u2070", "10\u00b3", "10\u00b9", "10\u2075" })
            QVERIFY2(labels.contains(QString::fromUtf8(t)), qPrintable(labels.join(QLatin1Char(' '))));
        QCOMPARE(labels.size(), 5 + 5);
        const QString stale = rfx::test::chartDiffersFromFresh(chart, QStringLiteral("power-ticks"));
        QVERIFY2(stale.isEmpty(), qPrintable(stale));
        w.chartArea()->setPowerTicks(false);
        QVERIFY(chart->powerTickLabels().isEmpty());
    }

    // The placement rule itself, on boxes worked out by hand.
    void placementRule()
    {
        const QRectF bounds(0, 0, 100, 100);
        // A point at (50, 50) with a 20 x 10 label, marker radius 4, gap 3: right is (57, 45).
        auto spots = placeLabels({ { QPointF(50, 50), QSizeF(20, 10), 3, 4 } }, {}, bounds);
        QCOMPARE(*spots[0], QPointF(57, 45));
        // Right blocked by an obstacle: left, (23, 45).
        spots = placeLabels({ { QPointF(50, 50), QSizeF(20, 10), 3, 4 } }, { QRectF(60, 40, 5, 20) }, bounds);
        QCOMPARE(*spots[0], QPointF(23, 45));
        // A second label for the same point takes the next free spot (left), never the first one.
        spots = placeLabels(
            { { QPointF(50, 50), QSizeF(20, 10), 3, 4 }, { QPointF(50, 50), QSizeF(20, 10), 3, 4 } }, {}, bounds);
        QCOMPARE(*spots[0], QPointF(57, 45));
        QCOMPARE(*spots[1], QPointF(23, 45));
        // Nowhere to go inside the bounds: left out.
        spots = placeLabels({ { QPointF(5, 5), QSizeF(90, 90), 3, 4 } }, {}, bounds);
        QVERIFY(!spots[0]);
    }

    // Only obstacles within reach of a label's point can touch its boxes (the placer looks at those
    // alone): a thousand far away change no spot, one at the edge of the first choice still moves it.
    // Far placement: straight down first; the ring's box for a 20 x 10 label, marker radius 4, ring
    // 12 from (50, 50) is centred 4 + 12 + 5 = 21 below: top-left (40, 66).
    void labelsSeeTheObstaclesWithinReach()
    {
        const QRectF bounds(0, 0, 400, 400);
        const LabelRequest r { QPointF(50, 50), QSizeF(20, 10), 3, 4 };
        std::vector<QRectF> far;
        for (int i = 0; i < 1000; ++i)
            far.emplace_back(200 + (i % 40) * 5, 200 + (i / 40) * 5, 3, 3); // all beyond 4 + 40 + 20 + 10 + 4 px
        QCOMPARE(*placeFarLabel(r, {}, bounds, {}, { 12, 40 }), QPointF(40, 66));
        QCOMPARE(*placeFarLabel(r, far, bounds, {}, { 12, 40 }), QPointF(40, 66));
        QCOMPARE(*placeLabels({ r }, far, bounds)[0], QPointF(57, 45));
        // 1 px below the first box's 2-px margin: that box is taken, the next direction is tried.
        std::vector<QRectF> edge = far;
        edge.emplace_back(40, 77, 20, 1);
        QVERIFY(*placeFarLabel(r, edge, bounds, {}, { 12, 40 }) != QPointF(40, 66));
        edge.back() = QRectF(78, 44, 1, 12); // 1 px right of the right spot (57..77) and inside its margin
        QCOMPARE(*placeLabels({ r }, edge, bounds)[0], QPointF(23, 45));
    }
};

QTEST_MAIN(TestChartNavigation)
#include "tst_chartnavigation.moc"
