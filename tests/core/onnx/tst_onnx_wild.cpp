// ONNX files as converters, quantizers and newer exporters write them (tests/data/onnx/wild/, made by
// make_fixtures.py's wild()): each against a count worked by hand here. x is [N, 4, 8, 8] = 256
// elements at batch 1 unless the case says otherwise.
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

class TestOnnxWild : public QObject {
    Q_OBJECT

private slots:
    // A decoder's sequence lengths are symbolic; --dim binds them by the names the model gives (issue 49
    // item 3). decoder_past (make_fixtures.py): one attention block, hidden 64 = 2 heads x 32, its past
    // keys and values inputs of past_sequence_length. By hand, decode at a context of 128 (1 new token,
    // 127 past): each projection 2 x 64 x 64 = 8,192 FLOP; the present keys 2 x 128 x 32; the scores
    // 2 heads x 1 x 128 x 32 x 2 = 16,384, the weighted values the same. Prefill of 16 tokens from
    // nothing past: projections 2 x 16 x 64 x 64 = 131,072 each, scores 2 x 16 x 16 x 32 x 2 = 32,768.
    void symbolicDimensionsBoundByName()
    {
        auto flopsOf = [](const Network& net) {
            std::vector<double> out;
            for (const Layer& l : net.layers)
                if (l.op == Op::MatMul)
                    out.push_back(forwardFlops(l));
            return out;
        };
        Config c;
        c.model = wild("decoder_past");
        c.dims = { { "sequence_length", 1 }, { "past_sequence_length", 127 } };
        BuildResult decode = buildNetwork(c);
        QVERIFY2(decode.network, decode.error.c_str());
        QCOMPARE(flopsOf(*decode.network), (std::vector<double> { 8192, 8192, 8192, 16384, 16384, 8192 }));
        QVERIFY(!says(*decode.network, "--dim"));
        c.dims = { { "sequence_length", 16 }, { "past_sequence_length", 0 } }; // prefill: nothing past
        BuildResult prefill = buildNetwork(c);
        QVERIFY2(prefill.network, prefill.error.c_str());
        QCOMPARE(flopsOf(*prefill.network), (std::vector<double> { 131072, 131072, 131072, 32768, 32768, 131072 }));
        // a name no input carries: said, and nothing else changes
        c.dims["sequence_len"] = 8;
        BuildResult typo = buildNetwork(c);
        QVERIFY2(typo.network, typo.error.c_str());
        QVERIFY(says(*typo.network, "--dim sequence_len: no input of the model has a dimension named 'sequence_len'"));
        QCOMPARE(flopsOf(*typo.network), flopsOf(*prefill.network));
    }

    // ONNX Runtime's attention operators with a cache (make_fixtures.py contrib_attention()), per (query,
    // key) pair 2 d for Q K^T, 1 for the scale, 5 for the softmax, 2 d for P V, over the pairs a causal
    // mask leaves. mha_past: 2 heads of 32, unidirectional; a decode step (1 new token over 127 cached)
    // scores 128 keys: 2 x 128 x (64 + 6 + 64) = 34,304 FLOP, and the present keys are [1, 2, 128, 32];
    // a prefill of 16 from nothing scores 16 x 17 / 2 = 136 pairs a head: 2 x 136 x 134 = 36,448. The
    // rotary embedding before it 3 FLOP an element: 192 and 3,072. gqa_window: 4 query heads and 2 KV
    // heads of 16 packed in one [1, S, 128] input, a local window of 4 keys: decode scores 4 keys a head,
    // 4 x 4 x (32 + 6 + 32) = 1,120; a prefill of 16 scores 1 + 2 + 3 + 4 + 12 x 4 = 58 pairs a head,
    // 4 x 58 x 70 = 16,240. The rotary tables are not parameters.
    void contribAttentionWithCache()
    {
        auto rows = [](const char* model, std::int64_t tokens, std::int64_t past) {
            Config c;
            c.model = wild(model);
            c.dims = { { "sequence_length", tokens }, { "past_sequence_length", past } };
            const BuildResult b = buildNetwork(c);
            if (!b.network)
                qFatal("%s", b.error.c_str());
            std::vector<std::pair<std::string, double>> out;
            for (const Layer& l : b.network->layers)
                out.emplace_back(l.name, forwardFlops(l));
            return std::make_pair(out, b.network->storedParameters);
        };
        using Rows = std::vector<std::pair<std::string, double>>;
        QCOMPARE(rows("mha_past", 1, 127).first, (Rows { { "rope", 192 }, { "mha", 34304 } }));
        QCOMPARE(rows("mha_past", 16, 0).first, (Rows { { "rope", 3072 }, { "mha", 36448 } }));
        QCOMPARE(rows("mha_past", 1, 127).second, 0);
        QCOMPARE(rows("gqa_window", 1, 127).first, (Rows { { "gqa", 1120 } }));
        QCOMPARE(rows("gqa_window", 16, 0).first, (Rows { { "gqa", 16240 } }));
        Config c;
        c.model = wild("mha_past");
        c.dims = { { "sequence_length", 1 }, { "past_sequence_length", 127 } };
        const OnnxLoad m = cachedOnnxModel(c.model);
        QVERIFY(m.model);
        const auto out = m.model->outputExtents(c);
        QCOMPARE(out.size(), size_t(3));
        QCOMPARE(out[1].second, std::optional(std::vector<std::int64_t> { 1, 2, 128, 32 }));
    }

    // MatMulNBits reads its packed weights, their scales and zero points (issue 49 item 3): matmulnbits'
    // 16 x 32 weights in 4 bits are B [16, 1, 16] uint8 = 256 B, with 16 fp32 scales = 64 B: 320 B a run,
    // not the 512 parameters x 4 bits = 256 B alone.
    void matMulNBitsReadsItsScales()
    {
        const BuildResult b = build(wild("matmulnbits"));
        QVERIFY2(b.network, b.error.c_str());
        QCOMPARE(b.network->layers.front().storedParams, 512);
        QCOMPARE(b.network->layers.front().weightBytes, 320.0);
    }

    void counts_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<std::vector<std::string>>("ops");
        QTest::addColumn<std::vector<double>>("flops");
        QTest::addColumn<std::vector<qint64>>("params");
        auto add = [](const char* model, std::vector<std::tuple<const char*, double, qint64>> rows) {
            std::vector<std::string> ops;
            std::vector<double> flops;
            std::vector<qint64> params;
            for (const auto& [op, f, p] : rows) {
                ops.push_back(op);
                flops.push_back(f);
                params.push_back(p);
            }
            QTest::newRow(model) << QString(model) << ops << flops << params;
        };
        // The Cast that ONNX Runtime's fp16 converter appends last runs first: a copy; Conv W [8,4,3,3],
        // pads 1: 2 x 512 x 36 = 36,864, 288 weights; ReLU 512.
        add("unsorted", { { "copy", 0, 0 }, { "conv", 36'864, 288 }, { "relu", 512, 0 } });
        // Weights in Constant nodes are parameters: 288, and the bias 8.
        add("constant_weights", { { "conv", 36'864, 288 }, { "bias", 512, 8 } });
        // Gemm [N,16] x [1,16]^T: 2 x 16 = 32, 16 weights; its one-element learned bias is a parameter.
        add("gemm_one_output", { { "linear", 32, 16 }, { "bias", 1, 1 } });
        // nn.Linear(16, 1) on x [N, 5, 16] as MatMul + Add (issue 48 item 3): 2 x 5 x 16 = 160 FLOP and 16
        // weights; the Add of the one-element bias 5 FLOP and 1 parameter (it was not counted: 16 of 17).
        add("linear_one_output", { { "matmul", 160, 16 }, { "eltwise", 5, 1 } });
        // The If's condition (channels == 4) is computed from the shape: the then branch's convolution,
        // whose weight lives in the branch; the Sigmoid after the If: 4 x 512.
        add("if_known", { { "conv", 36'864, 288 }, { "eltwise", 2'048, 0 } });
        // Loop of 3 trips: MatMul [1,5,6] x [6,6] = 30 outputs x 12 = 360 a trip, 1,080; 36 weights once.
        add("loop", { { "matmul", 1'080, 36 } });
        // LSTM, X [5, 1, 8], hidden 16: per step 2 x 4 x 16 x (8 + 16) = 3,072 and the biases 2 x 4 x 16
        // = 128, x 5 steps = 16,000. Parameters 4 H (I + H) + 8 H = 1,536 + 128 = 1,664, as PyTorch's
        // nn.LSTM(8, 16) has.
        add("lstm", { { "matmul", 16'000, 1'664 } });
        // GRU without biases: 2 x 3 x 16 x 24 x 5 = 11,520; 3 H (I + H) = 1,152 (nn.GRU(8, 16, bias=False)).
        add("gru", { { "matmul", 11'520, 1'152 } });
        // Opset 18: ReduceMean over axes [2,3] given as an input: 64 x 4 = 256; Split into num_outputs 3
        // (8 rows: 3, 3, 2) a copy; Pad of the last piece by 1 on axis 2 only ([1,4,3,8]) a copy; the Add of
        // two [1,4,3,8] tensors 96; the Mul by the [1,4,1,1] mean 96.
        add("opset18",
            { { "reduce", 256, 0 }, { "copy", 0, 0 }, { "copy", 0, 0 }, { "add", 96, 0 }, { "eltwise", 96, 0 } });
        // Opset 23 on x [N,5,8] = 40: RMSNormalization 4 an element (160), its scale 8; Gelu 5 (200);
        // Attention, 2 heads of 4: 1 x 2 x 5 x 5 = 50 scores x (2 x 4 + 1 + 5 + 2 x 4) = 1,100.
        add("opset23", { { "eltwise", 160, 8 }, { "eltwise", 200, 0 }, { "matmul", 1'100, 0 } });
        // A model-local function inlined: its Conv and ReLU, then the Sigmoid.
        add("function", { { "conv", 36'864, 288 }, { "relu", 512, 0 }, { "eltwise", 2'048, 0 } });
        // QDQ: the input's QuantizeLinear 3 x 256; the DequantizeLinear before the Conv and the
        // QuantizeLinear after its bias fold into it; int8 weights (288) and int32 bias (8) are parameters;
        // the last DequantizeLinear (a graph output) 2 x 512.
        add("qdq", { { "eltwise", 768, 0 }, { "conv", 36'864, 288 }, { "bias", 512, 8 }, { "eltwise", 1'024, 0 } });
        // DynamicQuantizeLinear 5 x 256; ConvInteger as a convolution, its int8 weight 288; Cast a copy;
        // the Mul by the scale 512.
        add("convinteger",
            { { "eltwise", 1'280, 0 }, { "conv", 36'864, 288 }, { "copy", 0, 0 }, { "eltwise", 512, 0 } });
        // MatMulNBits: [1,5,32] x (16 x 32 in 4 bits) = 80 outputs x 64 = 5,120; 512 weights, not 256 bytes.
        add("matmulnbits", { { "matmul", 5'120, 512 } });
        // The fp16 converter's output: the Casts at the edges are copies; the Conv and its bias as ever.
        add("fp16", { { "copy", 0, 0 }, { "conv", 36'864, 288 }, { "bias", 512, 8 }, { "copy", 0, 0 } });
        // F.pad as PyTorch exports it: pads [0, 0, 0, 0, 2, 1] computed by a reversing Slice, a Transpose and a
        // Reshape of a constant: the Pad a copy to [1, 6, 9], the ReLU 54.
        add("pad_reversed", { { "copy", 0, 0 }, { "relu", 54, 0 } });
        // PixelShuffle as exported: rank-6 Reshape (free), Transpose (a copy), Reshape (free).
        add("rank6", { { "copy", 0, 0 } });
        // tf2onnx's pads: Split of [0,0,1,1,0,0,2,2] into pairs, Concat again (values, no rows): the Pad a copy
        // to [1, 4, 11, 11], the ReLU 4 x 121 = 484.
        add("split_pads", { { "copy", 0, 0 }, { "relu", 484, 0 } });
        // torchlib's as_strided: a Loop of 3 trips over a sequence builds the [2, 3, 4] indices (no rows: values);
        // the Gather a copy of 24 elements, the ReLU 24.
        add("as_strided_loop", { { "copy", 0, 0 }, { "relu", 24, 0 } });
        // IR 10, opset 21: int4 [8, 16] and float8 [16, 8] weights dequantized into their MatMuls (folded):
        // x [1, 8] x [8, 16]: 16 outputs x 2 x 8 = 256 FLOP, 128 weights; [1, 16] x [16, 8]: 8 x 2 x 16 = 256, 128.
        add("lowbit", { { "matmul", 256, 128 }, { "matmul", 256, 128 } });
    }

    void counts()
    {
        QFETCH(QString, model);
        QFETCH(std::vector<std::string>, ops);
        QFETCH(std::vector<double>, flops);
        QFETCH(std::vector<qint64>, params);
        const BuildResult b = build(wild(model.toUtf8().constData()));
        QVERIFY2(b.network, b.error.c_str());
        const Network& net = *b.network;
        QCOMPARE(net.layers.size(), ops.size());
        qint64 total = 0;
        for (size_t i = 0; i < ops.size(); ++i) {
            const Layer& l = net.layers[i];
            QCOMPARE(std::string(opName(l.op)), ops[i]);
            QCOMPARE(forwardFlops(l), flops[i]);
            QCOMPARE(qint64(layerParams(l)), params[i]);
            total += params[i];
        }
        // The model's own count (each initializer once) agrees with the rows'.
        QCOMPARE(qint64(cachedOnnxModel(wild(model.toUtf8().constData())).model->parameters()), total);
        if (!cachedOnnxModel(wild(model.toUtf8().constData())).model->batchBound())
            return; // the file fixes the batch (as_strided_loop)
        const BuildResult two = build(wild(model.toUtf8().constData()), 2);
        QVERIFY2(two.network, two.error.c_str());
        for (size_t i = 0; i < ops.size(); ++i)
            QCOMPARE(forwardFlops(two.network->layers[i]), 2 * flops[i]);
    }

    // A batch step without inference: once three batches show the network linear in the batch, any other
    // batch is that line evaluated; it must equal what inference gives (a fresh, uncached model).
    void batchStepsOnTheLineEqualInference()
    {
        const std::string path = std::string(ROOFLINE_TEST_DATA_DIR) + "/onnx/resnet50.onnx";
        const OnnxLoad learning = loadOnnxModel(path), fresh = loadOnnxModel(path);
        QVERIFY(learning.model && fresh.model);
        Config c;
        c.model = path;
        c.unet.height = c.unet.width = 224;
        for (int batch : { 1, 2, 3, 7, 48 }) {
            c.batch = batch;
            const BuildResult line = learning.model->build(c), inferred = fresh.model->build(c);
            QVERIFY(line.network && inferred.network);
            QCOMPARE(line.network->layers.size(), inferred.network->layers.size());
            QCOMPARE(line.network->input, inferred.network->input);
            for (size_t i = 0; i < line.network->layers.size(); ++i) {
                const Layer &a = line.network->layers[i], &b = inferred.network->layers[i];
                QCOMPARE(a.out, b.out);
                QCOMPARE(a.inShapes, b.inShapes);
                QCOMPARE(forwardFlops(a), forwardFlops(b));
                QCOMPARE(a.kh, b.kh);
            }
        }
    }

    void sortedAndSaid()
    {
        const BuildResult b = build(wild("unsorted"));
        QVERIFY2(b.network, b.error.c_str());
        QVERIFY(says(*b.network, "not in topological order"));
    }

    // One-element tensors where ONNX's shape functions insist on scalars (issue 48; make_fixtures.py
    // scalar_vectors, as PyTorch 2.x writes Range over gathered sizes): Range(0, size [1] = 8, 1) gives
    // [8]; HannWindow(size [1] = 8) [8]; Dropout's ratio and training_mode [1]. It opens, each relaxed
    // node says so, and the counts are the graph's: the Conv 4 -> 8, 3x3, pads 1 on 8 x 8 is
    // 2 x 8 x 8 x 8 x 4 x 3 x 3 = 36,864 FLOP and 288 parameters at batch 1; the Add of the range to x
    // 256 FLOP. Without the rule ONNX 1.12 refuses it ("Input to 'Range' op should be scalars").
    void oneElementTensorsWhereTheRulesSayScalars()
    {
        const BuildResult b = build(wild("scalar_vectors"));
        QVERIFY2(b.network, b.error.c_str());
        const Network& net = *b.network;
        const auto conv
            = std::find_if(net.layers.begin(), net.layers.end(), [](const Layer& l) { return l.op == Op::Conv; });
        QVERIFY(conv != net.layers.end());
        QCOMPARE(forwardFlops(*conv), 36'864.0);
        QCOMPARE(layerParams(*conv), std::int64_t { 288 });
        QCOMPARE(conv->out, (Shape { 1, 8, 8, 8 }));
        const auto add
            = std::find_if(net.layers.begin(), net.layers.end(), [](const Layer& l) { return l.name == "add"; });
        QVERIFY(add != net.layers.end());
        QCOMPARE(forwardFlops(*add), 256.0);
        for (const char* node : { "(Range): inputs 'zero', 'size', 'one'", "(HannWindow): input 'wsize'",
                 "(Dropout): inputs 'ratio', 'training'" })
            QVERIFY2(says(net, node), node);
        QVERIFY(says(net, "read as the scalar, as ONNX Runtime does"));
        // The signal operators, each fed [1] tensors (scalar_vectors_signal): all six relaxed and said;
        // the STFT of 64 samples, 16-point frames every 8 gives (64 - 16) / 8 + 1 = 7 frames of 16 bins.
        const BuildResult signal = build(wild("scalar_vectors_signal"));
        QVERIFY2(signal.network, signal.error.c_str());
        for (const char* node :
            { "(HannWindow): input 'wsize'", "(HammingWindow): input 'wsize'", "(BlackmanWindow): input 'wsize'",
                "(STFT): input 'flen'", "(DFT): input 'flen'", "(MelWeightMatrix): inputs 'bins', 'flen'" })
            QVERIFY2(says(*signal.network, node), node);
        const auto stft = std::find_if(signal.network->layers.begin(), signal.network->layers.end(),
            [](const Layer& l) { return l.name == "stft"; });
        QVERIFY(stft != signal.network->layers.end());
        QCOMPARE(stft->out.elements(), std::int64_t { 7 * 16 * 2 });
        // At batch 8 the same, eight times over.
        const BuildResult eight = build(wild("scalar_vectors"), 8);
        QVERIFY2(eight.network, eight.error.c_str());
    }

    // A model with 96 MB of inline weights opens without holding them: its bytes are skipped while
    // reading (the process's peak memory grows by far less than the file), and its parameters counted.
    void inlineWeightsAreSkippedWhileReading()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("big.onnx")).toStdString();
        {
            // Written piece by piece, so that the test's own peak stays small: the model without its
            // initializer, then the graph's field 5 (initializer) holding the tensor, its raw data streamed.
            onnx::ModelProto m;
            m.set_ir_version(8);
            m.add_opset_import()->set_version(13);
            onnx::GraphProto g;
            g.set_name("big");
            for (const char* name : { "x", "y" }) {
                auto* v = name[0] == 'x' ? g.add_input() : g.add_output();
                v->set_name(name);
                v->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::FLOAT);
                for (int d : { 1, name[0] == 'x' ? 4096 : 6144 })
                    v->mutable_type()->mutable_tensor_type()->mutable_shape()->add_dim()->set_dim_value(d);
            }
            auto* mm = g.add_node();
            mm->set_op_type("MatMul");
            mm->add_input("x");
            mm->add_input("w");
            mm->add_output("y");
            onnx::TensorProto w;
            w.set_name("w");
            w.set_data_type(onnx::TensorProto::FLOAT);
            w.add_dims(4096);
            w.add_dims(6144);
            const std::uint64_t raw = std::uint64_t(4096) * 6144 * 4;
            auto varint = [](std::uint64_t v) {
                std::string b;
                for (; v >= 0x80; v >>= 7)
                    b += char((v & 0x7f) | 0x80);
                return b + char(v);
            };
            const std::string tensorHead = w.SerializeAsString() + char(9 << 3 | 2) + varint(raw);
            const std::uint64_t tensorSize = tensorHead.size() + raw;
            const std::string graphHead = g.SerializeAsString() + char(5 << 3 | 2) + varint(tensorSize) + tensorHead;
            const std::uint64_t graphSize = graphHead.size() + raw;
            std::ofstream out(path, std::ios::binary);
            out << m.SerializeAsString() << char(7 << 3 | 2) << varint(graphSize) << graphHead;
            const std::string chunk(1 << 20, '\1');
            for (std::uint64_t done = 0; done < raw; done += chunk.size())
                out.write(chunk.data(), std::streamsize(chunk.size()));
            QVERIFY(out.good());
        }
        rusage before {}, after {};
        getrusage(RUSAGE_SELF, &before);
        const OnnxLoad load = loadOnnxModel(path);
        getrusage(RUSAGE_SELF, &after);
        QVERIFY2(load.model, load.error.c_str());
        QCOMPARE(load.model->parameters(), std::int64_t { 4096 } * 6144);
        const long grewKiB = after.ru_maxrss - before.ru_maxrss; // the peak, in KiB (Linux)
        QVERIFY2(grewKiB < 24 * 1024,
            qPrintable(QStringLiteral("peak memory grew by %1 KiB reading a 96 MiB model").arg(grewKiB)));
    }
};

QTEST_GUILESS_MAIN(TestOnnxWild)
#include "tst_onnx_wild.moc"
