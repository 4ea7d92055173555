// The roofline engine against hand-worked examples on a device with round numbers
// (10 TFLOP/s FP32, 100 GB/s: ridge 100 FLOP/byte) and against the shipped RTX 2060 Super.
#include "engine/roof_at.h"
#include "engine/roofline.h"
#include "io/report_writer.h"
#include "model/unet.h"
#include "testutils.h"

#include <cmath>

using namespace rfx;
using rfx::test::roundDevice;

namespace {

// One 3x3 convolution 1x64x58x58 -> 1x64x56x56 followed by a ReLU.
Network convRelu()
{
    Network net;
    net.name = "test";
    net.input = { 1, 64, 58, 58 };
    Layer c;
    c.name = "conv";
    c.op = Op::Conv;
    c.inputs = { -1 };
    c.inShapes = { net.input };
    c.kh = c.kw = 3;
    c.out = { 1, 64, 56, 56 };
    Layer r;
    r.name = "relu";
    r.op = Op::ReLU;
    r.inputs = { 0 };
    r.inShapes = { c.out };
    r.out = c.out;
    net.layers = { c, r };
    return net;
}

// ReLU rows of the given shapes, one after the other.
Network reluChain(const std::vector<Shape>& shapes)
{
    Network net;
    net.name = "relus";
    net.input = shapes.front();
    for (size_t i = 0; i < shapes.size(); ++i) {
        Layer r;
        r.name = "relu" + std::to_string(i + 1);
        r.op = Op::ReLU;
        r.inputs = { i == 0 ? -1 : int(i - 1) };
        r.inShapes = { shapes[i] };
        r.out = shapes[i];
        net.layers.push_back(r);
    }
    return net;
}

// A two-core CPU with every cache level in its file: L1 48 KiB a core (96 KiB in all) at 800 GB/s,
// L2 2 MiB at 300 GB/s, L3 32 MiB at 150 GB/s, DRAM 50 GB/s, FP32 400 GFLOP/s.
Device cacheCpu()
{
    Device d = roundDevice(400e9, 50e9);
    d.kind = "cpu";
    d.cores = 2;
    d.l1Bytes = 48 * 1024.0;
    d.l2Bytes = 2 * 1024.0 * 1024;
    d.l3Bytes = 32 * 1024.0 * 1024;
    d.l1Bandwidth = 800e9;
    d.l2Bandwidth = 300e9;
    d.l3Bandwidth = 150e9;
    return d;
}

} // namespace

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

    // The cache-aware rule by hand. A ReLU reads and writes its tensor: W = Q = 2 x elements x 4 B.
    //   relu1 1x8x32x32:    W = 2 x 8,192 x 4      =      65,536 B <= 96 KiB (L1 x 2 cores): L1,
    //                       t = 65,536 / 800e9     =  81.92 ns
    //   relu2 1x64x56x56:   W = 2 x 200,704 x 4    =   1,605,632 B <= 2 MiB: L2; the L1 holds 98,304 B
    //                       of it: t = 98,304 / 800e9 + 1,507,328 / 300e9 = 122.88 ns + 5.024427 us
    //                       = 5.147307 us
    //   relu3 1x64x256x256: W = 2 x 4,194,304 x 4  =  33,554,432 B  = 32 MiB exactly: L3 (the limit
    //                       counts as fitting); the L2 holds 2 MiB: t = 2,097,152 / 300e9 +
    //                       31,457,280 / 150e9 = 6.990507 us + 209.7152 us = 216.7057 us
    //   relu4 1x64x512x512: W = 134,217,728 B > 32 MiB: DRAM; the L3 holds 32 MiB: t = 33,554,432 /
    //                       150e9 + 100,663,296 / 50e9 = 223.6962 us + 2.013266 ms = 2.236962 ms
    // Without the rule (off) every row takes W / 50e9.
    void cacheAwareBounds()
    {
        const Network net = reluChain({ { 1, 8, 32, 32 }, { 1, 64, 56, 56 }, { 1, 64, 256, 256 }, { 1, 64, 512, 512 } });
        const Report rep = analyze(net, Config {}, { cacheCpu() });
        const DeviceResult& d = rep.results[0];
        QVERIFY(d.cacheAware); // auto: a CPU with cache bandwidths
        QCOMPARE(d.l1Capacity, 98304.0);
        const double w[] = { 65536, 1605632, 33554432, 134217728 };
        const MemoryLevel level[] = { MemoryLevel::L1, MemoryLevel::L2, MemoryLevel::L3, MemoryLevel::Dram };
        const double bw[] = { 800e9, 300e9, 150e9, 50e9 };
        const double t[] = { 81.92e-9, 5.147307e-6, 216.7057e-6, 2.236962e-3 };
        for (int i = 0; i < 4; ++i) {
            const LayerResult& l = d.layers[size_t(i)];
            QCOMPARE(l.workingSet, w[i]);
            QCOMPARE(l.bytes, w[i]);
            QCOMPARE(l.bound, Bound::Memory);
            QCOMPARE(l.level, level[i]);
            RFX_COMPARE_REL(l.time, t[i], 1e-6);
            RFX_COMPARE_REL(l.attainable, l.flops / l.time, 1e-12);
            QCOMPARE(levelBandwidth(d, l.level), bw[i]);
        }
        QCOMPARE(boundLabel(d.layers[2]), std::string("L3"));
        QCOMPARE(boundLabel(d.layers[3]), std::string("memory"));
        QVERIFY(conventionsText(rep.config, anyCacheAware(rep)).find("cache-aware") != std::string::npos);

        Config off;
        off.cacheAware = CacheAware::Off;
        const Report dram = analyze(net, off, { cacheCpu() });
        QVERIFY(!dram.results[0].cacheAware);
        for (int i = 0; i < 4; ++i) {
            QCOMPARE(dram.results[0].layers[size_t(i)].level, MemoryLevel::Dram);
            RFX_COMPARE_REL(dram.results[0].layers[size_t(i)].time, w[i] / 50e9, 1e-12);
        }
        QVERIFY(conventionsText(off, anyCacheAware(dram)).find("cache-aware") == std::string::npos);

        // A GPU with the same figures: auto leaves it on DRAM; on uses L2 and L3 but not L1 (a GPU file's
        // "cores" are not its SMs, so L1 x cores would be no capacity at all).
        Device gpu = cacheCpu();
        gpu.kind = "gpu";
        QVERIFY(!analyze(net, Config {}, { gpu }).results[0].cacheAware);
        Config on;
        on.cacheAware = CacheAware::On;
        const DeviceResult g = analyze(net, on, { gpu }).results[0];
        QVERIFY(g.cacheAware);
        QCOMPARE(g.l1Capacity, 0.0);
        QCOMPARE(g.layers[0].level, MemoryLevel::L2);
        QCOMPARE(g.layers[2].level, MemoryLevel::L3);
        // The tiled model keeps its own hierarchy; a CPU file without cache bandwidths stays on DRAM.
        Config tiled;
        tiled.traffic = TrafficModel::Tiled;
        QVERIFY(!analyze(net, tiled, { cacheCpu() }).results[0].cacheAware);
        QVERIFY(!analyze(net, Config {}, { roundDevice() }).results[0].cacheAware);
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
        QVERIFY2(rep.diagnostics[0].message.find("no INT8 ceiling") != std::string::npos, rep.diagnostics[0].message.c_str());
    }

    void tensorCoresOnlyForConvolutions()
    {
        Device dev = roundDevice();
        dev.peak["tensor_tf32"] = 80e12;
        Config cfg;
        cfg.tensorCores = true;
        const Report rep = analyze(convRelu(), cfg, { dev });
        const DeviceResult& d = rep.results[0];
        QCOMPARE(d.ceiling.key, std::string("tensor_tf32"));
        QCOMPARE(d.layers[0].peak, 80e12);
        QCOMPARE(d.layers[1].peak, 10e12); // ReLU runs on the vector units
        QCOMPARE(d.ridge, 800.0);
        QCOMPARE(d.layers[0].bound, Bound::Memory); // 127.6 < 800 now
    }

    void launchOverheadPerKernel()
    {
        Device dev = roundDevice();
        dev.launchOverhead = 5e-6;
        Config cfg;
        cfg.mode = Mode::Training;
        const Report rep = analyze(convRelu(), cfg, { dev });
        const LayerResult& conv = rep.results[0].layers[0];
        QCOMPARE(conv.kernels, 3); // forward, data gradient, weight gradient
        // training conv: F = 3 * 231,211,008; Q = 3 * 1,811,456 -> compute-bound
        RFX_COMPARE_REL(conv.time, 3 * 231211008.0 / 10e12 + 3 * 5e-6, 1e-12);
    }

    void trainingAddsOptimizerRow()
    {
        Config cfg;
        cfg.mode = Mode::Training;
        cfg.optimizer = Optimizer::Momentum;
        const Report rep = analyze(convRelu(), cfg, { roundDevice() });
        const auto& rows = rep.results[0].layers;
        QCOMPARE(rows.size(), size_t(3));
        QCOMPARE(rows.back().op, Op::Optimizer);
        // 36,864 params: 4 FLOP and 5 elements of 4 bytes each per parameter
        QCOMPARE(rows.back().flops, 4.0 * 36864);
        QCOMPARE(rows.back().bytes, 20.0 * 36864);
        QCOMPARE(rows.back().bound, Bound::Memory);
    }

    void memoryAgainstCapacity()
    {
        Device tiny = roundDevice();
        tiny.memoryBytes = 1e6;
        const Report rep = analyze(convRelu(), Config {}, { tiny });
        const Totals& t = rep.results[0].totals;
        // weights 36,864 * 4 = 147,456 B; peak live: conv row 215,296 + 200,704 = 416,000 elements
        QCOMPARE(t.memory.weights, 147456.0);
        QCOMPARE(t.memory.activations, 416000.0 * 4);
        QVERIFY(!t.fits);
        QCOMPARE(t.largestBatch, std::int64_t(0));
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
        const double convs = c3(1, 64, 570) + c3(64, 64, 568) + c3(64, 128, 282) + c3(128, 128, 280)
            + c3(128, 256, 138) + c3(256, 256, 136) + c3(256, 512, 66) + c3(512, 512, 64) + c3(512, 1024, 30)
            + c3(1024, 1024, 28) + up(1024, 512, 28) + c3(1024, 512, 54) + c3(512, 512, 52) + up(512, 256, 52)
            + c3(512, 256, 102) + c3(256, 256, 100) + up(256, 128, 100) + c3(256, 128, 198) + c3(128, 128, 196)
            + up(128, 64, 196) + c3(128, 64, 390) + c3(64, 64, 388) + 2.0 * 2 * 388 * 388 * 64;
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
