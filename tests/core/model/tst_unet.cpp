// The U-Net builder against independent values: the published parameter count of the classic
// network (31,030,658 for 1 input channel and 2 classes, Ronneberger et al. 2015 as Keras'
// model summary reports it), the paper's shapes (572 -> 388), and hand-counted variants.
#include "engine/cost.h"
#include "model/unet.h"
#include "testutils.h"

#include <numeric>

using namespace rfx;
using rfx::test::layerNamed;

namespace {

std::int64_t totalParams(const Network& net)
{
    return std::accumulate(net.layers.begin(), net.layers.end(), std::int64_t { 0 },
        [](std::int64_t s, const Layer& l) { return s + layerParams(l); });
}

int convolutions(const Network& net)
{
    return int(std::count_if(net.layers.begin(), net.layers.end(),
        [](const Layer& l) { return l.op == Op::Conv || l.op == Op::ConvTranspose; }));
}

int countOp(const Network& net, Op op)
{
    return int(std::count_if(net.layers.begin(), net.layers.end(), [&](const Layer& l) { return l.op == op; }));
}

Network build(const UNetParams& p, int batch = 1, bool fusion = false)
{
    BuildResult r = buildUNet(p, batch, fusion);
    if (!r.network)
        qFatal("build failed: %s", r.error.c_str());
    return *r.network;
}

} // namespace

class TestUNet : public QObject {
    Q_OBJECT
private slots:
    void classicNetwork()
    {
        const Network net = build(UNetParams {});
        QCOMPARE(totalParams(net), std::int64_t(31'030'658));
        QCOMPARE(convolutions(net), 23);
        QCOMPARE(net.input, (Shape { 1, 1, 572, 572 }));
        QCOMPARE(net.output(), (Shape { 1, 2, 388, 388 }));
        QCOMPARE(countOp(net, Op::MaxPool), 4);
        QCOMPARE(countOp(net, Op::ConvTranspose), 4);
        QCOMPARE(countOp(net, Op::Concat), 4);
        QCOMPARE(countOp(net, Op::ReLU), 18);
        QCOMPARE(countOp(net, Op::Bias), 23);
        QCOMPARE(countOp(net, Op::BatchNorm), 0);
    }

    // Shapes from Fig. 1 of the paper.
    void classicShapes_data()
    {
        QTest::addColumn<QString>("layer");
        QTest::addColumn<int>("channels");
        QTest::addColumn<int>("extent");
        QTest::newRow("enc1.conv1") << "enc1.conv1" << 64 << 570;
        QTest::newRow("enc1.conv2") << "enc1.conv2" << 64 << 568;
        QTest::newRow("enc1.pool") << "enc1.pool" << 64 << 284;
        QTest::newRow("enc2.conv2") << "enc2.conv2" << 128 << 280;
        QTest::newRow("enc3.conv2") << "enc3.conv2" << 256 << 136;
        QTest::newRow("enc4.conv2") << "enc4.conv2" << 512 << 64;
        QTest::newRow("enc4.pool") << "enc4.pool" << 512 << 32;
        QTest::newRow("bottom.conv2") << "bottom.conv2" << 1024 << 28;
        QTest::newRow("dec4.up") << "dec4.up" << 512 << 56;
        QTest::newRow("dec4.concat") << "dec4.concat" << 1024 << 56;
        QTest::newRow("dec4.conv2") << "dec4.conv2" << 512 << 52;
        QTest::newRow("dec3.conv2") << "dec3.conv2" << 256 << 100;
        QTest::newRow("dec2.conv2") << "dec2.conv2" << 128 << 196;
        QTest::newRow("dec1.up") << "dec1.up" << 64 << 392;
        QTest::newRow("dec1.conv2") << "dec1.conv2" << 64 << 388;
        QTest::newRow("head.conv") << "head.conv" << 2 << 388;
    }
    void classicShapes()
    {
        QFETCH(QString, layer);
        QFETCH(int, channels);
        QFETCH(int, extent);
        const Network net = build(UNetParams {});
        const Layer& l = layerNamed(net, layer.toStdString());
        QCOMPARE(l.out.c, channels);
        QCOMPARE(l.out.h, extent);
        QCOMPARE(l.out.w, extent);
    }

    void cropReadsOnlyTheCrop()
    {
        const Network net = build(UNetParams {});
        const Layer& cat = layerNamed(net, "dec4.concat");
        // enc4.conv2 is 512x64x64; the up-convolution gives 512x56x56; the crop reads 512x56x56.
        QCOMPARE(cat.inShapes.size(), size_t(2));
        QCOMPARE(cat.inShapes[0], (Shape { 1, 512, 56, 56 }));
        QCOMPARE(cat.inShapes[1], (Shape { 1, 512, 56, 56 }));
    }

    void layerParamsByHand()
    {
        const Network net = build(UNetParams {});
        QCOMPARE(layerParams(layerNamed(net, "enc1.conv1")), std::int64_t(64 * 1 * 3 * 3));
        QCOMPARE(layerParams(layerNamed(net, "enc1.conv1.bias")), std::int64_t(64));
        QCOMPARE(layerParams(layerNamed(net, "bottom.conv2")), std::int64_t(1024 * 1024 * 9));
        QCOMPARE(layerParams(layerNamed(net, "dec4.up")), std::int64_t(1024 * 512 * 2 * 2));
        QCOMPARE(layerParams(layerNamed(net, "head.conv")), std::int64_t(64 * 2));
        QCOMPARE(layerParams(layerNamed(net, "head.conv.bias")), std::int64_t(2));
    }

    void batchScalesShapesNotParams()
    {
        const Network net = build(UNetParams {}, 16);
        QCOMPARE(net.output(), (Shape { 16, 2, 388, 388 }));
        QCOMPARE(totalParams(net), std::int64_t(31'030'658));
    }

    void impossibleSizeSuggestsNearest()
    {
        UNetParams p;
        p.height = p.width = 580;
        BuildResult r = buildUNet(p, 1, false);
        QVERIFY(!r.network);
        QVERIFY2(r.error.find("580") != std::string::npos, r.error.c_str());
        QVERIFY2(r.error.find("572 and 588") != std::string::npos, r.error.c_str());
        QVERIFY2(r.error.find("valid padding") != std::string::npos, r.error.c_str());
    }

    void widthCheckedSeparately()
    {
        UNetParams p;
        p.width = 590;
        BuildResult r = buildUNet(p, 1, false);
        QVERIFY(!r.network);
        QVERIFY2(r.error.find("image width 590") != std::string::npos, r.error.c_str());
        QVERIFY2(r.error.find("588 and 604") != std::string::npos, r.error.c_str());
    }

    void validExtentsAreEvery16()
    {
        // Valid padding, depth 4, stride 2: the input extent works iff (extent - 124) % 16 == 0
        // (Ronneberger's 572 = 16 * 28 + 124) and the output, extent - 184, is at least 1 pixel.
        for (int s = 100; s <= 700; ++s) {
            auto out = unetOutputExtent(s, UNetParams {});
            const bool expected = (s - 124) % 16 == 0 && s - 184 >= 1;
            QCOMPARE(out.has_value(), expected);
            if (out)
                QCOMPARE(*out, s - 184);
        }
    }

    // The one rule for a dragged size (issue 37: it was written in the panel and again in the window): the
    // classic U-Net works at 556, 572, 588 (every 16 from 124). 570 from 572: 572 is nearer (2 against 14),
    // but it is where the drag came from, so the drag goes on down to 556; 565 from 560: 572 (7 against 9);
    // 564, as near to both: the lower, or the upper when the drag comes up from 556; a size that works stays.
    // The offers for a failing height: 556 and 572 for 570; for a failing width the width's.
    void snappedAndSuggestedExtents()
    {
        const UNetParams u;
        QCOMPARE(snappedExtent(570, 572, u), 556);
        QCOMPARE(snappedExtent(565, 560, u), 572);
        QCOMPARE(snappedExtent(564, 572, u), 556);
        QCOMPARE(snappedExtent(564, 556, u), 572);
        QCOMPARE(snappedExtent(588, 570, u), 588);
        UNetParams bad;
        bad.height = 570;
        QCOMPARE(suggestedExtents(bad), (std::vector<int> { 556, 572 }));
        bad.height = 572;
        bad.width = 590;
        QCOMPARE(suggestedExtents(bad), (std::vector<int> { 588, 604 }));
    }

    void samePadding()
    {
        UNetParams p;
        p.padding = Padding::Same;
        p.height = p.width = 128;
        const Network net = build(p);
        QCOMPARE(net.output(), (Shape { 1, 2, 128, 128 }));
        QCOMPARE(totalParams(net), std::int64_t(31'030'658));
        p.height = p.width = 129;
        BuildResult r = buildUNet(p, 1, false);
        QVERIFY(!r.network);
        QVERIFY2(r.error.find("128 and 144") != std::string::npos, r.error.c_str());
    }

    void batchNormReplacesBias()
    {
        UNetParams p;
        p.batchNorm = true;
        const Network net = build(p);
        // The 18 3x3 convolutions have 2*(64+128+256+512+1024) + 2*(512+256+128+64) = 5888 output
        // channels in all; BN drops their bias (C) and adds scale and shift (2C): +5888.
        QCOMPARE(totalParams(net), std::int64_t(31'030'658 + 5888));
        QCOMPARE(countOp(net, Op::BatchNorm), 18);
        QCOMPARE(countOp(net, Op::Bias), 5); // 4 up-convolutions and the head keep theirs
    }

    void separableSmallByHand()
    {
        // depth 1, 4 filters, 1 input channel, 2 classes, same padding, 8x8.
        UNetParams p;
        p.depth = 1;
        p.baseFilters = 4;
        p.padding = Padding::Same;
        p.height = p.width = 8;
        // Standard: enc 1->4: 36+4; 4->4: 144+4; bottom 4->8: 288+8; 8->8: 576+8;
        // up 8->4 (2x2): 128+4; dec 8->4: 288+4; 4->4: 144+4; head 4->2: 8+2.  Sum 1650.
        QCOMPARE(totalParams(build(p)), std::int64_t(1650));
        // Separable (depthwise 3x3 + pointwise 1x1 + bias): enc 9+4+4, 36+16+4; bottom 36+32+8,
        // 72+64+8; up 128+4; dec 72+32+4, 36+16+4; head 8+2.  Sum 599.
        p.conv = ConvType::Separable;
        const Network net = build(p);
        QCOMPARE(totalParams(net), std::int64_t(599));
        const Layer& dw = layerNamed(net, "enc1.conv2.dw");
        QCOMPARE(dw.groups, 4);
        QCOMPARE(layerParams(dw), std::int64_t(36));
        QCOMPARE(net.output(), (Shape { 1, 2, 8, 8 }));
    }

    void stridedDownsampling()
    {
        UNetParams p;
        p.padding = Padding::Same;
        p.downsample = Downsample::Strided;
        p.height = p.width = 128;
        const Network net = build(p);
        QCOMPARE(countOp(net, Op::MaxPool), 0);
        QCOMPARE(layerNamed(net, "enc2.conv1").stride, 2);
        QCOMPARE(layerNamed(net, "enc2.conv1").out.h, 64);
        QCOMPARE(layerNamed(net, "bottom.conv1").out.h, 8);
        QCOMPARE(net.output(), (Shape { 1, 2, 128, 128 }));
        QCOMPARE(totalParams(net), std::int64_t(31'030'658)); // the same weights, only strided
    }

    void stridedValidRefusesOddMaps()
    {
        UNetParams p;
        p.downsample = Downsample::Strided;
        BuildResult r = buildUNet(p, 1, false);
        // enc1 ends at 568; (568 - 3) is odd, so a 3x3 stride-2 valid convolution does not tile it.
        QVERIFY(!r.network);
        QVERIFY2(r.error.find("enc2.conv1") != std::string::npos, r.error.c_str());
        QVERIFY2(r.error.find("nearest") != std::string::npos, r.error.c_str());
    }

    void strideThree()
    {
        UNetParams p;
        p.stride = 3;
        p.padding = Padding::Same;
        p.height = p.width = 162; // 2 * 3^4
        const Network net = build(p);
        QCOMPARE(layerNamed(net, "enc1.pool").out.h, 54);
        QCOMPARE(layerNamed(net, "enc1.pool").kh, 3);
        QCOMPARE(layerParams(layerNamed(net, "dec4.up")), std::int64_t(1024 * 512 * 3 * 3));
        QCOMPARE(net.output().h, 162);
    }

    void fusionMergesElementwiseRows()
    {
        const Network plain = build(UNetParams {});
        const Network fused = build(UNetParams {}, 1, true);
        QCOMPARE(totalParams(fused), totalParams(plain));
        QCOMPARE(countOp(fused, Op::ReLU), 0);
        QCOMPARE(countOp(fused, Op::Bias), 0);
        QCOMPARE(int(fused.layers.size()), int(plain.layers.size()) - 18 - 23);
        const Layer& l = layerNamed(fused, "enc1.conv1+bias+relu");
        QCOMPARE(l.epilogue.size(), size_t(2));
        double fusedFlops = 0, plainFlops = 0;
        for (const Layer& x : fused.layers)
            fusedFlops += forwardFlops(x);
        for (const Layer& x : plain.layers)
            plainFlops += forwardFlops(x);
        QCOMPARE(fusedFlops, plainFlops);
    }

    void tooSmallEverywhere()
    {
        UNetParams p;
        p.depth = 8;
        p.stride = 8;
        BuildResult r = buildUNet(p, 1, false);
        QVERIFY(!r.network);
        QVERIFY2(r.error.find("no height up to 16384 works") != std::string::npos, r.error.c_str());
    }
};

QTEST_GUILESS_MAIN(TestUNet)
#include "tst_unet.moc"
