// roofline-cli: output formats, exit codes and messages, run in-process (runCli) and as the real
// executable (exit status and streams as a shell sees them). ONNX models, measurements and the
// shipped measurement sets: tst_cli_onnx, tst_cli_measured, tst_cli_shipped; language models: tst_cli_llm;
// the device library (devices, --devices-dir, the user folder): tst_cli_devices.
#include "cli.h"
#include "clirun.h"
#include "devices/device_loader.h"
#include "engine/roofline.h"
#include "io/measurements.h"
#include "io/options.h"
#include "open/analyses.h"
#include "testutils.h"

#include <QDir>
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
using test::Run;

} // namespace

class TestCli : public QObject {
    Q_OBJECT
    QTemporaryDir m_home; // an empty user device folder, so the developer's own devices do not leak in

private slots:
    void initTestCase() { test::isolateCli(m_home); }

    void defaultTable()
    {
        const Run r = cli({ "analyze" });
        QCOMPARE(r.code, 0);
        QVERIFY2(r.err.empty(), r.err.c_str());
        QVERIFY(contains(r.out, "U-Net 572x572x1 -> 388x388x2, batch 1, 32-bit, inference"));
        QVERIFY(contains(r.out, "31,030,658"));
        QVERIFY(contains(r.out, "NVIDIA GeForce RTX 2060 Super (rtx-2060-super): FP32 7.18 TFLOP/s, DRAM 448 GB/s"));
        std::istringstream lines(r.out);
        for (std::string line; std::getline(lines, line);)
            QVERIFY2(line.size() <= 100, line.c_str());
    }

    void jsonMatchesEngine()
    {
        const Run r = cli({ "analyze", "--format", "json", "--device", "geforce-mx230", "--device=rtx-2060-super",
            "--batch", "4", "--bits=16" });
        QCOMPARE(r.code, 0);
        QJsonParseError perr;
        const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(r.out), &perr);
        QVERIFY2(perr.error == QJsonParseError::NoError, qPrintable(perr.errorString()));
        const QJsonObject root = doc.object();
        QCOMPARE(root["config"].toObject()["batch"].toInt(), 4);
        QCOMPARE(root["config"].toObject()["bits"].toInt(), 16);
        const QJsonArray results = root["results"].toArray();
        QCOMPARE(results.size(), 2);
        const QJsonObject mx = results[0].toObject();
        QCOMPARE(mx["device"].toObject()["id"].toString(), QStringLiteral("geforce-mx230"));
        QCOMPARE(mx["device"].toObject()["peak_flops"].toDouble(), 12.25e9);
        QCOMPARE(mx["device"].toObject()["precision"].toString(), QStringLiteral("fp16"));
        const QJsonObject layer = mx["layers"].toArray()[0].toObject();
        for (const char* key :
            { "name", "op", "output_shape", "params", "flops", "bytes", "intensity", "bound", "time_s" })
            QVERIFY2(layer.contains(QLatin1String(key)), key);
        QCOMPARE(layer["op"].toString(), QStringLiteral("conv"));
        QCOMPARE(layer["output_shape"].toArray().size(), 4);
        const QJsonObject totals = mx["totals"].toObject();
        for (const char* key :
            { "params", "flops", "bytes", "intensity", "time_s", "throughput_per_s", "memory_bytes", "fits" })
            QVERIFY2(totals.contains(QLatin1String(key)), key);
        QCOMPARE(totals["params"].toDouble(), 31030658.0);

        // The same numbers as the engine computes directly.
        Config cfg;
        cfg.batch = 4;
        cfg.bits = 16;
        const AnalysisOutcome direct = analyzeConfig(cfg, { rfx::test::shippedDevice("geforce-mx230") });
        QCOMPARE(totals["time_s"].toDouble(), direct.report->results[0].totals.time);
        QCOMPARE(totals["flops"].toDouble(), direct.report->results[0].totals.flops);
    }

    void csv()
    {
        const Run r = cli({ "analyze", "--format", "csv", "--mode", "training" });
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.starts_with(
            "device,layer,op,n,c,h,w,params,flops,bytes,intensity,peak_flops,attainable_flops,bound,time_s,share,"
            "algorithm,workspace_bytes,extra_bytes,bound_level,l2_bytes,l1_bytes,energy_j\n"));
        QVERIFY(contains(r.out, "rtx-2060-super,enc1.conv1,conv,1,64,570,570,576,"));
        // A convolution's algorithm, workspace and extra traffic; the level binding it; no inner levels modelled.
        // enc1.conv1's energy on the RTX 2060 Super (175 W TDP, 9 W idle: 166 W dynamic, 30 % DRAM = 49.8 W,
        // compute 116.2 W; boost clock, so V^2 = 1): 9 W x 0.5657507 ms + 116.2 W x 1,122,854,400 / 7.181e12
        // + 49.8 W x 253,456,320 / 448e9 = 5.0918 + 18.1696 + 28.1743 mJ = 51.436 mJ.
        QVERIFY(contains(
            r.out, ",memory,0.0005657507142857143,0.0040008931593065204,direct,0,0,DRAM,,,0.0514357")); // enc1.conv1
        QVERIFY(contains(r.out, ",compute,0.0099372325325163633,0.070274424155131548,direct,0,0,,,,")); // enc1.conv2
        QVERIFY(contains(r.out, "rtx-2060-super,optimizer (momentum),optimizer,0,0,0,0,0,"));
    }

    void algorithmsAndNetworks()
    {
        Run r = cli({ "analyze", "--algorithm", "winograd", "--format", "json" });
        QCOMPARE(r.code, 0);
        QVERIFY(contains(r.out, "\"algorithm\": \"winograd4\""));
        QVERIFY(contains(r.out,
            "\"algorithm_note\": \"Winograd F(4x4,3x3) needs an ungrouped 3x3 kernel at stride 1; computed direct\""));
        r = cli({ "analyze", "--traffic", "tiled", "--onchip-kib", "48" });
        QCOMPARE(r.code, 0);
        QVERIFY(contains(r.out, "Bytes: tiled traffic, reuse in 48 KiB of shared memory (and in L2"));
        // Hierarchical ceilings where the device gives them: the A100's L2 and L1 in the header, a bound
        // level and per-level intensities on the rows; JSON carries the per-level bytes.
        r = cli({ "analyze", "--traffic", "tiled", "--device", "a100-sxm-80gb" });
        QCOMPARE(r.code, 0);
        QVERIFY2(contains(r.out, "DRAM 2.04 TB/s, L2 7.22 TB/s, L1 19.5 TB/s, ridge 9.56 FLOP/B"), r.out.c_str());
        QVERIFY(contains(r.out, "  I(L2) "));
        r = cli({ "analyze", "--traffic", "tiled", "--device", "a100-sxm-80gb", "--format", "json" });
        QVERIFY(contains(r.out, "\"l2_bandwidth\": 7219000000000"));
        QVERIFY(contains(r.out, "\"bound_level\": \"DRAM\""));
        QVERIFY(contains(r.out, "\"l2_bytes\": 825917440"));
        // FP16 tensor cores on the H100: the 3x3 layers are L2-bound, and the table says so.
        r = cli({ "analyze", "--traffic", "tiled", "--device", "h100-sxm", "--bits", "16", "--tensor-cores" });
        QVERIFY2(contains(r.out, "     L2  26.5 us"), r.out.c_str());
        r = cli({ "analyze", "--algorithm", "strassen" });
        QCOMPARE(r.code, 2);
        QVERIFY(contains(r.err, "--algorithm"));
        r = cli({ "networks" });
        QCOMPARE(r.code, 0);
        QVERIFY(contains(r.out,
            "resnet50             ResNet-50 (torchvision)                3x224x224          25,557,032      4.09"));
        QVERIFY(contains(r.out,
            "calibration-classes  Calibration classes (1x1, dw, BN, FC)  64x56x56           30,720,192      0.65"));
        r = cli({ "networks", "--format-help" });
        QCOMPARE(r.code, 0);
        QVERIFY(contains(r.out, "\"schema\": 1"));
        r = cli({ "analyze", "--model", "nope.json" });
        QCOMPARE(r.code, 2);
        QVERIFY2(contains(r.err, "nope.json: cannot read the network file"), r.err.c_str());
    }

    void markdownAndLatex()
    {
        Run r = cli({ "analyze", "--format", "markdown" });
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.find("| enc1.conv1 | conv |") != std::string::npos);
        r = cli({ "analyze", "--format=latex" });
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.find("\\toprule") != std::string::npos);
    }

    // roofline-cli tune: the study's setting, in the three formats; bad ranges and objectives are named.
    void tune()
    {
        Run r = cli({ "tune", "--model", "alexnet", "--device", "titan-x-maxwell", "--device", "titan-x-pascal",
            "--batch", "64..256", "--gpus", "1..2", "--clock", "0.8..1", "--objective", "edp" });
        QCOMPARE(r.code, 0);
        QVERIFY2(contains(r.out,
                     "Tuning training of alexnet, 32-bit; objective: edp per image; 30 configurations per device"),
            r.out.c_str());
        QVERIFY(contains(r.out, "NVIDIA Titan X (Pascal) (titan-x-pascal): 30 of 30 configurations fit in 12.0 GiB"));
        QVERIFY(contains(r.out, "* least energy x delay: batch 256 x 2 GPUs at "));
        QVERIFY(contains(r.out, "Pareto front (time against energy per image), fastest first:"));
        QVERIFY(contains(r.out, "batch 128: "));
        r = cli({ "tune", "--model", "resnet50", "--device", "titan-x-pascal", "--batch", "64..256", "--gpus", "1",
            "--clock", "1", "--format", "json" });
        QCOMPARE(r.code, 0);
        const auto doc = nlohmann::json::parse(r.out);
        QCOMPARE(doc["results"][0]["points"].size(), size_t(3));
        QCOMPARE(
            doc["results"][0]["points"][2]["fits"].get<bool>(), false); // batch 256 of ResNet-50 needs more than 12 GiB
        QCOMPARE(doc["results"][0]["recommended"].get<int>(), 0);
        r = cli({ "tune", "--batch", "8", "--gpus", "1..2", "--clock", "1", "--format", "csv" });
        QCOMPARE(r.code, 0);
        QVERIFY(
            r.out.starts_with("device,batch,gpus,clock,fits,memory_bytes,step_time_s,step_energy_j,time_per_image_s,"));
        QCOMPARE(std::count(r.out.begin(), r.out.end(), '\n'), 3L);
        r = cli({ "tune", "--objective", "speed" });
        QCOMPARE(r.code, 2);
        QVERIFY(contains(r.err, "--objective: expected time, energy or edp, got 'speed'"));
        r = cli({ "tune", "--clock", "0.05..1" });
        QCOMPARE(r.code, 2);
        QVERIFY2(contains(r.err, "clock (%) range must lie within 10..100"), r.err.c_str());
        r = cli({ "analyze", "--interconnect", "carrier-pigeon" });
        QCOMPARE(r.code, 2);
        QVERIFY(contains(r.err, "unknown interconnect 'carrier-pigeon'"));
    }

    void usageErrors_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("no command") << QStringList {} << "usage: roofline-cli analyze";
        QTest::newRow("unknown command") << QStringList { "analyse" } << "unknown command 'analyse'";
        QTest::newRow("unknown option") << QStringList { "analyze", "--colour" } << "unknown option '--colour'";
        QTest::newRow("missing value") << QStringList { "analyze", "--batch" } << "--batch: missing value";
        QTest::newRow("not a number") << QStringList { "analyze", "--batch", "lots" }
                                      << "--batch: expected a whole number, got 'lots'";
        QTest::newRow("bad bits") << QStringList { "analyze", "--bits", "12" }
                                  << "bits must be 8, 16, 32 or 64, got 12";
        QTest::newRow("absurd batch") << QStringList { "analyze", "--batch", "99999999" }
                                      << "batch must be between 1 and 65536";
        QTest::newRow("impossible size") << QStringList { "analyze", "--image", "580" }
                                         << "nearest heights that work: 572 and 588";
        QTest::newRow("bad padding") << QStringList { "analyze", "--padding", "full" }
                                     << "--padding: expected one of valid, same, got 'full'";
        QTest::newRow("unknown device") << QStringList { "analyze", "--device", "gtx-9999" }
                                        << "unknown device 'gtx-9999'; known devices:";
        QTest::newRow("bad format") << QStringList { "analyze", "--format", "xml" }
                                    << "--format: expected table, json, csv, markdown or latex";
        QTest::newRow("flag with value") << QStringList { "analyze", "--fusion=yes" } << "--fusion takes no value";
    }
    void usageErrors()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        std::vector<std::string> a;
        for (const QString& s : args)
            a.push_back(s.toStdString());
        const Run r = cli(a);
        QCOMPARE(r.code, 2);
        QVERIFY(r.out.empty());
        QVERIFY2(contains(r.err, message.toStdString()), r.err.c_str());
        // after an error in a command, that command's usage alone, and where its help is
        // (an impossible configuration or an unknown device is said without usage)
        if (!args.isEmpty() && args.front() == QStringLiteral("analyze")) {
            QVERIFY2(!contains(r.err, "roofline-cli tune ["), r.err.c_str());
            if (message.contains(QStringLiteral("option")) || message.contains(QStringLiteral("missing value")))
                QVERIFY2(contains(r.err, "usage: roofline-cli analyze [configuration options]")
                        && contains(r.err, "Try 'roofline-cli analyze --help'."),
                    r.err.c_str());
        } else if (!args.isEmpty()) // an unknown command: every command's usage
            QVERIFY2(
                contains(r.err, "roofline-cli tune [") && contains(r.err, "Try 'roofline-cli --help'."), r.err.c_str());
    }

    void helpAndVersion()
    {
        Run r = cli({ "--help" });
        QCOMPARE(r.code, 0);
        QVERIFY(contains(r.out, "--downsample maxpool|strided"));
        QVERIFY(contains(r.out, "Exit status"));
        // Each command its own help (it printed all 106 lines): its usage, what it does, its options
        // and the shared ones it takes, nothing of the other commands.
        r = cli({ "analyze", "--help" });
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.starts_with("usage: roofline-cli analyze [configuration options]"), r.out.c_str());
        QVERIFY(contains(r.out, "--calibration CAL.json"));
        QVERIFY(contains(r.out, "Configuration options:\n"));
        QVERIFY(!contains(r.out, "roofline-cli tune"));
        r = cli({ "devices", "--help" });
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.starts_with("usage: roofline-cli devices [--format table|json]"));
        QVERIFY(!contains(r.out, "--image N"));
        QVERIFY(std::count(r.out.begin(), r.out.end(), '\n') < 15);
        QCOMPARE(cli({ "help", "devices" }).out, r.out);
        r = cli({ "measure", "--network", "--help" });
        QVERIFY(contains(r.out, "roofline-cli measure --network"));
        QVERIFY(contains(r.out, "--tdp-w W"));
        r = cli({ "--version" });
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.starts_with("roofline-cli 0."));
    }

    void manPageCoversTheHelp()
    {
        // The installed man page (packaging/roofline-cli.1) names every command and option that --help
        // does: it once stopped at the commands of its first release.
        QFile file(QStringLiteral(ROOFLINE_TEST_SOURCE_DIR "/packaging/roofline-cli.1"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QString man = QString::fromUtf8(file.readAll()).replace(QStringLiteral("\\-"), QStringLiteral("-"));
        const Run r = cli({ "--help" });
        const QString help = QString::fromStdString(r.out);
        const QRegularExpression option(QStringLiteral("(--[a-z][a-z0-9-]*)"));
        int checked = 0;
        for (auto it = option.globalMatch(help); it.hasNext(); ++checked) {
            const QString name = it.next().captured(1);
            QVERIFY2(man.contains(name), qPrintable(name + QStringLiteral(" is in --help, not in the man page")));
        }
        QVERIFY(checked > 40);
        for (const char* command :
            { "analyze", "devices", "networks", "llm", "plan", "tune", "compare", "measure", "export", "reproduce" })
            QVERIFY2(man.contains(QStringLiteral(".B roofline-cli %1").arg(QLatin1String(command))), command);
    }

    void configRoundTripsThroughArgs()
    {
        Config c;
        c.unet.height = 256;
        c.unet.width = 320;
        c.unet.padding = Padding::Same;
        c.unet.conv = ConvType::Separable;
        c.unet.downsample = Downsample::Strided;
        c.unet.batchNorm = true;
        c.unet.stride = 4;
        c.batch = 16;
        c.bits = 16;
        c.mode = Mode::Training;
        c.optimizer = Optimizer::Adam;
        c.fusion = true;
        c.tensorCores = true;
        ConfigOptions parsed;
        std::string error;
        QVERIFY2(parseConfigArgs(configToArgs(c), parsed, error), error.c_str());
        QVERIFY(parsed.config == c);
        QVERIFY(!parseConfigArgs({ "--bits" }, parsed, error));
        QCOMPARE(error, std::string("--bits: missing value"));
    }

    // The real executable, as a shell sees it.
    void executable()
    {
        QProcess p;
        p.start(QStringLiteral(ROOFLINE_CLI_PATH),
            { QStringLiteral("analyze"), QStringLiteral("--format"), QStringLiteral("json") });
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        QVERIFY(QJsonDocument::fromJson(p.readAllStandardOutput()).isObject());

        p.start(QStringLiteral(ROOFLINE_CLI_PATH),
            { QStringLiteral("analyze"), QStringLiteral("--image"), QStringLiteral("580") });
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 2);
        QVERIFY(p.readAllStandardOutput().isEmpty());
        QVERIFY(p.readAllStandardError().contains("572 and 588"));
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
