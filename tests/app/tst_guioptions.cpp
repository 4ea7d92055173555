#include "gui_command_line.h"
#include "testpaths.h"

#include <QtTest>

using namespace rfx;

class TestGuiOptions : public QObject {
    Q_OBJECT
private slots:
    void configurationOptions()
    {
        const GuiOptions o = parseGuiOptions({ QStringLiteral("--image"), QStringLiteral("128"),
            QStringLiteral("--padding=same"), QStringLiteral("--device"), QStringLiteral("h100-sxm"),
            QStringLiteral("--overlay"), QStringLiteral("--size"), QStringLiteral("1200x800") });
        QVERIFY2(o.error.isEmpty(), qPrintable(o.error));
        QVERIFY(o.configGiven);
        QCOMPARE(o.config.config.unet.height, 128);
        QCOMPARE(o.config.config.unet.padding, Padding::Same);
        QCOMPARE(o.config.devices.size(), size_t(1));
        QVERIFY(o.overlay);
        QCOMPARE(o.size, QSize(1200, 800));
    }

    void nothingGiven()
    {
        const GuiOptions o = parseGuiOptions({});
        QVERIFY(o.error.isEmpty());
        QVERIFY(!o.configGiven);
        QVERIFY(o.screenshot.isEmpty());
    }

    void errors_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("error");
        QTest::newRow("unknown") << QStringList { QStringLiteral("--colour") } << "unknown option '--colour'";
        QTest::newRow("bad bits value") << QStringList { QStringLiteral("--bits"), QStringLiteral("x") }
                                        << "--bits: expected a whole number, got 'x'";
        QTest::newRow("screenshot without file")
            << QStringList { QStringLiteral("--screenshot") } << "--screenshot: missing value";
        QTest::newRow("bad size") << QStringList { QStringLiteral("--size"), QStringLiteral("big") }
                                  << "--size: expected WIDTHxHEIGHT";
        QTest::newRow("tiny size") << QStringList { QStringLiteral("--size=10x10") } << "--size: expected WIDTHxHEIGHT";
    }
    void errors()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, error);
        const GuiOptions o = parseGuiOptions(args);
        QVERIFY2(o.error.startsWith(error), qPrintable(o.error));
    }

    void helpMentionsEveryWindowOption()
    {
        const QString help = guiHelpText();
        for (const char* opt : { "--screenshot", "--overlay", "--size", "--no-restore", "--image", "--device" })
            QVERIFY2(help.contains(QLatin1String(opt)), opt);
    }

    void manPageCoversTheWindowOptions()
    {
        // packaging/roofline-explorer.1 names every window option of --help (configuration options are
        // roofline-cli's, whose man page the test of roofline-cli checks).
        QFile file(QStringLiteral(ROOFLINE_TEST_SOURCE_DIR "/packaging/roofline-explorer.1"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QString man = QString::fromUtf8(file.readAll()).replace(QStringLiteral("\\-"), QStringLiteral("-"));
        const QString help = guiHelpText();
        const QString window = help.mid(help.indexOf(QStringLiteral("Window options:")));
        QVERIFY(window.size() < help.size());
        const QRegularExpression option(QStringLiteral("(--[a-z][a-z0-9-]*)"));
        int checked = 0;
        for (auto it = option.globalMatch(window); it.hasNext(); ++checked) {
            const QString name = it.next().captured(1);
            QVERIFY2(man.contains(name), qPrintable(name + QStringLiteral(" is in --help, not in the man page")));
        }
        QVERIFY(checked >= 8);
    }
};

QTEST_GUILESS_MAIN(TestGuiOptions)
#include "tst_guioptions.moc"
