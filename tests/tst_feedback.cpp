// Feedback where the eye is: the wheel changes only what the user focused, problems show beside
// the field and over the charts, files that cannot be used are refused in a dialog that leaves the
// window on what it shows.
#include "chartarea.h"
#include "controlpanel.h"
#include "mainwindow.h"
#include "guitestutils.h"
#include "testutils.h"

#include <QComboBox>
#include <QScrollArea>
#include <QScrollBar>
#include <QSlider>
#include <QSpinBox>
#include <QWheelEvent>

using namespace rfx;

namespace {
// One notch of the wheel over the middle of `w`, as the window system delivers it.
void wheelOver(QWidget* w, int notches = -1)
{
    const QPointF pos = QRectF(w->rect()).center();
    QWheelEvent ev(pos, w->mapToGlobal(pos), QPoint(), QPoint(0, 120 * notches), Qt::NoButton, Qt::NoModifier,
        Qt::NoScrollPhase, false);
    QApplication::sendEvent(w, &ev);
    QCoreApplication::processEvents();
}

QScrollArea* panelScroll(MainWindow& w)
{
    for (QScrollArea* a : w.findChildren<QScrollArea*>())
        if (a->widget() == w.controls())
            return a;
    return nullptr;
}
} // namespace

class TestFeedback : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

private slots:
    void initTestCase() { test::isolateGuiTest(m_dir, QStringLiteral("tst_feedback")); }

    // The wheel over an unfocused combo box, spin box or slider scrolls the panel and changes
    // nothing; once the control has the focus, the wheel changes it.
    void wheelChangesOnlyFocusedControls()
    {
        MainWindow w(test::freshWindow());
        QVERIFY(test::showAtDesktopSize(w, QSize(1280, 640))); // short: the panel scrolls
        QScrollArea* scroll = panelScroll(w);
        QVERIFY(scroll);
        QVERIFY2(scroll->verticalScrollBar()->maximum() > 0, "the panel must scroll at this size");
        ControlPanel* c = w.controls();
        const Config before = c->config();
        QComboBox* algorithm = c->algorithmCombo();
        QSpinBox* batch = c->batchSpin();
        QSlider* image = c->imageSlider();
        w.setFocus();
        for (QWidget* control : { static_cast<QWidget*>(algorithm), static_cast<QWidget*>(batch), static_cast<QWidget*>(image) }) {
            QVERIFY(!control->hasFocus());
            QCOMPARE(control->focusPolicy(), Qt::StrongFocus);
            scroll->ensureWidgetVisible(control);
            const int scrolled = scroll->verticalScrollBar()->value();
            wheelOver(control, scrolled > 0 ? 1 : -1);
            QVERIFY2(scroll->verticalScrollBar()->value() != scrolled, "the wheel must scroll the panel instead");
        }
        QCOMPARE(c->config().algorithm, before.algorithm);
        QCOMPARE(c->config().batch, before.batch);
        QCOMPARE(c->config().unet.height, before.unet.height);
        QCOMPARE(w.report()->config.algorithm, before.algorithm);

        // Focused, the same wheel changes the control (so the check above can fail).
        algorithm->setFocus();
        QVERIFY(algorithm->hasFocus());
        wheelOver(algorithm, -1);
        QVERIFY(c->config().algorithm != before.algorithm);
        batch->setFocus();
        wheelOver(batch, 1);
        QCOMPARE(c->config().batch, before.batch + 1);
    }
};

QTEST_MAIN(TestFeedback)
#include "tst_feedback.moc"
