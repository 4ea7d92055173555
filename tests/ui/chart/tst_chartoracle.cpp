// The sequences after which users saw tick labels, axis titles, chart titles and legend text vanish
// (issue 14): after each step every chart must match, pixel for pixel, a chart built fresh from the
// same state (tests/chartoracle.h). Hovering a point shows its figures.
#include "chart/chartarea.h"
#include "chartoracle.h"
#include "features/measurementsview.h"
#include "panels/controlpanel.h"
#include "window/mainwindow.h"

#include "chart/rooflinechart.h"
#include "guitestutils.h"
#include "testutils.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QMessageBox>
#include <QSettings>
#include <QSlider>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QToolTip>

#include <array>

using namespace rfx;

namespace {
void expectAllChartsFresh(MainWindow& w, const QString& step)
{
    QCoreApplication::processEvents();
    int i = 0;
    for (RooflineChart* c : w.chartArea()->charts()) {
        const QString problem = rfx::test::chartDiffersFromFresh(c, QStringLiteral("%1-chart%2").arg(step).arg(i++));
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }
}

void chooseNetwork(MainWindow& w, const QString& title)
{
    QComboBox* n = w.controls()->networkCombo();
    const int at = n->findText(title);
    QVERIFY2(at >= 0, qPrintable(title));
    n->setCurrentIndex(at);
}
} // namespace

class TestChartOracle : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

private slots:
    void initTestCase() { rfx::test::isolateGuiTest(m_dir, QStringLiteral("tst_chartoracle")); }

    // The oracle itself: a chart drawn with other data differs (so a pass means something).
    void oracleSeesADifference()
    {
        MainWindow w(rfx::test::freshWindow());
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        RooflineChart* live = w.chartArea()->charts()[0];
        QVERIFY(rfx::test::chartDiffersFromFresh(live, QStringLiteral("same")).isEmpty());
        const QImage before = live->grab().toImage();
        w.controls()->batchSpin()->setValue(64);
        QCoreApplication::processEvents();
        QVERIFY(rfx::test::differingPixels(before, live->grab().toImage(), nullptr) > 100);
    }

    void batchThenNetwork()
    {
        MainWindow w(rfx::test::freshWindow());
        QVERIFY(rfx::test::showAtDesktopSize(w));
        w.controls()->batchSpin()->setValue(256);
        expectAllChartsFresh(w, QStringLiteral("batch256"));
        chooseNetwork(w, QStringLiteral("ResNet-50 (torchvision)"));
        expectAllChartsFresh(w, QStringLiteral("resnet50"));
        chooseNetwork(w, QStringLiteral("VGG-16 (torchvision)"));
        expectAllChartsFresh(w, QStringLiteral("vgg16"));
    }

    void bitsThenTensorCoresInTheOverlay()
    {
        MainWindow w(rfx::test::freshWindow({ QStringLiteral("geforce-mx230"), QStringLiteral("geforce-940mx-ddr3"),
            QStringLiteral("rtx-2060-super"), QStringLiteral("h100-sxm") }));
        QVERIFY(rfx::test::showAtDesktopSize(w));
        w.chartArea()->setOverlay(true);
        expectAllChartsFresh(w, QStringLiteral("overlay"));
        w.controls()->bitsSlider()->setValue(1); // 16 bits
        expectAllChartsFresh(w, QStringLiteral("overlay-16bit"));
        w.controls()->tensorCoresCheck()->setChecked(!w.controls()->tensorCoresCheck()->isChecked());
        expectAllChartsFresh(w, QStringLiteral("overlay-tensor"));
        w.controls()->bitsSlider()->setValue(0); // 8 bits
        expectAllChartsFresh(w, QStringLiteral("overlay-8bit"));
        w.chartArea()->setOverlay(false);
        expectAllChartsFresh(w, QStringLiteral("grid-8bit"));
        w.controls()->bitsSlider()->setValue(2);
        expectAllChartsFresh(w, QStringLiteral("grid-32bit"));
    }

    // View > Shared axes: every chart of the grid the same decades and unit, kept while a slider
    // moves; off again, each chart fits its own device. Drawn as a fresh chart would draw it.
    void sharedAxesInTheWindow()
    {
        MainWindow w(rfx::test::freshWindow({ QStringLiteral("geforce-mx230"), QStringLiteral("h100-sxm") }));
        QVERIFY(rfx::test::showAtDesktopSize(w));
        auto ranges = [&] {
            std::vector<std::array<double, 4>> out;
            for (RooflineChart* c : w.chartArea()->charts())
                out.push_back(
                    { c->xRange().x(), c->xRange().y(), c->yRange().x() * c->yScale(), c->yRange().y() * c->yScale() });
            return out;
        };
        QVERIFY(ranges()[0] != ranges()[1]);
        w.chartArea()->setSharedAxes(true);
        QCOMPARE(ranges()[0], ranges()[1]);
        QCOMPARE(w.chartArea()->charts()[0]->yScale(), w.chartArea()->charts()[1]->yScale());
        expectAllChartsFresh(w, QStringLiteral("shared"));
        w.controls()->batchSpin()->setValue(32);
        QCoreApplication::processEvents();
        QCOMPARE(ranges()[0], ranges()[1]);
        expectAllChartsFresh(w, QStringLiteral("shared-batch32"));
        w.chartArea()->setSharedAxes(false);
        QVERIFY(ranges()[0] != ranges()[1]);
        expectAllChartsFresh(w, QStringLiteral("unshared"));
    }

    void measurementsImport()
    {
        MainWindow w(rfx::test::freshWindow());
        QVERIFY(rfx::test::showAtDesktopSize(w));
        QString error;
        QVERIFY2(w.measurements().import(QStringLiteral(ROOFLINE_TEST_DATA_DIR "/measurements/unet-plain.csv"), &error),
            qPrintable(error));
        expectAllChartsFresh(w, QStringLiteral("measured"));
        w.controls()->batchSpin()->setValue(4);
        expectAllChartsFresh(w, QStringLiteral("measured-batch4"));
        w.measurements().clear();
        expectAllChartsFresh(w, QStringLiteral("measured-cleared"));
    }

    void modalDialogOverTheChart()
    {
        MainWindow w(rfx::test::freshWindow({ QStringLiteral("rtx-2060-super"), QStringLiteral("h100-sxm") }));
        QVERIFY(rfx::test::showAtDesktopSize(w));
        QFileDialog dialog(&w, QStringLiteral("Open"));
        dialog.setOption(QFileDialog::DontUseNativeDialog);
        dialog.open();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        w.controls()->batchSpin()->setValue(8);
        QCoreApplication::processEvents();
        dialog.reject();
        expectAllChartsFresh(w, QStringLiteral("after-dialog"));
        w.resize(1200, 800);
        expectAllChartsFresh(w, QStringLiteral("after-resize"));
    }
};

QTEST_MAIN(TestChartOracle)
#include "tst_chartoracle.moc"
