// Convolution algorithms and traffic models, each against a hand-worked example.
#include "engine/algorithms.h"
#include "engine/roofline.h"
#include "engine/sweep.h"
#include "io/options.h"
#include "model/unet.h"
#include "open/analyses.h"
#include "testutils.h"

#include <cmath>

using namespace rfx;

namespace {

// A 3x3 stride-1 convolution: N = 1, Cin = 2, Cout = 4, 6x6 in, unpadded: 4x4 out.
Layer smallConv()
{
    Layer l;
    l.name = "c";
    l.op = Op::Conv;
    l.kh = l.kw = 3;
    l.inputs = { -1 };
    l.inShapes = { Shape { 1, 2, 6, 6 } };
    l.out = Shape { 1, 4, 4, 4 };
    return l;
}

} // namespace

class TestAlgorithms : public QObject {
    Q_OBJECT

private slots:
    // Lavin & Gray 2016, section 5: F(2x2,3x3) "the data transform uses 32 additions" and "the
    // inverse transform uses 24 additions" per tile. Counted from the matrices by hand:
    //   B^T rows have 2 non-zeros (+-1): 1 addition per output; 4 outputs x (4 columns + 4 rows) = 32.
    //   A^T rows have 3 non-zeros (+-1): 2 additions; 2 outputs x 2 = 4 per vector; (4 + 2) x 4 = 24.
    //   G rows [1 0 0], [.5 .5 .5], [.5 -.5 .5], [0 0 1]: 0 + 5 + 5 + 0 = 10; (3 + 4) x 10 = 70.
    // F(4x4,3x3): B^T rows cost 4, 5, 5, 5, 5, 4 (additions and the 4, 5, 2 scalings) = 28; x 12 = 336.
    //   A^T rows 4, 5, 5, 6 = 20; x (6 + 4) = 200. G rows 1, 5, 5, 5, 5, 0 = 21; x (3 + 6) = 189.
    void winogradTransformCounts()
    {
        const WinogradTransformOps f2 = winogradTransformOps(2);
        QCOMPARE(f2.input, 32);
        QCOMPARE(f2.output, 24);
        QCOMPARE(f2.kernel, 70);
        const WinogradTransformOps f4 = winogradTransformOps(4);
        QCOMPARE(f4.input, 336);
        QCOMPARE(f4.output, 200);
        QCOMPARE(f4.kernel, 189);
    }

    // Direct: 2 * 1 * 4 * 4 * 4 * 2 * 3 * 3 = 2,304 FLOPs (1,152 MACs); no workspace.
    // im2col: L = 1 * 4 * 4 * 2 * 3 * 3 = 288 elements, written and read: 576 extra; same FLOPs.
    // Winograd F(2x2,3x3): tiles 1 * 2 * 2 = 4, alpha^2 = 16; products 4 * 2 * 4 * 16 = 512 MACs = 1,024
    //   FLOPs; transforms 4 * 2 * 32 + 4 * 4 * 24 + 2 * 4 * 70 = 256 + 384 + 560; total 2,224.
    //   Workspace 16 * (2*4 + 4*2 + 4*4) = 512 elements; extra traffic 1,024.
    // FFT: padded extent 6 is smooth: 6x6 grid (36), spectrum 6 * (3 + 1) = 24 complex values;
    //   transforms 1*2 + 4*2 + 1*4 = 14 of 2.5 * 36 * log2(36) FLOPs; products 1*4*2*24 = 192 complex
    //   MACs of 8 FLOPs: 14 * 90 * log2(36) + 1,536 = 8,050.1 FLOPs. Workspace 2 * 24 * 14 = 672.
    void algorithmsByHand()
    {
        const Layer l = smallConv();
        const AlgorithmCost direct = convolutionCost(l, ConvAlgorithm::Direct);
        QCOMPARE(direct.flops, 2304.0);
        QCOMPARE(direct.gemmMacs, 1152.0);
        QCOMPARE(direct.workspaceElements, 0.0);

        const AlgorithmCost im2col = convolutionCost(l, ConvAlgorithm::Im2col);
        QCOMPARE(im2col.flops, 2304.0);
        QCOMPARE(im2col.workspaceElements, 288.0);
        QCOMPARE(im2col.extraElements, 576.0);
        QCOMPARE(im2col.kernels, 2);

        const AlgorithmCost w2 = convolutionCost(l, ConvAlgorithm::Winograd2);
        QVERIFY(w2.applies);
        QCOMPARE(w2.gemmMacs, 512.0);
        QCOMPARE(w2.flops, 2224.0);
        QCOMPARE(w2.workspaceElements, 512.0);
        QCOMPARE(w2.extraElements, 1024.0);

        const AlgorithmCost fft = convolutionCost(l, ConvAlgorithm::Fft);
        RFX_COMPARE_REL(fft.flops, 14 * 90 * std::log2(36.0) + 1536, 1e-12);
        QCOMPARE(fft.workspaceElements, 672.0);
        QCOMPARE(fft.extraElements, 1344.0);
    }

    void notApplicableIsSaid()
    {
        Layer strided = smallConv();
        strided.stride = 2;
        strided.out = Shape { 1, 4, 2, 2 };
        const AlgorithmCost w = convolutionCost(strided, ConvAlgorithm::Winograd4);
        QVERIFY(!w.applies);
        QCOMPARE(w.whyNot, std::string("Winograd F(4x4,3x3) needs an ungrouped 3x3 kernel at stride 1"));
        QCOMPARE(convolutionCost(strided, ConvAlgorithm::Fft).whyNot, std::string("FFT needs stride 1"));
        Layer one = smallConv();
        one.kh = one.kw = 1;
        one.out = Shape { 1, 4, 6, 6 };
        QCOMPARE(convolutionCost(one, ConvAlgorithm::Im2col).extraElements, 0.0); // a 1x1 needs no lowering

        // In the engine: a U-Net with strided downsampling asks Winograd of its stride-2 convolutions.
        Config c;
        c.unet.downsample = Downsample::Strided;
        c.unet.padding = Padding::Same;
        c.unet.height = c.unet.width = 256;
        c.algorithm = ConvAlgorithm::Winograd4;
        const Report r = *analyzeConfig(c, { test::roundDevice() }).report;
        const LayerResult& down = *std::find_if(r.results[0].layers.begin(), r.results[0].layers.end(),
            [](const LayerResult& l) { return l.name == "enc2.conv1"; });
        QCOMPARE(down.algorithm, ConvAlgorithm::Direct);
        QVERIFY2(
            down.algorithmNote.find("needs an ungrouped 3x3 kernel at stride 1; computed direct") != std::string::npos,
            down.algorithmNote.c_str());
    }

    void smoothSizes()
    {
        QCOMPARE(smoothFftSize(572), std::int64_t(576)); // 2^6 * 3^2
        QCOMPARE(smoothFftSize(11), std::int64_t(12));
        QCOMPARE(smoothFftSize(97), std::int64_t(98)); // 2 * 7^2
        QCOMPARE(smoothFftSize(1), std::int64_t(1));
    }

    // The small convolution: compulsory 72 + 72 + 64 = 208 elements (input, weights, output);
    // naive 2 * 1,152 + 64 = 2,368; tiled with 48 elements on chip: b = floor(sqrt(48 / 3)) = 4,
    // 2 * 1,152 / 4 + 64 = 640; with ample on-chip memory the compulsory 208; with 3 elements, b = 1: naive.
    void trafficModelsByHand()
    {
        QCOMPARE(trafficElements(TrafficModel::Compulsory, 208, 1152, 64, 48), 208.0);
        QCOMPARE(trafficElements(TrafficModel::Naive, 208, 1152, 64, 48), 2368.0);
        QCOMPARE(trafficElements(TrafficModel::Tiled, 208, 1152, 64, 48), 640.0);
        QCOMPARE(trafficElements(TrafficModel::Tiled, 208, 1152, 64, 1e9), 208.0);
        QCOMPARE(trafficElements(TrafficModel::Tiled, 208, 1152, 64, 3), 2368.0);
    }

    // Per-level traffic of the small convolution (compulsory 208, 1,152 MACs, 64 outputs):
    //   shared memory of 300 elements: b = floor(sqrt(100)) = 10, 2 * 1,152 / 10 + 64 = 294.4 -> L2 traffic
    //   L2 of 1e9 elements: everything reused, DRAM traffic the compulsory 208
    //   register tile 8: 2 * 1,152 / 8 + 64 = 352 -> L1 traffic
    // Without the L2 level the DRAM carries the shared-memory tiling's 294.4 (the single-level model).
    // A shared tile smaller than the register tile cannot feed it: L1 is raised to the L2 traffic.
    void levelTrafficByHand()
    {
        LevelTraffic t = tiledLevelTraffic(208, 1152, 64, 300, 1e9, true, true, kRegisterTileSimt);
        QCOMPARE(t.dram, 208.0);
        QCOMPARE(t.l2, 294.4);
        QCOMPARE(t.l1, 352.0);
        t = tiledLevelTraffic(208, 1152, 64, 300, 1e9, false, true, kRegisterTileSimt);
        QCOMPARE(t.dram, 294.4);
        QCOMPARE(t.l2, 0.0);
        QCOMPARE(t.l1, 352.0);
        t = tiledLevelTraffic(208, 1152, 64, 300, 0, false, false, kRegisterTileSimt);
        QCOMPARE(t.dram, trafficElements(TrafficModel::Tiled, 208, 1152, 64, 300));
        QCOMPARE(t.l1, 0.0);
        t = tiledLevelTraffic(208, 1152, 64, 48, 1e9, true, true, kRegisterTileSimt); // b = 4 < 8
        QCOMPARE(t.l2, 640.0);
        QCOMPARE(t.l1, 640.0);
        QCOMPARE(tileTrafficElements(208, 1152, 64, 64), 208.0); // tensor-core warp tile: 100 < compulsory
    }

    // A transposed convolution's multiply-adds are counted at its input positions (as its FLOPs are), so
    // the traffic models and training see the same work. U-Net dec4.up: 1024 -> 512 channels, 28 x 28 in,
    // 2 x 2 kernel: 1024 x 28 x 28 x 512 x 4 = 1,644,167,168 MACs, 512 x 56 x 56 = 1,605,632 outputs.
    //   naive traffic: 2 x 1,644,167,168 + 1,605,632 = 3,289,939,968 elements = 13,159,759,872 B in FP32
    //   training FLOPs under any traffic model: 3 x the forward 3,288,334,336
    // (Before the fix: counted at output positions, 4x the MACs, and training FLOPs doubled off the direct path.)
    void transposedConvolutionWork()
    {
        const Device d = test::shippedDevice("rtx-2060-super");
        auto up = [&](Mode mode, TrafficModel traffic) {
            Config c;
            c.mode = mode;
            c.traffic = traffic;
            const Report r = *analyzeConfig(c, { d }).report;
            return *std::find_if(r.results[0].layers.begin(), r.results[0].layers.end(),
                [](const LayerResult& l) { return l.name == "dec4.up"; });
        };
        QCOMPARE(up(Mode::Inference, TrafficModel::Naive).bytes, 13'159'759'872.0);
        QCOMPARE(up(Mode::Inference, TrafficModel::Compulsory).flops, 3'288'334'336.0);
        for (TrafficModel t : { TrafficModel::Compulsory, TrafficModel::Naive, TrafficModel::Tiled })
            QCOMPARE(up(Mode::Training, t).flops, 3 * 3'288'334'336.0);
    }

    // A linear layer's matrix product flattens its input. AlexNet's classifier.fc1 reads 256x6x6 =
    // 9,216 features into 4,096: 37,748,736 MACs (not 256 x 4,096 = 1,048,576, which the naive model
    // once counted). Naive traffic, FP32: max(compulsory, 2 MACs + outputs) elements
    //   compulsory = 9,216 in + 37,748,736 weights + 4,096 out = 37,762,048
    //   2 x 37,748,736 + 4,096 = 75,501,568 elements x 4 B = 302,006,272 B.
    void linearTrafficFlattensItsInput()
    {
        Config c;
        c.model = "alexnet";
        c.unet.height = c.unet.width = 224;
        c.unet.inChannels = 3;
        c.unet.classes = 1000;
        c.traffic = TrafficModel::Naive;
        const Report r = *analyzeConfig(c, { test::shippedDevice("rtx-2060-super") }).report;
        const auto& rows = r.results[0].layers;
        const auto fc1
            = std::find_if(rows.begin(), rows.end(), [](const LayerResult& l) { return l.name == "classifier.fc1"; });
        QVERIFY(fc1 != rows.end());
        QCOMPARE(fc1->flops, 2 * 37'748'736.0);
        QCOMPARE(fc1->bytes, 302'006'272.0);
    }

    // Hierarchical roofline on the A100 (L2 7,219 GB/s, L1 19,492 GB/s, 40 MiB L2, 192 KiB L1/shared),
    // U-Net enc1.conv2 in FP32: 11,893,211,136 MACs, 20,647,936 outputs.
    //   DRAM: the 40 MiB L2 holds b = floor(sqrt(10,485,760 / 3)) = 1,869: 2 MACs / b + outputs = 33.4 M
    //         elements, below the compulsory 41.5 M: DRAM moves the compulsory 166 MB.
    //   L2:   192 KiB = 49,152 elements, b = 128: (2 MACs / 128 + outputs) x 4 B = 825,917,440 B.
    //   L1:   register tile 8: (2 MACs / 8 + outputs) x 4 B = 11,975,802,880 B.
    //   time = max(23.79 GFLOP / 19.5 TFLOP/s, 166 MB / 2.04 TB/s, 826 MB / 7.22 TB/s, 12.0 GB / 19.5 TB/s)
    //        = max(1.220 ms, 81 us, 114 us, 614 us): compute-bound.
    void hierarchicalCeilings()
    {
        const Device a100 = test::shippedDevice("a100-sxm-80gb");
        Config c;
        c.traffic = TrafficModel::Tiled;
        const Report r = *analyzeConfig(c, { a100 }).report;
        const DeviceResult& d = r.results[0];
        QCOMPARE(d.l2Bandwidth, a100.l2Bandwidth);
        QCOMPARE(d.l1Bandwidth, a100.l1Bandwidth);
        auto row = [&](const DeviceResult& dr, const char* name) {
            return *std::find_if(
                dr.layers.begin(), dr.layers.end(), [&](const LayerResult& l) { return l.name == name; });
        };
        Config compulsory;
        const LayerResult plain = row(analyzeConfig(compulsory, { a100 }).report->results[0], "enc1.conv2");
        const LayerResult conv = row(d, "enc1.conv2");
        QCOMPARE(conv.bytes, plain.bytes);
        RFX_COMPARE_REL(conv.l2Bytes, 825'917'440.0, 1e-12);
        RFX_COMPARE_REL(conv.l1Bytes, 11'975'802'880.0, 1e-12);
        QCOMPARE(conv.bound, Bound::Compute);
        RFX_COMPARE_REL(conv.time, conv.flops / d.ceiling.flops, 1e-12);
        // Every row's time is its largest term, and a memory-bound row names the level that sets it.
        int innerBound = 0;
        for (const LayerResult& l : d.layers) {
            const double terms[]
                = { l.flops / l.peak, l.bytes / d.bandwidth, l.l2Bytes / d.l2Bandwidth, l.l1Bytes / d.l1Bandwidth };
            RFX_COMPARE_REL(l.time, *std::max_element(std::begin(terms), std::end(terms)), 1e-12);
            QVERIFY(l.l1Bytes >= l.l2Bytes && l.l2Bytes >= l.bytes);
            if (l.bound == Bound::Memory && l.level != MemoryLevel::Dram) {
                ++innerBound;
                QCOMPARE(boundLabel(l), std::string(memoryLevelName(l.level)));
                QVERIFY(l.intensity > l.peak / d.bandwidth); // DRAM alone would call it compute-bound
            }
        }
        QCOMPARE(innerBound, 0); // FP32 on the A100: the caches keep up with the arithmetic

        // FP16 tensor cores on the H100 (989 TFLOP/s, L2 10.1 TB/s, 256 KiB shared memory): enc1.conv2's
        // shared-memory tile is b = floor(sqrt(131,072 / 3)) = 209, so L2 moves
        // (2 x 11,893,211,136 / 209 + 20,647,936) x 2 B = 268.9 MB: 26.5 us at L2 against 24.0 us of
        // arithmetic. The layer is L2-bound, which DRAM alone (I = 287 FLOP/B, ridge 295) would not show.
        Config fp16 = c;
        fp16.bits = 16;
        fp16.tensorCores = true;
        const Report hr = *analyzeConfig(fp16, { test::shippedDevice("h100-sxm") }).report;
        const DeviceResult& h = hr.results[0];
        const LayerResult hc = row(h, "enc1.conv2");
        RFX_COMPARE_REL(hc.l2Bytes, (2 * 11'893'211'136.0 / 209 + 20'647'936) * 2, 1e-12);
        QCOMPARE(hc.bound, Bound::Memory);
        QCOMPARE(hc.level, MemoryLevel::L2);
        QCOMPARE(boundLabel(hc), std::string("L2"));
        RFX_COMPARE_REL(hc.time, hc.l2Bytes / h.l2Bandwidth, 1e-12);
        QVERIFY(hc.intensity < h.ridge && hc.flops / hc.l2Bytes * h.l2Bandwidth < h.ceiling.flops);
        int l2Bound = 0;
        for (const LayerResult& l : h.layers)
            l2Bound += l.bound == Bound::Memory && l.level == MemoryLevel::L2;
        QVERIFY(l2Bound >= 4);
        // Other traffic models, and devices without the figures, model DRAM only.
        QCOMPARE(analyzeConfig(compulsory, { a100 }).report->results[0].l2Bandwidth, 0.0);
        QCOMPARE(plain.l2Bytes, 0.0);
        const Report turing = *analyzeConfig(c, { test::shippedDevice("rtx-2060-super") }).report;
        QCOMPARE(turing.results[0].l2Bandwidth, 0.0);
        QCOMPARE(row(turing.results[0], "enc1.conv2").l2Bytes, 0.0);
    }

    // The "done when": Winograd moves the U-Net's 3x3 layers by the expected amount.
    // enc1.conv2: 64 -> 64 channels, 568 x 568 out. Direct: 2 * 64 * 568^2 * 64 * 9 = 23,786,422,272 FLOPs.
    // F(4x4,3x3): 142 x 142 = 20,164 tiles; products 2 * 20,164 * 64 * 64 * 36 = 5,946,605,568; transforms
    // 20,164 * 64 * (336 + 200) + 64 * 64 * 189 = 692,480,000; total 6,639,085,568 (3.58x fewer).
    void winogradMovesUNetLayers()
    {
        Config c;
        const Device d = test::shippedDevice("rtx-2060-super");
        const Report direct = *analyzeConfig(c, { d }).report;
        c.algorithm = ConvAlgorithm::Winograd4;
        const Report wino = *analyzeConfig(c, { d }).report;
        auto row = [](const Report& r, const char* name) {
            return *std::find_if(r.results[0].layers.begin(), r.results[0].layers.end(),
                [&](const LayerResult& l) { return l.name == name; });
        };
        QCOMPARE(row(direct, "enc1.conv2").flops, 23'786'422'272.0);
        QCOMPARE(row(wino, "enc1.conv2").flops, 6'639'085'568.0);
        QCOMPARE(row(wino, "enc1.conv2").algorithm, ConvAlgorithm::Winograd4);
        // Bytes: compulsory (64*570*570 = 20,793,600 in + 36,864 weights + 64*568*568 = 20,647,936 out)
        // + 2 x workspace 36 * (64*64 + 20,164*64 + 20,164*64) = 93,063,168 elements; times 4 bytes.
        QCOMPARE(row(wino, "enc1.conv2").bytes, (20'793'600.0 + 36'864 + 20'647'936 + 2 * 93'063'168.0) * 4);
        QCOMPARE(row(wino, "enc1.conv2").workspace, 93'063'168.0 * 4);
        // The 1x1 head is no 3x3 convolution: direct, with the reason.
        QCOMPARE(row(wino, "head.conv").algorithm, ConvAlgorithm::Direct);
        QVERIFY(!row(wino, "head.conv").algorithmNote.empty());
        // The network is faster; the workspace counts in memory.
        QVERIFY(wino.results[0].totals.time < direct.results[0].totals.time);
        QVERIFY(wino.results[0].totals.memory.workspace > 0);
    }

    // Auto takes, per layer and device, the algorithm with the smallest time bound.
    void autoPicksTheFastest()
    {
        Config c;
        c.algorithm = ConvAlgorithm::Auto;
        const Device d = test::shippedDevice("rtx-2060-super");
        const Report r = *analyzeConfig(c, { d }).report;
        for (ConvAlgorithm a : { ConvAlgorithm::Direct, ConvAlgorithm::Im2col, ConvAlgorithm::Fft,
                 ConvAlgorithm::Winograd2, ConvAlgorithm::Winograd4 }) {
            Config fixed = c;
            fixed.algorithm = a;
            const Report f = *analyzeConfig(fixed, { d }).report;
            for (size_t i = 0; i < r.results[0].layers.size(); ++i) {
                const LayerResult& chosen = r.results[0].layers[i];
                const LayerResult& other = f.results[0].layers[i];
                if (other.algorithm == a) // applicable
                    QVERIFY2(chosen.time <= other.time * (1 + 1e-12), chosen.name.c_str());
            }
        }
        QVERIFY(r.results[0].totals.time < 0.9 * analyzeConfig(Config {}, { d }).report->results[0].totals.time);
    }

    // A per-layer choice overrides the global one; it survives the argument list (sessions, figures).
    void perLayerChoice()
    {
        ConfigOptions o;
        std::string error;
        QVERIFY(parseConfigArgs({ "--algorithm", "direct", "--layer-algorithm", "enc1.conv2=winograd2" }, o, error));
        const Report r = *analyzeConfig(o.config, { test::roundDevice() }).report;
        for (const LayerResult& l : r.results[0].layers)
            if (l.op == Op::Conv)
                QCOMPARE(l.algorithm, l.name == "enc1.conv2" ? ConvAlgorithm::Winograd2 : ConvAlgorithm::Direct);
        ConfigOptions again;
        QVERIFY(parseConfigArgs(configToArgs(o.config), again, error));
        QCOMPARE(again.config, o.config);
        // A name that is no convolution of this network is reported, not silently dropped.
        Config typo = o.config;
        typo.layerAlgorithms["enc1.conv9"] = ConvAlgorithm::Fft;
        const Report t = *analyzeConfig(typo, { test::roundDevice() }).report;
        QCOMPARE(t.diagnostics.size(), size_t(1));
        QCOMPARE(t.diagnostics[0].message,
            std::string("no convolution or linear layer named 'enc1.conv9' in U-Net; its algorithm choice is ignored"));
        QVERIFY(!parseConfigArgs({ "--layer-algorithm", "enc1.conv2" }, again, error));
        QCOMPARE(error,
            std::string(
                "--layer-algorithm: expected LAYER=direct|im2col|fft|winograd2|winograd4|auto, got 'enc1.conv2'"));
        QVERIFY(!parseConfigArgs({ "--traffic", "lazy" }, again, error));
        QVERIFY2(error.find("compulsory, fused, naive, tiled") != std::string::npos, error.c_str());
    }

    // The U-Net study's "shared memory management": the same network under no reuse, reuse in a
    // 48 KiB shared memory, and compulsory traffic. Tiled sits between the two and is closer to the
    // compulsory bound; the fused model removes the elementwise rows' traffic.
    void sharedMemoryEffect()
    {
        const Device d = test::shippedDevice("rtx-2060-super");
        auto timeWith = [&](TrafficModel t, int kib) {
            Config c;
            c.traffic = t;
            c.onchipKiB = kib;
            return analyzeConfig(c, { d }).report->results[0].totals;
        };
        const Totals naive = timeWith(TrafficModel::Naive, 0);
        const Totals tiled = timeWith(TrafficModel::Tiled, 48);
        const Totals tiledSmall = timeWith(TrafficModel::Tiled, 4);
        const Totals compulsory = timeWith(TrafficModel::Compulsory, 0);
        const Totals fused = timeWith(TrafficModel::Fused, 0);
        QVERIFY(naive.bytes > tiledSmall.bytes && tiledSmall.bytes > tiled.bytes && tiled.bytes > compulsory.bytes);
        QVERIFY(naive.time > 20 * tiled.time);
        QVERIFY(tiled.time < 1.25 * compulsory.time);
        QVERIFY(fused.bytes < compulsory.bytes);
        QCOMPARE(fused.flops, compulsory.flops);
        // 48 KiB at 4 bytes: b = floor(sqrt(12,288 / 3)) = 64, so a big convolution moves 2 MACs / 64 + outputs.
        Config c;
        c.traffic = TrafficModel::Tiled;
        c.onchipKiB = 48;
        const Report r = *analyzeConfig(c, { d }).report;
        const LayerResult& conv = *std::find_if(r.results[0].layers.begin(), r.results[0].layers.end(),
            [](const LayerResult& l) { return l.name == "enc1.conv2"; });
        QCOMPARE(conv.bytes, (2 * 11'893'211'136.0 / 64 + 20'647'936) * 4);
        QCOMPARE(r.results[0].onchipBytes, 48 * 1024.0);
    }
};

QTEST_GUILESS_MAIN(TestAlgorithms)
#include "tst_algorithms.moc"
