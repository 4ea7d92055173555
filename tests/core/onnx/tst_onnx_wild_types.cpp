// ONNX files as converters, quantizers and newer exporters write them (tests/data/onnx/wild/): the
// precision as the file gives it, low-bit elements, recurrent layers as PyTorch writes them, IR versions
// and graph names of today's exporters, rank six, control flow; each against a count worked by hand.
#include "core/onnx/wildmodels.h"
#include "engine/cost.h"
#include "engine/roofline.h"
#include "model/networks.h"
#include "onnx/onnx_model.h"
#include "open/build_network.h"
#include "testpaths.h"

#include <onnx/onnx_pb.h>

#include <QTemporaryDir>
#include <QTest>

#include <sys/resource.h>

#include <algorithm>
#include <fstream>

using namespace rfx;

Q_DECLARE_METATYPE(std::vector<std::string>)

using namespace rfx::wildtest;

class TestOnnxWildTypes : public QObject {
    Q_OBJECT

private slots:
    // Precision as in the file (the default for an imported model). Bytes worked by hand, at each
    // tensor's stored width, and each row on the ceiling of its arithmetic (a device with distinct
    // int8 4, fp16 2 and fp32 1 TFLOP/s ceilings):
    //  qdq: QuantizeLinear reads 256 fp32 and writes 256 uint8: 1,024 + 256 = 1,280 B, fp32;
    //       the Conv reads the uint8 input (256), int8 weights (288), writes fp32 (2,048): 2,592 B, int8;
    //       its bias row reads 2,048, int32 biases 32, writes the folded QuantizeLinear's uint8 512: 2,592 B;
    //       the last DequantizeLinear reads 512 uint8 and writes 2,048 fp32: 2,560 B.
    //  fp16: the Cast in reads 1,024 B and writes 512; the Conv reads 512, fp16 weights 576, writes 1,024:
    //       2,112 B at fp16; its bias 1,024 + 16 + 1,024 = 2,064; the Cast out 1,024 + 2,048 = 3,072.
    // With --bits 32 every tensor takes 4 bytes again, and every row the fp32 ceiling.
    void precisionAsInTheFile_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<std::vector<double>>("bytes");
        QTest::addColumn<std::vector<double>>("peaks");
        QTest::newRow("qdq") << QStringLiteral("qdq") << std::vector<double> { 1'280, 2'592, 2'592, 2'560 }
                             << std::vector<double> { 1e12, 4e12, 1e12, 1e12 };
        QTest::newRow("fp16") << QStringLiteral("fp16") << std::vector<double> { 1'536, 2'112, 2'064, 3'072 }
                              << std::vector<double> { 1e12, 2e12, 2e12, 1e12 }; // a Cast: its widest type
    }

    void precisionAsInTheFile()
    {
        QFETCH(QString, model);
        QFETCH(std::vector<double>, bytes);
        QFETCH(std::vector<double>, peaks);
        Device d;
        d.id = d.name = "test";
        d.peak = { { "fp32", 1e12 }, { "fp16", 2e12 }, { "int8", 4e12 } };
        d.dramBandwidth = 1e11;
        d.memoryBytes = 1e9;
        Config c;
        c.model = wild(model.toUtf8().constData());
        c.bitsAsInFile = true;
        const BuildResult b = buildNetwork(c);
        QVERIFY2(b.network, b.error.c_str());
        Report r = analyze(*b.network, c, { d });
        QCOMPARE(r.results[0].layers.size(), bytes.size());
        for (size_t i = 0; i < bytes.size(); ++i) {
            QCOMPARE(r.results[0].layers[i].bytes, bytes[i]);
            QCOMPARE(r.results[0].layers[i].peak, peaks[i]);
        }
        c.bitsAsInFile = false;
        r = analyze(*b.network, c, { d });
        for (const LayerResult& l : r.results[0].layers)
            QCOMPARE(l.peak, 1e12);
        QCOMPARE(r.results[0].layers[1].bytes, (256 + 288 + 512) * 4.0);
    }

    // Rows whose width does not name their arithmetic (issue 47), each on its own ceiling of a device
    // whose every ceiling differs: fp8_qdq's MatMul reads float8 activations (QuantizeLinear with a
    // float8 zero point, its DequantizeLinear folded) and runs at fp8, not int8; its QuantizeLinear reads
    // fp32 (the widest float) and its Relu fp32, on the vector FP32 ceiling. bf16's MatMul runs on tensor
    // BF16, its Relu on the vector BF16 ceiling, not FP16's. Without a tensor FP8 ceiling the fp8 row takes
    // tensor FP16, the next wider float, and says so.
    void arithmeticTypesAsInTheFile_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<std::vector<double>>("peaks");
        QTest::addColumn<QStringList>("types");
        QTest::newRow("fp8") << QStringLiteral("fp8_qdq") << std::vector<double> { 1e12, 16e12, 1e12 }
                             << QStringList { "fp32", "fp8", "fp32" };
        QTest::newRow("bf16") << QStringLiteral("bf16") << std::vector<double> { 6e12, 1.5e12 }
                              << QStringList { "bf16", "bf16" };
    }
    void arithmeticTypesAsInTheFile()
    {
        QFETCH(QString, model);
        QFETCH(std::vector<double>, peaks);
        QFETCH(QStringList, types);
        Device d;
        d.id = d.name = "test";
        d.peak = { { "fp32", 1e12 }, { "bf16", 1.5e12 }, { "fp16", 2e12 }, { "tensor_fp16", 4e12 },
            { "tensor_bf16", 6e12 }, { "tensor_int8", 8e12 }, { "tensor_fp8", 16e12 } };
        d.dramBandwidth = 1e11;
        d.memoryBytes = 1e9;
        Config c;
        c.model = wild(model.toUtf8().constData());
        c.bitsAsInFile = true;
        c.tensorCores = true;
        const BuildResult b = buildNetwork(c);
        QVERIFY2(b.network, b.error.c_str());
        Report r = analyze(*b.network, c, { d });
        QCOMPARE(r.results[0].layers.size(), peaks.size());
        for (size_t i = 0; i < peaks.size(); ++i) {
            QCOMPARE(r.results[0].layers[i].peak, peaks[i]);
            QCOMPARE(QString::fromStdString(std::string(numberWord(r.results[0].layers[i].type))), types[i]);
        }
        if (model != QLatin1String("fp8_qdq"))
            return;
        QCOMPARE(int(r.results[0].layers[1].bits), 8);
        const bool said = std::any_of(r.diagnostics.begin(), r.diagnostics.end(),
            [](const Diagnostic& g) { return g.message.find("1 at fp8, 2 at fp32") != std::string::npos; });
        QVERIFY(said);
        d.peak.erase("tensor_fp8");
        r = analyze(*b.network, c, { d });
        QCOMPARE(r.results[0].layers[1].peak, 4e12);
        const bool noted = std::any_of(r.diagnostics.begin(), r.diagnostics.end(), [](const Diagnostic& g) {
            return g.message.find("has no tensor FP8 ceiling; using its tensor FP16 ceiling") != std::string::npos;
        });
        QVERIFY(noted);
    }

    // torchlib's functions as PyTorch 2.x's exporter writes them (issue 48 item 2; make_fixtures.py
    // scalars: the IR 10 fields written on the wire): 'FlattenAt' flattens at its attribute 'axis',
    // whose default in the function is 2, and the call gives none: x [1, 4, 8, 8] -> [4, 64] (Flatten's
    // own default 1 would give [1, 256], which w [64, 10] cannot multiply: the file was refused), then
    // MatMul 2 x 4 x 64 x 10 = 5,120 FLOP and 640 weights. 'Act' has two overloads, "sigmoid" written
    // first and "relu" last; the call asks for "sigmoid": 40 elements x 4 = 160 FLOP (the last one
    // written, ReLU, was taken before).
    void torchlibFunctionDefaultsAndOverloads()
    {
        const BuildResult b = build(wild("torchlib_functions"));
        QVERIFY2(b.network, b.error.c_str());
        const Network& net = *b.network;
        QCOMPARE(net.layers.size(), size_t(2));
        QCOMPARE(net.layers[0].name, std::string("matmul"));
        QCOMPARE(forwardFlops(net.layers[0]), 5'120.0);
        QCOMPARE(layerParams(net.layers[0]), std::int64_t { 640 });
        QCOMPARE(net.layers[1].name, std::string("act/sigmoid"));
        QCOMPARE(forwardFlops(net.layers[1]), 160.0);
    }

    // An If on a flag the caller passes: the heavier branch, with a note naming the input; bound to 0,
    // the else branch (ReLU 256, Sigmoid 1,024).
    void ifOnAnUnknownFlag()
    {
        const BuildResult heavy = build(wild("if_flag"));
        QVERIFY2(heavy.network, heavy.error.c_str());
        QCOMPARE(heavy.network->layers.size(), size_t(2));
        QCOMPARE(heavy.network->layers[0].op, Op::Conv);
        QCOMPARE(heavy.network->layers[0].name, std::string("branch.then/conv"));
        QVERIFY(says(*heavy.network, "input 'flag'"));
        QVERIFY(says(*heavy.network, "--input-value"));
        const BuildResult light = build(wild("if_flag"), 1, { { "flag", 0 } });
        QVERIFY2(light.network, light.error.c_str());
        QCOMPARE(light.network->layers.size(), size_t(2));
        QCOMPARE(light.network->layers[0].op, Op::ReLU);
        QCOMPARE(forwardFlops(light.network->layers[1]), 1'024.0);
        QVERIFY(!says(*light.network, "input 'flag'"));
    }

    // Scan over x [5, 4] (a fixed shape): the ReLU 20; the body's Add of the state and a step, 4 a step
    // x 5 steps = 20, the initial state [4] a parameter (a floating-point initializer of 4 elements).
    void scanCountsItsBodyPerStep()
    {
        const BuildResult b = build(wild("scan"));
        QVERIFY2(b.network, b.error.c_str());
        QCOMPARE(b.network->layers.size(), size_t(2));
        QCOMPARE(forwardFlops(b.network->layers[1]), 20.0);
        QCOMPARE(b.network->layers[1].repeats, 5.0);
        QCOMPARE(layerParams(b.network->layers[1]), std::int64_t { 4 });
    }

    // Bytes at each element type's own width: the int4 weights 128 x 4 bits = 64 B, the float8 ones 128 B.
    // MatMul 1 reads x (8 fp32, 32 B) and 64 B of weights, writes 16 fp32 (64 B): 160 B; MatMul 2 reads
    // 64 B, 128 B of weights, writes 32 B: 224 B.
    void lowBitElementsMoveTheirOwnSize()
    {
        Device d;
        d.id = d.name = "test";
        d.peak = { { "fp32", 1e12 } };
        d.dramBandwidth = 1e11;
        d.memoryBytes = 1e9;
        Config c;
        c.model = wild("lowbit");
        c.bitsAsInFile = true;
        const BuildResult b = buildNetwork(c);
        QVERIFY2(b.network, b.error.c_str());
        const Report r = analyze(*b.network, c, { d });
        QCOMPARE(r.results[0].layers.size(), size_t(2));
        QCOMPARE(r.results[0].layers[0].bytes, 160.0);
        QCOMPARE(r.results[0].layers[1].bytes, 224.0);
    }

    // PyTorch's exporter (1.13, opset 15): nn.LSTM(16, 32) and nn.GRU(16, 32) after x.squeeze(1), a Conv1d
    // and permute(2, 0, 1); T = the image height (572, the configuration's default). Per step an LSTM does
    // 2 x 4 x 32 x (16 + 32) = 12,288 FLOP and 2 x 4 x 32 = 256 for the biases: x 572 = 7,175,168; a GRU
    // 2 x 3 x 32 x 48 + 2 x 3 x 32 = 9,408 a step: 5,381,376. Parameters as PyTorch counts them: 4 x 32 x 48 + 8 x 32 =
    // 6,400 and 3 x 32 x 48 + 6 x 32 = 4,800; the Conv1d 768 + 16, the Linear's weight 32 and its one-element bias,
    // added after the MatMul (issue 48: it was taken for a constant): 7,217 and 5,617, as PyTorch's sum(p.numel() for p
    // in model.parameters()) gives.
    void recurrentLayersAsPyTorchWritesThem_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<double>("flops");
        QTest::addColumn<qint64>("params");
        QTest::addColumn<qint64>("total");
        QTest::newRow("lstm") << QStringLiteral("pytorch_lstm") << 7'175'168.0 << qint64(6'400) << qint64(7'217);
        QTest::newRow("gru") << QStringLiteral("pytorch_gru") << 5'381'376.0 << qint64(4'800) << qint64(5'617);
    }

    void recurrentLayersAsPyTorchWritesThem()
    {
        QFETCH(QString, model);
        QFETCH(double, flops);
        QFETCH(qint64, params);
        QFETCH(qint64, total);
        const BuildResult b = build(wild(model.toUtf8().constData()));
        QVERIFY2(b.network, b.error.c_str());
        const auto rnn = std::find_if(b.network->layers.begin(), b.network->layers.end(),
            [](const Layer& l) { return l.name.find("rnn/") != std::string::npos; });
        QVERIFY(rnn != b.network->layers.end());
        QCOMPARE(forwardFlops(*rnn), flops);
        QCOMPARE(qint64(layerParams(*rnn)), params);
        QCOMPARE(qint64(cachedOnnxModel(wild(model.toUtf8().constData())).model->parameters()), total);
        QCOMPARE(b.network->output().elements(), std::int64_t { 572 }); // [T, 1, 1]: one value a step
    }

    // An LSTM after Squeeze and Transpose inside an If whose condition is a threshold on the data (spox's
    // writing): the heavier branch (the LSTM(16, 32): 6,400 parameters, 7,175,168 FLOP at T = 572) with a
    // note naming the node and the --branch that chooses; --branch loud_or_quiet=else counts the GRU(16, 8)
    // without biases: 3 x 8 x 24 = 576 parameters, 2 x 3 x 8 x 24 = 1,152 FLOP a step, 658,944. Both counts:
    // the file stores 6,976.
    void recurrentLayerInABranchOnTheData()
    {
        const BuildResult heavy = build(wild("rnn_in_if"));
        QVERIFY2(heavy.network, heavy.error.c_str());
        QCOMPARE(forwardFlops(heavy.network->layers.back()), 7'175'168.0);
        QVERIFY(says(*heavy.network, "node 'loud_or_quiet' (If)"));
        QVERIFY(says(*heavy.network, "the data of input 'x'"));
        QVERIFY(says(*heavy.network, "--branch loud_or_quiet=else"));
        QVERIFY(!says(*heavy.network, "--input-value")); // x is a tensor: a binding of it would be refused
        QCOMPARE(heavy.network->storedParameters, std::int64_t { 6'976 });
        Config c;
        c.model = wild("rnn_in_if");
        c.branches["loud_or_quiet"] = false;
        const BuildResult light = buildNetwork(c);
        QVERIFY2(light.network, light.error.c_str());
        QCOMPARE(forwardFlops(light.network->layers.back()), 658'944.0);
        QCOMPARE(qint64(layerParams(light.network->layers.back())), qint64(576));
        QVERIFY(!says(*light.network, "heavier branch"));
        Device d;
        d.id = d.name = "test";
        d.peak = { { "fp32", 1e12 } };
        d.dramBandwidth = 1e11;
        d.memoryBytes = 1e9;
        const Report r = analyze(*light.network, c, { d });
        QCOMPARE(r.storedParameters, std::int64_t { 6'976 });
        QCOMPARE(r.results[0].totals.params, std::int64_t { 576 });
        // A --branch that names no such If says so.
        c.branches = { { "no_such_if", true } };
        const BuildResult unused = buildNetwork(c);
        QVERIFY(unused.network && says(*unused.network, "no If named 'no_such_if'"));
    }

    // IR versions: PyTorch 2.x's dynamo exporter writes IR 10, ONNX 1.18 IR 11. A torchvision model
    // (ResNet-50, exported by PyTorch 1.13 at IR 7) re-stamped 10, 11 and 12 opens with the same rows and
    // counts; IR 12 with a note that it is newer than the tool knows; IR 0 and 2 are refused in words.
    void irVersionsOfTodaysExporters()
    {
        const std::string path = std::string(ROOFLINE_TEST_DATA_DIR) + "/onnx/resnet50.onnx";
        std::ifstream in(path, std::ios::binary);
        onnx::ModelProto m;
        QVERIFY(m.ParseFromIstream(&in));
        Config c;
        c.model = path;
        c.unet.height = c.unet.width = 224;
        const OnnxLoad original = loadOnnxModel(path);
        QVERIFY(original.model);
        const BuildResult base = original.model->build(c);
        QVERIFY(base.network);
        for (int ir : { 3, 9, 10, 11, 12 }) {
            m.set_ir_version(ir);
            const OnnxLoad load = parseOnnxModel(m.SerializeAsString(), path);
            QVERIFY2(load.model, load.error.c_str());
            QCOMPARE(load.model->parameters(), original.model->parameters());
            const BuildResult b = load.model->build(c);
            QVERIFY2(b.network, b.error.c_str());
            QCOMPARE(b.network->layers.size(), base.network->layers.size());
            for (size_t i = 0; i < b.network->layers.size(); ++i) {
                QCOMPARE(b.network->layers[i].out, base.network->layers[i].out);
                QCOMPARE(forwardFlops(b.network->layers[i]), forwardFlops(base.network->layers[i]));
            }
            QCOMPARE(says(*b.network, "IR version 12 is newer"), ir == 12);
        }
        for (int ir : { 0, 2 }) {
            m.set_ir_version(ir);
            const OnnxLoad load = parseOnnxModel(m.SerializeAsString(), path);
            QVERIFY(!load.model);
            QVERIFY2(load.error.find(path + ": ir_version") == 0, load.error.c_str());
        }
    }

    // An exporter's boilerplate graph name gives way to the file's name (issue 38: a PaddlePaddle model
    // was named "Model from PaddlePaddle."); a graph name that names the model stays.
    void boilerplateGraphNamesGiveWayToTheFile()
    {
        const std::string path = std::string(ROOFLINE_TEST_DATA_DIR) + "/onnx/mobilenetv2.onnx";
        std::ifstream in(path, std::ios::binary);
        onnx::ModelProto m;
        QVERIFY(m.ParseFromIstream(&in));
        for (const char* name :
            { "Model from PaddlePaddle.", "main_graph", "MXNet_converted_model", "CNTKGraph", "merged" }) {
            m.mutable_graph()->set_name(name);
            const OnnxLoad load = parseOnnxModel(m.SerializeAsString(), path);
            QVERIFY2(load.model, load.error.c_str());
            QCOMPARE(load.model->name(), std::string("mobilenetv2"));
        }
        m.mutable_graph()->set_name("ppocr_rec_v4");
        QCOMPARE(parseOnnxModel(m.SerializeAsString(), path).model->name(), std::string("ppocr_rec_v4"));
    }

    // A rotary embedding's inverse frequencies (a vector an exporter keeps as an initializer, scaled by the
    // positions into a Cos and a Sin) are not learned; a matrix into a Sin (Fourier features, x W) may be:
    // here W 3 x 8 counts, 24 parameters, the vector of 8 does not (issue 75).
    void whatOnlyFeedsCosAndSinIsNotLearned()
    {
        onnx::ModelProto m;
        m.set_ir_version(8);
        m.add_opset_import()->set_version(17);
        onnx::GraphProto& g = *m.mutable_graph();
        g.set_name("fourier");
        auto input = [&](const char* name, std::vector<std::int64_t> dims) {
            auto* v = g.add_input();
            v->set_name(name);
            v->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::FLOAT);
            for (auto d : dims)
                v->mutable_type()->mutable_tensor_type()->mutable_shape()->add_dim()->set_dim_value(d);
        };
        input("x", { 1, 3 });
        input("pos", { 1, 1 });
        for (auto [name, dims] : { std::pair { "W", std::vector<std::int64_t> { 3, 8 } }, { "inv_freq", { 8 } } }) {
            onnx::TensorProto& t = *g.add_initializer();
            t.set_name(name);
            t.set_data_type(onnx::TensorProto::FLOAT);
            std::int64_t n = 1;
            for (auto d : dims) {
                t.add_dims(d);
                n *= d;
            }
            for (std::int64_t i = 0; i < n; ++i)
                t.add_float_data(0.5f);
        }
        auto node = [&](const char* op, std::vector<std::string> in, const char* out) {
            onnx::NodeProto& n = *g.add_node();
            n.set_op_type(op);
            for (const auto& i : in)
                n.add_input(i);
            n.add_output(out);
        };
        node("MatMul", { "x", "W" }, "xw");
        node("Sin", { "xw" }, "s");
        node("Mul", { "pos", "inv_freq" }, "f");
        node("Cos", { "f" }, "c");
        node("Add", { "s", "c" }, "y");
        auto* y = g.add_output();
        y->set_name("y");
        y->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::FLOAT);
        const OnnxLoad load = parseOnnxModel(m.SerializeAsString(), "fourier.onnx");
        QVERIFY2(load.model, load.error.c_str());
        QCOMPARE(load.model->parameters(), std::int64_t(24));
    }

    void rankSix()
    {
        const BuildResult b = build(wild("rank6"));
        QVERIFY2(b.network, b.error.c_str());
        QCOMPARE(b.network->layers[0].out.rank, 6);
        QCOMPARE(b.network->layers[0].out.elements(), std::int64_t { 256 });
    }
};

QTEST_GUILESS_MAIN(TestOnnxWildTypes)
#include "tst_onnx_wild_types.moc"
