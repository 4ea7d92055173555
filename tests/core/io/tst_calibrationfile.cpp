// Calibration files (core/io/calibration_file.h): written and read back unchanged; every malformed
// field refused with the file, the field and the reason; and the samples a comparison gives the fit.
#include "io/calibration_file.h"
#include "io/measurements.h"
#include "open/analyses.h"
#include "testutils.h"

#include <nlohmann/json.hpp>

using namespace rfx;

namespace {

Calibration example()
{
    Calibration c;
    c.deviceId = "this-machine";
    c.deviceName = "Intel Xeon (measured)";
    c.measurements = "unet128.csv";
    c.fittedOn = "--image 128 --padding same";
    c.created = "2026-12-01";
    c.tool = "Roofline Explorer test";
    c.groups.push_back({ "conv", Bound::Compute, 2e-5, 0.62, 18, 0.12, 0.97, 1e-5, 2e-3, 4e6, 9e8, 1e5, 2e7,
        OverheadSource::Rows, 4 });
    c.groups.push_back({ "all", Bound::Compute, 2e-5, 0.6, 20, 0.15, 0.95, 1e-5, 2e-3 });
    c.groups.push_back({ "all", Bound::Memory, 4e-6, 2, 50, 0.35, 0.88, 1e-6, 1e-4 });
    c.groups.push_back({ "matrix", Bound::Memory, 0, 0.6, 9, 0.05, 0.9, 1e-5, 2e-2 });
    c.groups.back().arithmeticEfficiency = 0.8; // issue 50: its arithmetic paid at the compute side's 80 %
    c.groups.back().byRows = { { 1, 0.45, 8 }, { 4, 0.7, 8 } }; // and measured at M 1 and 4 (batch probes)
    return c;
}

std::string replaced(std::string text, const std::string& from, const std::string& to)
{
    const auto at = text.find(from);
    if (at == std::string::npos)
        qFatal("no '%s' in the document", from.c_str());
    return text.replace(at, from.size(), to);
}

} // namespace

class TestCalibrationFile : public QObject {
    Q_OBJECT

private slots:
    void roundTrip()
    {
        const Calibration c = example();
        const CalibrationLoad back = parseCalibration(calibrationToJson(c), "a.cal.json");
        QVERIFY(back.diagnostics.empty());
        QVERIFY(back.calibration);
        const Calibration& r = *back.calibration;
        QCOMPARE(r.file, std::string("a.cal.json"));
        QCOMPARE(r.deviceId, c.deviceId);
        QCOMPARE(r.measurements, c.measurements);
        QCOMPARE(r.fittedOn, c.fittedOn);
        QCOMPARE(r.groups.size(), c.groups.size());
        for (size_t i = 0; i < c.groups.size(); ++i) {
            QCOMPARE(r.groups[i].opClass, c.groups[i].opClass);
            QCOMPARE(r.groups[i].bound, c.groups[i].bound);
            QCOMPARE(r.groups[i].overhead, c.groups[i].overhead);
            QCOMPARE(r.groups[i].efficiency, c.groups[i].efficiency);
            QCOMPARE(r.groups[i].samples, c.groups[i].samples);
            QCOMPARE(r.groups[i].rmsError, c.groups[i].rmsError);
            QCOMPARE(r.groups[i].minFlops, c.groups[i].minFlops);
            QCOMPARE(r.groups[i].maxFlops, c.groups[i].maxFlops);
            QCOMPARE(r.groups[i].minBytes, c.groups[i].minBytes);
            QCOMPARE(r.groups[i].maxBytes, c.groups[i].maxBytes);
            QCOMPARE(r.groups[i].overheadSource, c.groups[i].overheadSource);
            QCOMPARE(r.groups[i].overheadRows, c.groups[i].overheadRows);
            QCOMPARE(r.groups[i].arithmeticEfficiency, c.groups[i].arithmeticEfficiency);
            QCOMPARE(r.groups[i].byRows.size(), c.groups[i].byRows.size());
            for (size_t k = 0; k < c.groups[i].byRows.size(); ++k) {
                QCOMPARE(r.groups[i].byRows[k].rows, c.groups[i].byRows[k].rows);
                QCOMPARE(r.groups[i].byRows[k].efficiency, c.groups[i].byRows[k].efficiency);
                QCOMPARE(r.groups[i].byRows[k].samples, c.groups[i].byRows[k].samples);
            }
        }
        // The table says per class its rows, where its overhead came from and the sizes it saw (issue 51).
        const std::string table = calibrationToTable(r);
        QVERIFY2(table.find("conv           compute   18 20.0 us (4 small)") != std::string::npos, table.c_str());
        QVERIFY2(table.find("62 %") != std::string::npos, table.c_str());
        QVERIFY2(table.find("4.00 MFLOP to 900 MFLOP") != std::string::npos, table.c_str());
        QVERIFY2(table.find("0 (no small row)") != std::string::npos, table.c_str());
        QVERIFY2(table.find("matrix         memory*") != std::string::npos
                && table.find("memory-bound rows marked * also pay their arithmetic") != std::string::npos,
            table.c_str());
        QVERIFY2(
            table.find(
                "matrix memory-bound, by the products' rows M (batch probes; used for M up to 8): M 1 45 %, M 4 70 %\n")
                != std::string::npos,
            table.c_str());

        // A file written before the sizes and the overhead's source were: no range (nothing is called
        // extrapolated), and an overhead it holds was fitted jointly.
        nlohmann::json old = nlohmann::json::parse(calibrationToJson(c));
        for (auto& g : old["groups"])
            for (const char* key :
                { "min_flops", "max_flops", "min_bytes", "max_bytes", "overhead_from", "overhead_rows" })
                g.erase(key);
        const CalibrationLoad before = parseCalibration(old.dump(), "old.cal.json");
        QVERIFY2(before.calibration, before.diagnostics.empty() ? "" : before.diagnostics[0].message.c_str());
        QCOMPARE(before.calibration->groups[0].maxFlops, 0.0);
        QCOMPARE(before.calibration->groups[0].overheadSource, OverheadSource::Joint);
        QVERIFY(!before.calibration->groups[0].extrapolates(1e12, 1e12));
    }

    void malformedFilesSayWhere_data()
    {
        QTest::addColumn<QString>("from");
        QTest::addColumn<QString>("to");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("why");
        QTest::newRow("schema") << "\"schema\": 1"
                                << "\"schema\": 7"
                                << "schema"
                                << "version 7 is not supported";
        QTest::newRow("kind") << "roofline-explorer calibration"
                              << "session"
                              << "kind"
                              << "must be";
        QTest::newRow("device") << "\"device\": \"this-machine\""
                                << "\"device\": \"\""
                                << "device"
                                << "must name the device";
        QTest::newRow("class") << "\"class\": \"conv\""
                               << "\"class\": \"convolution\""
                               << "groups[0].class"
                               << "'convolution' is not a class";
        QTest::newRow("bound") << "\"bound\": \"compute\""
                               << "\"bound\": \"dram\""
                               << "groups[0].bound"
                               << "must be \"memory\" or \"compute\"";
        QTest::newRow("efficiency 0") << "\"efficiency\": 0.62"
                                      << "\"efficiency\": 0"
                                      << "groups[0].efficiency"
                                      << "above 0";
        QTest::newRow("efficiency text") << "\"efficiency\": 0.62"
                                         << "\"efficiency\": \"high\""
                                         << "groups[0].efficiency"
                                         << "must be a number";
        QTest::newRow("overhead") << "\"overhead_s\": 2e-05"
                                  << "\"overhead_s\": -1"
                                  << "groups[0].overhead_s"
                                  << "from 0";
        QTest::newRow("missing") << "\"samples\": 18,"
                                 << ""
                                 << "groups[0].samples"
                                 << "missing";
        QTest::newRow("overhead from") << "\"overhead_from\": \"rows\""
                                       << "\"overhead_from\": \"guessed\""
                                       << "groups[0].overhead_from"
                                       << "'guessed' is not one of rows, parent, none, joint";
        QTest::newRow("range") << "\"min_flops\": 4000000.0"
                               << "\"min_flops\": 4e12"
                               << "groups[0].min_flops"
                               << "larger than its maximum";
        QTest::newRow("twice") << "\"class\": \"conv\""
                               << "\"class\": \"all\""
                               << "groups[1].class"
                               << "a second fit for all";
        QTest::newRow("no pooled") << "\"class\": \"all\",\n      \"bound\": \"memory\""
                                   << "\"class\": \"pool\",\n      \"bound\": \"memory\""
                                   << "groups"
                                   << "no pooled fit";
        QTest::newRow("by_rows list") << "\"by_rows\": ["
                                      << "\"by_rows\": 2, \"x\": ["
                                      << "groups[3].by_rows"
                                      << "a list of 2 to 64 points";
        QTest::newRow("by_rows order") << "\"rows\": 4.0"
                                       << "\"rows\": 1.0"
                                       << "groups[3].by_rows[1].rows"
                                       << "larger than the point's before it";
        QTest::newRow("by_rows M") << "\"rows\": 4.0"
                                   << "\"rows\": 65"
                                   << "groups[3].by_rows[1].rows"
                                   << "at most 64";
        QTest::newRow("by_rows point") << "\"rows\": 4.0,"
                                       << ""
                                       << "groups[3].by_rows[1].rows"
                                       << "missing";
        QTest::newRow("syntax") << "\"groups\": ["
                                << "\"groups\": [,"
                                << ""
                                << "not valid JSON: line";
    }
    void malformedFilesSayWhere()
    {
        QFETCH(QString, from);
        QFETCH(QString, to);
        QFETCH(QString, field);
        QFETCH(QString, why);
        const std::string doc = replaced(calibrationToJson(example()), from.toStdString(), to.toStdString());
        const CalibrationLoad load = parseCalibration(doc, "bad.cal.json");
        QVERIFY(!load.calibration);
        QCOMPARE(load.diagnostics.size(), size_t(1));
        const Diagnostic& d = load.diagnostics[0];
        QCOMPARE(d.file, std::string("bad.cal.json"));
        QCOMPARE(QString::fromStdString(d.field), field);
        QVERIFY2(d.message.find(why.toStdString()) != std::string::npos, d.message.c_str());
    }

    void notAFile()
    {
        const CalibrationLoad load = loadCalibration("/nonexistent/x.cal.json");
        QVERIFY(!load.calibration);
        QVERIFY(load.diagnostics.at(0).message.starts_with("cannot read"));
        QCOMPARE(parseCalibration("[1, 2]", "a").diagnostics.at(0).message,
            std::string("expected a JSON object (a calibration file from roofline-cli calibrate)"));
    }

    // The comparison's matched rows become samples with the row's class, side and bound.
    void samplesFromAComparison()
    {
        const Report report = *analyzeConfig(Config {}, { test::shippedDevice("rtx-2060-super") }).report;
        const DeviceResult& r = report.results[0];
        const MeasurementSet set
            = parseMeasurements("layer,time_s\nenc1.conv1,0.001\nenc1.pool,0.0005\nenc1.conv1.relu,1e-6\n", "m.csv");
        QVERIFY(set.ok());
        Comparison c = compareMeasurements(set, r);
        c.layers[1].measured = 0; // a row measured as nothing is left out
        const std::vector<CalibrationSample> s = calibrationSamples(c, r);
        QCOMPARE(s.size(), size_t(2));
        QCOMPARE(s[0].layer, std::string("enc1.conv1"));
        QCOMPARE(s[0].opClass, std::string("conv"));
        QCOMPARE(s[0].measured, 0.001);
        QCOMPARE(s[0].boundTime, c.layers[0].bound);
        QCOMPARE(s[1].opClass, std::string("pool"));
        QCOMPARE(s[1].bound, Bound::Memory);
        // The row's size goes with it (the range a fit saw): enc1.conv1 of the 572 U-Net makes 570 x 570
        // x 64 outputs of a 3 x 3 window on one channel, 2 x 570^2 x 64 x 9 = 374,284,800 FLOP.
        QCOMPARE(s[0].flops, 374'284'800.0);
        QVERIFY(s[0].bytes > 0 && s[0].bytes == r.layers[0].bytes);
    }
};

QTEST_APPLESS_MAIN(TestCalibrationFile)
#include "tst_calibrationfile.moc"
