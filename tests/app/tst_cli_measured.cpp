// roofline-cli with measurements: compare, measure (this machine's ceilings), measure --network,
// calibrate and analyze --calibration.
#include "cli.h"
#include "clirun.h"
#include "devices/device_loader.h"
#include "engine/roofline.h"
#include "io/measurements.h"
#include "io/options.h"
#include "testutils.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QTemporaryDir>

#include <nlohmann/json.hpp>

#include <map>
#include <set>
#include <sstream>

using namespace rfx;

namespace {

using test::cli;
using test::contains;
using test::readAll;
using test::Run;

} // namespace

class TestCliMeasured : public QObject {
    Q_OBJECT
    QTemporaryDir m_home; // an empty user device folder, so the developer's own devices do not leak in

private slots:
    void initTestCase() { test::isolateCli(m_home); }

    // roofline-cli compare: a measurement file against the model, and a file that cannot be read.
    void compare()
    {
        const std::string dir = std::string(ROOFLINE_TEST_DATA_DIR) + "/measurements/";
        Run r = cli({ "compare", dir + "unet-plain.csv" });
        QCOMPARE(r.code, 0);
        QVERIFY2(
            contains(r.out, "(plain CSV, 5 rows), mapped by name onto NVIDIA GeForce RTX 2060 Super"), r.out.c_str());
        QVERIFY(contains(r.out, "ABOVE THE ROOF"));
        QVERIFY(contains(r.out, "1 measured row(s) did not map: enc1.conv9 (line 7)"));
        r = cli({ "compare", dir + "pytorch-trace.json", "--format", "csv" });
        QCOMPARE(r.code, 0);
        QVERIFY(contains(r.out, "enc1.conv1,0.00040999999999999999,"));
        r = cli({ "compare", dir + "missing.csv" });
        QCOMPARE(r.code, 1);
        QVERIFY(contains(r.err, "missing.csv: cannot read"));
        r = cli({ "compare" });
        QCOMPARE(r.code, 2);
        QVERIFY(contains(r.err, "compare: which measurement file?"));
    }

    // roofline-cli measure --quick: figures for each test, and a device file the loader accepts.
    void measure()
    {
        QTemporaryDir dir;
        const std::string file = dir.filePath(QStringLiteral("mine.json")).toStdString();
        Run r = cli({ "measure", "--quick", "--tdp-w", "45", "--id", "mine", "--output", file });
        QCOMPARE(r.code, 0);
        QVERIFY2(contains(r.out, "  FP32 peak      ") && contains(r.out, "  DRAM triad     "), r.out.c_str());
        // The library's own kernels beside them, each the ceiling where it beat the chains and streams (issue 72).
        QVERIFY2(contains(r.out, "  oneDNN's convolution (") && contains(r.out, "a 3x3 convolution of 512 channels: ")
                && contains(r.out, "the FP32 peak") && contains(r.out, " of weights: ")
                && contains(r.out, "the DRAM roof"),
            r.out.c_str());
        QVERIFY(contains(r.out, "wrote " + file + " (device id mine)"));
        const DeviceLoad load = loadDeviceFile(file);
        QVERIFY(load.device);
        QCOMPARE(load.device->tdpWatts, 45.0);
        r = cli({ "measure", "--tdp-w", "lots" });
        QCOMPARE(r.code, 2);
        QVERIFY(contains(r.err, "--tdp-w: expected the CPU's TDP in watts, got 'lots'"));
    }

    // roofline-cli measure --network: this CPU's ceilings first (no this-machine yet), every row of
    // the network with oneDNN, the CSV written and held against this machine's roofline.
    void measureNetwork()
    {
        QTemporaryDir dir, home; // its own user folder: the this-machine.json it writes stays there
        const QByteArray before = qgetenv("XDG_DATA_HOME");
        qputenv("XDG_DATA_HOME", home.path().toUtf8());
        const auto restore = qScopeGuard([&] { qputenv("XDG_DATA_HOME", before); });
        // What cannot be measured is said first, before this CPU's ceilings are measured.
        Run refused = cli({ "measure", "--network", "--bits", "64" });
        QCOMPARE(refused.code, 2);
        QVERIFY2(contains(refused.err, "64-bit numbers are not measured") && !contains(refused.err, "ceilings first"),
            refused.err.c_str());
        refused = cli({ "measure", "--network", "--image", "7" });
        QCOMPARE(refused.code, 2);
        QVERIFY2(contains(refused.err, "impossible configuration") && !contains(refused.err, "ceilings first"),
            refused.err.c_str());
        const std::string file = dir.filePath(QStringLiteral("unet.csv")).toStdString();
        Run r = cli({ "measure", "--network", "--quick", "--image", "32", "--padding", "same", "--filters", "8",
            "--depth", "2", "--output", file });
        QVERIFY2(r.code == 0, r.err.c_str());
        QVERIFY2(contains(r.err, "no device 'this-machine' yet: measuring this CPU's ceilings first"), r.err.c_str());
        QVERIFY2(contains(r.out, " rows measured with oneDNN 2."), r.out.c_str());
        QVERIFY(contains(r.out, "; wrote " + file));
        QVERIFY2(contains(r.out, "mapped by name onto") && contains(r.out, "(this-machine)"), r.out.c_str());
        const MeasurementSet set = loadMeasurements(file);
        QVERIFY(set.ok());
        QVERIFY(set.rows.size() > 10);
        // To stdout when no file is given; the second run finds the ceilings measured.
        r = cli({ "measure", "--network", "--quick", "--image", "32", "--padding", "same", "--filters", "8", "--depth",
            "2" });
        QCOMPARE(r.code, 0);
        QVERIFY(!contains(r.err, "ceilings first"));
        QVERIFY(r.out.starts_with("# Measured by roofline-cli measure --network with oneDNN 2."));
        // Configurations it cannot measure say why, with exit 2.
        r = cli({ "measure", "--network", "--quick", "--mode", "training" });
        QCOMPARE(r.code, 2);
        QVERIFY2(contains(r.err, "roofline-cli: measure: training is not measured"), r.err.c_str());
        r = cli({ "measure", "--network", "--image", "7" });
        QCOMPARE(r.code, 2);
        QVERIFY2(contains(r.err, "impossible configuration"), r.err.c_str());
    }

    // calibrate, analyze --calibration and compare --calibration on synthetic measurements that follow
    // the model exactly: every row measured = 10 us + bound / 0.5 (RTX 2060 Super, U-Net 128, same
    // padding). The fit must return those figures, and predict a batch of 4 it was not fitted on exactly.
    void calibrateAndApply()
    {
        QTemporaryDir dir;
        auto synthetic = [&](const std::vector<std::string>& config, const QString& name) {
            std::vector<std::string> args { "analyze", "--device", "rtx-2060-super", "--format", "json" };
            args.insert(args.end(), config.begin(), config.end());
            const Run a = cli(args);
            const auto rows = nlohmann::json::parse(a.out)["results"][0]["layers"];
            std::string csv = "layer,time_s\n";
            for (const auto& row : rows)
                csv += row["name"].get<std::string>() + ','
                    + nlohmann::json(10e-6 + row["time_s"].get<double>() / 0.5).dump() + '\n';
            const QString path = dir.filePath(name);
            QVERIFY(test::writeFile(path, QByteArray::fromStdString(csv)));
        };
        const std::vector<std::string> fit { "--image", "128", "--padding", "same" };
        const std::vector<std::string> heldOut { "--image", "128", "--padding", "same", "--batch", "4" };
        synthetic(fit, QStringLiteral("b1.csv"));
        synthetic(heldOut, QStringLiteral("b4.csv"));
        const std::string b1 = dir.filePath(QStringLiteral("b1.csv")).toStdString();
        const std::string b4 = dir.filePath(QStringLiteral("b4.csv")).toStdString();
        const std::string cal = dir.filePath(QStringLiteral("unet.cal.json")).toStdString();

        Run r = cli(
            { "calibrate", b1, "--image", "128", "--padding", "same", "--device", "rtx-2060-super", "--output", cal });
        QVERIFY2(r.code == 0, r.err.c_str());
        QVERIFY2(contains(r.out, "conv           compute") && contains(r.out, "wrote " + cal), r.out.c_str());
        const auto doc = nlohmann::json::parse(readAll(cal));
        QCOMPARE(doc["device"].get<std::string>(), std::string("rtx-2060-super"));
        QVERIFY(doc["fitted_on"].get<std::string>().starts_with("--model unet --height 128 --width 128"));
        // Measured = 10 us + 2 x bound on every row. A class with rows small enough to show the overhead
        // (bound under 20 us) recovers both exactly; one with none, here or in its parent, takes no
        // overhead (issue 51) and its efficiency comes out a little under 1/2 (the 10 us each row spent
        // in the time-weighted slope); the four up-convolutions have one bound each, no small row.
        int measuredOverheads = 0;
        for (const auto& g : doc["groups"]) {
            const std::string from = g["overhead_from"].get<std::string>();
            if (from == "rows" || from == "parent" || from == "joint") { // joint: every row small, both fitted on them
                ++measuredOverheads;
                RFX_COMPARE_REL(g["efficiency"].get<double>(), 0.5, 1e-6);
                RFX_COMPARE_REL(g["overhead_s"].get<double>(), 10e-6, 1e-6);
            } else {
                QCOMPARE(g["overhead_s"].get<double>(), 0.0);
                QVERIFY2(g["efficiency"].get<double>() < 0.5 && g["efficiency"].get<double>() > 0.4, g.dump().c_str());
                if (g["class"] == "conv_transpose") { // one bound b: b / (10 us + 2 b)
                    const double b = g["max_bound_s"].get<double>();
                    RFX_COMPARE_REL(g["efficiency"].get<double>(), b / (10e-6 + 2 * b), 1e-9);
                }
            }
            QVERIFY(g["max_flops"].get<double>() >= g["min_flops"].get<double>());
        }
        QVERIFY(measuredOverheads >= 2);

        // analyze --calibration: calibrated_time_s on every row and in the totals, for another batch,
        // each row by the fit it names (calibrated_by), extrapolated where it is over twice the sizes fitted.
        r = cli({ "analyze", "--image", "128", "--padding", "same", "--batch", "4", "--device", "rtx-2060-super",
            "--calibration", cal, "--format", "json" });
        QVERIFY2(r.code == 0, r.err.c_str());
        const auto result = nlohmann::json::parse(r.out)["results"][0];
        QCOMPARE(result["device"]["calibration"].get<std::string>(), cal);
        double sum = 0;
        int extrapolated = 0;
        for (const auto& row : result["layers"]) {
            const auto by = std::find_if(doc["groups"].begin(), doc["groups"].end(),
                [&](const auto& g) { return g["class"] == row["calibrated_by"] && g["bound"] == row["bound"]; });
            QVERIFY2(by != doc["groups"].end(), row.dump().c_str());
            RFX_COMPARE_REL(row["calibrated_time_s"].get<double>(),
                (*by)["overhead_s"].get<double>() + row["time_s"].get<double>() / (*by)["efficiency"].get<double>(),
                1e-9);
            extrapolated += row["calibration_extrapolated"].get<bool>();
            sum += row["calibrated_time_s"].get<double>();
        }
        QVERIFY(extrapolated > 0); // batch 4's rows are four times batch 1's
        RFX_COMPARE_REL(result["totals"]["calibrated_time_s"].get<double>(), sum, 1e-9);
        r = cli({ "analyze", "--image", "128", "--padding", "same", "--device", "rtx-2060-super", "--calibration", cal,
            "--format", "csv" });
        QCOMPARE(r.code, 0);
        QVERIFY2(contains(r.out, ",energy_j,calibrated_time_s\n") && contains(r.out, "\nrtx-2060-super,(total),total,"),
            r.out.c_str());
        r = cli(
            { "analyze", "--image", "128", "--padding", "same", "--device", "rtx-2060-super", "--calibration", cal });
        QVERIFY2(contains(r.out, "calibrated with " + cal + ": "), r.out.c_str());
        // The rows fitted on lie inside their own sizes; batch 4's are said to extrapolate, row by row and under the
        // totals.
        QVERIFY2(!contains(r.out, "extrapolated"), r.out.c_str());
        r = cli({ "analyze", "--image", "128", "--padding", "same", "--batch", "4", "--device", "rtx-2060-super",
            "--calibration", cal });
        QVERIFY2(contains(r.out, " (extrapolated)\n") && contains(r.out, "\nextrapolated: ")
                && contains(r.out, " rows lie more than twice outside the sizes their class was fitted on ("),
            r.out.c_str());

        // compare --calibration on the held-out batch: the calibrated prediction's error per layer and in total.
        r = cli({ "compare", b4, "--image", "128", "--padding", "same", "--batch", "4", "--device", "rtx-2060-super",
            "--calibration", cal });
        QVERIFY2(r.code == 0, r.err.c_str());
        QVERIFY2(contains(r.out, "calibrated") && contains(r.out, "cal. err"), r.out.c_str());
        QVERIFY2(contains(r.out, "calibrated (" + cal + "): ") && contains(r.out, " against the measured total"),
            r.out.c_str());
        r = cli({ "compare", b4, "--image", "128", "--padding", "same", "--batch", "4", "--device", "rtx-2060-super",
            "--calibration", cal, "--format", "csv" });
        QVERIFY2(contains(r.out, ",calibrated_s,calibrated_error\n") && contains(r.out, "\n(total),"), r.out.c_str());

        // What goes wrong says where.
        r = cli({ "analyze", "--device", "h100-sxm", "--calibration", cal });
        QCOMPARE(r.code, 2);
        QVERIFY2(
            contains(r.err, "the calibration is for 'rtx-2060-super'") && contains(r.err, "--device rtx-2060-super"),
            r.err.c_str());
        const std::string bad = dir.filePath(QStringLiteral("bad.cal.json")).toStdString();
        QVERIFY(test::writeFile(
            QString::fromStdString(bad), "{\"schema\": 1, \"kind\": \"roofline-explorer calibration\"}"));
        r = cli({ "analyze", "--device", "rtx-2060-super", "--calibration", bad });
        QCOMPARE(r.code, 2);
        QVERIFY2(contains(r.err, "error: " + bad + ": device: missing"), r.err.c_str());
        r = cli({ "analyze", "--calibration" });
        QCOMPARE(r.code, 2);
        r = cli({ "calibrate", b1, "--output", cal });
        QCOMPARE(r.code, 2);
        QVERIFY2(contains(r.err, "--device: which device's roofline"), r.err.c_str());
        r = cli({ "calibrate", b1, "--device", "rtx-2060-super" });
        QCOMPARE(r.code, 2);
        QVERIFY2(contains(r.err, "--output: where to write"), r.err.c_str());
        r = cli({ "calibrate", b1, "--device", "rtx-2060-super", "--output", "/proc/nope/x.cal.json" });
        QCOMPARE(r.code, 1);
        // A further file must say its configuration (measure --network writes it); these synthetic ones do not.
        r = cli({ "calibrate", b1, b4, "--image", "128", "--padding", "same", "--device", "rtx-2060-super", "--output",
            "-" });
        QCOMPARE(r.code, 2);
        QVERIFY2(contains(r.err, b4 + ": no '# configuration:' line"), r.err.c_str());
        // Another network's measurement: its names do not match, and the user is told.
        r = cli({ "calibrate", b1, "--model", "resnet50", "--device", "rtx-2060-super", "--output", "-" });
        QVERIFY2(contains(r.err, "were mapped by order; check that the measurement is of this configuration"),
            r.err.c_str());
    }
};

QTEST_GUILESS_MAIN(TestCliMeasured)
#include "tst_cli_measured.moc"
