// The window comes to rest: with many devices and at the sizes users have, the charts' room
// (ChartRoom) and each chart's axes (the decades grown for markers) stop changing once laid out.
// Both once had states with no fixed point, and the window laid itself out for ever:
//  - the column's return re-arranged the grid so that the table no longer fitted, the table's
//    return so that the column no longer did (five devices at 1400 x 900);
//  - a decade grown for the ridge's label widened the y labels, the title took another line, and
//    in the shorter plot the decade no longer helped (an A100 cell of sixteen at 1400 x 900).
// The monkey found both; here every window must be at rest after it settles.
#include "chart/chartarea.h"
#include "chart/rooflinechart.h"
#include "guitestutils.h"
#include "panels/controlpanel.h"
#include "window/chartroom.h"
#include "window/mainwindow.h"

#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace rfx;

namespace {

void passes(int n)
{
    for (int i = 0; i < n; ++i) {
        QCoreApplication::processEvents();
        QTest::qWait(10);
    }
}

/// Every device in the test library, in file order: the first `count`.
QStringList devices(int count)
{
    QStringList ids;
    for (const QString& f : QDir(QStringLiteral(ROOFLINE_TEST_DEVICES_DIR))
                                .entryList({ QStringLiteral("*.json") }, QDir::Files, QDir::Name))
        ids << f.chopped(5);
    return ids.mid(0, count);
}

struct Rest {
    std::vector<int> rebuilds;
    bool config = false, devices = false;
    int messages = 0;
    bool operator==(const Rest&) const = default;
};

} // namespace

class TestLayoutSettles : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

private slots:
    void initTestCase() { rfx::test::isolateGuiTest(m_dir, QStringLiteral("tst_layoutsettles")); }

    void comesToRest_data()
    {
        QTest::addColumn<int>("count");
        QTest::addColumn<QSize>("size");
        QTest::addColumn<QString>("network");
        for (const int count : { 5, 9, 16 })
            for (const QSize size : { QSize(1280, 720), QSize(1400, 900), QSize(1600, 1000), QSize(1920, 1080) })
                for (const char* network : { "", "U-Net" })
                    QTest::newRow(qPrintable(QStringLiteral("%1 devices %2x%3 %4")
                                                 .arg(count)
                                                 .arg(size.width())
                                                 .arg(size.height())
                                                 .arg(QLatin1String(network))))
                        << count << size << QString::fromLatin1(network);
    }

    void comesToRest()
    {
        QFETCH(int, count);
        QFETCH(QSize, size);
        QFETCH(QString, network);
        const QStringList ids = devices(count);
        QCOMPARE(ids.size(), count); // the library has them (a pass with fewer would test less)
        MainWindow w(test::freshWindow(ids));
        QVERIFY(test::showAtDesktopSize(w, size));
        if (!network.isEmpty()) {
            QComboBox* n = w.controls()->networkCombo();
            const int at = n->findText(network, Qt::MatchStartsWith);
            QVERIFY2(at >= 0, qPrintable(network));
            n->setCurrentIndex(at);
        }
        auto* room = w.findChild<ChartRoom*>();
        QVERIFY(room);
        int messages = 0;
        connect(room, &ChartRoom::message, this, [&messages] { ++messages; });
        connect(room, &ChartRoom::withdrawn, this, [&messages] { ++messages; });
        auto now = [&] {
            Rest r;
            for (RooflineChart* c : w.chartArea()->charts())
                r.rebuilds.push_back(c->rebuilds());
            r.config = w.configDock()->isVisible();
            r.devices = w.deviceDock()->isVisible();
            r.messages = messages;
            return r;
        };
        passes(30);
        QCOMPARE(int(w.chartArea()->charts().size()), w.chartArea()->overlay() ? 1 : count);
        const Rest settled = now();
        passes(20);
        const Rest later = now();
        QVERIFY2(later.messages == settled.messages,
            qPrintable(QStringLiteral("the room gave way or returned %1 more times after it settled")
                           .arg(later.messages - settled.messages)));
        QCOMPARE(later.config, settled.config);
        QCOMPARE(later.devices, settled.devices);
        for (size_t i = 0; i < settled.rebuilds.size(); ++i)
            QVERIFY2(later.rebuilds[i] == settled.rebuilds[i],
                qPrintable(QStringLiteral("chart %1 (%2) was rebuilt %3 more times after it settled")
                               .arg(i)
                               .arg(ids.value(int(i)))
                               .arg(later.rebuilds[i] - settled.rebuilds[i])));
    }
};

QTEST_MAIN(TestLayoutSettles)
#include "tst_layoutsettles.moc"
