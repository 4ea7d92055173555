// Feedback where the eye is: the wheel changes only what the user focused, problems show beside
// the field and over the charts, undo restores a field and the analysis together (a network file
// that cannot be used: tst_modelopen).
#include "chart/chartarea.h"
#include "panels/controlpanel.h"
#include "panels/llmcontrols.h"
#include "window/mainwindow.h"
#include "window/teaching.h"
#include "workspace/sessioncontroller.h"

#include "base/format.h"
#include "chart/summaryview.h"
#include "guitestutils.h"
#include "testutils.h"
#include "widgets/checkedspinbox.h"
#include "widgets/problemnote.h"

#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QScrollArea>
#include <QScrollBar>
#include <QSlider>
#include <QSpinBox>
#include <QSplitter>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QToolButton>
#include <QUndoStack>
#include <QWheelEvent>

#include <cmath>

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
        for (QWidget* control :
            { static_cast<QWidget*>(algorithm), static_cast<QWidget*>(batch), static_cast<QWidget*>(image) }) {
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
        QCOMPARE(w.workspace().report()->config.algorithm, before.algorithm);

        // Focused, the same wheel changes the control (so the check above can fail).
        algorithm->setFocus();
        QVERIFY(algorithm->hasFocus());
        wheelOver(algorithm, -1);
        QVERIFY(c->config().algorithm != before.algorithm);
        batch->setFocus();
        wheelOver(batch, 1);
        QCOMPARE(c->config().batch, before.batch + 1);
    }

    // Every number typed into a spin box of the panel is answered: one over the range (a digit more
    // than the largest value has) is set to the largest, one under it to the smallest, and a note
    // under the field says which and why; QSpinBox dropped the digit, or put the old value back,
    // without a word (issue 52 item 4: 99999 in Image size read 9999; Batch 0 became 8).
    void typedValuesAreAnswered()
    {
        MainWindow w(test::freshWindow());
        QVERIFY(test::showAtDesktopSize(w, QSize(1600, 1000)));
        ControlPanel* c = w.controls();
        QCOMPARE(c->batchSpin()->maximum(), kBatchRange.max);
        int checked = 0;
        const auto spins = c->findChildren<CheckedSpinBox*>();
        for (CheckedSpinBox* spin : spins) {
            if (!spin->isEnabled() || !spin->isVisibleTo(c))
                continue;
            QLineEdit* edit = spin->findChild<QLineEdit*>();
            QVERIFY(edit);
            struct Case {
                qlonglong typed;
                int expected;
                const char* word;
            };
            std::vector<Case> cases { { qlonglong(spin->maximum()) * 10 + 7, spin->maximum(), "largest" } };
            if (spin->minimum() >= 1)
                cases.push_back({ spin->minimum() - 1, spin->minimum(), "smallest" });
            for (const Case& k : cases) {
                spin->setFocus();
                edit->selectAll();
                QTest::keyClicks(edit, QString::number(k.typed));
                QCOMPARE(edit->text().contains(QString::number(k.typed)), true); // no digit dropped
                QTest::keyClick(edit, Qt::Key_Return);
                QTRY_VERIFY(c->correctionNote() && c->correctionNote()->isVisible());
                const QString what = spin->toolTip().left(40);
                QVERIFY2(spin->value() == k.expected, qPrintable(what));
                if (spin == c->batchSpin())
                    QCOMPARE(c->config().batch, k.expected); // the configuration follows
                QWidget* under = c->correctionNote()->field(); // the form row's field: the spin box or its row
                QVERIFY(under == spin || under->isAncestorOf(spin));
                const QString note = c->correctionNote()->text();
                // the numbers as the window writes them: "99,999,999 is more than the largest batch, 65,536: set to
                // 65,536"
                const QString typed = QString::fromStdString(formatCount(k.typed)),
                              expected = QString::fromStdString(formatCount(k.expected));
                QVERIFY2(note.startsWith(typed + QLatin1Char(' ')) && note.contains(QLatin1String(k.word))
                        && note.endsWith(QStringLiteral("set to %1").arg(expected)),
                    qPrintable(note));
                QVERIFY2(!note.contains(QStringLiteral("value")), qPrintable(note)); // each field named
                // The next edit takes the note away.
                spin->setValue(k.expected == spin->minimum() ? spin->minimum() + 1 : spin->maximum() - 1);
                QVERIFY(!c->correctionNote()->isVisible());
                spin->setValue(k.expected);
            }
            ++checked;
        }
        QVERIFY2(checked >= 8,
            qPrintable(QString::number(checked))); // image, filters, stride, depth, channels, classes, batch, ...

        // Another network ends the note too (seen staying under Depth after a switch to ResNet-18).
        QSpinBox* box = c->findChildren<CheckedSpinBox*>().at(0);
        box->setFocus();
        box->findChild<QLineEdit*>()->selectAll();
        QTest::keyClicks(box->findChild<QLineEdit*>(), QString::number(qlonglong(box->maximum()) * 10 + 7));
        QTest::keyClick(box->findChild<QLineEdit*>(), Qt::Key_Return);
        QTRY_VERIFY(c->correctionNote()->isVisible());
        QComboBox* network = c->networkCombo();
        const int resnet = network->findData(QStringLiteral("resnet18"));
        QVERIFY(resnet >= 0);
        network->setCurrentIndex(resnet);
        emit network->activated(resnet);
        QVERIFY(!c->correctionNote()->isVisible());
    }

    // Image size 580 with valid padding: the message and its "Use 572 / Use 588" fixes sit right
    // under the image size, inside the panel's visible area, and a banner over the charts says they
    // show the last configuration that worked. A fix clears both.
    void problemShowsWhereTheUserLooks_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::newRow("1600x1000") << QSize(1600, 1000);
        QTest::newRow("1280x640") << QSize(1280, 640);
    }
    void problemShowsWhereTheUserLooks()
    {
        QFETCH(QSize, size);
        MainWindow w(test::freshWindow());
        QVERIFY(test::showAtDesktopSize(w, size));
        ControlPanel* c = w.controls();
        QScrollArea* scroll = panelScroll(w);
        scroll->verticalScrollBar()->setValue(scroll->verticalScrollBar()->maximum()); // looking elsewhere
        QSpinBox* image = c->imageSpin();
        image->setValue(580);
        QCoreApplication::processEvents();
        QCoreApplication::processEvents();
        ProblemNote* note = c->problemNote();
        QVERIFY(note->isVisible());
        QVERIFY(note->text().contains(QStringLiteral("Use 572")));
        QVERIFY(note->text().contains(QStringLiteral("Use 588")));
        // In the viewport: the note's rectangle, in the viewport's coordinates, lies inside it.
        const QRect inViewport(note->mapTo(scroll->viewport(), QPoint(0, 0)), note->size());
        QVERIFY2(scroll->viewport()->rect().contains(inViewport),
            qPrintable(QStringLiteral("note at %1,%2 %3x%4, viewport %5x%6")
                           .arg(inViewport.x())
                           .arg(inViewport.y())
                           .arg(inViewport.width())
                           .arg(inViewport.height())
                           .arg(scroll->viewport()->width())
                           .arg(scroll->viewport()->height())));
        // Right under the image size row.
        const QRect imageRow(image->parentWidget()->mapTo(c, QPoint(0, 0)), image->parentWidget()->size());
        const QRect noteRect(note->mapTo(c, QPoint(0, 0)), note->size());
        QVERIFY(noteRect.top() >= imageRow.bottom());
        QVERIFY2(noteRect.top() - imageRow.bottom() < 12, "the note must follow the image size row");
        // The stale banner over the charts, naming what they show.
        QLabel* banner = w.chartArea()->staleBanner();
        QVERIFY(banner->isVisible());
        QVERIFY(banner->text().contains(QStringLiteral("Not updated")));
        QVERIFY(banner->text().contains(QStringLiteral("572")));
        QCOMPARE(w.workspace().report()->config.unet.height, 572);

        emit note->linkActivated(QStringLiteral("588"));
        QCoreApplication::processEvents();
        QCOMPARE(w.workspace().report()->config.unet.height, 588);
        QVERIFY(!note->isVisible());
        QVERIFY(!banner->isVisible());
    }

    // Ctrl+Z in a number's box after its value was entered undid nothing (issue 73 item 6): the field
    // took the keys with nothing of its own to undo. It is the window's undo then, and Ctrl+Shift+Z its
    // redo; while the field has typing to undo, Ctrl+Z undoes that typing.
    void ctrlZInAFieldUndoesTheEntry()
    {
        MainWindow w(test::freshWindow());
        QVERIFY(test::showAtDesktopSize(w));
        w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        w.workspace().showModel("llama-3.1-8b");
        QCoreApplication::processEvents();
        QSpinBox* batch = w.controls()->llmControls()->batchSpin();
        batch->setFocus();
        batch->selectAll();
        QTest::keyClicks(batch, QStringLiteral("8"));
        QTest::keyClick(batch, Qt::Key_Return);
        QCoreApplication::processEvents();
        QCOMPARE(w.workspace().state().llm.settings.batch, 8);
        QTest::keyClick(batch, Qt::Key_Z, Qt::ControlModifier);
        QCoreApplication::processEvents();
        QCOMPARE(w.workspace().state().llm.settings.batch, 1);
        QCOMPARE(batch->value(), 1);
        QTest::keyClick(batch, Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
        QCoreApplication::processEvents();
        QCOMPARE(w.workspace().state().llm.settings.batch, 8);
        // Typing not yet entered: Ctrl+Z takes it back in the field, the work unchanged.
        batch->selectAll();
        QTest::keyClicks(batch, QStringLiteral("16"));
        QTest::keyClick(batch, Qt::Key_Z, Qt::ControlModifier);
        QCoreApplication::processEvents();
        QCOMPARE(w.workspace().state().llm.settings.batch, 8);
    }

    // Undo and redo bring the panel and the analysis back together, through an invalid value too.
    void undoRestoresPanelAndAnalysisTogether()
    {
        MainWindow w(test::freshWindow());
        QVERIFY(test::showAtDesktopSize(w));
        ControlPanel* c = w.controls();
        QComboBox* algorithm = c->algorithmCombo();
        algorithm->setCurrentIndex(algorithm->findData(int(ConvAlgorithm::Winograd4)));
        QCoreApplication::processEvents();
        QCOMPARE(w.workspace().report()->config.algorithm, ConvAlgorithm::Winograd4);
        c->imageSpin()->setValue(580); // does not work
        QCoreApplication::processEvents();
        QCOMPARE(w.workspace().report()->config.algorithm, ConvAlgorithm::Winograd4);
        auto consistent = [&] {
            const Config shown = c->config();
            if (!c->problemNote()->isVisible())
                QCOMPARE(shown, w.workspace().report()->config); // a working configuration is the one analysed
            else
                QVERIFY(w.chartArea()->staleBanner()->isVisible()); // otherwise the charts say they are stale
        };
        while (w.sessions().undoStack()->canUndo()) {
            w.sessions().undoStack()->undo();
            QCoreApplication::processEvents();
            consistent();
        }
        QCOMPARE(c->config().algorithm, ConvAlgorithm::Direct);
        QCOMPARE(w.workspace().report()->config.algorithm, ConvAlgorithm::Direct);
        while (w.sessions().undoStack()->canRedo()) {
            w.sessions().undoStack()->redo();
            QCoreApplication::processEvents();
            consistent();
        }
        QCOMPARE(c->config().unet.height, 580);
        QCOMPARE(w.workspace().report()->config.algorithm, ConvAlgorithm::Winograd4);
    }

    // Presentation mode at 1280 x 720: the charts get the height (the table steps aside, View >
    // Layer table brings it back), every control of the panel can be scrolled fully into view, and
    // figures keep their units on one line.
    void presentationModeAt720()
    {
        MainWindow w(test::freshWindow());
        QVERIFY(test::showAtDesktopSize(w, QSize(1280, 720)));
        w.teaching().setPresentationMode(true);
        QCoreApplication::processEvents();
        QCoreApplication::processEvents();
        auto* tableAction = w.findChild<QAction*>(QStringLiteral("tableAction"));
        QVERIFY(tableAction && !tableAction->isChecked());
        QVERIFY(!w.table()->isVisible());
        QScrollArea* scroll = panelScroll(w);
        QCOMPARE(scroll->horizontalScrollBar()->maximum(), 0); // the panel is as wide as its controls
        for (QWidget* control :
            { static_cast<QWidget*>(w.controls()->batchSpin()), static_cast<QWidget*>(w.controls()->imageSpin()),
                static_cast<QWidget*>(w.controls()->algorithmCombo()) }) {
            QCoreApplication::processEvents(); // the larger type's layout settles first
            // The whole control (ensureWidgetVisible() brings only a spin box's text cursor into view).
            const QRect inPanel(control->mapTo(w.controls(), QPoint(0, 0)), control->size());
            scroll->ensureVisible(
                inPanel.center().x(), inPanel.center().y(), inPanel.width() / 2 + 1, inPanel.height() / 2 + 1);
            const QRect r(control->mapTo(scroll->viewport(), QPoint(0, 0)), control->size());
            QVERIFY2(scroll->viewport()->rect().contains(r),
                qPrintable(QStringLiteral("%1 at %2,%3 %4x%5 in %6x%7")
                               .arg(QString::fromLatin1(control->metaObject()->className()))
                               .arg(r.x())
                               .arg(r.y())
                               .arg(r.width())
                               .arg(r.height())
                               .arg(scroll->viewport()->width())
                               .arg(scroll->viewport()->height())));
        }
        const QString html = w.chartArea()->summaries().front()->html();
        QVERIFY2(html.contains(QStringLiteral("\u00a0TFLOP/\u2060s")), qPrintable(html));
        tableAction->trigger();
        QCoreApplication::processEvents();
        QVERIFY(w.table()->isVisible());
        // The table back, the user drags the splitter up for more rows: the drag stands (it snapped
        // back, the charts taking their useful minimum again, and the table kept four rows).
        auto* splitter = w.findChild<QSplitter*>(QStringLiteral("mainSplitter"));
        QVERIFY(splitter && splitter->count() == 2);
        QCoreApplication::processEvents();
        const int before = splitter->sizes().value(1);
        QSplitterHandle* handle = splitter->handle(1);
        const QPoint grip = handle->rect().center();
        QTest::mousePress(handle, Qt::LeftButton, {}, grip);
        QTest::mouseMove(handle, grip - QPoint(0, 60));
        QTest::mouseMove(handle, grip - QPoint(0, 120));
        QTest::mouseRelease(handle, Qt::LeftButton, {}, grip - QPoint(0, 120));
        for (int i = 0; i < 4; ++i)
            QCoreApplication::processEvents();
        w.resize(w.size() - QSize(0, 1)); // and a layout pass after it
        for (int i = 0; i < 4; ++i)
            QCoreApplication::processEvents();
        QVERIFY2(splitter->sizes().value(1) >= before + 80,
            qPrintable(QStringLiteral("table %1 px, was %2").arg(splitter->sizes().value(1)).arg(before)));
        w.teaching().setPresentationMode(false);
        QCoreApplication::processEvents();
    }

    // The batch slider steps in powers of two, 1 to 256; the box beside it stays exact.
    void batchSliderInPowersOfTwo()
    {
        MainWindow w(test::freshWindow());
        QVERIFY(test::showAtDesktopSize(w));
        QSlider* slider = w.controls()->batchSlider();
        QCOMPARE(slider->minimum(), 0);
        QCOMPARE(slider->maximum(), 8);
        for (int position = 0; position <= 8; ++position) {
            slider->setValue(position);
            QCOMPARE(w.workspace().report()->config.batch, 1 << position);
            QCOMPARE(w.controls()->batchSpin()->value(), 1 << position);
        }
        w.controls()->batchSpin()->setValue(48);
        QCOMPARE(w.workspace().report()->config.batch, 48); // exact
        QCOMPARE(slider->value(), 6); // shown at the nearest power, 64
        w.controls()->batchSpin()->setValue(1000);
        QCOMPARE(w.workspace().report()->config.batch, 1000);
        QCOMPARE(slider->value(), 8); // at its end
    }
};

QTEST_MAIN(TestFeedback)
#include "tst_feedback.moc"
