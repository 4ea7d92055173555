// roofline-cli: output formats, exit codes and messages, run in-process (runCli) and as the real
// executable (exit status and streams as a shell sees them).
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
using test::Run;


std::string readAll(const std::string& path)
{
    QFile f(QString::fromStdString(path));
    return f.open(QIODevice::ReadOnly) ? f.readAll().toStdString() : std::string();
}

// A shipped measurement set: the calibrations re-derived from its CSVs are the shipped ones, and the
// held-out table its README.md states (measured, bound alone, calibrated on U-Net 128, on U-Net 128
// with the class probes) is what the tool computes from them: the table is read here, so it cannot
// drift from the tool. No row of a held-out network is ABOVE THE ROOF, but for the networks named in
// `aboveTheRoof` (their README says which rows and why).
struct HeldOut {
    std::vector<std::string> args;
    std::string bound, onUnet, withClasses;
    std::string label;
};
std::string trimmed(const std::string& s)
{
    const size_t a = s.find_first_not_of(' '), b = s.find_last_not_of(' ');
    return a == std::string::npos ? std::string() : s.substr(a, b - a + 1);
}
/// "| U-Net 128, batch 4 | 212 ms | 194 ms (-8.5 %) | 206 ms (-2.6 %) | 206 ms (-2.6 %) |" rows of the
/// README's "Held out" table, as the compare command's words: "total 212 ms measured against a bound of
/// 194 ms", "206 ms predicted, -2.6 %". Each label names its CSV and configuration.
std::vector<HeldOut> heldOutTable(const std::string& m)
{
    const std::string text = readAll(m + "README.md");
    const std::map<std::string, std::vector<std::string>> configurations {
        { "U-Net 128, batch 4", { m + "unet128-same-b4.csv", "--image", "128", "--padding", "same", "--batch", "4" } },
        { "U-Net 256, batch 1", { m + "unet256-same-b1.csv", "--image", "256", "--padding", "same" } },
        { "ResNet-50 224, batch 1", { m + "resnet50-b1.csv", "--model", "resnet50" } },
        { "MobileNetV2 224, batch 1",
            { m + "mobilenetv2-b1.csv", "--model", ROOFLINE_TEST_SOURCE_DIR "/tests/data/onnx/mobilenetv2.onnx" } },
        { "VGG-16 224, batch 1", { m + "vgg16-b1.csv", "--model", "vgg16" } },
        { "MobileNetV2 224, batch 8",
            { m + "mobilenetv2-b8.csv", "--model", ROOFLINE_TEST_SOURCE_DIR "/tests/data/onnx/mobilenetv2.onnx", "--batch", "8" } },
        { "U-Net 128 separable, batch 1",
            { m + "unet128-separable-b1.csv", "--image", "128", "--padding", "same", "--conv", "separable" } },
    };
    std::vector<HeldOut> rows;
    std::istringstream in(text);
    bool inTable = false;
    for (std::string line; std::getline(in, line);) {
        if (line.starts_with("## "))
            inTable = line == "## Held out";
        if (!inTable || !line.starts_with("| ") || line.starts_with("| held out") || line.starts_with("|---"))
            continue;
        std::vector<std::string> cells;
        for (size_t at = 1; at < line.size();) {
            const size_t end = line.find('|', at);
            if (end == std::string::npos)
                break;
            cells.push_back(trimmed(line.substr(at, end - at)));
            at = end + 1;
        }
        if (cells.size() != 5) {
            qWarning("%s: a held-out row of %zu cells: %s", (m + "README.md").c_str(), cells.size(), line.c_str());
            return {};
        }
        const auto config = configurations.find(cells[0]);
        if (config == configurations.end()) {
            qWarning("%s: no configuration known for '%s'", (m + "README.md").c_str(), cells[0].c_str());
            return {};
        }
        auto time = [](const std::string& cell) { return cell.substr(0, cell.find(" (")); };
        auto predicted = [&](const std::string& cell) { // "206 ms (-2.6 %)" -> "206 ms predicted, -2.6 %"
            const size_t open = cell.find(" (");
            return time(cell) + " predicted, " + cell.substr(open + 2, cell.size() - open - 3);
        };
        rows.push_back({ config->second, "total " + cells[1] + " measured against a bound of " + time(cells[2]),
            predicted(cells[3]), predicted(cells[4]), cells[0] });
    }
    return rows;
}
void checkMeasurementSet(const std::string& m, const std::string& deviceId, size_t expectedRows,
    const std::set<std::string>& aboveTheRoof = {})
{
    const std::vector<HeldOut> cases = heldOutTable(m);
    QCOMPARE(cases.size(), expectedRows);
    const std::vector<std::string> device { "--device", deviceId, "--devices-dir", m + "device" };
    QTemporaryDir dir;
    const std::pair<std::vector<std::string>, std::string> fits[] = {
        { { m + "unet128-same-b1.csv" }, deviceId + "-unet128.cal.json" },
        { { m + "unet128-same-b1.csv", m + "calibration-classes-b1.csv" }, deviceId + "-unet128-classes.cal.json" },
    };
    for (const auto& [files, shipped] : fits) {
        const std::string out = dir.filePath(QString::fromStdString(shipped)).toStdString();
        std::vector<std::string> args { "calibrate" };
        args.insert(args.end(), files.begin(), files.end());
        for (const char* a : { "--image", "128", "--padding", "same", "--output" })
            args.push_back(a);
        args.push_back(out);
        args.insert(args.end(), device.begin(), device.end());
        const Run r = cli(args);
        QVERIFY2(r.code == 0, r.err.c_str());
        const auto derived = nlohmann::json::parse(readAll(out))["groups"],
                   expected = nlohmann::json::parse(readAll(m + shipped))["groups"];
        QCOMPARE(derived.size(), expected.size());
        for (size_t i = 0; i < derived.size(); ++i) {
            QCOMPARE(derived[i]["class"], expected[i]["class"]);
            RFX_COMPARE_REL(derived[i]["efficiency"].get<double>(), expected[i]["efficiency"].get<double>(), 1e-6);
        }
    }
    const std::string unet = m + deviceId + "-unet128.cal.json", classes = m + deviceId + "-unet128-classes.cal.json";
    for (const HeldOut& c : cases)
        for (const auto& [cal, expected] : { std::pair { unet, c.onUnet }, std::pair { classes, c.withClasses } }) {
            std::vector<std::string> args { "compare" };
            args.insert(args.end(), c.args.begin(), c.args.end());
            args.insert(args.end(), device.begin(), device.end());
            args.push_back("--calibration");
            args.push_back(cal);
            const Run r = cli(args);
            QVERIFY2(r.code == 0, r.err.c_str());
            QVERIFY2(contains(r.out, c.bound), r.out.c_str());
            QVERIFY2(contains(r.out, expected + " against the measured total"), (expected + "\n" + r.out).c_str());
            QVERIFY2(!contains(r.out, "did not map")
                    && (aboveTheRoof.count(c.label) || !contains(r.out, "ABOVE THE ROOF")),
                (c.label + "\n" + r.out).c_str());
        }
}

} // namespace

class TestCli : public QObject {
    Q_OBJECT
    QTemporaryDir m_home; // an empty user device folder, so the developer's own devices do not leak in

private slots:
    void initTestCase()
    {
        qputenv("ROOFLINE_DEVICES_DIR", ROOFLINE_TEST_DEVICES_DIR);
        qputenv("XDG_DATA_HOME", m_home.path().toUtf8());
    }

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
        QVERIFY(contains(
            r.out, "resnet50             ResNet-50 (torchvision)                3x224x224          25,557,032      4.09"));
        QVERIFY(contains(
            r.out, "calibration-classes  Calibration classes (1x1, dw, BN, FC)  64x56x56           30,720,192      0.65"));
        r = cli({ "networks", "--format-help" });
        QCOMPARE(r.code, 0);
        QVERIFY(contains(r.out, "\"schema\": 1"));
        r = cli({ "analyze", "--model", "nope.json" });
        QCOMPARE(r.code, 2);
        QVERIFY2(contains(r.err, "nope.json: cannot read the network file"), r.err.c_str());
    }

    // ONNX models through every command that takes a configuration; bad files exit 2 with the file,
    // node and field named.
    void onnxModels()
    {
        const std::string dir = std::string(ROOFLINE_TEST_DATA_DIR) + "/onnx/";
        Run r = cli({ "analyze", "--model", dir + "resnet50.onnx", "--batch", "4", "--format", "json" });
        QCOMPARE(r.code, 0);
        const nlohmann::json doc = nlohmann::json::parse(r.out);
        QCOMPARE(doc["network"]["name"].get<std::string>(), std::string("resnet50"));
        QCOMPARE(doc["network"]["input_shape"], nlohmann::json::parse("[4, 3, 224, 224]"));
        QCOMPARE(doc["network"]["uncounted_rows"].get<int>(), 0);
        const nlohmann::json& first = doc["results"][0]["layers"][0];
        QCOMPARE(first["onnx_op"].get<std::string>(), std::string("Conv"));
        QCOMPARE(first["onnx_node"].get<std::string>(), std::string("/conv1/Conv"));
        QVERIFY(
            contains(doc["conventions"].get<std::string>(), "ONNX operators: Conv, ConvTranspose, Gemm and MatMul"));
        QVERIFY(contains(r.err, "resnet50.weights', which is missing"));
        // An If on a flag input: the heavier branch with a warning naming the flag; --input-value chooses.
        r = cli({ "analyze", "--model", dir + "wild/if_flag.onnx", "--format", "csv" });
        QCOMPARE(r.code, 0);
        QVERIFY2(contains(r.err, "--input-value flag=1 (then) or flag=0 (else)") && contains(r.out, "branch.then/conv"),
            r.err.c_str());
        r = cli({ "analyze", "--model", dir + "wild/if_flag.onnx", "--input-value", "flag=0", "--format", "csv" });
        QCOMPARE(r.code, 0);
        QVERIFY2(contains(r.out, "branch.else/relu") && !contains(r.err, "not known before the run"), r.err.c_str());
        r = cli({ "analyze", "--model", dir + "wild/if_flag.onnx", "--input-value", "flag" });
        QCOMPARE(r.code, 2);
        QVERIFY2(contains(r.err, "--input-value: expected INPUT=NUMBER"), r.err.c_str());
        // A decoder's sequence lengths bound by name (--dim); a bad value is refused saying what is expected.
        r = cli({ "analyze", "--model", dir + "wild/decoder_past.onnx", "--dim", "sequence_length=1", "--dim",
            "past_sequence_length=127", "--format", "csv" });
        QCOMPARE(r.code, 0);
        QVERIFY2(contains(r.out, "matmul#4,matmul,1,2,1,128,0,16384,"), r.out.c_str()); // 2 heads x 128 keys x 32 x 2
        r = cli({ "analyze", "--model", dir + "wild/decoder_past.onnx", "--dim", "sequence_length=-1" });
        QCOMPARE(r.code, 2);
        QVERIFY2(contains(r.err, "--dim: expected NAME=N"), r.err.c_str());
        // Absurd extents: two of 2^31 summed by the Concat of the past wrapped negative; refused first.
        r = cli({ "analyze", "--model", dir + "wild/decoder_past.onnx", "--dim", "past_sequence_length=2000000000" });
        QCOMPARE(r.code, 2);
        QVERIFY2(contains(r.err, "from 0 to 16,777,216"), r.err.c_str());
        // An If on the data: the note names the node and --branch; --branch chooses; JSON gives both counts.
        r = cli({ "analyze", "--model", dir + "wild/rnn_in_if.onnx", "--format", "json" });
        QCOMPARE(r.code, 0);
        QVERIFY2(contains(r.err, "--branch loud_or_quiet=then or --branch loud_or_quiet=else")
                && !contains(r.err, "--input-value"),
            r.err.c_str());
        QCOMPARE(nlohmann::json::parse(r.out)["network"]["counted_params"].get<int>(), 6'400);
        QCOMPARE(nlohmann::json::parse(r.out)["network"]["stored_params"].get<int>(), 6'976);
        r = cli({ "analyze", "--model", dir + "wild/rnn_in_if.onnx", "--branch", "loud_or_quiet=else" });
        QCOMPARE(r.code, 0);
        QVERIFY2(contains(r.out, "576 parameters counted of 6,976 stored") && contains(r.out, "_quiet.else/gru"),
            r.out.c_str());
        r = cli({ "analyze", "--model", dir + "wild/rnn_in_if.onnx", "--branch", "loud_or_quiet=maybe" });
        QCOMPARE(r.code, 2);
        QVERIFY2(contains(r.err, "--branch: expected NODE=then or NODE=else"), r.err.c_str());
        // A file that fixes the batch at 1: --batch 16 does not apply, and no figure pretends it does: 36,864
        // FLOP per batch of 1, images/s = 1 / time, JSON's batch 1 beside its input shape.
        r = cli({ "analyze", "--model", dir + "wild/fixed_batch.onnx", "--batch", "16", "--format", "json" });
        QCOMPARE(r.code, 0);
        QVERIFY2(contains(r.err,
                     "--batch does not apply: the model file fixes the batch (input 'x' is 1x4x8x8); every figure is "
                     "for its batch of 1"),
            r.err.c_str());
        {
            const nlohmann::json fixed = nlohmann::json::parse(r.out);
            QCOMPARE(fixed["config"]["batch"].get<int>(), 1);
            QCOMPARE(fixed["network"]["input_shape"], nlohmann::json::parse("[1, 4, 8, 8]"));
            const nlohmann::json& t = fixed["results"][0]["totals"];
            QCOMPARE(t["throughput_per_s"].get<double>(), 1 / t["time_s"].get<double>());
        }
        r = cli({ "tune", "--model", dir + "alexnet.onnx", "--batch", "1..64" });
        QVERIFY2(r.code == 0, r.err.c_str());
        QVERIFY(contains(r.out, "alexnet"));
        // A fixed extent wins over the option, with a warning.
        r = cli({ "analyze", "--model", dir + "alexnet.onnx", "--image", "320" });
        QCOMPARE(r.code, 0);
        QVERIFY2(contains(r.err,
                     "warning: --image does not apply: the model file fixes the image size (input 'input' is "
                     "batchx3x224x224)"),
            r.err.c_str());
        r = cli({ "networks", "--model", dir + "unet.onnx" });
        QCOMPARE(r.code, 0);
        QVERIFY2(contains(r.out, "binding     the batch from --batch; the image size from --image (opens at 224)"),
            r.out.c_str());
        QVERIFY(contains(r.out, "parameters  31,030,658"));
        QVERIFY(contains(r.out, "operators   Concat 4, Conv 19, ConvTranspose 4, MaxPool 4, Relu 18, Slice 8"));
        // Bad files: the message names the file, and the node or field where there is one.
        const std::pair<const char*, const char*> bad[] = {
            { "not_protobuf", "not an ONNX model (not a valid protobuf message: another format, or truncated)" },
            { "truncated", "not an ONNX model (not a valid protobuf message" },
            { "empty", "the file is empty" },
            { "cycle", "(a cycle, a node out of order, or a tensor that no node produces)" },
            { "missing_producer", "input 'ghost' of node: name: add OpType: Add is not output of any previous nodes" },
            { "zero_dim", "input 'x': extent 1 is 0; extents must be positive (or symbolic)" },
            { "negative_dim", "input 'x': extent 1 is -3" },
            { "overflow", "'x' has 4.84e+24 elements, beyond what the tool models" },
            { "opset0", "opset_import: version 0 of the ONNX opset is not a version" },
            { "bad_conv", "node 'conv' (Conv): the weight 'w' expects 3 input channels, the input has 4" },
            // Found by fuzz_onnx as crashes inside ONNX 1.12's shape functions; refused before them.
            { "conv_stride0",
                "node '/features/features.10/Conv' (Conv): strides: every value must be a positive whole number" },
            { "conv_rank2",
                "node 'conv' (Conv): the input has rank 2; convolutions and pools need [N, C, spatial...]" },
            { "layernorm_axis",
                "node 0 (LayerNormalization): axis: 9223372036854775807 is outside the input's 3 dimensions" },
            // A rank-0 input and no axis: the default -1 (CI's fuzz run, 2026-12-01).
            { "layernorm_rank0",
                "node 's' (LayerNormalization): axis: the default -1 is outside the input's 0 dimensions" },
        };
        for (const auto& [file, why] : bad) {
            const std::string path = dir + "bad/" + file + ".onnx";
            r = cli({ "analyze", "--model", path });
            QCOMPARE(r.code, 2);
            QVERIFY2(contains(r.err, "roofline-cli: cannot use the model file: " + path + ": ") && contains(r.err, why),
                r.err.c_str());
        }
        // A 3 GB file (sparse) is refused before reading it.
        QTemporaryDir tmp;
        const QString big = tmp.filePath(QStringLiteral("big.onnx"));
        QFile f(big);
        QVERIFY(f.open(QIODevice::WriteOnly) && f.resize(qint64(3) << 30));
        f.close();
        r = cli({ "analyze", "--model", big.toStdString() });
        QCOMPARE(r.code, 2);
        QVERIFY2(contains(r.err, "the file is 3072 MiB; protobuf reads ONNX files under 2 GiB"), r.err.c_str());
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
                (*by)["overhead_s"].get<double>() + row["time_s"].get<double>() / (*by)["efficiency"].get<double>(), 1e-9);
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
        // The rows fitted on lie inside their own sizes; batch 4's are said to extrapolate, row by row and under the totals.
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

    // The shipped measurement of the AVX-512 EPYC (Zen 5; resources/measurements/README.md).
    void shippedMeasurementMatchesTheReadme()
    {
        checkMeasurementSet(ROOFLINE_TEST_SOURCE_DIR "/resources/measurements/", "epyc-2vcpu-vm", 5);
    }

    // The same on the AVX2-only EPYC (Zen 2, family 17h model 31h; resources/measurements/epyc-zen2-2vcpu,
    // issue 39). ResNet-50's first adds (9.6 MB) ran at 106-115 % of the DRAM roof: the probe found 8 MiB
    // of the 16 MiB L3 (its README says so); no U-Net row is above its roof.
    void zen2MeasurementMatchesTheReadme()
    {
        checkMeasurementSet(ROOFLINE_TEST_SOURCE_DIR "/resources/measurements/epyc-zen2-2vcpu/", "epyc-zen2-2vcpu-vm", 2,
            { "ResNet-50 224, batch 1" });
    }

    // And on the AVX2-only EPYC with Zen 3 cores (family 19h model 01h; resources/measurements/epyc-zen3-2vcpu).
    void zen3MeasurementMatchesTheReadme()
    {
        checkMeasurementSet(ROOFLINE_TEST_SOURCE_DIR "/resources/measurements/epyc-zen3-2vcpu/", "epyc-zen3-2vcpu-vm", 2,
            {});
    }

    // This Zen 5 two days later at 3.4 GHz, with the probes' tiny rows, MobileNetV2 at batch 8 and a
    // separable U-Net (resources/measurements/epyc-zen5-2vcpu, issue 51). Two rows of MobileNetV2 at
    // batch 8 ran above their DRAM roof from the L3 (its README says which).
    void zen5MeasurementMatchesTheReadme()
    {
        checkMeasurementSet(ROOFLINE_TEST_SOURCE_DIR "/resources/measurements/epyc-zen5-2vcpu/", "epyc-zen5-2vcpu-vm", 7,
            { "MobileNetV2 224, batch 8" });
    }

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
            { "analyze", "devices", "networks", "llm", "tune", "compare", "measure", "export", "reproduce" })
            QVERIFY2(man.contains(QStringLiteral(".B roofline-cli %1").arg(QLatin1String(command))), command);
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

    void noDevicesIsAFailure()
    {
        qputenv("ROOFLINE_DEVICES_DIR", "/nonexistent/roofline-devices");
        const Run r = cli({ "analyze" });
        qputenv("ROOFLINE_DEVICES_DIR", ROOFLINE_TEST_DEVICES_DIR);
        QCOMPARE(r.code, 1);
        QVERIFY2(contains(r.err, "no device files found"), r.err.c_str());
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
