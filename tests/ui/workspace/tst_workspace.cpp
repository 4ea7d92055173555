// The Workspace: one analysis and one signal per edit, the whole value in it (report, problem,
// measurements' comparison, calibration, selection), and the window's views told once per step.
#include "workspace/workspace.h"

#include "chart/chartarea.h"
#include "chart/rooflinechart.h"
#include "features/measurementsview.h"
#include "guitestutils.h"
#include "model/networks.h"
#include "onnx/onnx_model.h"
#include "panels/controlpanel.h"
#include "panels/devicepicker.h"
#include "table/layerpane.h"
#include "table/layertablemodel.h"
#include "testutils.h"
#include "widgets/problemnote.h"
#include "window/mainwindow.h"
#include "workspace/sessioncontroller.h"
#include "workspace/windowsettings.h"

#include <QCheckBox>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>

using namespace rfx;

namespace {

DeviceLibrary testLibrary() { return loadDeviceLibrary({ std::filesystem::path(ROOFLINE_TEST_DEVICES_DIR) }); }

Workspace::Parts partsOf(const QSignalSpy& spy, int i) { return spy.at(i).at(1).value<Workspace::Parts>(); }

/// A plain measurement CSV for every layer of `result`: twice its bound plus 10 us.
QString writeMeasurements(const QString& path, const DeviceResult& result)
{
    QByteArray csv = "layer,time_s\n";
    for (const LayerResult& l : result.layers)
        csv += QByteArray::fromStdString(l.name) + ',' + QByteArray::number(10e-6 + 2 * boundTimeOf(l), 'g', 17) + '\n';
    return test::writeFile(path, csv) ? path : QString();
}

} // namespace

class TestWorkspace : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

private slots:
    void initTestCase()
    {
        qRegisterMetaType<Workspace::Parts>();
        test::isolateGuiTest(m_dir, QStringLiteral("tst_workspace"));
    }

    // One edit, one analysis, one signal carrying the whole value.
    void oneSignalPerEdit()
    {
        Workspace ws;
        ws.setLibrary(testLibrary());
        QSignalSpy spy(&ws, &Workspace::changed);
        Config c;
        c.batch = 4;
        ws.setWork(c, { QStringLiteral("rtx-2060-super"), QStringLiteral("h100-sxm") });
        QCOMPARE(spy.count(), 1);
        QVERIFY(partsOf(spy, 0) & Workspace::Analysis);
        QVERIFY(ws.report());
        QCOMPARE(ws.report()->config.batch, 4);
        QCOMPARE(ws.report()->results.size(), size_t(2));
        QCOMPARE(ws.state().tableDevice, QStringLiteral("rtx-2060-super")); // the first device's rows
        QCOMPARE(ws.state().tableDeviceIndex, 0);

        // The report is shared, not copied: a listener holds the very object the workspace holds.
        const auto held = ws.state().report;
        c.batch = 8;
        ws.setConfig(c);
        QCOMPARE(spy.count(), 2);
        QCOMPARE(held->config.batch, 4); // what a view held stays valid and unchanged
        QCOMPARE(ws.report()->config.batch, 8);

        // Selection is its own part: no analysis.
        ws.selectLayer(3);
        QCOMPARE(spy.count(), 3);
        QCOMPARE(partsOf(spy, 2), Workspace::Parts(Workspace::Selection));
        ws.selectLayer(3); // the same: nothing
        QCOMPARE(spy.count(), 3);
    }

    // The view settings are the workspace's too (issue 37 item 1): their own part, no analysis, the
    // same report shared; the same settings again say nothing.
    void viewSettingsAreAPartWithoutAnalysis()
    {
        Workspace ws;
        ws.setLibrary(testLibrary());
        ws.setWork(Config {}, { QStringLiteral("rtx-2060-super"), QStringLiteral("h100-sxm") });
        const auto held = ws.state().report;
        QSignalSpy spy(&ws, &Workspace::changed);
        const int steps = ws.undoStack()->count();
        ViewSettings v = ws.view();
        QVERIFY(!v.overlay && !v.sharedAxes && !v.powerTicks && v.layerLabels == 0.05 && !v.filter.convolutionsOnly);
        v.overlay = true;
        v.filter.topN = 5;
        ws.setView(v);
        QCOMPARE(spy.count(), 1);
        QCOMPARE(partsOf(spy, 0), Workspace::Parts(Workspace::View));
        QVERIFY(ws.state().report == held); // nothing analysed again
        QVERIFY(ws.view() == v);
        QVERIFY(spy.at(0).at(0).value<WorkspaceState>().view == v); // the value carries it
        ws.setView(v);
        QCOMPARE(spy.count(), 1);
        QCOMPARE(ws.undoStack()->count(), steps + 1); // a step of its own
    }

    // The views follow the workspace themselves (issue 37 item 3): with no window around them, the
    // configuration panel, the device list, the charts and the table show what the workspace holds,
    // and what the user does in them reaches it.
    void viewsFollowTheWorkspaceThemselves()
    {
        Workspace ws;
        ControlPanel panel;
        DevicePicker picker;
        ChartArea charts;
        LayerPane pane;
        panel.follow(&ws);
        picker.follow(&ws);
        charts.follow(&ws);
        pane.follow(&ws);
        ws.setLibrary(testLibrary());
        Config c;
        c.unet.height = c.unet.width = 252; // works with valid padding (572 - 320)
        c.batch = 2;
        const QStringList ids { QStringLiteral("rtx-2060-super"), QStringLiteral("h100-sxm") };
        ws.setWork(c, ids);
        QVERIFY(ws.state().problem.isEmpty());
        QCOMPARE(panel.config().unet.height, 252);
        QCOMPARE(panel.config().batch, 2);
        QCOMPARE(panel.batchSpin()->value(), 2);
        QCOMPARE(picker.checked(), ids);
        QCOMPARE(charts.charts().size(), size_t(2));
        QCOMPARE(pane.deviceId(), ids[0]);
        QCOMPARE(pane.model()->rowCount(), int(ws.report()->results[0].layers.size()));

        // An impossible size: the panel says why under the field, the charts keep the last report
        // under a banner, the table keeps its rows.
        Config bad = c;
        bad.unet.height = bad.unet.width = 251;
        ws.setConfig(bad);
        QVERIFY(!ws.state().problem.isEmpty());
        QVERIFY(!panel.problemNote()->isHidden());
        QVERIFY(panel.problemNote()->text().contains(ws.state().problem.left(20).toHtmlEscaped()));
        QVERIFY(charts.staleBanner()->isVisibleTo(&charts));
        QCOMPARE(pane.model()->rowCount(), int(ws.report()->results[0].layers.size()));
        ws.setConfig(c);
        QVERIFY(panel.problemNote()->isHidden());
        QVERIFY(!charts.staleBanner()->isVisibleTo(&charts));

        // Edits reach the workspace: the batch typed, the filter ticked, a layer clicked on the
        // second device's chart (its rows in the table then).
        panel.batchSpin()->setValue(4);
        QCOMPARE(ws.config().batch, 4);
        pane.convolutionsOnlyBox()->setChecked(true);
        QVERIFY(ws.view().filter.convolutionsOnly);
        emit charts.layerClicked(3, 1);
        QCOMPARE(ws.state().selectedLayer, 3);
        QCOMPARE(ws.state().tableDevice, ids[1]);
        QCOMPARE(pane.deviceId(), ids[1]);
    }

    // A view setting handed to the table does not come back from it (issue 37 item 3): a session or
    // an undo that changes both of the filter's fields is one change, not three. The table used to
    // send the half-set filter back (the check box set before the count), which the workspace took
    // as an edit, and then the whole one again.
    void aViewSettingDoesNotComeBack()
    {
        MainWindow w(test::freshWindow({ QStringLiteral("rtx-2060-super") }));
        Workspace& ws = w.workspace();
        QSignalSpy spy(&ws, &Workspace::changed);
        const int steps = w.sessions().undoStack()->count();
        ViewSettings v = ws.view();
        v.filter.convolutionsOnly = !v.filter.convolutionsOnly;
        v.filter.topN = v.filter.topN + 3;
        ws.setView(v);
        QCOMPARE(spy.count(), 1);
        QVERIFY(ws.view() == v);
        QCOMPARE(w.sessions().undoStack()->count(), steps + 1);
        auto* pane = w.findChild<LayerPane*>();
        QVERIFY(pane && pane->filter() == v.filter); // shown all the same
    }

    // Opening a model is one path (issue 37 item 4): the model the opener parsed is the state's (not
    // read again), the values bound stay with their model in the workspace itself, a built-in network
    // starts at its published input, and a file that cannot be used is said once, through
    // networkFileRefused, with nothing else changed.
    void openingAModelIsOnePath()
    {
        Workspace ws;
        ws.setLibrary(testLibrary());
        ws.setWork(Config {}, { QStringLiteral("rtx-2060-super") });
        QVERIFY(!ws.state().model);
        const QString flagFile = QStringLiteral(ROOFLINE_TEST_DATA_DIR "/onnx/wild/if_flag.onnx");
        const OnnxLoad load = loadOnnxModel(flagFile.toStdString());
        QVERIFY(load.model);
        ws.openModel(flagFile, load.model, 0);
        QVERIFY(ws.state().problem.isEmpty());
        QCOMPARE(ws.state().model, load.model); // the very model handed over
        QCOMPARE(ws.config().model, flagFile.toStdString());
        QVERIFY(ws.config().bitsAsInFile);
        Config c = ws.config();
        c.inputValues["flag"] = 0;
        ws.setConfig(c);
        QCOMPARE(ws.report()->results.front().layers.front().op, Op::ReLU); // the else branch

        const QString resnet = QStringLiteral(ROOFLINE_TEST_DATA_DIR "/onnx/resnet50.onnx");
        ws.openModel(resnet, nullptr, 224);
        QVERIFY(ws.state().problem.isEmpty());
        QVERIFY(ws.state().model && ws.state().model->file() == resnet.toStdString());
        QVERIFY(ws.config().inputValues.empty()); // the flag stayed with its model
        QCOMPARE(ws.report()->input, (Shape { 1, 3, 224, 224 }));
        // Kept in a session too: another workspace shown that session gives the flag back with its model.
        const Session kept = sessionOf(ws.state());
        QCOMPARE(kept.modelInputs.at(flagFile.toStdString()).values.at("flag"), 0.0);
        Workspace other;
        other.setLibrary(testLibrary());
        other.showSession(kept);
        other.showModel(flagFile.toStdString());
        QCOMPARE(other.config().inputValues.at("flag"), 0.0);
        ws.showModel("alexnet");
        QVERIFY(!ws.state().model);
        QCOMPARE(ws.config().unet.height, findModel("alexnet")->height);
        QVERIFY(!ws.config().bitsAsInFile);
        ws.showModel(flagFile.toStdString()); // shown again from the Network selector: its value back
        QCOMPARE(ws.config().inputValues.at("flag"), 0.0);
        QCOMPARE(ws.report()->results.front().layers.front().op, Op::ReLU);

        QSignalSpy refused(&ws, &Workspace::networkFileRefused), changed(&ws, &Workspace::changed);
        const Config before = ws.config();
        ws.openModel(m_dir.filePath(QStringLiteral("notes.txt")));
        const QString broken = m_dir.filePath(QStringLiteral("broken-model.onnx"));
        QVERIFY(test::writeFile(broken, "not a model"));
        ws.openModel(broken);
        QCOMPARE(refused.count(), 2);
        QVERIFY(refused.at(0).at(1).toString().contains(QStringLiteral(".onnx or .json")));
        QVERIFY(ws.config() == before);
        QVERIFY(ws.state().model && ws.state().model->file() == flagFile.toStdString());
    }

    // A configuration that does not analyse: the problem is in the value, the last report stays.
    void problemKeepsTheLastReport()
    {
        Workspace ws;
        ws.setLibrary(testLibrary());
        ws.setWork(Config {}, { QStringLiteral("rtx-2060-super") });
        const Report* before = ws.report();
        QVERIFY(before);
        Config bad = ws.config();
        bad.unet.height = bad.unet.width = 571; // valid padding: 572 works, 571 does not divide down
        ws.setConfig(bad);
        QVERIFY(!ws.state().problem.isEmpty());
        QCOMPARE(ws.report(), before);
        QCOMPARE(ws.config().unet.height, 571); // what was asked for, for the panel to show
        ws.setConfig(Config {});
        QVERIFY(ws.state().problem.isEmpty());
    }

    // A network file just chosen that cannot be used: back to what was shown, and said.
    void unusableNetworkFileIsRefused()
    {
        Workspace ws;
        ws.setLibrary(testLibrary());
        ws.setWork(Config {}, { QStringLiteral("rtx-2060-super") });
        const QString path = m_dir.filePath(QStringLiteral("broken.onnx"));
        QVERIFY(test::writeFile(path, "not a model"));
        QSignalSpy refused(&ws, &Workspace::networkFileRefused);
        Config c = ws.config();
        c.model = path.toStdString();
        ws.setConfig(c);
        QCOMPARE(refused.count(), 1);
        QCOMPARE(refused.at(0).at(0).toString(), path);
        QVERIFY(!refused.at(0).at(1).toString().startsWith(path)); // the reason, without the path again
        QCOMPARE(ws.config().model, std::string("unet"));
        QVERIFY(ws.state().problem.isEmpty());
    }

    // Measurements are part of the value: their comparison follows the table's device and every analysis.
    void measurementsFollowTheTableDevice()
    {
        Workspace ws;
        ws.setLibrary(testLibrary());
        ws.setWork(Config {}, { QStringLiteral("rtx-2060-super"), QStringLiteral("h100-sxm") });
        MeasurementSet set = loadMeasurements(
            writeMeasurements(m_dir.filePath(QStringLiteral("m.csv")), ws.report()->results[0]).toStdString());
        QVERIFY(set.ok());
        QSignalSpy spy(&ws, &Workspace::changed);
        ws.setMeasurements(std::make_shared<const MeasurementSet>(std::move(set)));
        QCOMPARE(spy.count(), 1);
        QVERIFY(ws.state().comparison);
        // Every row measured at twice its bound plus 10 us on the RTX 2060 Super: half the bound reached, roughly.
        const Comparison& c = *ws.state().comparison;
        QCOMPARE(c.layers.size(), ws.report()->results[0].layers.size());
        QVERIFY(c.boundTotal / c.measuredTotal < 0.5 && c.boundTotal / c.measuredTotal > 0.3);
        const double onRtx = c.boundTotal;
        ws.setTableDevice(QStringLiteral("h100-sxm"));
        QCOMPARE(ws.state().tableDeviceIndex, 1);
        QVERIFY(ws.state().comparison->boundTotal < onRtx); // the H100's bounds are shorter
        QVERIFY(measurementsLine(ws.state()).contains(QStringLiteral("H100")));
        ws.setDevices({ QStringLiteral("rtx-2060-super") }); // the table's device left: the first one's rows
        QCOMPARE(ws.state().tableDevice, QStringLiteral("rtx-2060-super"));
        QCOMPARE(ws.state().comparison->boundTotal, onRtx);
        ws.setMeasurements(nullptr);
        QVERIFY(!ws.state().comparison);
        QVERIFY(measurementsLine(ws.state()).isEmpty());
    }

    // In the window: with measurements shown, a slider step rebuilds each chart once (it was twice:
    // the report, then the measurements through a second door, the first time with the old comparison).
    void oneRebuildPerStepWithMeasurements()
    {
        MainWindow w(test::freshWindow({ QStringLiteral("rtx-2060-super"), QStringLiteral("h100-sxm") }));
        QVERIFY(test::showAtDesktopSize(w));
        QString error;
        const QString csv
            = writeMeasurements(m_dir.filePath(QStringLiteral("w.csv")), w.workspace().report()->results[0]);
        QVERIFY2(w.measurements().import(csv, &error), qPrintable(error));
        const std::vector<RooflineChart*> charts = w.chartArea()->charts();
        QCOMPARE(charts.size(), size_t(2));
        QCOMPARE(charts[0]->measuredDevice(), 0);
        const int before0 = charts[0]->rebuilds(), before1 = charts[1]->rebuilds();
        Config c = w.workspace().config();
        c.batch *= 2;
        w.workspace().setConfig(c);
        QCOMPARE(charts[0]->rebuilds() - before0, 1);
        QCOMPARE(charts[1]->rebuilds() - before1, 1);
        // The diamonds drawn are the new comparison's: its bound total is the new report's.
        QCOMPARE(charts[0]->measured().boundTotal, w.workspace().state().comparison->boundTotal);
        QCOMPARE(charts[0]->report().config.batch, c.batch);

        // The table shows the other device: the diamonds move to its chart, the table follows.
        const int again0 = charts[0]->rebuilds(), again1 = charts[1]->rebuilds();
        w.workspace().setTableDevice(QStringLiteral("h100-sxm"));
        QCOMPARE(charts[0]->measuredDevice(), -1);
        QCOMPARE(charts[1]->measuredDevice(), 1);
        QCOMPARE(charts[0]->rebuilds() - again0, 1);
        QCOMPARE(charts[1]->rebuilds() - again1, 1);
        QVERIFY(w.measurements().status().contains(QStringLiteral("H100")));

        // Without measurements there are no diamonds to move: the table changes device, the charts stay.
        w.measurements().clear();
        QCOMPARE(charts[1]->measuredDevice(), -1);
        const int still0 = charts[0]->rebuilds(), still1 = charts[1]->rebuilds();
        w.workspace().setTableDevice(QStringLiteral("rtx-2060-super"));
        QCOMPARE(w.workspace().state().tableDeviceIndex, 0);
        QCOMPARE(charts[0]->rebuilds(), still0);
        QCOMPARE(charts[1]->rebuilds(), still1);
        QCOMPARE(w.tableModel()->deviceResult()->device.id, std::string("rtx-2060-super")); // the table follows
    }

    // Export dialogs start where the last export went, not where the last model came from (issue 38);
    // before any export, in Pictures or Documents where there is one, else home; a folder since
    // removed is not proposed.
    void exportsStartWhereTheLastExportWent()
    {
        QTemporaryDir models, figures;
        addRecentFile(models.filePath(QStringLiteral("model.onnx")));
        QCOMPARE(lastDirectory(), QFileInfo(models.path()).absoluteFilePath());
        const QString first = lastExportDirectory();
        QVERIFY(first != lastDirectory());
        QVERIFY(QFileInfo(first).isDir());
        setLastExportDirectory(figures.path());
        QCOMPARE(lastExportDirectory(), figures.path());
        QCOMPARE(lastDirectory(), QFileInfo(models.path()).absoluteFilePath()); // the models' folder stays theirs
        setLastExportDirectory(figures.filePath(QStringLiteral("gone")));
        QCOMPARE(lastExportDirectory(), first);
    }
};

QTEST_MAIN(TestWorkspace)
#include "tst_workspace.moc"
