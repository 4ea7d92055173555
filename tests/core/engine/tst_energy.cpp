// Energy, clocks, multi-GPU data parallelism and tuning (core/energy.h), each against a hand-worked
// example, plus the energy study's qualitative findings (Castro et al., CCPE 2018, doi 10.1002/cpe.4786).
#include "engine/energy.h"
#include "engine/tuning.h"
#include "io/options.h"
#include "io/tune_writer.h"
#include "open/analyses.h"
#include "testutils.h"

#include <cmath>

using namespace rfx;

namespace {

// VGG-16 at its published input (224 x 224 x 3, 1,000 classes), batch 64: compute-bound on a GPU.
Config vgg16AtBatch64()
{
    Config c;
    c.model = "vgg16";
    c.unet.height = c.unet.width = 224;
    c.unet.inChannels = 3;
    c.unet.classes = 1000;
    c.batch = 64;
    return c;
}

// Two rows on a made-up GPU: TDP 250 W, idle 10 W (dynamic budget 240 W: memory 0.3 x 240 = 72 W,
// compute 168 W), base 1,000 / boost 1,250 MHz (voltage knee 0.8), 10 TFLOP/s, 500 GB/s.
//   conv: 1 TFLOP, 10 GB -> compute 100 ms, DRAM 20 ms: t = 100 ms
//   relu: 1 GFLOP, 50 GB -> compute 0.1 ms, DRAM 100 ms: t = 100 ms
DeviceResult twoRows(double clock)
{
    DeviceResult r;
    r.device.id = "made-up";
    r.device.tdpWatts = 250;
    r.device.idleWatts = 10;
    r.device.baseClockHz = 1.0e9;
    r.device.boostClockHz = 1.25e9;
    r.bandwidth = 500e9;
    const double peak = 10e12 * clock;
    auto row = [&](const char* name, Op op, double flops, double bytes) {
        LayerResult l;
        l.name = name;
        l.op = op;
        l.flops = flops;
        l.bytes = bytes;
        l.peak = peak;
        l.time = std::max(flops / peak, bytes / r.bandwidth);
        return l;
    };
    r.layers = { row("conv", Op::Conv, 1e12, 10e9), row("relu", Op::ReLU, 1e9, 50e9) };
    for (const LayerResult& l : r.layers) {
        r.totals.time += l.time;
        r.totals.flops += l.flops;
    }
    r.totals.params = 25'557'032;
    return r;
}

} // namespace

class TestEnergy : public QObject {
    Q_OBJECT

private slots:
    // The link table: every entry has a positive bandwidth and a source; PCIe 3.0 x16 is 16 lanes x
    // 8 GT/s x 128/130 / 8 bit = 15.75 GB/s per direction (PCIe 3.0 base specification); NVLink 3 on the
    // A100 is 600 GB/s in total, 300 GB/s per direction (A100 whitepaper).
    void interconnectTable()
    {
        QVERIFY(interconnects().size() >= 7);
        for (const Interconnect& l : interconnects()) {
            QVERIFY(l.bandwidth > 0);
            QVERIFY(!l.source.empty());
        }
        RFX_COMPARE_REL(findInterconnect("pcie3-x16")->bandwidth, 16 * 8e9 * 128 / 130 / 8, 1e-3);
        QCOMPARE(findInterconnect("nvlink3")->bandwidth, 300e9);
        QVERIFY(!findInterconnect("infiniband"));
        Config c;
        c.interconnect = "infiniband";
        const auto err = validate(c);
        QVERIFY(err);
        QVERIFY2(err->find("unknown interconnect 'infiniband' (available: pcie3-x16, pcie4-x16") == 0, err->c_str());
    }

    // s(f) = f max(f, k)^2 with the knee k = base / boost = 0.8: s(1) = 1, s(0.9) = 0.729, s(0.5) = 0.5 x 0.64 = 0.32.
    // A device without a base clock takes the knee 0.7.
    void clockLaw()
    {
        const Device d = twoRows(1).device;
        QCOMPARE(voltageKnee(d), 0.8);
        QCOMPARE(dynamicPowerScale(d, 1.0), 1.0);
        QCOMPARE(dynamicPowerScale(d, 0.9), 0.9 * 0.9 * 0.9);
        QCOMPARE(dynamicPowerScale(d, 0.5), 0.32);
        Device noBase = d;
        noBase.baseClockHz = 0;
        QCOMPARE(voltageKnee(noBase), 0.7);
        QCOMPARE(parseClockPercent("0.8"), std::optional<int>(80));
        QCOMPARE(parseClockPercent("80%"), std::optional<int>(80));
        QCOMPARE(parseClockPercent("1"), std::optional<int>(100));
        QCOMPARE(parseClockPercent("0.805"), std::optional<int>());
        QCOMPARE(parseClockPercent("fast"), std::optional<int>());
        QCOMPARE(parseClockPercent("5"), std::optional<int>()); // neither 5 % nor 500 %: refused, not guessed
        QCOMPARE(parseClockPercent("5%"), std::optional<int>(5)); // validate() then names the range
        Config c;
        c.clockPercent = 5;
        QCOMPARE(*validate(c), std::string("core clock (% of boost) must be between 10 and 100, got 5"));
    }

    // E = P_idle t + D_c max(f, k)^2 F / P_boost + D_m Q / B, per row.
    // Boost clock: conv 10 x 0.1 + 168 x 0.1 + 72 x 0.02 = 1 + 16.8 + 1.44 = 19.24 J;
    //              relu 10 x 0.1 + 168 x 1e-4 + 72 x 0.1 = 1 + 0.0168 + 7.2 = 8.2168 J. Total 27.4568 J in 0.2 s:
    //              137.284 W on average (conv draws 192.4 W, relu 82.168 W: compute- and memory-bound phases
    //              draw differently; neither exceeds the TDP). 1.001 TFLOP / 27.4568 J = 36.457 GFLOP/J.
    // Half clock (below the knee: V stays at 0.8): conv takes 0.2 s:
    //              conv 10 x 0.2 + 168 x 0.64 x 0.1 + 1.44 = 14.192 J; relu 1 + 168 x 0.64 x 1e-4 + 7.2 = 8.210752 J.
    void handWorkedEnergy()
    {
        Config c;
        c.batch = 4;
        EnergyFigures e = energyFigures(twoRows(1), c, 0);
        RFX_COMPARE_REL(e.energy, 27.4568, 1e-12);
        RFX_COMPARE_REL(e.time, 0.2, 1e-12);
        RFX_COMPARE_REL(e.averagePower, 137.284, 1e-12);
        RFX_COMPARE_REL(e.flopsPerJoule, 1.001e12 / 27.4568, 1e-12);
        RFX_COMPARE_REL(e.energyPerImage, 27.4568 / 4, 1e-12);
        RFX_COMPARE_REL(e.imagesPerJoule, 4 / 27.4568, 1e-12);
        QCOMPARE(e.allReduceTime, 0.0); // inference: no gradients
        c.clockPercent = 50;
        e = energyFigures(twoRows(0.5), c, 0);
        RFX_COMPARE_REL(e.energy, 14.192 + 8.210752, 1e-12);
        RFX_COMPARE_REL(e.time, 0.3, 1e-12);
    }

    // Ring all-reduce of ResNet-50's 25,557,032 FP32 gradients (102,228,128 B) over PCIe 3.0 x16
    // (15.75 GB/s): 2 (G - 1) / G x bytes / B. G = 4: 1.5 x 102,228,128 / 15.75e9 = 9.7360 ms.
    // The made-up step: 0.2 s, forward 0.08 s, no optimizer row: backward 0.12 s hides it entirely;
    // without overlap the step grows to 0.2097 s: speed-up 4 x 0.2 / 0.2097360 = 3.8143, efficiency 95.36 %,
    // and each GPU idles 10 W through the exposed 9.736 ms.
    void handWorkedAllReduce()
    {
        Config c;
        c.mode = Mode::Training;
        c.gpus = 4;
        c.batch = 8;
        const double ring = 1.5 * 102'228'128 / 15.75e9;
        EnergyFigures e = energyFigures(twoRows(1), c, 0.08);
        RFX_COMPARE_REL(e.gradientBytes, 102'228'128.0, 1e-12);
        RFX_COMPARE_REL(e.allReduceTime, ring, 1e-12);
        RFX_COMPARE_REL(e.backwardTime, 0.12, 1e-12);
        QCOMPARE(e.exposedTime, 0.0);
        RFX_COMPARE_REL(e.speedup, 4.0, 1e-12);
        RFX_COMPARE_REL(e.throughput, 32 / 0.2, 1e-12);
        c.overlap = false;
        e = energyFigures(twoRows(1), c, 0.08);
        RFX_COMPARE_REL(e.exposedTime, ring, 1e-12);
        RFX_COMPARE_REL(e.stepTime, 0.2 + ring, 1e-12);
        RFX_COMPARE_REL(e.speedup, 4 * 0.2 / (0.2 + ring), 1e-12);
        RFX_COMPARE_REL(e.efficiency, 0.2 / (0.2 + ring), 1e-12);
        RFX_COMPARE_REL(e.stepEnergy, 4 * (27.4568 + 10 * ring), 1e-12);
        RFX_COMPARE_REL(e.energyPerImage, e.stepEnergy / 32, 1e-12);
        c.gpus = 1;
        QCOMPARE(energyFigures(twoRows(1), c, 0.08).allReduceTime, 0.0);
    }

    // The engine with the clock: compute ceilings scale, DRAM bandwidth does not.
    void clockScalesComputeOnly()
    {
        const Device d = test::shippedDevice("rtx-2060-super");
        Config c;
        c.clockPercent = 60;
        const EnergyOutcome o = analyzeEnergy(c, { d });
        QVERIFY(o.report);
        QCOMPARE(o.report->results[0].ceiling.flops, d.peak.at("fp32") * 0.6);
        QCOMPARE(o.report->results[0].bandwidth, d.dramBandwidth);
        const EnergyOutcome boost = analyzeEnergy(Config {}, { d });
        QVERIFY(o.figures[0].time > boost.figures[0].time);
        QVERIFY(o.figures[0].averagePower < boost.figures[0].averagePower);
        QVERIFY(boost.figures[0].averagePower < d.tdpWatts && boost.figures[0].averagePower > d.idleWatts);
    }

    // The energy-optimal clock: a compute-bound network saves dynamic power down to the voltage knee
    // (base / boost = 1,470 / 1,650 = 89 %), below which only the idle power's share grows.
    void energyOptimalClock()
    {
        const Device d = test::shippedDevice("rtx-2060-super");
        Config c = vgg16AtBatch64();
        const auto choice = optimalClock(c, d);
        QVERIFY(choice);
        QCOMPARE(choice->percent, int(std::floor(100 * 1470.0 / 1650)));
        QVERIFY(choice->figures.energyPerImage < choice->atBoost.energyPerImage);
        QVERIFY(choice->figures.timePerImage > choice->atBoost.timePerImage);
    }

    // The Energy view's study (open/analyses.h studyEnergy) over batch 1-8, one GPU, clocks 80-100 % in
    // steps of 10, for VGG-16 at batch 64 (2 GPUs, 90 % clock) on the RTX 2060 Super, counted by hand:
    // the grid is batches {1, 2, 4, 8} x GPUs {1} x clocks {100, 90, 80} = 12 points; by batch, the
    // configuration's 2 GPUs and 90 % at each of the 4 batches; by GPUs, its batch 64 at 1 and 2 GPUs
    // (the range's 1 widened to 2); the optimal clock as optimalClock says, at or above 80 %
    // (energyOptimalClock: 89 %); a range upside down is the study's error.
    void energyStudy()
    {
        const Device d = test::shippedDevice("rtx-2060-super");
        Config c = vgg16AtBatch64();
        c.gpus = 2;
        c.clockPercent = 90;
        TuneRanges r;
        r.batchMin = 1;
        r.batchMax = 8;
        r.gpusMin = r.gpusMax = 1;
        r.clockMin = 80;
        r.clockMax = 100;
        r.clockStep = 10;
        const EnergyStudy study = studyEnergy(c, { d }, r);
        QVERIFY2(study.error.empty(), study.error.c_str());
        QCOMPARE(study.grid.results.size(), size_t(1));
        QCOMPARE(study.grid.results[0].points.size(), size_t(12));
        const auto& byBatch = study.byBatch.results.at(0).points;
        QCOMPARE(byBatch.size(), size_t(4));
        for (size_t i = 0; i < byBatch.size(); ++i) {
            QCOMPARE(byBatch[i].batch, 1 << i);
            QCOMPARE(byBatch[i].gpus, 2);
            QCOMPARE(byBatch[i].clockPercent, 90);
        }
        const auto& byGpus = study.byGpus.results.at(0).points;
        QCOMPARE(byGpus.size(), size_t(2));
        QCOMPARE(byGpus[0].gpus, 1);
        QCOMPARE(byGpus[1].gpus, 2);
        QCOMPARE(byGpus[1].batch, 64);
        c.clockPercent = 100;
        QCOMPARE(studyEnergy(c, { d }, r).optimalClockPercent, int(std::floor(100 * 1470.0 / 1650)));
        r.batchMin = 16;
        QCOMPARE(studyEnergy(c, { d }, r).error,
            std::string("batch range must lie within 1..65536 with the low end first, got 16..8"));
    }

    // The study's setting: Titan X Maxwell and Pascal, ResNet- and AlexNet-class networks, batch 64..256,
    // one or two GPUs. Its findings: Pascal needs less energy for the same work; larger batches lower
    // the energy per image.
    void studyFindings_data()
    {
        QTest::addColumn<QString>("model");
        QTest::newRow("AlexNet") << "alexnet";
        QTest::newRow("ResNet-50") << "resnet50";
    }
    void studyFindings()
    {
        QFETCH(QString, model);
        ConfigOptions o;
        std::size_t i = 0;
        std::string error;
        const std::vector<std::string> args { "--model", model.toStdString(), "--mode", "training" };
        for (; i < args.size(); ++i)
            QCOMPARE(applyConfigOption(args, i, o, error), OptionStatus::Consumed);
        TuneRanges r { 16, 256, 1, 2, 100, 100, 5 };
        const TuneOutcome t
            = tune(o.config, { test::shippedDevice("titan-x-maxwell"), test::shippedDevice("titan-x-pascal") }, r);
        QVERIFY2(t.error.empty(), t.error.c_str());
        const TuneResult& maxwell = t.results[0];
        const TuneResult& pascal = t.results[1];
        QCOMPARE(maxwell.points.size(), size_t(5 * 2)); // batches 16, 32, 64, 128, 256 x 1..2 GPUs
        int compared = 0;
        for (size_t k = 0; k < maxwell.points.size(); ++k) {
            const TunePoint &m = maxwell.points[k], &p = pascal.points[k];
            QCOMPARE(m.batch, p.batch);
            QVERIFY2(
                p.e.energyPerImage < 0.8 * m.e.energyPerImage, tunePointLabel(p).c_str()); // Pascal: over 20 % less
            if (k >= 2 && m.fits && m.gpus == 1) {
                QVERIFY2(m.e.energyPerImage < maxwell.points[k - 2].e.energyPerImage, tunePointLabel(m).c_str());
                QVERIFY2(p.e.energyPerImage < pascal.points[k - 2].e.energyPerImage, tunePointLabel(p).c_str());
                ++compared;
            }
        }
        QVERIFY(compared >= 1);
        // The least-energy configuration is the largest batch that fits.
        int largestFitting = 0;
        for (const TunePoint& p : pascal.points)
            if (p.fits)
                largestFitting = std::max(largestFitting, p.batch);
        QCOMPARE(pascal.points[*pascal.bestEnergy].batch, largestFitting);
    }

    // The Pareto front: fitting points only, by time, each with less energy than every faster point;
    // no fitting point is better in both; the recommendations lie on it.
    void paretoFront()
    {
        Config c;
        c.mode = Mode::Training;
        TuneRanges r { 1, 32, 1, 4, 60, 100, 10 };
        const TuneOutcome t = tune(c, { test::shippedDevice("rtx-2060-super") }, r);
        QVERIFY(t.error.empty());
        const TuneResult& res = t.results[0];
        QCOMPARE(res.points.size(), size_t(6 * 4 * 5)); // batches 1..32 x 4 GPU counts x 5 clocks
        QVERIFY(!res.front.empty());
        for (size_t i = 0; i < res.front.size(); ++i) {
            const TunePoint& f = res.points[res.front[i]];
            QVERIFY(f.fits);
            if (i > 0) {
                QVERIFY(f.e.timePerImage >= res.points[res.front[i - 1]].e.timePerImage);
                QVERIFY(f.e.energyPerImage < res.points[res.front[i - 1]].e.energyPerImage);
            }
            for (const TunePoint& p : res.points)
                QVERIFY(!(p.fits && p.e.timePerImage < f.e.timePerImage && p.e.energyPerImage < f.e.energyPerImage));
        }
        auto onFront
            = [&](std::size_t k) { return std::find(res.front.begin(), res.front.end(), k) != res.front.end(); };
        QVERIFY(onFront(*res.bestTime));
        QVERIFY(onFront(*res.bestEnergy));
        QVERIFY(onFront(*res.bestEdp));
        QVERIFY(!recommendationReasons(res, *res.bestEnergy).empty());
        // Bad ranges are named.
        r.batchMin = 64;
        r.batchMax = 8;
        QCOMPARE(tune(c, { test::shippedDevice("rtx-2060-super") }, r).error,
            std::string("batch range must lie within 1..65536 with the low end first, got 64..8"));
        QCOMPARE(tuneBatches(3, 20), (std::vector<int> { 3, 4, 8, 16, 20 }));
        QCOMPARE(tuneBatches(64, 64), (std::vector<int> { 64 }));
    }
};

QTEST_GUILESS_MAIN(TestEnergy)
#include "tst_energy.moc"
