// The device library: every shipped file loads; the study devices match SEEDS.md's spec table
// (TechPowerUp-derived; peak FP32 = cores x 2 x boost clock); malformed files give precise diagnostics.
#include "devices/device_loader.h"
#include "testutils.h"

#include <QDir>
#include <QTemporaryDir>

#include <fstream>

using namespace rfx;

namespace {

// A valid device document, with one field replaced (or removed when `value` is empty).
std::string deviceJson(const std::string& field = {}, const std::string& value = {})
{
    std::vector<std::pair<std::string, std::string>> fields {
        { "id", "\"test-gpu\"" },
        { "name", "\"Test GPU\"" },
        { "kind", "\"gpu\"" },
        { "peak", "{\"fp32_tflops\": 10, \"fp16_tflops\": 20}" },
        { "dram_gbs", "100" },
        { "memory_gib", "8" },
        { "l2_mib", "4" },
        { "tdp_w", "100" },
        { "idle_w", "10" },
        { "boost_clock_mhz", "1500" },
        { "sources", "[\"https://example.org/spec\"]" },
    };
    std::string s = "{\n";
    bool first = true;
    for (auto& [k, v] : fields) {
        std::string val = k == field ? value : v;
        if (k == field && value.empty())
            continue;
        s += (first ? "  \"" : ",\n  \"") + k + "\": " + val;
        first = false;
    }
    if (!field.empty() && std::none_of(fields.begin(), fields.end(), [&](auto& f) { return f.first == field; }))
        s += ",\n  \"" + field + "\": " + value;
    return s + "\n}\n";
}

void writeFile(const QString& path, const std::string& text)
{
    std::ofstream(path.toStdString(), std::ios::binary) << text;
}

} // namespace

class TestDevices : public QObject {
    Q_OBJECT
private slots:
    // "all", order, duplicates and unknown ids, by one rule for the CLI and the window.
    void chooseDevices()
    {
        DeviceLibrary lib;
        lib.devices = { rfx::test::shippedDevice("rtx-2060-super"), rfx::test::shippedDevice("h100-sxm") };
        auto ids = [](const DeviceLibrary::Choice& c) {
            std::vector<std::string> out;
            for (const Device& d : c.devices)
                out.push_back(d.id);
            return out;
        };
        DeviceLibrary::Choice c = lib.choose({ "h100-sxm", "rtx-2060-super", "h100-sxm", "nope", "nope" });
        QCOMPARE(ids(c), (std::vector<std::string> { "h100-sxm", "rtx-2060-super" }));
        QCOMPARE(c.unknown, std::vector<std::string> { "nope" });
        c = lib.choose({ "h100-sxm", "all" });
        QCOMPARE(ids(c), (std::vector<std::string> { "h100-sxm", "rtx-2060-super" }));
        QVERIFY(c.unknown.empty());
    }

    // One search path for the CLI and the window: shipped, then the user's, then --devices-dir
    // folders, so that a user's file overrides a shipped one of the same id and a folder named for
    // one run overrides both.
    void searchPathOrder()
    {
        QTemporaryDir home;
        const QByteArray oldData = qgetenv("XDG_DATA_HOME"), oldShipped = qgetenv("ROOFLINE_DEVICES_DIR");
        qputenv("XDG_DATA_HOME", home.path().toUtf8());
        qputenv("ROOFLINE_DEVICES_DIR", ROOFLINE_TEST_DEVICES_DIR);
        const auto dirs = deviceSearchPath("/nowhere/bin", { "/extra/a", "/extra/b" });
        QCOMPARE(dirs.size(), size_t(4));
        QCOMPARE(dirs[0], std::filesystem::path(ROOFLINE_TEST_DEVICES_DIR));
        QCOMPARE(dirs[1], std::filesystem::path(home.path().toStdString()) / "roofline-explorer" / "devices");
        QCOMPARE(dirs[2], std::filesystem::path("/extra/a"));
        QCOMPARE(dirs[3], std::filesystem::path("/extra/b"));
        auto restore = [](const char* name, const QByteArray& value) {
            value.isNull() ? qunsetenv(name) : qputenv(name, value);
        };
        restore("XDG_DATA_HOME", oldData);
        restore("ROOFLINE_DEVICES_DIR", oldShipped);
    }

    void everyShippedFileLoads_data()
    {
        QTest::addColumn<QString>("path");
        const QDir dir(QStringLiteral(ROOFLINE_TEST_DEVICES_DIR));
        const auto files = dir.entryList({ QStringLiteral("*.json") }, QDir::Files);
        QVERIFY(files.size() >= 12);
        for (const QString& f : files)
            QTest::newRow(qPrintable(f)) << dir.filePath(f);
    }
    void everyShippedFileLoads()
    {
        QFETCH(QString, path);
        const DeviceLoad load = loadDeviceFile(path.toStdString());
        for (const Diagnostic& d : load.diagnostics)
            qWarning("%s", toString(d).c_str());
        QVERIFY(load.device);
        QVERIFY(load.diagnostics.empty()); // not even a warning
        const Device& d = *load.device;
        QCOMPARE(QFileInfo(path).completeBaseName().toStdString(), d.id);
        QVERIFY(!d.sources.empty());
        QVERIFY(d.peak.count("fp32"));
        QVERIFY(d.idleWatts < d.tdpWatts);
        // Each ceiling is a plausible figure (0.1 GFLOP/s .. 30 PFLOP/s: a GB200's dense FP4 is 10); catches
        // unit slips (TFLOP/s written as GFLOP/s is 1,000 times off).
        for (const auto& [key, flops] : d.peak)
            QVERIFY2(flops > 1e8 && flops < 3e16, key.c_str());
        QVERIFY(d.dramBandwidth > 1e9 && d.dramBandwidth < 1e13);
    }

    void libraryHasTheStudyDevices()
    {
        const DeviceLibrary lib = loadDeviceLibrary({ ROOFLINE_TEST_DEVICES_DIR });
        QVERIFY(lib.diagnostics.empty());
        QVERIFY(lib.devices.size() >= 12);
        for (const char* id : { "geforce-mx230", "geforce-940mx-ddr3", "geforce-940mx-gddr5", "rtx-2060-super",
                 "titan-x-maxwell", "titan-x-pascal" })
            QVERIFY2(lib.find(id), id);
        QVERIFY(std::any_of(lib.devices.begin(), lib.devices.end(), [](const Device& d) { return d.kind == "cpu"; }));
    }

    // SEEDS.md "Device facts": FP32 GFLOP/s, FP16 GFLOP/s (0 = no fast FP16), DRAM GB/s, memory GiB, TDP W,
    // and cores x boost MHz for the FP32 formula.
    void studyDeviceFigures_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<double>("fp32");
        QTest::addColumn<double>("fp16");
        QTest::addColumn<double>("dram");
        QTest::addColumn<double>("memory");
        QTest::addColumn<double>("tdp");
        QTest::addColumn<double>("cores");
        QTest::addColumn<double>("boostMhz");
        QTest::newRow("MX230") << "geforce-mx230" << 783.9 << 12.25 << 48.06 << 2.0 << 10.0 << 256.0 << 1531.0;
        QTest::newRow("940MX DDR3") << "geforce-940mx-ddr3" << 953.9 << 0.0 << 16.02 << 2.0 << 23.0 << 384.0 << 1242.0;
        QTest::newRow("940MX GDDR5") << "geforce-940mx-gddr5" << 913.2 << 0.0 << 40.1 << 2.0 << 23.0 << 384.0 << 1189.0;
        QTest::newRow("RTX 2060 Super") << "rtx-2060-super" << 7181.0 << 14360.0 << 448.0 << 8.0 << 175.0 << 2176.0
                                        << 1650.0;
        QTest::newRow("Titan X Maxwell") << "titan-x-maxwell" << 6605.0 << 0.0 << 336.5 << 12.0 << 250.0 << 3072.0
                                         << 1075.0;
        QTest::newRow("Titan X Pascal") << "titan-x-pascal" << 10974.0 << 171.5 << 480.0 << 12.0 << 250.0 << 3584.0
                                        << 1531.0;
    }
    void studyDeviceFigures()
    {
        QFETCH(QString, id);
        QFETCH(double, fp32);
        QFETCH(double, fp16);
        QFETCH(double, dram);
        QFETCH(double, memory);
        QFETCH(double, tdp);
        QFETCH(double, cores);
        QFETCH(double, boostMhz);
        const Device& d = rfx::test::shippedDevice(qPrintable(id));
        RFX_COMPARE_REL(d.peak.at("fp32"), fp32 * 1e9, 1e-4);
        RFX_COMPARE_REL(d.peak.at("fp32"), cores * 2 * boostMhz * 1e6, 1e-3);
        if (fp16 > 0)
            RFX_COMPARE_REL(d.peak.at("fp16"), fp16 * 1e9, 1e-3);
        else
            QVERIFY(!d.peak.count("fp16"));
        RFX_COMPARE_REL(d.dramBandwidth, dram * 1e9, 1e-9);
        RFX_COMPARE_REL(d.memoryBytes, memory * 1024 * 1024 * 1024, 1e-9);
        QCOMPARE(d.tdpWatts, tdp);
        QCOMPARE(d.boostClockHz, boostMhz * 1e6);
    }

    // The hierarchical ceilings: NVIDIA A100 whitepaper per-clock widths (L2 5120 B/clk, L1 128 B/clk
    // per SM), as tabled in Ultrasonics Sonochemistry 99 (2023) 106546, Table 3 (A100 L2 7,219 GB/s at
    // 1,410 MHz). A100 SXM: 108 SMs; H100 SXM: 132 SMs at 1,980 MHz.
    void hierarchicalBandwidths()
    {
        const Device& a100 = rfx::test::shippedDevice("a100-sxm-80gb");
        RFX_COMPARE_REL(a100.l2Bandwidth, 5120 * 1.41e9, 1e-4);
        RFX_COMPARE_REL(a100.l1Bandwidth, 108 * 128 * 1.41e9, 1e-4);
        const Device& h100 = rfx::test::shippedDevice("h100-sxm");
        RFX_COMPARE_REL(h100.l2Bandwidth, 5120 * 1.98e9, 1e-4);
        RFX_COMPARE_REL(h100.l1Bandwidth, 132 * 128 * 1.98e9, 1e-4);
        QCOMPARE(rfx::test::shippedDevice("h200-sxm").l1Bandwidth, h100.l1Bandwidth);
        QCOMPARE(rfx::test::shippedDevice("rtx-2060-super").l2Bandwidth, 0.0); // no published figure: not modelled
        const DeviceLoad load = parseDevice(deviceJson("l2_gbs", "1000"), "test.json");
        QVERIFY(load.device);
        QCOMPARE(load.device->l2Bandwidth, 1e12);
        QCOMPARE(load.device->l1Bandwidth, 0.0);
    }

    void validDocumentParses()
    {
        const DeviceLoad load = parseDevice(deviceJson(), "test.json");
        QVERIFY(load.device);
        QVERIFY(load.diagnostics.empty());
        QCOMPARE(load.device->peak.at("fp32"), 10e12);
        QCOMPARE(load.device->dramBandwidth, 100e9);
        QCOMPARE(load.device->memoryBytes, 8.0 * 1024 * 1024 * 1024);
        QCOMPARE(load.device->l2Bytes, 4.0 * 1024 * 1024);
        QCOMPARE(load.device->boostClockHz, 1.5e9);
    }

    void malformed_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("message");
        QTest::newRow("missing field") << QString::fromStdString(deviceJson("dram_gbs", "")) << "dram_gbs"
                                       << "required field is missing";
        QTest::newRow("wrong type") << QString::fromStdString(deviceJson("dram_gbs", "\"fast\"")) << "dram_gbs"
                                    << "must be a number, got a string (\"fast\")";
        QTest::newRow("boolean") << QString::fromStdString(deviceJson("memory_gib", "true")) << "memory_gib"
                                 << "must be a number, got a boolean";
        QTest::newRow("zero bandwidth") << QString::fromStdString(deviceJson("dram_gbs", "0")) << "dram_gbs"
                                        << "must be a positive number, got 0";
        QTest::newRow("negative bandwidth") << QString::fromStdString(deviceJson("dram_gbs", "-448")) << "dram_gbs"
                                            << "must be a positive number, got -448";
        QTest::newRow("NaN literal") << QString::fromStdString(deviceJson("dram_gbs", "NaN")) << ""
                                     << "not valid JSON";
        QTest::newRow("NaN string") << QString::fromStdString(deviceJson("dram_gbs", "\"NaN\"")) << "dram_gbs"
                                    << "must be a number, got a string (\"NaN\")";
        QTest::newRow("overflowing number") << QString::fromStdString(deviceJson("dram_gbs", "1e999")) << ""
                                            << "not valid JSON: number 1e999 is too large for a double";
        QTest::newRow("unknown precision")
            << QString::fromStdString(deviceJson("peak", "{\"fp32_tflops\": 10, \"fp12_tflops\": 3}"))
            << "peak.fp12_tflops"
            << "unknown precision \"fp12\"";
        QTest::newRow("peak not object") << QString::fromStdString(deviceJson("peak", "10")) << "peak"
                                         << "must be an object";
        QTest::newRow("no fp32") << QString::fromStdString(deviceJson("peak", "{\"fp16_tflops\": 10}"))
                                 << "peak.fp32_tflops"
                                 << "required field is missing";
        QTest::newRow("idle above tdp") << QString::fromStdString(deviceJson("idle_w", "150")) << "idle_w"
                                        << "must be below tdp_w";
        QTest::newRow("L2 slower than DRAM") << QString::fromStdString(deviceJson("l2_gbs", "50")) << "l2_gbs"
                                             << "must be at least dram_gbs (100 GB/s), got 50";
        QTest::newRow("L1 slower than L2") << QString::fromStdString(
            deviceJson("l2_gbs", "400").substr(0, deviceJson("l2_gbs", "400").size() - 3) + ",\n  \"l1_gbs\": 300\n}\n")
                                           << "l1_gbs"
                                           << "must be at least l2_gbs (400 GB/s), got 300";
        QTest::newRow("L3 bandwidth without its size")
            << QString::fromStdString(deviceJson("l3_gbs", "200")) << "l3_gbs"
            << "is given but l3_mib is not";
        const std::string withL3 = deviceJson("l3_mib", "32");
        const std::string withL3Body = withL3.substr(0, withL3.size() - 3);
        QTest::newRow("L3 slower than DRAM")
            << QString::fromStdString(withL3Body + ",\n  \"l3_gbs\": 60\n}\n") << "l3_gbs"
            << "must be at least dram_gbs (100 GB/s), got 60";
        QTest::newRow("L2 slower than L3")
            << QString::fromStdString(withL3Body + ",\n  \"l3_gbs\": 300,\n  \"l2_gbs\": 200\n}\n") << "l2_gbs"
            << "must be at least l3_gbs (300 GB/s), got 200";
        QTest::newRow("negative L1") << QString::fromStdString(deviceJson("l1_gbs", "-1")) << "l1_gbs"
                                     << "must be a positive number, got -1";
        QTest::newRow("unknown scale-up link")
            << QString::fromStdString(deviceJson("scale_up_link", "\"nvlink9\"")) << "scale_up_link"
            << "unknown interconnect 'nvlink9'";
        QTest::newRow("a link without its GPUs")
            << QString::fromStdString(deviceJson("scale_up_link", "\"nvlink4\"")) << "scale_up_gpus"
            << "give scale_up_link and scale_up_gpus together";
        const std::string withLink = deviceJson("scale_up_link", "\"nvlink4\"");
        QTest::newRow("half a GPU") << QString::fromStdString(
            withLink.substr(0, withLink.size() - 3) + ",\n  \"scale_up_gpus\": 1.5\n}\n")
                                    << "scale_up_gpus"
                                    << "must be a whole number from 1 to 1,024";
        QTest::newRow("a price without its source")
            << QString::fromStdString(deviceJson("price_per_hour_usd", "2.99")) << "price_source"
            << "give where and when the price was quoted";
        QTest::newRow("a price per rack")
            << QString::fromStdString(deviceJson("price_per_hour_usd", "2990")) << "price_per_hour_usd"
            << "must be at most 1,000";
        QTest::newRow("a free GPU") << QString::fromStdString(deviceJson("price_per_hour_usd", "0"))
                                    << "price_per_hour_usd"
                                    << "must be a positive number";
        QTest::newRow("bad id") << QString::fromStdString(deviceJson("id", "\"My GPU\"")) << "id"
                                << "must be lower-case letters";
        QTest::newRow("bad kind") << QString::fromStdString(deviceJson("kind", "\"tpu\"")) << "kind"
                                  << "must be \"gpu\" or \"cpu\"";
        QTest::newRow("no sources") << QString::fromStdString(deviceJson("sources", "[]")) << "sources"
                                    << "non-empty list";
        QTest::newRow("future schema") << QString::fromStdString(deviceJson("schema", "2")) << "schema"
                                       << "unsupported schema version 2";
        QTest::newRow("not JSON") << "{ \"id\": \"x\", "
                                  << ""
                                  << "not valid JSON";
        QTest::newRow("empty") << ""
                               << ""
                               << "file is empty";
        QTest::newRow("whitespace") << "  \n "
                                    << ""
                                    << "file is empty";
        QTest::newRow("array") << "[1, 2]"
                               << ""
                               << "expected a JSON object, got an array";
    }
    void malformed()
    {
        QFETCH(QString, text);
        QFETCH(QString, field);
        QFETCH(QString, message);
        const DeviceLoad load = parseDevice(text.toStdString(), "devices/bad.json");
        QVERIFY(!load.device);
        const auto it = std::find_if(load.diagnostics.begin(), load.diagnostics.end(),
            [](const Diagnostic& d) { return d.severity == Severity::Error; });
        QVERIFY(it != load.diagnostics.end());
        QCOMPARE(it->file, std::string("devices/bad.json"));
        QCOMPARE(QString::fromStdString(it->field), field);
        QVERIFY2(it->message.find(message.toStdString()) != std::string::npos, toString(*it).c_str());
    }

    void unknownTopLevelFieldIsOnlyAWarning()
    {
        const DeviceLoad load = parseDevice(deviceJson("colour", "\"green\""), "x.json");
        QVERIFY(load.device);
        QCOMPARE(load.diagnostics.size(), size_t(1));
        QCOMPARE(load.diagnostics[0].severity, Severity::Warning);
        QCOMPARE(load.diagnostics[0].field, std::string("colour"));
    }

    void oneBadFileDoesNotStopTheOthers()
    {
        QTemporaryDir dir;
        writeFile(dir.filePath("test-gpu.json"), deviceJson());
        writeFile(dir.filePath("broken.json"), "{ nope");
        writeFile(dir.filePath("readme.txt"), "not a device");
        const DeviceLibrary lib = loadDeviceLibrary({ dir.path().toStdString() });
        QCOMPARE(lib.devices.size(), size_t(1));
        QCOMPARE(lib.diagnostics.size(), size_t(1));
        QVERIFY(lib.diagnostics[0].file.find("broken.json") != std::string::npos);
    }

    void userFolderOverridesById()
    {
        QTemporaryDir user;
        std::string text = deviceJson("id", "\"rtx-2060-super\"");
        text.replace(text.find("\"Test GPU\""), 10, "\"My tuned 2060 Super\"");
        writeFile(user.filePath("rtx-2060-super.json"), text);
        const DeviceLibrary lib = loadDeviceLibrary({ ROOFLINE_TEST_DEVICES_DIR, user.path().toStdString() });
        const Device* d = lib.find("rtx-2060-super");
        QVERIFY(d);
        QCOMPARE(d->name, std::string("My tuned 2060 Super"));
        QVERIFY(d->userDevice);
        QCOMPARE(std::count_if(
                     lib.devices.begin(), lib.devices.end(), [](const Device& x) { return x.id == "rtx-2060-super"; }),
            1);
        QCOMPARE(lib.diagnostics.size(), size_t(1));
        QCOMPARE(lib.diagnostics[0].severity, Severity::Info);
    }

    void duplicateIdInOneFolder()
    {
        QTemporaryDir dir;
        writeFile(dir.filePath("a.json"), deviceJson());
        writeFile(dir.filePath("test-gpu.json"), deviceJson());
        const DeviceLibrary lib = loadDeviceLibrary({ dir.path().toStdString() });
        QCOMPARE(lib.devices.size(), size_t(1));
        QVERIFY(std::any_of(lib.diagnostics.begin(), lib.diagnostics.end(),
            [](const Diagnostic& d) { return d.message.find("duplicate id") != std::string::npos; }));
    }

    void missingFolderIsNotAnError()
    {
        const DeviceLibrary lib = loadDeviceLibrary({ "/nonexistent/roofline" });
        QVERIFY(lib.devices.empty());
        QVERIFY(lib.diagnostics.empty());
    }
};

QTEST_GUILESS_MAIN(TestDevices)
#include "tst_devices.moc"
