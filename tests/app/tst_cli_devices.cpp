// roofline-cli and the device library: the devices command, every device at once, a device's
// missing ceiling, bad and missing device files, and which folder wins where two files share an id
// (shipped, the user folder, --devices-dir). Run in-process (runCli).
#include "cli.h"
#include "clirun.h"
#include "testutils.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QScopeGuard>
#include <QTemporaryDir>

#include <sstream>

using namespace rfx;

namespace {

using test::cli;
using test::contains;
using test::Run;

} // namespace

class TestCliDevices : public QObject {
    Q_OBJECT
    QTemporaryDir m_home; // an empty user device folder, so the developer's own devices do not leak in

private slots:
    void initTestCase() { test::isolateCli(m_home); }

    void allDevices()
    {
        const Run r = cli({ "analyze", "--device", "all", "--format", "json" });
        QCOMPARE(r.code, 0);
        const auto doc = QJsonDocument::fromJson(QByteArray::fromStdString(r.out));
        QVERIFY(doc["results"].toArray().size() >= 12);
    }

    void fallbackWarningOnStderr()
    {
        const Run r = cli({ "analyze", "--device", "titan-x-maxwell", "--bits", "16" });
        QCOMPARE(r.code, 0);
        QVERIFY2(contains(r.err, "warning:") && contains(r.err, "no FP16 ceiling"), r.err.c_str());
    }

    void devicesCommand()
    {
        Run r = cli({ "devices" });
        QCOMPARE(r.code, 0);
        QVERIFY(contains(r.out, "geforce-940mx-ddr3"));
        r = cli({ "devices", "--format", "json" });
        QCOMPARE(r.code, 0);
        const auto doc = QJsonDocument::fromJson(QByteArray::fromStdString(r.out));
        QVERIFY(doc["devices"].toArray().size() >= 12);
        // what the serving plan reads: an HGX H100's NVLink 4 over 8 GPUs; a laptop GPU names no link
        for (const QJsonValue& d : doc["devices"].toArray()) {
            if (d["id"].toString() == QStringLiteral("h100-sxm")) {
                QCOMPARE(d["scale_up_link"].toString(), QStringLiteral("nvlink4"));
                QCOMPARE(d["scale_up_gpus"].toInt(), 8);
            }
            if (d["id"].toString() == QStringLiteral("geforce-mx230"))
                QVERIFY(d["scale_up_link"].isUndefined());
        }
        // The table gives every id and name whole, on its own line (the 940MX's DDR3 and GDDR5 parts
        // were "NVIDIA GeForce 940MX (D~" and "(G~").
        const Run table = cli({ "devices" });
        QVERIFY(!contains(table.out, "~"));
        for (const QJsonValue& d : doc["devices"].toArray()) {
            const std::string id = d["id"].toString().toStdString(), name = d["name"].toString().toStdString();
            bool found = false;
            std::istringstream lines(table.out);
            for (std::string line; std::getline(lines, line);)
                found = found || (line.rfind(id + " ", 0) == 0 && line.find(" " + name + " ") != std::string::npos);
            QVERIFY2(found, (id + ": " + name).c_str());
        }
    }

    void badUserDeviceIsReportedAndOthersStillWork()
    {
        QTemporaryDir extra;
        QFile f(extra.filePath("broken.json"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"id\": \"broken\", \"dram_gbs\": 0}");
        f.close();
        const Run r = cli({ "analyze", "--devices-dir", extra.path().toStdString() });
        QCOMPARE(r.code, 0);
        QVERIFY2(contains(r.err, "broken.json: dram_gbs: must be a positive number, got 0"), r.err.c_str());
    }

    // A folder named for one run overrides the user's folder by id (a measured set's device over the
    // this-machine.json that 'measure' wrote), and the user's overrides the shipped one.
    void devicesDirOverridesTheUserFolder()
    {
        const QString userDir = m_home.filePath(QStringLiteral("roofline-explorer/devices"));
        QVERIFY(QDir().mkpath(userDir));
        QTemporaryDir extra;
        auto write = [](const QString& file, const char* name, const char* dram) {
            QFile f(file);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QByteArray("{\"schema\": 1, \"id\": \"h100-sxm\", \"name\": \"") + name
                + "\", \"kind\": \"gpu\", \"peak\": {\"fp32_tflops\": 10}, \"dram_gbs\": " + dram
                + ", \"memory_gib\": 80, \"l2_mib\": 50, \"tdp_w\": 700, \"idle_w\": 70, \"boost_clock_mhz\": 1980, "
                  "\"sources\": [\"a test\"]}");
        };
        write(userDir + QStringLiteral("/h100-sxm.json"), "From the user folder", "100");
        const auto removed = qScopeGuard(
            [&] { QFile::remove(userDir + QStringLiteral("/h100-sxm.json")); }); // the other tests' folder
        write(extra.filePath(QStringLiteral("h100-sxm.json")), "From the run's folder", "200");
        Run r = cli({ "devices" });
        QVERIFY2(r.code == 0 && contains(r.out, "From the user folder") && r.err.empty(), (r.out + r.err).c_str());
        r = cli({ "devices", "--devices-dir", extra.path().toStdString() });
        QVERIFY2(r.code == 0 && contains(r.out, "From the run's folder") && !contains(r.out, "From the user folder")
                && r.err.empty(),
            (r.out + r.err).c_str());
    }

    void noDevicesIsAFailure()
    {
        qputenv("ROOFLINE_DEVICES_DIR", "/nonexistent/roofline-devices");
        const Run r = cli({ "analyze" });
        qputenv("ROOFLINE_DEVICES_DIR", ROOFLINE_TEST_DEVICES_DIR);
        QCOMPARE(r.code, 1);
        QVERIFY2(contains(r.err, "no device files found"), r.err.c_str());
    }
};

QTEST_GUILESS_MAIN(TestCliDevices)
#include "tst_cli_devices.moc"
