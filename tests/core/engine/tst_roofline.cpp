// The roofline engine against hand-worked examples on a device with round numbers
// (10 TFLOP/s FP32, 100 GB/s: ridge 100 FLOP/byte) and against the shipped RTX 2060 Super.
#include "core/engine/roofline_nets.h"
#include "engine/roof_at.h"
#include "engine/roofline.h"
#include "io/report_writer.h"
#include "model/unet.h"
#include "open/analyses.h"
#include "testutils.h"

#include <cmath>

using namespace rfx;
using rfx::test::convRelu;
using rfx::test::roundDevice;

class TestRoofline : public QObject {
    Q_OBJECT
private slots:
    // The roof over a chart point, worked by hand. A: 10 TFLOP/s, 1 TB/s (ridge 10 FLOP/B);
    // B: 5 TFLOP/s, 0.5 TB/s (ridge 10). At 4 FLOP/B their roofs are 4 and 2 TFLOP/s (memory
    // slopes); at 40 FLOP/B, 10 and 5 (compute roofs).
    void roofOverAPoint()
    {
        DeviceResult a, b;
        a.ceiling.flops = 10e12, a.bandwidth = 1e12, a.ridge = 10;
        b.ceiling.flops = 5e12, b.bandwidth = 0.5e12, b.ridge = 10;
        const std::vector<const DeviceResult*> both { &a, &b };
        RoofAt at = roofAt(both, 4, 1e12); // under both: the lower roof, B's slope at 2 TFLOP/s
        QCOMPARE(at.device, 1);
        QCOMPARE(at.attainable, 2e12);
        QVERIFY(at.memorySlope);
        at = roofAt(both, 4, 3e12); // above B's 2, under A's 4
        QCOMPARE(at.device, 0);
        QCOMPARE(at.attainable, 4e12);
        at = roofAt(both, 40, 7e12); // above B's compute roof (5), under A's (10)
        QCOMPARE(at.device, 0);
        QVERIFY(!at.memorySlope);
        QCOMPARE(roofAt(both, 40, 11e12).device, -1); // above every roof
        // 2.05 TFLOP/s at 4 FLOP/B is 2.5 % over B's 2: on it with a 3 % tolerance, above it without.
        QCOMPARE(roofAt(both, 4, 2.05e12, 1.03).device, 1);
        QCOMPARE(roofAt(both, 4, 2.05e12).device, 0);
        QCOMPARE(roofAt({}, 4, 1).device, -1);
        at = roofAt(both, 4, 2.05e12, 1.03);
        QVERIFY(at.on); // above B's slope by less than the tolerance: on it, not under it
        QCOMPARE(at.roof, std::string("memory slope"));
        QVERIFY(!roofAt(both, 4, 1.95e12, 1.03).on);

        // With the cache levels drawn (cache-aware: A's L2 at 4 TB/s, L1 at 8 TB/s): at 1 FLOP/B the DRAM
        // slope allows 1 TFLOP/s, L2 4, L1 8; at 4 FLOP/B the L1 slope (32) is over the compute roof (10).
        a.cacheAware = true;
        a.l2Bandwidth = 4e12, a.l1Bandwidth = 8e12;
        const std::vector<const DeviceResult*> one { &a };
        QCOMPARE(roofAt(one, 1, 0.5e12).roof, std::string("DRAM slope"));
        at = roofAt(one, 1, 3e12);
        QCOMPARE(at.roof, std::string("L2 slope"));
        QCOMPARE(at.attainable, 4e12);
        QVERIFY(at.memorySlope);
        QCOMPARE(roofAt(one, 1, 6e12).roof, std::string("L1 slope"));
        QCOMPARE(roofAt(one, 1, 9e12).device, -1);
        QCOMPARE(roofAt(one, 4, 9e12).roof, std::string("compute roof"));
        // An elementwise ceiling of 2 TFLOP/s, drawn from 2 FLOP/B on: 1.5 TFLOP/s at 4 FLOP/B is under it.
        a.vectorCeiling.flops = 2e12;
        QCOMPARE(roofAt(one, 4, 1.5e12).roof, std::string("elementwise roof"));
        QCOMPARE(roofAt(one, 1, 0.5e12).roof, std::string("DRAM slope"));
    }

    // The status bar's totals name the work that is not in products whenever there is some (issue 38:
    // "+ ... other" came and went with the filters, at a 0.05 % threshold). A 5 x 5 convolution of 64
    // channels and its ReLU: 2 * 64 * 25 = 3200 FLOP per output against 1, 0.031 % other.
    void totalsLineKeepsTheOtherWork()
    {
        Network net = convRelu();
        net.input = { 1, 64, 60, 60 };
        net.layers[0].inShapes = { net.input };
        net.layers[0].kh = net.layers[0].kw = 5;
        const Report rep = analyze(net, Config {}, { roundDevice() });
        const std::string line = networkTotalsLine(rep);
        QVERIFY2(line.find("642 MFLOP = 321 MMAC in products + 201 kFLOP other") != std::string::npos, line.c_str());
    }

    // Precision as in the file: an fp16 convolution and an fp32 ReLU on a device whose FP16 rate is a
    // tenth of its FP32 one (as the MX230's, 1/64). The roof is FP16's (most matrix FLOPs); the ReLU runs
    // against FP32's 10 TFLOP/s, which DeviceResult::rowCeilings carries for the chart to draw and the
    // read-out to name (issue 38: fp32 rows sat above the only roof drawn).
    void rowsAtAnotherPrecisionHaveTheirRoof()
    {
        Network net = convRelu();
        net.layers[0].computeBits = 16;
        net.layers[1].computeBits = 32;
        Device dev = roundDevice(10e12, 100e9);
        dev.peak["fp16"] = 1e12;
        Config c;
        c.bitsAsInFile = true;
        const DeviceResult d = analyze(net, c, { dev }).results[0];
        QCOMPARE(d.ceiling.key, std::string("fp16"));
        QCOMPARE(d.layers[1].peak, 10e12);
        QCOMPARE(d.rowCeilings.size(), size_t(1));
        QCOMPARE(d.rowCeilings[0].key, std::string("fp32"));
        // The share of peak is of the rows' own ceilings together: never over 100 % (it said 147 %).
        // By hand (handWorked's counts): the conv's 231,211,008 FLOP at its FP16 roof of 1 TFLOP/s take
        // 231.211008 us (its 1,811,456 B at 100 GB/s, 18.1 us, are less); the ReLU's 200,704 FLOP at FP32's
        // 10 TFLOP/s would take 0.0200704 us, its 1,605,632 B take 16.05632 us. At the rows' own roofs
        // the FLOPs need 231.2310784 us of the 247.267328 us they take: 93.5146 %.
        QCOMPARE(d.layers[0].time, 231.211008e-6);
        QCOMPARE(d.layers[1].time, 16.05632e-6);
        RFX_COMPARE_REL(d.totals.peakShare, 231.2310784 / 247.267328, 1e-12);
        // A point at 1.5 TFLOP/s and 200 FLOP/B: above the FP16 roof (1), under FP32's (10).
        const RoofAt at = roofAt({ &d }, 200, 1.5e12);
        QCOMPARE(at.roof, std::string("FP32 roof"));
        QCOMPARE(at.attainable, 10e12);
        c.bitsAsInFile = false; // one precision: no other roof
        QVERIFY(analyze(net, c, { dev }).results[0].rowCeilings.empty());
    }

    // One unit per precision kind, in the chart's title as in the summary (issue 38: the int8 chart's
    // title said TFLOP/s where the summary said TOP/s).
    void integerCeilingsCountOperations()
    {
        Device dev = roundDevice();
        dev.peak["int8"] = 40e12;
        Config c;
        c.bits = 8;
        const std::string line = ceilingsLine(analyze(convRelu(), c, { dev }).results[0]);
        QVERIFY2(line.rfind("INT8 40.0 TOP/s, DRAM 100 GB/s", 0) == 0, line.c_str());
        QCOMPARE(std::string(rateUnit("tensor_int4")), std::string("OP/s"));
        QCOMPARE(std::string(rateUnit("tensor_fp16")), std::string("FLOP/s"));
    }

    void handWorked()
    {
        const Report rep = analyze(convRelu(), Config {}, { roundDevice() });
        QCOMPARE(rep.results.size(), size_t(1));
        const DeviceResult& d = rep.results[0];
        QCOMPARE(d.ridge, 100.0); // 10e12 / 100e9

        // conv: F = 2*64*56*56*64*9 = 231,211,008 FLOP
        //       Q = (64*58*58 + 64*64*9 + 64*56*56) * 4 = (215,296 + 36,864 + 200,704) * 4 = 1,811,456 B
        //       I = 127.64 > 100: compute-bound; t = F / 10e12 = 23.12 us
        const LayerResult& conv = d.layers[0];
        QCOMPARE(conv.flops, 231211008.0);
        QCOMPARE(conv.bytes, 1811456.0);
        RFX_COMPARE_REL(conv.intensity, 231211008.0 / 1811456.0, 1e-12);
        QCOMPARE(conv.bound, Bound::Compute);
        RFX_COMPARE_REL(conv.time, 231211008.0 / 10e12, 1e-12);
        QCOMPARE(conv.attainable, 10e12);

        // relu: F = 200,704; Q = 2 * 200,704 * 4 = 1,605,632 B; I = 0.125: memory-bound;
        //       t = Q / 100e9 = 16.06 us; attainable = 0.125 * 100e9 = 12.5 GFLOP/s
        const LayerResult& relu = d.layers[1];
        QCOMPARE(relu.bound, Bound::Memory);
        RFX_COMPARE_REL(relu.intensity, 0.125, 1e-12);
        RFX_COMPARE_REL(relu.time, 1605632.0 / 100e9, 1e-12);
        RFX_COMPARE_REL(relu.attainable, 12.5e9, 1e-12);

        const Totals& t = d.totals;
        RFX_COMPARE_REL(t.time, conv.time + relu.time, 1e-12);
        RFX_COMPARE_REL(t.throughput, 1 / t.time, 1e-12);
        RFX_COMPARE_REL(t.attained, (231211008.0 + 200704.0) / t.time, 1e-12);
        RFX_COMPARE_REL(t.peakShare, t.attained / 10e12, 1e-12);
        RFX_COMPARE_REL(conv.share + relu.share, 1.0, 1e-12);
        // 23.12 us of 39.18 us is compute-bound: 59 %
        QCOMPARE(d.verdict, std::string("compute-bound: 59 % of time in layers right of the ridge"));
    }

    void sixteenBitsHalveTrafficAndUseFp16Ceiling()
    {
        Device dev = roundDevice();
        dev.peak["fp16"] = 20e12;
        Config cfg;
        cfg.bits = 16;
        const Report rep = analyze(convRelu(), cfg, { dev });
        const DeviceResult& d = rep.results[0];
        QCOMPARE(d.ceiling.key, std::string("fp16"));
        QCOMPARE(d.layers[0].bytes, 1811456.0 / 2);
        QCOMPARE(d.ridge, 200.0);
        QVERIFY(rep.diagnostics.empty());
    }

    void missingCeilingFallsBackToFp32AndSaysSo()
    {
        Config cfg;
        cfg.bits = 8;
        const Report rep = analyze(convRelu(), cfg, { roundDevice() });
        QCOMPARE(rep.results[0].ceiling.key, std::string("fp32"));
        QCOMPARE(rep.results[0].ceiling.flops, 10e12);
        QCOMPARE(rep.diagnostics.size(), size_t(1));
        QCOMPARE(rep.diagnostics[0].severity, Severity::Warning);
        QVERIFY2(rep.diagnostics[0].message.find("no INT8 ceiling") != std::string::npos,
            rep.diagnostics[0].message.c_str());
    }

    void zeroFlopRowsHaveNoNaN()
    {
        BuildResult b = buildUNet(UNetParams {}, 1, false);
        const Report rep = analyze(*b.network, Config {}, { roundDevice() });
        for (const LayerResult& l : rep.results[0].layers) {
            QVERIFY(std::isfinite(l.intensity));
            QVERIFY(std::isfinite(l.time));
            QVERIFY(std::isfinite(l.share));
            if (l.op == Op::Concat) {
                QCOMPARE(l.intensity, 0.0);
                QCOMPARE(l.bound, Bound::Memory);
            }
        }
    }

    void classicUNetOnRtx2060Super()
    {
        const Device& dev = rfx::test::shippedDevice("rtx-2060-super");
        AnalysisOutcome out = analyzeConfig(Config {}, { dev });
        QVERIFY(out.report);
        const DeviceResult& d = out.report->results[0];
        QCOMPARE(d.ceiling.flops, 7.181e12);
        RFX_COMPARE_REL(d.ridge, 7.181e12 / 448e9, 1e-12);
        QCOMPARE(d.totals.params, std::int64_t(31'030'658));
        QCOMPARE(out.report->convolutions, 23);
        double time = 0, flops = 0;
        for (const LayerResult& l : d.layers) {
            time += l.time;
            flops += l.flops;
        }
        RFX_COMPARE_REL(d.totals.time, time, 1e-12);
        RFX_COMPARE_REL(d.totals.flops, flops, 1e-12);
        // The largest batch that fits, checked by building it: it fits, one more does not.
        const auto largest = d.totals.largestBatch;
        QVERIFY(largest > 1);
        Config cfg;
        cfg.batch = int(largest);
        QVERIFY(analyzeConfig(cfg, { dev }).report->results[0].totals.fits);
        cfg.batch = int(largest + 1);
        QVERIFY(!analyzeConfig(cfg, { dev }).report->results[0].totals.fits);
    }

    void classicUNetForwardFlopsByHand()
    {
        // Sum of 2 * Cout * Hout * Wout * Cin * 9 over the 18 3x3 convolutions, plus the four 2x2
        // up-convolutions 2 * Cin * Hin * Win * Cout * 4 and the 1x1 head, at batch 1 (shapes: Fig. 1).
        auto c3 = [](double cin, double cout, double out) { return 2 * cout * out * out * cin * 9; };
        auto up = [](double cin, double cout, double in) { return 2 * cin * in * in * cout * 4; };
        const double convs = c3(1, 64, 570) + c3(64, 64, 568) + c3(64, 128, 282) + c3(128, 128, 280) + c3(128, 256, 138)
            + c3(256, 256, 136) + c3(256, 512, 66) + c3(512, 512, 64) + c3(512, 1024, 30) + c3(1024, 1024, 28)
            + up(1024, 512, 28) + c3(1024, 512, 54) + c3(512, 512, 52) + up(512, 256, 52) + c3(512, 256, 102)
            + c3(256, 256, 100) + up(256, 128, 100) + c3(256, 128, 198) + c3(128, 128, 196) + up(128, 64, 196)
            + c3(128, 64, 390) + c3(64, 64, 388) + 2.0 * 2 * 388 * 388 * 64;
        BuildResult b = buildUNet(UNetParams {}, 1, false);
        double engine = 0;
        for (const Layer& l : b.network->layers) {
            if (l.op == Op::Conv || l.op == Op::ConvTranspose)
                engine += forwardFlops(l);
        }
        QCOMPARE(engine, convs);
    }

    void invalidConfigurationIsAnError()
    {
        Config cfg;
        cfg.bits = 12;
        AnalysisOutcome out = analyzeConfig(cfg, { roundDevice() });
        QVERIFY(!out.report);
        QCOMPARE(out.error, std::string("bits must be 8, 16, 32 or 64, got 12"));
        cfg = Config {};
        cfg.batch = 0;
        QCOMPARE(analyzeConfig(cfg, {}).error, std::string("batch must be between 1 and 65536, got 0"));
    }
};

QTEST_GUILESS_MAIN(TestRoofline)
#include "tst_roofline.moc"
