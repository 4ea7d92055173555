// Sessions, undo and redo, table export and the export dialog, in the live window (Explain and the
// tour: tst_sessions_explain; presentation mode: tst_mainwindow; the chart to the clipboard:
// tst_mainwindow_charts).
#include "base/format.h"
#include "chart/chartarea.h"
#include "devices/device_loader.h"
#include "features/exportcontroller.h"
#include "features/exportdialog.h"
#include "figure/figurerenderer.h"
#include "model/networks.h"
#include "open/analyses.h"
#include "open/build_network.h"
#include "panels/controlpanel.h"
#include "panels/explain.h"
#include "table/layertablemodel.h"
#include "testpaths.h"
#include "window/mainwindow.h"
#include "window/teaching.h"
#include "workspace/sessioncontroller.h"

#include "guitestutils.h"
#include "model/unet.h"
#include "testutils.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QSettings>
#include <QSlider>
#include <QSpinBox>
#include <QTableView>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QTextDocument>
#include <QUndoStack>

using namespace rfx;

namespace {
GuiOptions fresh(const QStringList& devices = { QStringLiteral("rtx-2060-super") })
{
    return rfx::test::freshWindow(devices);
}
} // namespace

class TestSessions : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    QString path(const char* name) const { return m_dir.filePath(QString::fromLatin1(name)); }

private slots:
    void initTestCase()
    {
        rfx::test::isolateGuiTest(m_dir, QStringLiteral("tst_sessions"));
        qputenv("XDG_DATA_HOME", m_dir.filePath(QStringLiteral("data")).toUtf8());
    }

    void savedSessionReopensToTheIdenticalReport()
    {
        Report saved;
        {
            MainWindow w(fresh({ QStringLiteral("geforce-mx230"), QStringLiteral("t4") }));
            w.show();
            Config c;
            c.unet.height = c.unet.width = 128;
            c.unet.padding = Padding::Same;
            c.batch = 8;
            c.bits = 16;
            c.mode = Mode::Training;
            c.optimizer = Optimizer::Adam;
            w.workspace().setConfig(c);
            ViewSettings view = w.workspace().view();
            view.overlay = true; // View > Overlay devices on one chart
            w.workspace().setView(view);
            QString error;
            QVERIFY2(w.sessions().save(path("a.rfx.json"), &error), qPrintable(error));
            QVERIFY(!w.sessions().isDirty());
            QVERIFY(w.windowTitle().startsWith(QStringLiteral("a.rfx.json")));
            saved = *w.workspace().report();
        }
        MainWindow w(fresh());
        w.show();
        QString error;
        QVERIFY2(w.sessions().open(path("a.rfx.json"), &error), qPrintable(error));
        const Report& r = *w.workspace().report();
        QVERIFY(r.config == saved.config);
        QCOMPARE(r.results.size(), saved.results.size());
        for (size_t i = 0; i < r.results.size(); ++i) {
            QCOMPARE(r.results[i].device.id, saved.results[i].device.id);
            QCOMPARE(r.results[i].totals.time, saved.results[i].totals.time);
            QCOMPARE(r.results[i].totals.memory.total(), saved.results[i].totals.memory.total());
            QCOMPARE(r.results[i].layers.size(), saved.results[i].layers.size());
        }
        QVERIFY(w.chartArea()->overlay());
        QCOMPARE(w.sessions().path(), path("a.rfx.json"));
        QVERIFY(!w.sessions().isDirty());
        QVERIFY(QSettings().value(QStringLiteral("session/recentFiles")).toStringList().contains(path("a.rfx.json")));
    }

    void corruptedSessionLeavesTheWorkUntouched()
    {
        QFile f(path("bad.rfx.json"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"schema\": 1, \"config_args\": [\"--image\", \"580\"], \"devices\": [], \"view\": {}}");
        f.close();
        MainWindow w(fresh());
        w.show();
        Config c;
        c.batch = 3;
        w.workspace().setConfig(c);
        const double before = w.workspace().report()->results[0].totals.time;
        QString error;
        QVERIFY(!w.sessions().open(path("bad.rfx.json"), &error));
        QVERIFY2(error.contains(QStringLiteral("bad.rfx.json: view.overlay: missing")), qPrintable(error));
        QCOMPARE(w.workspace().report()->config.batch, 3);
        QCOMPARE(w.workspace().report()->results[0].totals.time, before);
        QVERIFY(!w.sessions().open(path("does-not-exist.rfx.json"), &error));
        QVERIFY(error.contains(QStringLiteral("does-not-exist.rfx.json")));
        QCOMPARE(w.workspace().report()->config.batch, 3);
    }

    void saveIsAtomic()
    {
        MainWindow w(fresh());
        w.show();
        QString error;
        QVERIFY(!w.sessions().save(m_dir.filePath(QStringLiteral("no-such-dir/x.rfx.json")), &error));
        QVERIFY(error.contains(QStringLiteral("no-such-dir")));
        QVERIFY(w.sessions().save(path("b.rfx.json"), &error));
        // no temporary files left next to it
        QCOMPARE(QDir(m_dir.path()).entryList({ QStringLiteral("b.rfx.json*") }, QDir::Files).size(), 1);
    }

    void undoAndRedo()
    {
        MainWindow w(fresh());
        w.show();
        QUndoStack* undo = w.sessions().undoStack();
        QCOMPARE(undo->count(), 0);
        Config c;
        c.bits = 16;
        w.workspace().setConfig(c);
        QTest::qWait(800); // a separate step, not merged with the next
        c.batch = 4;
        w.workspace().setConfig(c);
        QCOMPARE(undo->count(), 2);
        undo->undo();
        QCOMPARE(w.workspace().report()->config.batch, 1);
        QCOMPARE(w.workspace().report()->config.bits, 16);
        QCOMPARE(w.controls()->batchSpin()->value(), 1);
        QCOMPARE(w.controls()->batchSlider()->value(), 0); // 2^0: the slider steps in powers of two
        undo->undo();
        QCOMPARE(w.workspace().report()->config.bits, 32);
        undo->redo();
        undo->redo();
        QCOMPARE(w.workspace().report()->config.batch, 4);
        QCOMPARE(w.workspace().report()->config.bits, 16);
    }

    // View settings undo (issue 37 item 2): the View menu's overlay, shared axes and tick style, and the
    // table's filter, each one step of its own (not merged with the slider step just before), the
    // charts, the actions' checks and the table following undo and redo.
    void viewSettingsUndo()
    {
        MainWindow w(fresh({ QStringLiteral("rtx-2060-super"), QStringLiteral("h100-sxm") }));
        w.show();
        QUndoStack* undo = w.sessions().undoStack();
        auto action = [&](const QString& text) {
            for (QAction* a : w.findChildren<QAction*>())
                if (a->text() == text)
                    return a;
            return static_cast<QAction*>(nullptr);
        };
        QAction* overlay = action(QStringLiteral("&Overlay devices on one chart"));
        QAction* powers = action(QStringLiteral("Tick labels as &powers of ten"));
        QVERIFY(overlay && powers && action(QStringLiteral("Only &convolutions")));
        w.controls()->batchSpin()->setValue(4); // a control's step; the view settings must not merge into it
        const int before = undo->count();
        overlay->trigger(); // as the menu does
        QVERIFY(w.chartArea()->overlay());
        QVERIFY(w.workspace().view().overlay);
        powers->trigger();
        QVERIFY(w.chartArea()->powerTicks());
        action(QStringLiteral("Only &convolutions"))->trigger(); // the table's filter (Ctrl+K)
        QVERIFY(w.workspace().view().filter.convolutionsOnly);
        QCOMPARE(undo->count(), before + 3);
        QVERIFY(w.sessions().isDirty());
        undo->undo(); // the filter
        QVERIFY(!w.workspace().view().filter.convolutionsOnly);
        undo->undo(); // the tick style
        QVERIFY(!w.chartArea()->powerTicks());
        QVERIFY(!powers->isChecked());
        QVERIFY(w.chartArea()->overlay());
        undo->undo(); // the overlay
        QVERIFY(!w.chartArea()->overlay());
        QVERIFY(!overlay->isChecked());
        QCOMPARE(w.workspace().report()->config.batch, 4); // the slider's step is still there
        undo->undo();
        QCOMPARE(w.workspace().report()->config.batch, 1);
        undo->redo();
        undo->redo();
        QVERIFY(w.chartArea()->overlay());
        QVERIFY(overlay->isChecked());
        // A session and a figure take the view from the workspace.
        QVERIFY(w.currentSession().view.overlay);
        QVERIFY(w.currentFigure().overlay);
    }

    // Undo is the workspace's, by command (issue 37 item 2): with no window and no widget, edits of the
    // same fields of the configuration within 0.7 s are one step, a drag is one step however slow,
    // another field, the devices, a view setting and the table's device are steps of their own; the
    // unsaved mark follows.
    void undoIsTheWorkspacesByCommand()
    {
        Workspace ws;
        ws.setLibrary(loadDeviceLibrary({ std::filesystem::path(ROOFLINE_TEST_DEVICES_DIR) }));
        ws.setWork(Config {}, { QStringLiteral("rtx-2060-super"), QStringLiteral("h100-sxm") });
        ws.startHistory();
        QVERIFY(!ws.isDirty() && ws.undoStack()->count() == 0);
        Config c = ws.config();
        for (int b : { 2, 4, 8 }) { // the batch typed quickly: one step
            c.batch = b;
            ws.setConfig(c);
        }
        QCOMPARE(ws.undoStack()->count(), 1);
        QVERIFY(ws.isDirty());
        c.unet.height = c.unet.width = 252; // another field: another step
        ws.setConfig(c);
        QCOMPARE(ws.undoStack()->count(), 2);
        for (int b : { 16, 32 }) { // one slow drag (the same drag number, pauses over 0.7 s)
            c.batch = b;
            ws.setConfig(c, 7);
            QTest::qWait(750);
        }
        QCOMPARE(ws.undoStack()->count(), 3);
        c.batch = 64; // a new drag of the same slider
        ws.setConfig(c, 8);
        QCOMPARE(ws.undoStack()->count(), 4);
        ws.setTableDevice(QStringLiteral("h100-sxm"));
        ViewSettings v = ws.view();
        v.overlay = true;
        ws.setView(v);
        ws.setDevices({ QStringLiteral("h100-sxm") });
        QCOMPARE(ws.undoStack()->count(), 7);
        ws.undoStack()->undo(); // the devices
        QCOMPARE(ws.deviceIds().size(), qsizetype(2));
        ws.undoStack()->undo(); // the overlay
        QVERIFY(!ws.view().overlay);
        ws.undoStack()->undo(); // the table's device
        QCOMPARE(ws.state().tableDevice, QStringLiteral("rtx-2060-super"));
        ws.undoStack()->undo(); // the second drag
        QCOMPARE(ws.report()->config.batch, 32);
        ws.undoStack()->undo(); // the slow drag, whole
        QCOMPARE(ws.report()->config.batch, 8);
        ws.undoStack()->redo();
        QCOMPARE(ws.report()->config.batch, 32);
        ws.setDocumentPath(path("undo.rfx.json"));
        QVERIFY(!ws.isDirty());
        QCOMPARE(ws.undoStack()->count(), 7); // saving keeps the history
    }

    void aSliderDragIsOneUndoStep()
    {
        MainWindow w(fresh());
        w.show();
        for (int b = 2; b <= 12; ++b)
            w.controls()->batchSlider()->setValue(b);
        QCOMPARE(w.sessions().undoStack()->count(), 1);
        w.sessions().undoStack()->undo();
        QCOMPARE(w.workspace().report()->config.batch, 1);
    }

    // A slow drag is one step too (issue 37): held over a second with pauses longer than the 0.7 s that
    // merges a spin box's repeats, it made a step per pause. Let go and dragged again: a second step.
    void aSlowDragIsOneUndoStep()
    {
        MainWindow w(fresh());
        w.show();
        QSlider* slider = w.controls()->batchSlider();
        slider->setSliderDown(true);
        for (int b = 1; b <= 3; ++b) {
            slider->setValue(b);
            QTest::qWait(800);
        }
        slider->setSliderDown(false);
        QCOMPARE(w.sessions().undoStack()->count(), 1);
        QTest::qWait(800);
        slider->setSliderDown(true);
        slider->setValue(5);
        slider->setSliderDown(false);
        QCOMPARE(w.sessions().undoStack()->count(), 2);
        w.sessions().undoStack()->undo();
        QCOMPARE(w.workspace().report()->config.batch, 8);
        w.sessions().undoStack()->undo();
        QCOMPARE(w.workspace().report()->config.batch, 1);
    }

    void tableExports_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("marker");
        QTest::newRow("csv") << "t.csv"
                             << "device,layer,op";
        QTest::newRow("json") << "t.json"
                              << "\"results\"";
        QTest::newRow("markdown") << "t.md"
                                  << "| Layer | Op |";
        QTest::newRow("latex") << "t.tex"
                               << "\\toprule";
        // The plain-text table, as the CLI's default --format table: from the same list of formats.
        QTest::newRow("text") << "t.txt"
                              << "layer ";
        QTest::newRow("upper-case suffix") << "T.MD"
                                           << "| Layer | Op |";
    }
    void tableExports()
    {
        QFETCH(QString, file);
        QFETCH(QString, marker);
        MainWindow w(fresh());
        w.show();
        QString error;
        QVERIFY2(w.exporter().exportTable(path(qPrintable(file)), &error), qPrintable(error));
        QFile f(path(qPrintable(file)));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY(f.readAll().contains(marker.toUtf8()));
        QVERIFY(!w.exporter().exportTable(path("t.xls"), &error));
        QVERIFY(error.contains(QStringLiteral("unknown table format")));
    }

    void exportDialogSpec()
    {
        ExportDialog d(path("fig.svg"));
        const FigureSpec s = d.spec();
        QCOMPARE(s.format, FigureSpec::Format::Svg);
        QCOMPARE(s.widthIn, 7.0);
        QVERIFY(s.caption);
        d.setFile(path("noext"));
        QCOMPARE(d.spec().format, FigureSpec::Format::Png);
        QVERIFY(QString::fromStdString(d.spec().file).endsWith(QStringLiteral(".png")));
        // The size it will write, measured on the figure: 7 in at 300 dpi is 2100 px wide and as tall
        // as the layout makes it, in the greyed pixel fields and in words; a PDF in inches and points.
        const Report report = *analyzeConfig(Config {}, { rfx::test::shippedDevice("rtx-2060-super") }).report;
        d.setMeasure([&](const FigureSpec& spec) {
            FigureSpec full = spec;
            full.devices = { "rtx-2060-super" };
            return figureSize(report, full);
        });
        FigureSpec full = d.spec();
        full.devices = { "rtx-2060-super" };
        const FigureSize z = figureSize(report, full);
        QCOMPARE(z.widthPx, 2100);
        QVERIFY(z.heightPx > 1000);
        QVERIFY2(d.sizeText()
                == QStringLiteral("2100x%1 px, 300 dpi, 7.00 x %2 in").arg(z.heightPx).arg(z.heightIn, 0, 'f', 2),
            qPrintable(d.sizeText()));
        const auto spins = d.findChildren<QSpinBox*>();
        QVERIFY(std::any_of(spins.begin(), spins.end(), [&](QSpinBox* b) { return b->value() == z.heightPx; }));
        d.setFile(path("fig.pdf"));
        QVERIFY2(
            d.sizeText().startsWith(QStringLiteral("7.00 x ")) && d.sizeText().contains(QStringLiteral(" in, 504 x ")),
            qPrintable(d.sizeText()));
        QVERIFY(!d.sizeText().contains(QStringLiteral("caption")));
        // Four devices in a 3.5-inch column: the caption goes beside the figure, within 9 in (issue 73 item 8).
        const Report four = *analyzeConfig(Config {},
            { rfx::test::shippedDevice("rtx-2060-super"), rfx::test::shippedDevice("h100-sxm"),
                rfx::test::shippedDevice("a100-sxm-80gb"), rfx::test::shippedDevice("rtx-4090") })
                                 .report;
        d.setMeasure([&](const FigureSpec& spec) {
            FigureSpec all = spec;
            all.devices = { "rtx-2060-super", "h100-sxm", "a100-sxm-80gb", "rtx-4090" };
            all.widthIn = 3.5;
            return figureSize(four, all);
        });
        QVERIFY2(d.sizeText().contains(QStringLiteral("The caption goes to a .caption.txt file beside it"))
                && d.sizeText().contains(QStringLiteral("3.50 x 9.00 in")),
            qPrintable(d.sizeText()));
    }
};

QTEST_MAIN(TestSessions)
#include "tst_sessions.moc"
