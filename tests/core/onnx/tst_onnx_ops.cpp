// Each counted ONNX operator against a hand-worked count (tests/data/onnx/ops/, made by
// make_fixtures.py). Input x is [N, 4, 8, 8] = 256 elements at batch 1 unless the case says otherwise.
#include "engine/cost.h"
#include "engine/roofline.h"
#include "model/networks.h"
#include "onnx/onnx_model.h"
#include "open/build_network.h"
#include "testpaths.h"

#include <QTest>

#include <tuple>

using namespace rfx;

Q_DECLARE_METATYPE(std::vector<std::string>)

namespace {

struct Row {
    const char* op;
    double flops;
    std::int64_t params;
};

Network build(const QString& name, int batch)
{
    Config c;
    c.model = std::string(ROOFLINE_TEST_DATA_DIR) + "/onnx/ops/" + name.toStdString() + ".onnx";
    c.batch = batch;
    BuildResult b = buildNetwork(c);
    if (!b.network)
        qFatal("%s", b.error.c_str());
    return std::move(*b.network);
}

} // namespace

class TestOnnxOps : public QObject {
    Q_OBJECT

private slots:
    void counts_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<std::vector<std::string>>("ops");
        QTest::addColumn<std::vector<double>>("flops");
        QTest::addColumn<std::vector<qint64>>("params");
        auto add = [](const char* model, std::vector<Row> rows) {
            std::vector<std::string> ops;
            std::vector<double> flops;
            std::vector<qint64> params;
            for (const Row& r : rows) {
                ops.push_back(r.op);
                flops.push_back(r.flops);
                params.push_back(r.params);
            }
            QTest::newRow(model) << QString(model) << ops << flops << params;
        };
        // Conv W [8,4,3,3], pads 1: out [1,8,8,8] = 512; 2 x 512 x 4 x 3 x 3 = 36,864; 288 weights; bias row 512, 8.
        add("conv2d", { { "conv", 36'864, 288 }, { "bias", 512, 8 } });
        // 1-D: x [N,4,16], W [8,4,3]: out [1,8,14] = 112; 2 x 112 x 4 x 3 = 2,688; 96 weights.
        add("conv1d", { { "conv", 2'688, 96 } });
        // group 2, strides 2, dilations 2 (extent 5), pads top 1 left 0 bottom 0 right 1:
        // H = floor((8 + 1 + 0 - 5) / 2) + 1 = 3, W = floor((8 + 0 + 1 - 5) / 2) + 1 = 3: out 72;
        // 2 x 72 x (4 / 2) x 9 = 2,592; 8 x 2 x 9 = 144 weights.
        add("conv_grouped", { { "conv", 2'592, 144 } });
        // auto_pad SAME_UPPER, stride 2: out ceil(8 / 2) = 4: [1,8,4,4] = 128; 2 x 128 x 4 x 9 = 9,216.
        add("conv_autopad", { { "conv", 9'216, 288 } });
        // ConvTranspose W [4,6,2,2] at the input positions: 2 x 4 x 64 x 6 x 2 x 2 = 12,288, whatever the
        // output_padding (out 17 x 17) or output_shape (16 x 16) does to the output.
        add("conv_transpose", { { "conv_transpose", 12'288, 96 } });
        add("conv_transpose_shape", { { "conv_transpose", 12'288, 96 } });
        // Gemm x [N,16] x W^T [8,16] + C [8]: 2 x 1 x 8 x 16 = 256, 128 weights; the bias row 8, 8.
        add("gemm", { { "linear", 256, 128 }, { "bias", 8, 8 } });
        // transA: A [16,3] is K x M: M = 3, K = 16, N = 8: 2 x 3 x 8 x 16 = 768.
        add("gemm_transa", { { "linear", 768, 128 } });
        // MatMul [N,5,6] x [6,7] -> [1,5,7] = 35 outputs x 2 x 6 = 420; 42 weights.
        add("matmul3d", { { "matmul", 420, 42 } });
        // MatMul [N,2,5,6] x [1,6,3] (broadcast) -> [1,2,5,3] = 30 outputs x 2 x 6 = 360; 18 weights.
        add("matmul4d", { { "matmul", 360, 18 } });
        // 2 per element; scale and shift are parameters (8), the running mean and variance are not.
        add("batchnorm", { { "batchnorm", 512, 8 } });
        // 7 per element (mean 1, centre 1, square and sum 2, scale by 1/sigma 1, gamma 1, beta 1).
        add("instancenorm", { { "eltwise", 1'792, 8 } });
        add("layernorm", { { "eltwise", 7 * 30, 12 } }); // [N,5,6] = 30 elements, gamma and beta [6]
        add("relu", { { "relu", 256, 0 } });
        add("leakyrelu", { { "eltwise", 512, 0 } }); // compare, multiply
        add("prelu", { { "eltwise", 512, 4 } }); // compare, multiply; the slope [4,1,1] is a parameter
        add("sigmoid", { { "eltwise", 1'024, 0 } }); // negate, exp, add, divide
        add("tanh", { { "eltwise", 256, 0 } });
        add("hardsigmoid", { { "eltwise", 1'024, 0 } }); // multiply, add, min, max
        add("hardswish", { { "eltwise", 1'280, 0 } }); // hardsigmoid and a multiply
        add("clip", { { "eltwise", 512, 0 } }); // min, max; the bounds are not parameters
        add("erf", { { "eltwise", 256, 0 } });
        add("gelu", { { "eltwise", 1'280, 0 } }); // com.microsoft:Gelu, x/2 (1 + erf(x / sqrt 2)): 5 per element
        add("softmax", { { "eltwise", 1'280, 0 } }); // max, subtract, exp, sum, divide
        add("logsoftmax", { { "eltwise", 1'280, 0 } });
        for (const char* op : { "add", "sub", "mul", "div", "pow" }) // broadcast a [4,1,1] constant: 256
            add(op, { { "eltwise", 256, 4 } });
        for (const char* op : { "sqrt", "exp", "neg", "reciprocal" })
            add(op, { { "eltwise", 256, 0 } });
        add("add_residual", { { "relu", 256, 0 }, { "add", 256, 0 } }); // two live tensors: a residual add
        // ReduceMean over 8 x 8: K = 64 per output (63 additions, 1 scaling) x 4 outputs = 256;
        // ReduceSum 63 x 4 = 252.
        add("reducemean", { { "reduce", 256, 0 } });
        add("reducesum", { { "reduce", 252, 0 } });
        add("maxpool", { { "maxpool", 3 * 64, 0 } }); // 2x2 window: 3 comparisons x 64 outputs
        add("averagepool", { { "avgpool", 9 * 256, 0 } }); // 3x3 window, pads 1: 9 x 256 outputs
        add("globalaveragepool", { { "avgpool", 64 * 4, 0 } });
        add("globalmaxpool", { { "maxpool", 63 * 4, 0 } });
        add("concat", { { "relu", 256, 0 }, { "concat", 0, 0 } });
        for (const char* op :
            { "split", "slice", "pad", "transpose", "gather", "expand", "tile", "resize_nearest", "upsample" })
            add(op, { { "copy", 0, 0 } });
        // Linear resize of two axes to [1,4,16,16] = 1,024 outputs: 3 per axis (a + t (b - a)) = 6,144.
        add("resize_linear", { { "eltwise", 6'144, 0 } });
        add("where", { { "eltwise", 256, 0 }, { "eltwise", 256, 0 } }); // Greater, then Where
        // Reshape, Identity, Dropout, Unsqueeze, Squeeze and Flatten are free: one row, the ReLU.
        add("free", { { "relu", 256, 0 } });
        // A custom-domain operator: a row that moves 256 in and 256 out, 0 FLOPs, marked.
        add("unknown", { { "relu", 256, 0 }, { "uncounted", 0, 0 }, { "eltwise", 1'024, 0 } });
    }

    void counts()
    {
        QFETCH(QString, model);
        QFETCH(std::vector<std::string>, ops);
        QFETCH(std::vector<double>, flops);
        QFETCH(std::vector<qint64>, params);
        const Network net = build(model, 1);
        QCOMPARE(net.layers.size(), ops.size());
        for (size_t i = 0; i < ops.size(); ++i) {
            const Layer& l = net.layers[i];
            QCOMPARE(std::string(opName(l.op)), ops[i]);
            QCOMPARE(forwardFlops(l), flops[i]);
            QCOMPARE(qint64(layerParams(l)), params[i]);
        }
        // The batch binds the symbolic N: twice the work (models with a fixed batch excepted).
        if (model != "gemm_transa") {
            const Network two = build(model, 2);
            for (size_t i = 0; i < ops.size(); ++i)
                QCOMPARE(forwardFlops(two.layers[i]), 2 * flops[i]);
        }
    }

    // Token ids [N, L] (rank 2, integers): the image height binds the sequence length L. At N = 2,
    // L = 10: Gather from the embedding [100,16] is a copy of [2,10,16] (the table, 1,600 parameters);
    // MatMul by [16,16]: 320 outputs x 2 x 16 = 10,240, 256 parameters; the bias Add 320, 16; Softmax 5 x 320.
    void sequenceLengthFromTheImageHeight()
    {
        Config c;
        c.model = std::string(ROOFLINE_TEST_DATA_DIR) + "/onnx/ops/tokens.onnx";
        c.batch = 2;
        c.unet.height = c.unet.width = 10;
        const BuildResult b = buildNetwork(c);
        QVERIFY2(b.network, b.error.c_str());
        const std::vector<std::tuple<Op, double, std::int64_t>> rows { { Op::Copy, 0, 1'600 },
            { Op::MatMul, 10'240, 256 }, { Op::Eltwise, 320, 16 }, { Op::Eltwise, 1'600, 0 } };
        QCOMPARE(b.network->layers.size(), rows.size());
        for (size_t i = 0; i < rows.size(); ++i) {
            QCOMPARE(b.network->layers[i].op, std::get<0>(rows[i]));
            QCOMPARE(forwardFlops(b.network->layers[i]), std::get<1>(rows[i]));
            QCOMPARE(layerParams(b.network->layers[i]), std::get<2>(rows[i]));
        }
        QCOMPARE(shapeString(b.network->layers[1].out), std::string("2x10x16"));
        const OnnxLoad load = cachedOnnxModel(c.model);
        QVERIFY(load.model->imageBound());
        QCOMPARE(load.model->inputs().front().heightAt, std::vector<int> { 1 });
    }

    // An uncounted row is said: in the row's origin, in the diagnostics and in the report's count.
    void unknownOperatorsAreNeverSilent()
    {
        const Network net = build("unknown", 1);
        const Layer& l = net.layers[1];
        QCOMPARE(l.out.elements(), std::int64_t { 256 });
        const RowOrigin& o = net.origins[size_t(l.origin)];
        QCOMPARE(o.onnxOp, std::string("com.example:Frobnicate"));
        QVERIFY(o.uncounted.find("domain 'com.example'") != std::string::npos);
        QVERIFY(o.uncounted.find("assumed shaped as its input") != std::string::npos);
        QCOMPARE(layerCost(l, 4).bytesForward, (256.0 + 256.0) * 4);
        QVERIFY(std::any_of(net.diagnostics.begin(), net.diagnostics.end(), [](const Diagnostic& d) {
            return d.field == "node 'frob' (com.example:Frobnicate)" && d.severity == Severity::Warning;
        }));
        Config c;
        c.model = std::string(ROOFLINE_TEST_DATA_DIR) + "/onnx/ops/unknown.onnx";
        c.unet.height = c.unet.width = 224;
        QCOMPARE(analyze(net, c, {}).uncountedRows, 1);
    }
};

QTEST_GUILESS_MAIN(TestOnnxOps)
#include "tst_onnx_ops.moc"
