// A slider step repaints what changed in the Configuration panel, not the whole panel: the panel
// shows the workspace's configuration after each edit, and setting a box to the value it shows (or
// its tooltip, or switching the width box on and off again) repainted it; ten boxes on every step
// of a drag (issue 37, item 8).
#include "panels/controlpanel.h"
#include "workspace/workspace.h"

#include "guitestutils.h"
#include "testutils.h"

#include <QSpinBox>
#include <QtTest>

#include <map>

using namespace rfx;

namespace {
// Counts the paint events each watched widget receives.
class PaintCount : public QObject {
public:
    std::map<QObject*, int> count;
    void watch(QWidget* w)
    {
        w->installEventFilter(this);
        count[w] = 0;
    }
    bool eventFilter(QObject* o, QEvent* e) override
    {
        if (e->type() == QEvent::Paint)
            ++count[o];
        return false;
    }
};

void settle()
{
    for (int i = 0; i < 4; ++i) {
        QCoreApplication::processEvents();
        QTest::qWait(10);
    }
}
} // namespace

class TestControlPanelRepaint : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

private slots:
    void initTestCase() { test::isolateGuiTest(m_dir, QStringLiteral("tst_controlpanel_repaint")); }

    void aBatchStepRepaintsTheBatchOnly()
    {
        Workspace ws;
        ws.setLibrary(loadDeviceLibrary({ std::filesystem::path(ROOFLINE_TEST_DEVICES_DIR) }));
        ControlPanel panel;
        panel.follow(&ws);
        ws.setWork(Config {}, { QStringLiteral("rtx-2060-super") });
        panel.resize(420, 900);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        settle();
        QVERIFY(!panel.widthSpin()->isEnabled()); // square: the width box is off
        PaintCount paints;
        for (QSpinBox* box : { panel.batchSpin(), panel.imageSpin(), panel.widthSpin(), panel.onchipSpin(), panel.gpusSpin() })
            paints.watch(box);
        for (int batch : { 2, 3, 4 }) {
            panel.batchSpin()->setValue(batch);
            settle();
        }
        QCOMPARE(ws.config().batch, 4);
        QVERIFY(paints.count[panel.batchSpin()] >= 3); // the box that changed shows each value
        QCOMPARE(paints.count[panel.imageSpin()], 0);
        QCOMPARE(paints.count[panel.widthSpin()], 0);
        QCOMPARE(paints.count[panel.onchipSpin()], 0);
        QCOMPARE(paints.count[panel.gpusSpin()], 0);
        QVERIFY(!panel.widthSpin()->isEnabled());
        // The width box still follows the square: off while square, on when not.
        Config c = ws.config();
        c.unet.width = 508;
        ws.setConfig(c);
        settle();
        QVERIFY(panel.widthSpin()->isEnabled());
        QCOMPARE(panel.widthSpin()->value(), 508);
    }
};

QTEST_MAIN(TestControlPanelRepaint)
#include "tst_controlpanel_repaint.moc"
