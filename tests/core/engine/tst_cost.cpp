// Every cost formula against a hand-worked example, written out here.
#include "engine/cost.h"
#include "testutils.h"

using namespace rfx;

namespace {

Layer conv(Shape in, int cout, int k, int stride = 1, int groups = 1)
{
    Layer l;
    l.name = "conv";
    l.op = Op::Conv;
    l.inputs = { -1 };
    l.inShapes = { in };
    l.kh = l.kw = k;
    l.stride = stride;
    l.groups = groups;
    l.out = Shape { in.n, cout, (in.h - k) / stride + 1, (in.w - k) / stride + 1 };
    return l;
}

Layer elementwise(Op op, Shape s, int input = -1)
{
    Layer l;
    l.name = "ew";
    l.op = op;
    l.inputs = { input };
    l.inShapes = { s };
    l.out = s;
    return l;
}

} // namespace

class TestCost : public QObject {
    Q_OBJECT
private slots:
    // The taps a padded convolution computes, worked by hand per extent: with k = 3, pad 1, stride 1
    // on 16 positions, tap 0 is outside at output 0, tap 2 at output 15, tap 1 never: 46 of 48, and
    // (46/48)^2 = 0.9184 for the 16 x 16 map. Stride 2, 7 in, 4 out: tap 0 is inside at outputs
    // 1..3, tap 1 at 0..3, tap 2 at 0..2: 10 of 12. Unpadded and non-convolution rows: 1.
    void usefulTapShareOfPaddedConvolutions()
    {
        Layer conv;
        conv.op = Op::Conv;
        conv.kh = conv.kw = 3;
        conv.padding = 1;
        conv.inShapes = { Shape { 1, 512, 16, 16 } };
        conv.out = Shape { 1, 512, 16, 16 };
        RFX_COMPARE_REL(usefulTapShare(conv), (46.0 / 48) * (46.0 / 48), 1e-12);
        conv.stride = 2;
        conv.inShapes = { Shape { 1, 8, 7, 7 } };
        conv.out = Shape { 1, 8, 4, 4 };
        RFX_COMPARE_REL(usefulTapShare(conv), (10.0 / 12) * (10.0 / 12), 1e-12);
        conv.padding = 0;
        conv.out = Shape { 1, 8, 3, 3 };
        QCOMPARE(usefulTapShare(conv), 1.0);
        Layer pool = conv;
        pool.op = Op::MaxPool;
        pool.padding = 1;
        QCOMPARE(usefulTapShare(pool), 1.0);
    }

    void convolution()
    {
        // N=2, Cin=3, 10x10 in, Cout=4, 3x3 valid, stride 1 -> 2x4x8x8.
        const Layer l = conv({ 2, 3, 10, 10 }, 4, 3);
        QCOMPARE(l.out, (Shape { 2, 4, 8, 8 }));
        // FLOPs = 2 * N * Cout * Hout * Wout * Cin * Kh * Kw = 2*2*4*8*8*3*3*3 = 27,648
        QCOMPARE(forwardFlops(l), 27648.0);
        // params = Cout * Cin * Kh * Kw = 4*3*9 = 108
        QCOMPARE(layerParams(l), std::int64_t(108));
        // bytes at 32 bit: (input 600 + weights 108 + output 512) * 4 = 4,880
        const LayerCost c = layerCost(l, 4.0);
        QCOMPARE(c.bytesForward, 4880.0);
        // at 16 bit the traffic halves, the FLOPs do not change
        const LayerCost h = layerCost(l, 2.0);
        QCOMPARE(h.bytesForward, 2440.0);
        QCOMPARE(h.flopsForward, 27648.0);
    }

    void depthwiseConvolution()
    {
        // groups = Cin = Cout = 3: each output channel sees one input channel.
        const Layer l = conv({ 1, 3, 10, 10 }, 3, 3, 1, 3);
        // 2 * 1 * 3 * 8 * 8 * (3/3) * 9 = 3,456;  params 3 * 1 * 9 = 27
        QCOMPARE(forwardFlops(l), 3456.0);
        QCOMPARE(layerParams(l), std::int64_t(27));
    }

    void stridedConvolution()
    {
        // 1x8x9x9, 3x3, stride 2 -> 4x4; Cout 16: 2*16*4*4*8*9 = 36,864
        const Layer l = conv({ 1, 8, 9, 9 }, 16, 3, 2);
        QCOMPARE(l.out, (Shape { 1, 16, 4, 4 }));
        QCOMPARE(forwardFlops(l), 36864.0);
    }

    void transposedConvolution()
    {
        // 1x8x4x4 in, Cout 4, kernel 2, stride 2 -> 1x4x8x8.
        Layer l;
        l.op = Op::ConvTranspose;
        l.inShapes = { { 1, 8, 4, 4 } };
        l.kh = l.kw = 2;
        l.stride = 2;
        l.out = { 1, 4, 8, 8 };
        // counted at input positions: 2 * N * Cin * Hin * Win * Cout * Kh * Kw = 2*8*16*4*4 = 4,096
        QCOMPARE(forwardFlops(l), 4096.0);
        // for kernel = stride this equals the output-position count 2 * N * Cout * Hout * Wout * Cin
        QCOMPARE(forwardFlops(l), 2.0 * 1 * 4 * 8 * 8 * 8);
        // params Cin * Cout * Kh * Kw = 8*4*4 = 128
        QCOMPARE(layerParams(l), std::int64_t(128));
    }

    void elementwiseRows()
    {
        const Shape s { 2, 4, 8, 8 }; // 512 elements
        QCOMPARE(forwardFlops(elementwise(Op::Bias, s)), 512.0);
        QCOMPARE(forwardFlops(elementwise(Op::ReLU, s)), 512.0);
        QCOMPARE(forwardFlops(elementwise(Op::BatchNorm, s)), 1024.0);
        QCOMPARE(layerParams(elementwise(Op::Bias, s)), std::int64_t(4));
        QCOMPARE(layerParams(elementwise(Op::BatchNorm, s)), std::int64_t(8));
        QCOMPARE(layerParams(elementwise(Op::ReLU, s)), std::int64_t(0));
        // ReLU at 32 bit: read 512 + write 512 elements = 4,096 bytes; intensity 1/8 FLOP/byte
        QCOMPARE(layerCost(elementwise(Op::ReLU, s), 4.0).bytesForward, 4096.0);
        // bias also reads its 4 parameters: (512 + 4 + 512) * 4 = 4,112
        QCOMPARE(layerCost(elementwise(Op::Bias, s), 4.0).bytesForward, 4112.0);
    }

    void maxPool()
    {
        Layer l;
        l.op = Op::MaxPool;
        l.inShapes = { { 1, 4, 8, 8 } };
        l.kh = l.kw = 2;
        l.stride = 2;
        l.out = { 1, 4, 4, 4 };
        // (k*k - 1) comparisons per output element: 3 * 64 = 192
        QCOMPARE(forwardFlops(l), 192.0);
        // (256 in + 64 out) * 4 bytes
        QCOMPARE(layerCost(l, 4.0).bytesForward, 1280.0);
    }

    void concat()
    {
        Layer l;
        l.op = Op::Concat;
        l.inShapes = { { 1, 2, 4, 4 }, { 1, 2, 4, 4 } };
        l.out = { 1, 4, 4, 4 };
        const LayerCost c = layerCost(l, 4.0);
        QCOMPARE(c.flopsForward, 0.0);
        // data movement only: (32 + 32 read, 64 written) * 4 = 512 bytes
        QCOMPARE(c.bytesForward, 512.0);
        // backward is a split: read 64, write 64
        QCOMPARE(c.bytesBackward, 512.0);
    }

    void fusedRowSumsItsParts()
    {
        Layer l = conv({ 2, 3, 10, 10 }, 4, 3);
        l.epilogue = { Op::Bias, Op::ReLU };
        // 27,648 + 512 (bias) + 512 (ReLU) FLOPs; 108 + 4 params
        QCOMPARE(forwardFlops(l), 28672.0);
        QCOMPARE(layerParams(l), std::int64_t(112));
        // the intermediate tensors never reach DRAM: (600 + 112 + 512) * 4
        QCOMPARE(layerCost(l, 4.0).bytesForward, 4896.0);
    }

    void backward()
    {
        const Layer c = conv({ 2, 3, 10, 10 }, 4, 3);
        const LayerCost cc = layerCost(c, 4.0);
        // data gradient + weight gradient, each as many FLOPs as the forward pass
        QCOMPARE(cc.flopsBackward, 2 * 27648.0);
        QCOMPARE(cc.bytesBackward, 2 * 4880.0);
        QCOMPARE(cc.kernelsBackward, 2);
        // ReLU backward: 512 FLOPs; grad_out 512 + saved input 512 + grad_in 512 elements = 6,144 bytes
        const LayerCost r = layerCost(elementwise(Op::ReLU, { 2, 4, 8, 8 }), 4.0);
        QCOMPARE(r.flopsBackward, 512.0);
        QCOMPARE(r.bytesBackward, 6144.0);
    }

    void optimizers()
    {
        QCOMPARE(optimizerCostPerParam(Optimizer::Sgd).flops, 2.0);
        QCOMPARE(optimizerCostPerParam(Optimizer::Sgd).elements, 3.0);
        QCOMPARE(optimizerCostPerParam(Optimizer::Momentum).flops, 4.0);
        QCOMPARE(optimizerCostPerParam(Optimizer::Momentum).elements, 5.0);
        QCOMPARE(optimizerCostPerParam(Optimizer::Adam).flops, 12.0);
        QCOMPARE(optimizerCostPerParam(Optimizer::Adam).elements, 7.0);
        QCOMPARE(optimizerCostPerParam(Optimizer::Adam).stateCopies, 2);
    }

    void inferenceFootprintIsPeakLiveSet()
    {
        // input (300 elements) -> conv A (200) -> relu B (200) -> conv C (50)
        Network net;
        net.input = { 1, 3, 10, 10 };
        Layer a = conv({ 1, 3, 10, 10 }, 2, 1); // 1x1 conv: 2x10x10 = 200, params 6
        Layer b = elementwise(Op::ReLU, a.out, 0);
        Layer c = conv(a.out, 2, 6); // 2x5x5 = 50, params 144
        c.inputs = { 1 };
        net.layers = { a, b, c };
        Config cfg;
        const MemoryFootprint m = memoryFootprint(net, cfg);
        // live: row A: input 300 + A 200 = 500; row B: A 200 + B 200 = 400; row C: B 200 + C 50 = 250.
        QCOMPARE(m.activations, 500.0 * 4);
        QCOMPARE(m.weights, 150.0 * 4);
        QCOMPARE(m.gradients, 0.0);
        QCOMPARE(m.total(), 650.0 * 4);
    }

    void skipConnectionStaysLive()
    {
        // input -> A (100) -> B (10) -> C (10) -> concat(A, C) ; A is live through C.
        Network net;
        net.input = { 1, 1, 10, 10 };
        Layer a = elementwise(Op::ReLU, { 1, 1, 10, 10 }, -1);
        Layer b = elementwise(Op::ReLU, { 1, 1, 10, 10 }, 0);
        b.out = { 1, 1, 1, 10 };
        Layer c = elementwise(Op::ReLU, b.out, 1);
        Layer cat;
        cat.op = Op::Concat;
        cat.inputs = { 0, 2 };
        cat.inShapes = { a.out, c.out };
        cat.out = { 1, 2, 10, 10 };
        net.layers = { a, b, c, cat };
        const MemoryFootprint m = memoryFootprint(net, Config {});
        // concat row: A 100 + C 10 + concat 200 = 310 live (the largest)
        QCOMPARE(m.activations, 310.0 * 4);
    }

    void trainingFootprint()
    {
        Network net;
        net.input = { 1, 3, 10, 10 };
        Layer a = conv({ 1, 3, 10, 10 }, 2, 1); // 200 out, 6 params
        Layer b = elementwise(Op::ReLU, a.out, 0); // 200 out
        net.layers = { a, b };
        Config cfg;
        cfg.mode = Mode::Training;
        cfg.optimizer = Optimizer::Adam;
        const MemoryFootprint m = memoryFootprint(net, cfg);
        QCOMPARE(m.weights, 6.0 * 4);
        QCOMPARE(m.gradients, 6.0 * 4);
        QCOMPARE(m.optimizerState, 12.0 * 4); // Adam keeps two moments
        // saved: input 300 + 200 + 200; in flight: the largest out + in = 200 + 300
        QCOMPARE(m.activations, (700.0 + 500.0) * 4);
    }

    void largestBatch()
    {
        MemoryFootprint m;
        m.weights = 1000;
        m.activations = 300; // at batch 3: 100 bytes per image
        QCOMPARE(largestBatchThatFits(m, 3, 1550), std::int64_t(5)); // floor(550 / 100)
        QCOMPARE(largestBatchThatFits(m, 3, 1099), std::int64_t(0)); // not even one image
        QCOMPARE(largestBatchThatFits(m, 3, 1100), std::int64_t(1));
    }
};

QTEST_GUILESS_MAIN(TestCost)
#include "tst_cost.moc"
