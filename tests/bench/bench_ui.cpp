// GUI speed, measured with QBENCHMARK (not a pass/fail test). Run: cmake --build <dir> --target bench
#include "chart/chartarea.h"
#include "chart/rooflinechart.h"
#include "figure/figurerenderer.h"
#include "guitestutils.h"
#include "open/analyses.h"
#include "panels/controlpanel.h"
#include "panels/energycharts.h"
#include "panels/energyview.h"
#include "panels/llmcontrols.h"
#include "servingplan/servingcharts.h"
#include "servingplan/servingtable.h"
#include "testutils.h"
#include "window/mainwindow.h"

#include <QChartView>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QSlider>
#include <QSpinBox>
#include <QTableView>
#include <QTableWidget>

using namespace rfx;

namespace {
void repaintChartsAndTable(MainWindow& w)
{
    for (RooflineChart* c : w.chartArea()->charts())
        c->viewport()->repaint();
    w.table()->viewport()->repaint();
}
} // namespace

class BenchUi : public QObject {
    Q_OBJECT
    const QStringList m_devices { QStringLiteral("geforce-mx230"), QStringLiteral("geforce-940mx-ddr3"),
        QStringLiteral("rtx-2060-super"), QStringLiteral("h100-sxm") };

    GuiOptions options() const { return rfx::test::freshWindow(m_devices); }

private slots:
    void initTestCase() { qputenv("ROOFLINE_DEVICES_DIR", ROOFLINE_TEST_DEVICES_DIR); }

    // One batch-slider step, then a synchronous repaint of the four charts and the table. The batch walks
    // through 48 values, so every step shows new numbers (caches of shaped text cannot flatter it).
    void sliderStepToRepaint4Devices()
    {
        MainWindow w(options());
        w.resize(1600, 1000);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        // The batch box rather than its slider, which steps in powers of two: the same update, through
        // 48 distinct batches.
        QSpinBox* batch = w.controls()->batchSpin();
        QCOMPARE(w.chartArea()->charts().size(), size_t(4));
        int value = 1;
        QBENCHMARK
        {
            value = value % 48 + 1;
            batch->setValue(value);
            repaintChartsAndTable(w);
        }
        QCOMPARE(w.workspace().report()->results.size(), size_t(4));
    }

    // The same step in the language-model mode (issue 36 item 8): Llama-3.1 70B on the same four devices,
    // the batch box through 48 values; both phases analysed, the charts, summaries and table repainted.
    void llmSliderStepToRepaint4Devices()
    {
        MainWindow w(options());
        w.resize(1600, 1000);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.workspace().showModel("llama-3.1-70b");
        QVERIFY(w.workspace().state().languageModel());
        QSpinBox* batch = w.controls()->llmControls()->batchSpin();
        QCOMPARE(w.chartArea()->charts().size(), size_t(4));
        int value = 1;
        QBENCHMARK
        {
            value = value % 48 + 1;
            batch->setValue(value);
            repaintChartsAndTable(w);
        }
        QCOMPARE(w.workspace().state().llmAnalysis->settings.batch, value);
    }

    // The same repainted step on ResNet-50, imported from ONNX (issue 16) and built in, side by side.
    void resNet50SliderStep_data()
    {
        QTest::addColumn<QString>("model");
        QTest::newRow("onnx") << QStringLiteral(ROOFLINE_TEST_DATA_DIR "/onnx/resnet50.onnx");
        QTest::newRow("builtin") << QStringLiteral("resnet50");
    }
    void resNet50SliderStep()
    {
        QFETCH(QString, model);
        GuiOptions o = options();
        std::vector<std::string> args { "--model", model.toStdString() };
        size_t i = 0;
        std::string error;
        QVERIFY(applyConfigOption(args, i, o.config, error) == OptionStatus::Consumed);
        o.configGiven = true;
        MainWindow w(o);
        w.resize(1600, 1000);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QCOMPARE(w.workspace().report()->network,
            std::string(model.endsWith(QLatin1String(".onnx")) ? "resnet50" : "ResNet-50"));
        QSpinBox* batch = w.controls()->batchSpin();
        int value = 1;
        QBENCHMARK
        {
            value = value % 48 + 1;
            batch->setValue(value);
            repaintChartsAndTable(w);
        }
    }

    // The same step split: the update without painting, and painting alone.
    void sliderStepNoRepaint4Devices()
    {
        MainWindow w(options());
        w.resize(1600, 1000);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QSlider* slider = w.controls()->batchSlider();
        int value = 1;
        QBENCHMARK
        {
            value = value == 1 ? 2 : 1;
            slider->setValue(value);
        }
    }

    void repaintOnly4Devices()
    {
        MainWindow w(options());
        w.resize(1600, 1000);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QBENCHMARK { repaintChartsAndTable(w); }
    }

    void repaintOneChart()
    {
        MainWindow w(options());
        w.resize(1600, 1000);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        RooflineChart* c = w.chartArea()->charts()[0];
        QBENCHMARK { c->viewport()->repaint(); }
    }

    void repaintTable()
    {
        MainWindow w(options());
        w.resize(1600, 1000);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QBENCHMARK { w.table()->viewport()->repaint(); }
    }

    // DESIGN.md budget: a 300-dpi, 7-inch-wide PNG in under 0.5 s.
    void exportPng300Dpi()
    {
        std::vector<Device> devices { rfx::test::shippedDevice("rtx-2060-super") };
        const Report report = *analyzeConfig(Config {}, devices).report;
        FigureSpec spec;
        spec.devices = { "rtx-2060-super" };
        spec.file = QDir::temp().filePath(QStringLiteral("rfx-bench.png")).toStdString();
        QBENCHMARK { QVERIFY(renderFigure(report, spec).ok); }
        QFile::remove(QString::fromStdString(spec.file));
    }

    // The energy view's update after a change (three tunings: the sweep, energy per batch and per GPU
    // count; three charts redrawn), four devices, default U-Net in training, the view shown.
    void energyViewUpdate4Devices()
    {
        MainWindow w(options());
        w.resize(1600, 1000);
        w.show();
        w.energyDock()->show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        std::vector<Device> devices;
        for (const DeviceResult& d : w.workspace().report()->results)
            devices.push_back(d.device);
        Config c = w.workspace().report()->config;
        c.mode = Mode::Training;
        QBENCHMARK
        {
            c.batch = c.batch == 1 ? 2 : 1;
            w.energyView()->setInputs(c, devices);
            w.energyView()->flush();
        }
        QVERIFY(w.energyView()->errorText().isEmpty());
    }

    // The engine alone for the same step: build the U-Net and analyse it on four devices.
    void analysis4Devices()
    {
        std::vector<Device> devices;
        for (const QString& d : m_devices)
            devices.push_back(rfx::test::shippedDevice(qPrintable(d)));
        Config c;
        QBENCHMARK
        {
            c.batch = c.batch == 1 ? 2 : 1;
            AnalysisOutcome out = analyzeConfig(c, devices);
            QVERIFY(out.report);
        }
    }

    // The serving plan (issue 74 step 6): Llama-3.1 70B, P = 2,000, G = 300, TTFT 1 s, TPOT 50 ms, 200
    // users, on four devices. The plan is computed off the window's thread (servingPlan4Devices); a
    // control's change then costs the window this redraw: the fronts, the rings and their labels placed,
    // the table, one repaint.
    void servingRedraw4Devices()
    {
        const PlanSettings s = servingSettings();
        const Plan plan = planServing(test::builtinModel("llama-3.1-70b"), s, servingDevices());
        QChartView* view = EnergyCharts::makeView(ServingCharts::titles());
        view->resize(1300, 420);
        view->show();
        QVERIFY(QTest::qWaitForWindowExposed(view));
        QTableWidget table;
        table.resize(1300, 160);
        table.show();
        ServingCharts::PointTexts texts;
        const QStringList names { QStringLiteral("H100 SXM5"), QStringLiteral("MI300X"), QStringLiteral("A100 SXM4"),
            QStringLiteral("L40S") };
        QBENCHMARK
        {
            ServingCharts::fill(view->chart(), plan, s, names, texts);
            fillServingTable(&table, plan, names);
            view->repaint();
            table.repaint();
        }
        delete view;
    }

    void servingPlan4Devices()
    {
        const PlanSettings s = servingSettings();
        const std::vector<Device> devices = servingDevices();
        const LlmModel model = test::builtinModel("llama-3.1-70b");
        QBENCHMARK
        {
            const Plan plan = planServing(model, s, devices);
            QVERIFY(plan.devices.size() == 4);
        }
    }

private:
    static PlanSettings servingSettings()
    {
        PlanSettings s;
        s.llm.prompt = 2000;
        s.llm.generate = 300;
        s.ttft = 1;
        s.tpot = 0.050;
        s.users = 200;
        return s;
    }
    static std::vector<Device> servingDevices()
    {
        return { test::shippedDevice("h100-sxm"), test::shippedDevice("mi300x"), test::shippedDevice("a100-sxm-80gb"),
            test::shippedDevice("l40s") };
    }
};

QTEST_MAIN(BenchUi)
#include "bench_ui.moc"
