#include "base/diagnostic.h"
#include "base/format.h"

#include <QtTest>

#include <cmath>
#include <limits>

using namespace rfx;

class TestFormat : public QObject {
    Q_OBJECT
private slots:
    void si_data()
    {
        QTest::addColumn<double>("value");
        QTest::addColumn<QString>("unit");
        QTest::addColumn<QString>("expected");
        QTest::newRow("zero") << 0.0 << "B"
                              << "0 B";
        QTest::newRow("mega") << 3.74e8 << "FLOP"
                              << "374 MFLOP";
        QTest::newRow("tera") << 7.181e12 << "FLOP/s"
                              << "7.18 TFLOP/s";
        QTest::newRow("giga 2 digits") << 23.8e9 << "FLOP"
                                       << "23.8 GFLOP";
        QTest::newRow("round up to next prefix") << 999.96e6 << "FLOP"
                                                 << "1.00 GFLOP";
        QTest::newRow("plain") << 12.0 << "W"
                               << "12.0 W";
        QTest::newRow("milli") << 0.0123 << "W"
                               << "12.3 mW";
        QTest::newRow("nan") << std::numeric_limits<double>::quiet_NaN() << "B"
                             << "n/a";
    }
    void si()
    {
        QFETCH(double, value);
        QFETCH(QString, unit);
        QFETCH(QString, expected);
        QCOMPARE(QString::fromStdString(formatSI(value, unit.toStdString())), expected);
    }

    void bytes()
    {
        QCOMPARE(formatBytes(8.45e7), std::string("84.5 MB"));
        QCOMPARE(formatBytes(448e9), std::string("448 GB"));
        QCOMPARE(formatBytes(0.5), std::string("<1 B"));
        QCOMPARE(formatMemory(8.0 * 1024 * 1024 * 1024), std::string("8.00 GiB"));
        QCOMPARE(formatMemory(310.0 * 1024 * 1024), std::string("310 MiB"));
    }

    void time_data()
    {
        QTest::addColumn<double>("seconds");
        QTest::addColumn<QString>("expected");
        QTest::newRow("us") << 189e-6 << "189 us";
        QTest::newRow("ms") << 47.7e-3 << "47.7 ms";
        QTest::newRow("s") << 1.2 << "1.20 s";
        QTest::newRow("99.9 s") << 99.9 << "99.9 s";
        // Issue 73 item 9: a TTFT of 1452 s and 81368 s, in the units a reader takes in.
        QTest::newRow("min") << 1452.0 << "24.2 min";
        QTest::newRow("100 s") << 100.0 << "1.67 min";
        QTest::newRow("h") << 81368.0 << "22.6 h";
        QTest::newRow("100 min") << 6000.0 << "1.67 h";
        QTest::newRow("d") << 3.6e6 << "41.7 d";
        QTest::newRow("negative min") << -1452.0 << "-24.2 min";
        QTest::newRow("ns") << 5.4e-9 << "5.40 ns";
        QTest::newRow("zero") << 0.0 << "0 s";
        QTest::newRow("inf") << std::numeric_limits<double>::infinity() << "n/a";
    }
    void time()
    {
        QFETCH(double, seconds);
        QFETCH(QString, expected);
        QCOMPARE(QString::fromStdString(formatTime(seconds)), expected);
    }

    void microSign() { QCOMPARE(QString::fromStdString(formatTime(189e-6, true)), QStringLiteral("189 \u00b5s")); }

    // A loader's message said under its file's name drops the name once (the window's model dialogs).
    void withoutItsSubject()
    {
        QCOMPARE(withoutSubject("/m/x.onnx: node 'a' (Conv): bad", "/m/x.onnx"), std::string("node 'a' (Conv): bad"));
        QCOMPARE(withoutSubject("/m/y.onnx: bad", "/m/x.onnx"), std::string("/m/y.onnx: bad"));
        QCOMPARE(withoutSubject("/m/x.onnx is missing", "/m/x.onnx"), std::string("/m/x.onnx is missing"));
        QCOMPARE(withoutSubject(": bad", ""), std::string(": bad"));
    }

    void count()
    {
        QCOMPARE(formatCount(31030658), std::string("31,030,658"));
        QCOMPARE(formatCount(999), std::string("999"));
        QCOMPARE(formatCount(1000), std::string("1,000"));
        QCOMPARE(formatCount(0), std::string("0"));
        QCOMPARE(formatCount(-1234567), std::string("-1,234,567"));
    }

    void percent()
    {
        QCOMPARE(formatPercent(0.78), std::string("78 %"));
        QCOMPARE(formatPercent(0.045), std::string("4.5 %"));
        QCOMPARE(formatPercent(0.0001), std::string("<0.1 %"));
        QCOMPARE(formatPercent(0), std::string("0 %"));
        QCOMPARE(formatPercent(1), std::string("100 %"));
    }

    void number3()
    {
        QCOMPARE(formatNumber3(4.4321), std::string("4.43"));
        QCOMPARE(formatNumber3(16.03), std::string("16.0"));
        QCOMPARE(formatNumber3(143.2), std::string("143"));
        // Thousands separators from 1000 up, as counts are shown (issue 38: "1372179 images/s").
        QCOMPARE(formatNumber3(1234.4), std::string("1,234"));
        QCOMPARE(formatNumber3(1372179.4), std::string("1,372,179"));
        QCOMPARE(formatNumber3(-2500), std::string("-2,500"));
        QCOMPARE(formatNumber3(3e20), std::string("3e+20"));
        QCOMPARE(formatNumber3(0), std::string("0"));
    }
};

QTEST_GUILESS_MAIN(TestFormat)
#include "tst_format.moc"
