// Feedback where the room is short, offscreen: device file problems listed beside the devices, what gave
// way withdrawn once the room is back, summaries never cut at any size.
#include "chart/chartarea.h"
#include "panels/controlpanel.h"
#include "window/mainwindow.h"
#include "window/teaching.h"
#include "workspace/sessioncontroller.h"

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

class TestFeedbackRoom : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

private slots:
    void initTestCase() { test::isolateGuiTest(m_dir, QStringLiteral("tst_feedback_room")); }

    // A malformed device file is listed in the Devices panel, beside the devices, with its file and
    // reason; the status bar's notes button opens that list.
    void deviceProblemsBesideTheDevices()
    {
        QTemporaryDir devices;
        for (const QString& name :
            QDir(QStringLiteral(ROOFLINE_TEST_DEVICES_DIR)).entryList({ QStringLiteral("*.json") }))
            QVERIFY(
                QFile::copy(QDir(QStringLiteral(ROOFLINE_TEST_DEVICES_DIR)).filePath(name), devices.filePath(name)));
        QVERIFY(test::writeFile(
            devices.filePath(QStringLiteral("zz-broken.json")), "{\"schema\": 1, \"id\": \"broken\",}"));
        qputenv("ROOFLINE_DEVICES_DIR", devices.path().toUtf8());
        MainWindow w(test::freshWindow());
        qputenv("ROOFLINE_DEVICES_DIR", ROOFLINE_TEST_DEVICES_DIR);
        QVERIFY(test::showAtDesktopSize(w));
        auto* notes = w.findChild<QListWidget*>(QStringLiteral("deviceNotes"));
        QVERIFY(notes);
        QVERIFY(notes->isVisible());
        QString listed;
        for (int i = 0; i < notes->count(); ++i)
            listed += notes->item(i)->text() + QLatin1Char('\n');
        QVERIFY2(listed.contains(QStringLiteral("zz-broken.json")), qPrintable(listed));
        QVERIFY2(listed.contains(QStringLiteral("line 1, column")), qPrintable(listed));
        // Beside the devices: the list is in the Devices dock.
        auto* dock = w.findChild<QDockWidget*>(QStringLiteral("devicesDock"));
        QVERIFY(dock->isAncestorOf(notes));
        dock->hide();
        auto* button = w.findChild<QLabel*>(QStringLiteral("notesButton"));
        QVERIFY(button && button->isVisible());
        QVERIFY(button->text().contains(QStringLiteral("note")));
        QTest::mouseClick(button, Qt::LeftButton, {}, button->rect().center());
        QCoreApplication::processEvents();
        QVERIFY(dock->isVisible());
        QVERIFY(notes->hasFocus());
    }

    // Issue 52 item 7: the table steps aside in presentation at 1280 x 720 and says so; when it comes
    // back by itself (presentation off), the status line stops saying it is hidden (it said so for its
    // ten seconds with the table in view).
    void whatGaveWayIsNotSaidOnceBack()
    {
        MainWindow w(test::freshWindow());
        QVERIFY(test::showAtDesktopSize(w, QSize(1280, 720)));
        w.teaching().setPresentationMode(true);
        for (int i = 0; i < 4; ++i)
            QCoreApplication::processEvents();
        QVERIFY(!w.table()->isVisible());
        QVERIFY2(w.statusBar()->currentMessage().contains(QStringLiteral("Layer table hidden")),
            qPrintable(w.statusBar()->currentMessage()));
        w.teaching().setPresentationMode(false);
        for (int i = 0; i < 4; ++i)
            QCoreApplication::processEvents();
        QVERIFY(w.table()->isVisible());
        QVERIFY2(!w.statusBar()->currentMessage().contains(QStringLiteral("Layer table hidden")),
            qPrintable(w.statusBar()->currentMessage()));
        // The window made low hides the table to give the charts room (ChartRoom); made tall again,
        // the table returns and the message goes with it.
        w.resize(1280, 300);
        for (int i = 0; i < 6; ++i)
            QCoreApplication::processEvents();
        QVERIFY2(!w.table()->isVisible(), qPrintable(QStringLiteral("window %1 px high").arg(w.height())));
        QVERIFY2(w.statusBar()->currentMessage().contains(QStringLiteral("Layer table hidden to give the chart room")),
            qPrintable(w.statusBar()->currentMessage()));
        w.resize(1280, 1000);
        for (int i = 0; i < 6; ++i)
            QCoreApplication::processEvents();
        QVERIFY(w.table()->isVisible());
        QVERIFY2(!w.statusBar()->currentMessage().contains(QStringLiteral("Layer table hidden")),
            qPrintable(w.statusBar()->currentMessage()));
    }

    // Every summary shows all of its lines: a fallback note makes five, at any window size.
    void summariesAreNeverCut_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<QStringList>("devices");
        QTest::newRow("MX230 tensor FP16, 1280x800")
            << QSize(1280, 800) << QStringList { QStringLiteral("geforce-mx230") };
        QTest::newRow("4 devices, 1600x1000")
            << QSize(1600, 1000)
            << QStringList { QStringLiteral("geforce-mx230"), QStringLiteral("rtx-2060-super"),
                   QStringLiteral("h100-sxm"), QStringLiteral("a100-sxm-80gb") };
    }
    void summariesAreNeverCut()
    {
        QFETCH(QSize, size);
        QFETCH(QStringList, devices);
        GuiOptions o = test::freshWindow(devices);
        o.config.config.bits = 16;
        o.config.config.tensorCores = true;
        MainWindow w(o);
        QVERIFY(test::showAtDesktopSize(w, size));
        QCoreApplication::processEvents();
        for (SummaryText* s : w.chartArea()->summaries()) {
            const int need = int(std::ceil(s->document()->size().height()));
            QVERIFY2(s->height() >= need,
                qPrintable(QStringLiteral("%1 px shown of %2: %3").arg(s->height()).arg(need).arg(s->plainText())));
            QCOMPARE(s->document()->textWidth(), qreal(std::max(40, s->width() - 12)));
        }
    }
};

QTEST_MAIN(TestFeedbackRoom)
#include "tst_feedback_room.moc"
