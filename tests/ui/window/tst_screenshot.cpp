// roofline-explorer --screenshot renders the window for the given options and exits.
#include <QImage>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include "testpaths.h"

namespace {
// The window offscreen, with its settings kept in `dir` and the test devices.
QProcessEnvironment offscreenIn(const QTemporaryDir& dir)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.filePath(QStringLiteral("config")));
    env.insert(QStringLiteral("ROOFLINE_DEVICES_DIR"), QStringLiteral(ROOFLINE_TEST_DEVICES_DIR));
    return env;
}
} // namespace

class TestScreenshot : public QObject {
    Q_OBJECT
private slots:
    void screenshot()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("window.png"));
        QProcess p;
        p.setProcessEnvironment(offscreenIn(dir));
        p.start(QStringLiteral(ROOFLINE_GUI_PATH),
            { QStringLiteral("--screenshot"), file, QStringLiteral("--size"), QStringLiteral("1280x800"),
                QStringLiteral("--device"), QStringLiteral("rtx-2060-super"), QStringLiteral("--device"),
                QStringLiteral("geforce-mx230") });
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        const QImage image(file);
        QVERIFY(!image.isNull());
        QCOMPARE(image.size(), QSize(1280, 800));
        QSet<QRgb> colours;
        for (int y = 0; y < image.height(); y += 5)
            for (int x = 0; x < image.width(); x += 5)
                colours.insert(image.pixel(x, y));
        QVERIFY(colours.size() > 20);
        // The screenshot run must not overwrite the user's saved window state.
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("config/roofline-explorer/roofline-explorer.conf"))));
    }

    // In presentation mode the window was fitted to offscreen's 800 x 600 screen: 796 px wide, its
    // status line cut (issue 73 item 5). A screenshot is the size asked, in either mode.
    void presentationAtTheSizeAsked_data()
    {
        QTest::addColumn<QString>("model");
        QTest::newRow("network") << QStringLiteral("unet");
        QTest::newRow("language model") << QStringLiteral("llama-3.1-8b");
    }
    void presentationAtTheSizeAsked()
    {
        QFETCH(QString, model);
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("window.png"));
        QProcess p;
        p.setProcessEnvironment(offscreenIn(dir));
        p.start(QStringLiteral(ROOFLINE_GUI_PATH),
            { QStringLiteral("--screenshot"), file, QStringLiteral("--size"), QStringLiteral("1280x720"),
                QStringLiteral("--presentation"), QStringLiteral("--model"), model, QStringLiteral("--device"),
                QStringLiteral("h100-sxm"), QStringLiteral("--device"), QStringLiteral("rtx-4090") });
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        QCOMPARE(QImage(file).size(), QSize(1280, 720));
    }

    void badOptionExitsWithUsage()
    {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(ROOFLINE_GUI_PATH), { QStringLiteral("--bits"), QStringLiteral("twelve") });
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 2);
        QVERIFY(p.readAllStandardError().contains("--bits: expected a whole number"));
    }
};

QTEST_GUILESS_MAIN(TestScreenshot)
#include "tst_screenshot.moc"
