// The roofline engine's ceilings per row: cache-aware bounds, tensor cores for convolutions only, the
// launch overhead per kernel, the optimizer row in training, memory against capacity; each worked by hand.
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

namespace {

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

class TestRooflineCeilings : public QObject {
    Q_OBJECT
private slots:
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
        const Network net
            = reluChain({ { 1, 8, 32, 32 }, { 1, 64, 56, 56 }, { 1, 64, 256, 256 }, { 1, 64, 512, 512 } });
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
        QVERIFY(reportConventions(rep.config, anyCacheAware(rep)).find("cache-aware") != std::string::npos);

        Config off;
        off.cacheAware = CacheAware::Off;
        const Report dram = analyze(net, off, { cacheCpu() });
        QVERIFY(!dram.results[0].cacheAware);
        for (int i = 0; i < 4; ++i) {
            QCOMPARE(dram.results[0].layers[size_t(i)].level, MemoryLevel::Dram);
            RFX_COMPARE_REL(dram.results[0].layers[size_t(i)].time, w[i] / 50e9, 1e-12);
        }
        QVERIFY(reportConventions(off, anyCacheAware(dram)).find("cache-aware") == std::string::npos);

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
};

QTEST_GUILESS_MAIN(TestRooflineCeilings)
#include "tst_roofline_ceilings.moc"
