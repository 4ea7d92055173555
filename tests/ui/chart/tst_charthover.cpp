// Hovering any drawn point shows what it stands for: modelled layer points (one chart and the
// overlay), the L2/L1 points of the hierarchical roofline, measured diamonds, and the energy view's
// points. Real mouse moves (QTest::mouseMove) onto the point's drawn position; the tooltip's text is
// checked.
#include "base/format.h"
#include "chart/chartarea.h"
#include "features/measurementsview.h"
#include "panels/controlpanel.h"
#include "panels/energyview.h"
#include "window/mainwindow.h"

#include "chart/rooflinechart.h"
#include "guitestutils.h"
#include "testutils.h"
#include "widgets/pointhover.h"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDockWidget>
#include <QHelpEvent>
#include <QLineSeries>
#include <QScatterSeries>
#include <QSettings>
#include <QTemporaryDir>
#include <QToolTip>

using namespace rfx;

namespace {
// The tooltip after the mouse moved onto `pos` of `view`'s viewport (from a point well away first,
// so that every call is a fresh hover).
QString hoverAt(QGraphicsView* view, QPoint pos)
{
    QTest::mouseMove(view->viewport(), QPoint(2, 2));
    QTest::mouseMove(view->viewport(), pos);
    QCoreApplication::processEvents();
    return QToolTip::isVisible() ? QToolTip::text() : QString();
}

// The layer of the first device with the largest share of time that has a point to itself.
size_t loneLayer(const DeviceResult& d)
{
    size_t best = 0;
    for (size_t i = 0; i < d.layers.size(); ++i) {
        bool alone = d.layers[i].intensity > 0;
        for (size_t j = 0; j < d.layers.size() && alone; ++j)
            alone = j == i || std::abs(std::log10(d.layers[j].intensity / d.layers[i].intensity)) > 0.05
                || std::abs(std::log10(d.layers[j].attainable / d.layers[i].attainable)) > 0.05;
        if (alone && d.layers[i].share > d.layers[best].share)
            best = i;
    }
    return best;
}
} // namespace

class TestChartHover : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

private slots:
    void initTestCase() { rfx::test::isolateGuiTest(m_dir, QStringLiteral("tst_charthover")); }

    void everyModelledPointAnswers()
    {
        MainWindow w(rfx::test::freshWindow());
        QVERIFY(rfx::test::showAtDesktopSize(w));
        RooflineChart* chart = w.chartArea()->charts()[0];
        const DeviceResult& d = w.workspace().report()->results[0];
        int answered = 0;
        for (const QPointF& p : chart->layerPoints()) {
            const QString tip = hoverAt(chart, chart->viewportPosition(p));
            QVERIFY2(tip.contains(QStringLiteral("FLOPs")) && tip.contains(QStringLiteral("intensity"))
                    && tip.contains(QStringLiteral("attainable")) && tip.contains(QStringLiteral("time"))
                    && tip.contains(QStringLiteral("output")) && tip.contains(QString::fromStdString(d.device.name)),
                qPrintable(QStringLiteral("at (%1, %2): '%3'").arg(p.x()).arg(p.y()).arg(tip)));
            ++answered;
        }
        QVERIFY(answered > 20);
        // One layer by name, with its own figures.
        const LayerResult& l = d.layers[loneLayer(d)];
        const QString tip
            = hoverAt(chart, chart->viewportPosition(QPointF(l.intensity, l.attainable / chart->yScale())));
        QVERIFY2(tip.contains(QStringLiteral("<b>%1</b>").arg(QString::fromStdString(l.name))), qPrintable(tip));
        QVERIFY2(tip.contains(QString::fromStdString(formatSI(l.flops, "FLOP"))), qPrintable(tip));
        QVERIFY2(tip.contains(QString::fromStdString(shapeString(l.out))), qPrintable(tip));
        QVERIFY2(tip.contains(QString::fromStdString(formatBytes(l.bytes))), qPrintable(tip));
        // Away from every point: no tooltip.
        QVERIFY(chart->hover()
                    ->pointAt(chart->viewportPosition(QPointF(l.intensity * 30, l.attainable / chart->yScale() / 300)))
                    .series
            == nullptr);
    }

    // Qt sends a tooltip event once the mouse rests; QGraphicsScene answered it by hiding every
    // tooltip (after 300 ms) because no item has one of its own: on a real display the tooltip
    // vanished within a second. It must still be there.
    void tooltipStaysWhileTheMouseRests()
    {
        MainWindow w(rfx::test::freshWindow());
        QVERIFY(rfx::test::showAtDesktopSize(w));
        RooflineChart* chart = w.chartArea()->charts()[0];
        const DeviceResult& d = w.workspace().report()->results[0];
        const LayerResult& l = d.layers[loneLayer(d)];
        const QPoint pos = chart->viewportPosition(QPointF(l.intensity, l.attainable / chart->yScale()));
        QVERIFY(hoverAt(chart, pos).contains(QString::fromStdString(l.name)));
        QHelpEvent help(QEvent::ToolTip, pos, chart->viewport()->mapToGlobal(pos));
        QCoreApplication::sendEvent(chart->viewport(), &help);
        QTest::qWait(500);
        QVERIFY(QToolTip::isVisible());
        QVERIFY(QToolTip::text().contains(QString::fromStdString(l.name)));
    }

    void overlayPointsNameTheirDevice()
    {
        MainWindow w(rfx::test::freshWindow({ QStringLiteral("geforce-mx230"), QStringLiteral("h100-sxm") }));
        QVERIFY(rfx::test::showAtDesktopSize(w));
        w.chartArea()->setOverlay(true);
        QCoreApplication::processEvents();
        RooflineChart* chart = w.chartArea()->charts()[0];
        const DeviceResult& h100 = w.workspace().report()->results[1];
        const LayerResult& l = h100.layers[loneLayer(h100)];
        const QString tip
            = hoverAt(chart, chart->viewportPosition(QPointF(l.intensity, l.attainable / chart->yScale())));
        QVERIFY2(tip.contains(QString::fromStdString(h100.device.name)), qPrintable(tip));
        QVERIFY2(tip.contains(QString::fromStdString(l.name)), qPrintable(tip));
    }

    void levelPointsAnswer()
    {
        MainWindow w(rfx::test::freshWindow({ QStringLiteral("h100-sxm") }));
        QVERIFY(rfx::test::showAtDesktopSize(w));
        QComboBox* traffic = w.controls()->trafficCombo();
        traffic->setCurrentIndex(traffic->findData(int(TrafficModel::Tiled)));
        QCoreApplication::processEvents();
        RooflineChart* chart = w.chartArea()->charts()[0];
        const auto l2 = chart->levelPoints(0);
        QVERIFY(!l2.empty());
        // Level points sit right of the DRAM points at the same height: every one answers as itself
        // unless a modelled point is nearer.
        int asLevel = 0;
        for (const QPointF& p : l2) {
            const QString tip = hoverAt(chart, chart->viewportPosition(p));
            QVERIFY2(
                tip.contains(QStringLiteral("FLOPs")) && tip.contains(QStringLiteral("intensity")), qPrintable(tip));
            asLevel += tip.contains(QStringLiteral(" at L2 on "))
                && tip.contains(QStringLiteral("this level alone would allow"));
        }
        QVERIFY2(asLevel >= int(l2.size()) / 2, qPrintable(QStringLiteral("%1 of %2").arg(asLevel).arg(l2.size())));
    }

    void measuredDiamondsAnswer()
    {
        MainWindow w(rfx::test::freshWindow());
        QVERIFY(rfx::test::showAtDesktopSize(w));
        QString error;
        QVERIFY2(w.measurements().import(QStringLiteral(ROOFLINE_TEST_DATA_DIR "/measurements/unet-plain.csv"), &error),
            qPrintable(error));
        QCoreApplication::processEvents();
        RooflineChart* chart = w.chartArea()->charts()[0];
        const auto measured = chart->measuredPoints();
        QCOMPARE(measured.size(), size_t(3));
        int named = 0;
        for (const QPointF& p : measured) {
            const QString tip = hoverAt(chart, chart->viewportPosition(p));
            QVERIFY2(tip.contains(QStringLiteral("measured")), qPrintable(tip));
            named += tip.contains(QStringLiteral("<b>enc1.conv2</b> measured on"))
                && tip.contains(QStringLiteral("6.62 ms"));
        }
        QCOMPARE(named, 1);
    }

    void energyViewPointsAnswer()
    {
        MainWindow w(rfx::test::freshWindow());
        QVERIFY(rfx::test::showAtDesktopSize(w));
        w.energyDock()->setVisible(true);
        w.energyView()->flush();
        QCoreApplication::processEvents();
        int charts = 0;
        for (QChartView* v : w.energyView()->findChildren<QChartView*>()) {
            QXYSeries* s = nullptr;
            for (QAbstractSeries* a : v->chart()->series())
                if (auto* xy = qobject_cast<QXYSeries*>(a); xy && xy->count() > 0 && xy->isVisible()
                    && (xy->type() == QAbstractSeries::SeriesTypeScatter || xy->pointsVisible()))
                    s = s ? s : xy;
            QVERIFY(s);
            const QPointF value = s->at(s->count() / 2);
            const QPoint pos = v->mapFromScene(v->chart()->mapToScene(v->chart()->mapToPosition(value, s)));
            const QString tip = hoverAt(v, pos);
            QVERIFY2(tip.contains(QStringLiteral("per GPU")) && tip.contains(QStringLiteral("clock"))
                    && tip.contains(QStringLiteral("per image")),
                qPrintable(QStringLiteral("%1: '%2'").arg(v->chart()->title(), tip)));
            ++charts;
        }
        QCOMPARE(charts, 3);
    }
};

QTEST_MAIN(TestChartHover)
#include "tst_charthover.moc"
