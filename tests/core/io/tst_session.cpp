// Session documents and the Markdown/LaTeX table writers.
#include "io/report_writer.h"
#include "io/session.h"
#include "testutils.h"

#include <QRegularExpression>

using namespace rfx;

class TestSession : public QObject {
    Q_OBJECT
private slots:
    void roundTrip()
    {
        Session s;
        s.config.unet.height = s.config.unet.width = 128;
        s.config.unet.padding = Padding::Same;
        s.config.batch = 16;
        s.config.mode = Mode::Training;
        s.devices = { "geforce-mx230", "rtx-2060-super" };
        s.overlay = true;
        s.filter = { true, 7 };
        s.tableDevice = "rtx-2060-super";
        std::string error;
        auto back = sessionFromJson(sessionToJson(s), error);
        QVERIFY2(back, error.c_str());
        QVERIFY(*back == s);
    }

    void corrupted_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("error");
        const QString good = QString::fromStdString(sessionToJson(Session {}));
        QTest::newRow("empty") << "" << "not valid JSON";
        QTest::newRow("truncated") << good.left(good.size() / 2) << "not valid JSON";
        QTest::newRow("array") << "[]" << "expected a JSON object";
        QTest::newRow("no schema") << "{}" << "schema: missing";
        QTest::newRow("future") << QString(good).replace(QStringLiteral("\"schema\": 1"), QStringLiteral("\"schema\": 9"))
                                << "schema: version 9 is not supported";
        QTest::newRow("bad arg") << QString(good).replace(QStringLiteral("\"--bits\",\n    \"32\""),
                                        QStringLiteral("\"--bits\",\n    \"12\""))
                                 << "config_args: bits must be 8, 16, 32 or 64, got 12";
        QTest::newRow("devices not list") << QString(good).replace(QStringLiteral("\"devices\": []"), QStringLiteral("\"devices\": 3"))
                                          << "devices: must be a list";
        QTest::newRow("overlay text") << QString(good).replace(QStringLiteral("\"overlay\": false"), QStringLiteral("\"overlay\": \"no\""))
                                      << "view.overlay: must be true or false";
        QTest::newRow("top negative") << QString(good).replace(QStringLiteral("\"top_n\": 0"), QStringLiteral("\"top_n\": -4"))
                                      << "view.top_n: must be a whole number";
    }
    void corrupted()
    {
        QFETCH(QString, text);
        QFETCH(QString, error);
        std::string why;
        QVERIFY(!sessionFromJson(text.toStdString(), why));
        QVERIFY2(QString::fromStdString(why).startsWith(error), why.c_str());
    }

    void markdownTable()
    {
        const Report r = *analyzeConfig(Config {}, { rfx::test::shippedDevice("rtx-2060-super") }).report;
        const QString md = QString::fromStdString(reportToMarkdown(r));
        const auto lines = md.split(QLatin1Char('\n'));
        int rows = 0;
        for (const QString& l : lines)
            rows += l.startsWith(QLatin1String("| ")) ? 1 : 0;
        // header + every layer + total
        QCOMPARE(rows, 1 + int(r.results[0].layers.size()) + 1);
        QVERIFY(md.contains(QStringLiteral("| enc1.conv1 | conv | 1x64x570x570 | 576 | 374 MFLOP | 84.5 MB | 4.43 | memory |")));
        QVERIFY(md.contains(QStringLiteral("| **total** | | | 31,030,658 |")));
        QVERIFY(md.contains(QStringLiteral("compute-bound: 88 % of time")));
    }

    void latexTable()
    {
        Config c;
        c.mode = Mode::Training;
        const Report r = *analyzeConfig(c, { rfx::test::shippedDevice("rtx-2060-super"), rfx::test::shippedDevice("t4") }).report;
        const QString tex = QString::fromStdString(reportToLatex(r));
        QCOMPARE(tex.count(QStringLiteral("\\begin{tabular}")), 2);
        QCOMPARE(tex.count(QStringLiteral("\\end{tabular}")), 2);
        QCOMPARE(tex.count(QStringLiteral("\\toprule")), 2);
        QCOMPARE(tex.count(QStringLiteral("\\bottomrule")), 2);
        QVERIFY(tex.contains(QStringLiteral("\\label{tab:roofline-t4}")));
        // LaTeX specials are escaped: no bare %, _ or & outside the column separators.
        for (const QString& line : tex.split(QLatin1Char('\n'))) {
            if (line.startsWith(QLatin1Char('%')))
                continue;
            QVERIFY2(!line.contains(QRegularExpression(QStringLiteral("(?<!\\\\)%"))), qPrintable(line));
            QVERIFY2(!line.contains(QRegularExpression(QStringLiteral("(?<!\\\\)_"))), qPrintable(line));
        }
        QVERIFY(tex.contains(QStringLiteral("optimizer (momentum) & optimizer & -- &")));
        QVERIFY(tex.contains(QStringLiteral("\\,$\\mu$s")) || tex.contains(QStringLiteral("\\,ms")));
        // every body row ends its line
        const int rows = int(tex.count(QStringLiteral(" \\\\\n")));
        QCOMPARE(rows, 2 * (1 + int(r.results[0].layers.size()) + 1));
    }
};

QTEST_GUILESS_MAIN(TestSession)
#include "tst_session.moc"
