// roofline-cli on ONNX models: every command that takes a configuration, on exported and hand-made
// models; bad files exit 2 with the file, node and field named.
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

} // namespace

class TestCliOnnx : public QObject {
    Q_OBJECT
    QTemporaryDir m_home; // an empty user device folder, so the developer's own devices do not leak in

private slots:
    void initTestCase() { test::isolateCli(m_home); }

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
};

QTEST_GUILESS_MAIN(TestCliOnnx)
#include "tst_cli_onnx.moc"
