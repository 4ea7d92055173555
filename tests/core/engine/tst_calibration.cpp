// The calibration fit (core/engine/calibration.h): measured ~ overhead + bound / efficiency per class and
// bound side, checked against least-squares solutions worked by hand on small synthetic sets (its use on
// a report: tst_calibration_apply).
#include "engine/calibration.h"
#include "open/analyses.h"
#include "testutils.h"

#include <tuple>

using namespace rfx;

namespace {

CalibrationSample sample(const char* cls, Bound side, double bound, double measured)
{
    return { "row", cls, side, bound, measured };
}

} // namespace

class TestCalibration : public QObject {
    Q_OBJECT

private slots:
    void classes()
    {
        QCOMPARE(calibrationClass(Op::Conv), std::string_view("conv"));
        QCOMPARE(calibrationClass(Op::ConvTranspose), std::string_view("conv_transpose"));
        QCOMPARE(calibrationClass(Op::Linear), std::string_view("matrix"));
        QCOMPARE(calibrationClass(Op::MatMul), std::string_view("matrix"));
        QCOMPARE(calibrationClass(Op::BatchNorm), std::string_view("batch_norm"));
        QCOMPARE(calibrationClass(Op::ReLU), std::string_view("elementwise"));
        QCOMPARE(calibrationClass(Op::MaxPool), std::string_view("pool"));
        QCOMPARE(calibrationClass(Op::Reduce), std::string_view("pool"));
        QCOMPARE(calibrationClass(Op::Concat), std::string_view("data"));
        QCOMPARE(calibrationClasses().size(), size_t(10));
        // A language model's attention products (scores, context) by the flag its builder sets,
        // whatever their op; a class of their own that borrows matrix where a file has none.
        Layer scores;
        scores.op = Op::MatMul;
        QCOMPARE(calibrationClass(scores), std::string_view("matrix"));
        scores.attention = true;
        QCOMPARE(calibrationClass(scores), std::string_view("attention"));
        QCOMPARE(parentClass("attention"), std::string_view("matrix"));
    }

    // Issue 50: a language model's block row stands for its blocks' runs, each paying the kernel's
    // overhead. The model 5 us a run + bound / 0.5, worked by hand on one run's bounds of 10 us and
    // 8 us (small: the overhead) and 1 ms and 4 ms (large: the efficiency), two of them block rows of
    // 16 runs: 16 x 10 us bound measured 16 x (5 + 20) = 400 us, 16 x 1 ms measured 16 x 2.005 ms =
    // 32.08 ms. Seen a run at a time the fit is exact; the block rows' whole figures (a 160 us "large"
    // row) would have given an overhead a sixteenth of the line's and a row of 16 kernels one kernel's.
    void blockRowsPayTheOverheadOnEveryRun()
    {
        auto run = [](double bound, double measured, double runs) {
            CalibrationSample s = sample("matrix", Bound::Memory, bound, measured);
            s.runs = runs;
            return s;
        };
        const CalibrationGroup g = fitGroup(
            { run(16 * 10e-6, 400e-6, 16), run(8e-6, 21e-6, 1), run(16 * 1e-3, 32.08e-3, 16), run(4e-3, 8.005e-3, 1) });
        QCOMPARE(g.overheadSource, OverheadSource::Rows);
        QCOMPARE(g.overheadRows, 2);
        RFX_COMPARE_REL(g.overhead, 5e-6, 1e-9);
        RFX_COMPARE_REL(g.efficiency, 0.5, 1e-9);
        QVERIFY(g.rmsError < 1e-9);
        QCOMPARE(g.maxBound, 4e-3); // one run's
        RFX_COMPARE_REL(g.predict(16 * 10e-6, 16), 400e-6, 1e-9);
        RFX_COMPARE_REL(g.predict(80 * 2e-3, 80), 80 * 5e-6 + 0.32, 1e-9); // 80 blocks: 80 overheads
    }

    // Issue 50: a memory-bound row pays its arithmetic at its class's compute-bound efficiency. Worked by
    // hand: matrix's compute-bound rows (1, 2, 4 ms measured 1.25, 2.5, 5 ms) reach 0.8; its memory-bound
    // rows are 10 ms of memory and 2 ms of arithmetic measured 10 / 0.5 + 2 / 0.8 = 22.5 ms, 10 ms and 8
    // ms measured 20 + 10 = 30 ms, 20 ms and none measured 40 ms: efficiency 0.5 exactly, the arithmetic
    // paid at 0.8. The pooled fits pay none.
    void memoryBoundRowsPayTheirArithmetic()
    {
        std::vector<CalibrationSample> s;
        for (double b : { 1e-3, 2e-3, 4e-3 })
            s.push_back(sample("matrix", Bound::Compute, b, b / 0.8));
        for (auto [b, arithmetic, m] :
            { std::tuple { 10e-3, 2e-3, 22.5e-3 }, { 10e-3, 8e-3, 30e-3 }, { 20e-3, 0.0, 40e-3 } }) {
            CalibrationSample x = sample("matrix", Bound::Memory, b, m);
            x.computeTime = arithmetic;
            s.push_back(x);
        }
        const Calibration c = fitCalibration(s);
        const CalibrationGroup* memory = c.ownGroup("matrix", Bound::Memory);
        QVERIFY(memory);
        RFX_COMPARE_REL(memory->efficiency, 0.5, 1e-9);
        RFX_COMPARE_REL(memory->arithmeticEfficiency, 0.8, 1e-9);
        QVERIFY(memory->rmsError < 1e-9);
        RFX_COMPARE_REL(memory->predict(10e-3, 1, 8e-3), 30e-3, 1e-9);
        QCOMPARE(c.ownGroup("matrix", Bound::Compute)->arithmeticEfficiency, 0.0);
        QCOMPARE(c.ownGroup("all", Bound::Memory)->arithmeticEfficiency, 0.0);
    }

    // Convolutions by their shapes: MobileNetV2's 3x3 depthwise (32 channels, 32 groups), its 1x1
    // projections, ResNet's 3x3, a grouped 3x3 that is not depthwise (ResNeXt's 32 groups of 4
    // channels), a 1x1x1 3-D convolution.
    void convolutionClasses()
    {
        auto conv = [](std::int64_t inChannels, int k, int groups, int kd = 1) {
            Layer l;
            l.op = Op::Conv;
            l.inShapes = { Shape { 1, inChannels, 56, 56 } };
            l.kh = l.kw = k;
            l.kd = kd;
            l.groups = groups;
            return l;
        };
        QCOMPARE(calibrationClass(conv(32, 3, 32)), std::string_view("depthwise"));
        QCOMPARE(calibrationClass(conv(32, 1, 1)), std::string_view("conv1x1"));
        QCOMPARE(calibrationClass(conv(64, 3, 1)), std::string_view("conv"));
        QCOMPARE(calibrationClass(conv(128, 3, 32)), std::string_view("conv"));
        QCOMPARE(calibrationClass(conv(64, 1, 1, 3)), std::string_view("conv"));
        QCOMPARE(calibrationClass(conv(64, 1, 1, 1)), std::string_view("conv1x1"));
        Layer bn;
        bn.op = Op::BatchNorm;
        bn.inShapes = { Shape { 1, 64, 56, 56 } };
        QCOMPARE(calibrationClass(bn), std::string_view("batch_norm"));
    }

    // A class without a fit of its own borrows its parent's (a calibration file from before the
    // classes were split has "conv" and "elementwise" only), else the side's pooled fit.
    void missingClassesBorrowTheirParent()
    {
        std::vector<CalibrationSample> s;
        for (double bound : { 1e-4, 2e-4, 4e-4 }) {
            s.push_back(sample("conv", Bound::Compute, 10 * bound, 20 * bound));
            s.push_back(sample("elementwise", Bound::Memory, bound, bound / 2));
            s.push_back(sample("pool", Bound::Memory, bound, 4 * bound));
        }
        const Calibration c = fitCalibration(s);
        QCOMPARE(c.groupFor("depthwise", Bound::Compute), c.ownGroup("conv", Bound::Compute));
        QCOMPARE(c.groupFor("conv1x1", Bound::Compute), c.ownGroup("conv", Bound::Compute));
        QCOMPARE(c.groupFor("batch_norm", Bound::Memory), c.ownGroup("elementwise", Bound::Memory));
        QVERIFY(c.ownGroup("batch_norm", Bound::Memory) == nullptr);
        QCOMPARE(c.groupFor("data", Bound::Memory), c.ownGroup("all", Bound::Memory));
        QCOMPARE(c.groupFor("depthwise", Bound::Memory), c.ownGroup("all", Bound::Memory)); // no memory-side conv fit
        QCOMPARE(parentClass("matrix"), std::string_view());
    }

    // Three rows that follow the model exactly, measured = 2 us + bound / 0.5:
    //   bound 1 us -> 4 us, 10 us -> 22 us, 100 us -> 202 us.
    // The least-squares fit must return the generating figures and a zero error.
    void recoversAnExactModel()
    {
        const std::vector<CalibrationSample> s { sample("conv", Bound::Compute, 1e-6, 4e-6),
            sample("conv", Bound::Compute, 1e-5, 2.2e-5), sample("conv", Bound::Compute, 1e-4, 2.02e-4) };
        const CalibrationGroup g = fitGroup(s);
        QCOMPARE(g.samples, 3);
        RFX_COMPARE_REL(g.overhead, 2e-6, 1e-9);
        RFX_COMPARE_REL(g.efficiency, 0.5, 1e-9);
        QVERIFY(g.rmsError < 1e-9);
        RFX_COMPARE_REL(g.r2, 1.0, 1e-9);
        QCOMPARE(g.minBound, 1e-6);
        QCOMPARE(g.maxBound, 1e-4);
        RFX_COMPARE_REL(g.predict(1e-3), 2e-6 + 2e-3, 1e-9); // extrapolates along the line
    }

    // Worked by hand: bounds 1 and 2 s, measured 1 and 3 s. No row is small enough to show a kernel's
    // overhead (kOverheadRowBound), so there is none (the old fit's line through both points had an
    // overhead of -1 s): 1/efficiency = Sbm / Sbb = (1*1 + 2*3) / (1 + 4) = 7/5, efficiency 5/7.
    // Relative errors then: 7/5 / 1 - 1 = 2/5 and 14/5 / 3 - 1 = -1/15; rms = sqrt((4/25 + 1/225) / 2)
    // = sqrt(37/450).
    void noSmallRowNoOverhead()
    {
        const CalibrationGroup g
            = fitGroup({ sample("pool", Bound::Memory, 1, 1), sample("pool", Bound::Memory, 2, 3) });
        QCOMPARE(g.overhead, 0.0);
        QCOMPARE(g.overheadSource, OverheadSource::None);
        RFX_COMPARE_REL(g.efficiency, 5.0 / 7.0, 1e-12);
        RFX_COMPARE_REL(g.rmsError, std::sqrt(37.0 / 450.0), 1e-12);
    }

    // Issue 51: the overhead is measured on small rows, the efficiency on large ones, never the
    // intercept of a line through large rows. Bounds 1 ms and 100 ms measured 2 ms and 110 ms: the old
    // fit drew the line through both (overhead 90/99 ms = 909 us, a per-kernel cost no kernel has);
    // now no overhead, and 1/efficiency = (1*2 + 100*110) / (1 + 100^2) = 11002/10001.
    // Lent a parent's measured 0.5 ms: 1/efficiency = (1*1.5 + 100*109.5) / 10001 = 10951.5/10001.
    void largeRowsAloneGiveNoOverhead()
    {
        const std::vector<CalibrationSample> rows { sample("conv", Bound::Compute, 1e-3, 2e-3),
            sample("conv", Bound::Compute, 0.1, 0.11) };
        CalibrationGroup g = fitGroup(rows);
        QCOMPARE(g.overhead, 0.0);
        QCOMPARE(g.overheadSource, OverheadSource::None);
        RFX_COMPARE_REL(g.efficiency, 10001.0 / 11002.0, 1e-9);
        g = fitGroup(rows, 0.5e-3);
        QCOMPARE(g.overhead, 0.5e-3);
        QCOMPARE(g.overheadSource, OverheadSource::Parent);
        RFX_COMPARE_REL(g.efficiency, 10001.0 / 10951.5, 1e-9);
    }

    // Small and large rows of one class, worked by hand: the model 3 us + bound / 0.5 for bounds 1, 2,
    // 100 and 1000 us (5, 7, 203, 2003 us) and a small row at 4 us slowed by a neighbour (13 us, not 11).
    // The efficiency from the large rows with the overhead taken off: c1 = Sb(m - c0) / Sbb
    // = (100 x 200 + 1000 x 2000) / (100^2 + 1000^2) = 2 at c0 = 3 us; the overhead the median of
    // the small rows' m - c1 b: median(3, 3, 5) = 3 us. The slowed row moves neither (a mean would
    // have made the overhead 3.67 us).
    void overheadFromSmallRowsEfficiencyFromLarge()
    {
        const CalibrationGroup g = fitGroup({ sample("conv1x1", Bound::Compute, 1e-6, 5e-6),
            sample("conv1x1", Bound::Compute, 2e-6, 7e-6), sample("conv1x1", Bound::Compute, 4e-6, 13e-6),
            sample("conv1x1", Bound::Compute, 100e-6, 203e-6), sample("conv1x1", Bound::Compute, 1000e-6, 2003e-6) });
        QCOMPARE(g.overheadSource, OverheadSource::Rows);
        QCOMPARE(g.overheadRows, 3);
        RFX_COMPARE_REL(g.overhead, 3e-6, 1e-6);
        RFX_COMPARE_REL(g.efficiency, 0.5, 1e-6);
        QCOMPARE(g.samples, 5);
    }

    // The classes: conv has small rows and measures 3 us (as above, without the slowed row); conv1x1's
    // rows are all large (100, 200, 400 us measured 150, 300, 600 us): it takes conv's 3 us, and
    // 1/efficiency = (100 x 147 + 200 x 297 + 400 x 597) / (100^2 + 200^2 + 400^2) = 312,900 / 210,000.
    // elementwise has no parent and large rows only (100, 200, 300 us measured 130, 260, 390 us): no
    // overhead, never the side's pooled one (measured here on the batch norms' small rows, 2 us + bound /
    // 0.25: 6 and 10 us at 1 and 2 us, whose kernel is not elementwise's), and 1/efficiency = 1.3.
    void classesBorrowAMeasuredOverhead()
    {
        std::vector<CalibrationSample> s;
        for (auto [b, m] : { std::pair { 1e-6, 5e-6 }, { 2e-6, 7e-6 }, { 100e-6, 203e-6 }, { 1000e-6, 2003e-6 } })
            s.push_back(sample("conv", Bound::Compute, b, m));
        for (auto [b, m] : { std::pair { 100e-6, 150e-6 }, { 200e-6, 300e-6 }, { 400e-6, 600e-6 } })
            s.push_back(sample("conv1x1", Bound::Compute, b, m));
        for (auto [b, m] : { std::pair { 1e-6, 6e-6 }, { 2e-6, 10e-6 }, { 100e-6, 402e-6 } })
            s.push_back(sample("batch_norm", Bound::Memory, b, m));
        for (auto [b, m] : { std::pair { 100e-6, 130e-6 }, { 200e-6, 260e-6 }, { 300e-6, 390e-6 } })
            s.push_back(sample("elementwise", Bound::Memory, b, m));
        const Calibration c = fitCalibration(s);
        const CalibrationGroup* conv = c.ownGroup("conv", Bound::Compute);
        const CalibrationGroup* pointwise = c.ownGroup("conv1x1", Bound::Compute);
        QVERIFY(conv && pointwise);
        RFX_COMPARE_REL(conv->overhead, 3e-6, 1e-6);
        QCOMPARE(pointwise->overheadSource, OverheadSource::Parent);
        RFX_COMPARE_REL(pointwise->overhead, 3e-6, 1e-6);
        RFX_COMPARE_REL(pointwise->efficiency, 210000.0 / 312900.0, 1e-9);
        const CalibrationGroup* bn = c.ownGroup("batch_norm", Bound::Memory);
        QVERIFY(bn && bn->overheadSource == OverheadSource::Rows);
        RFX_COMPARE_REL(bn->overhead, 2e-6, 1e-6);
        const CalibrationGroup* elementwise = c.ownGroup("elementwise", Bound::Memory);
        QVERIFY(elementwise);
        QCOMPARE(elementwise->overheadSource, OverheadSource::None);
        QCOMPARE(elementwise->overhead, 0.0);
        RFX_COMPARE_REL(elementwise->efficiency, 1 / 1.3, 1e-9);
        QVERIFY(c.ownGroup("all", Bound::Memory)->overheadSource == OverheadSource::Rows);
    }

    // The sizes a fit saw, and a row outside them (issue 51): a compute-bound fit on rows of 1 to 100
    // MFLOP calls 300 MFLOP and 0.4 MFLOP extrapolated (more than twice outside), 150 MFLOP and 0.6
    // MFLOP not; a memory-bound one judges by bytes.
    void rowsOutsideTheFittedSizesAreExtrapolated()
    {
        std::vector<CalibrationSample> s;
        for (double f : { 1e6, 10e6, 100e6 })
            s.push_back({ "row", "conv", Bound::Compute, f / 1e11, 2 * f / 1e11, f, f / 50 });
        const CalibrationGroup g = fitGroup(s);
        QCOMPARE(g.minFlops, 1e6);
        QCOMPARE(g.maxFlops, 100e6);
        QCOMPARE(g.minBytes, 2e4);
        QVERIFY(g.extrapolates(300e6, 1));
        QVERIFY(g.extrapolates(0.4e6, 1e9));
        QVERIFY(!g.extrapolates(150e6, 1e12)); // the bytes do not matter on the compute side
        QVERIFY(!g.extrapolates(0.6e6, 1));
        CalibrationGroup memory = g;
        memory.bound = Bound::Memory;
        QVERIFY(memory.extrapolates(1, 1e7)); // 10 MB against 20 kB to 2 MB
        QVERIFY(!memory.extrapolates(1e15, 1e6));

        // Applied to a report: each row says which fit predicted it and whether it extrapolates.
        const Device d = test::roundDevice();
        Report report = *analyzeConfig(Config {}, { d }).report;
        Calibration c;
        c.deviceId = d.id;
        CalibrationGroup conv = g;
        conv.opClass = "conv";
        c.groups.push_back(conv);
        for (Bound side : { Bound::Compute, Bound::Memory })
            c.groups.push_back({ "all", side, 0, 0.5, 10, 0, 1, 0, 0 });
        QCOMPARE(applyCalibration(report, c, "cal.json"), 1);
        int convRows = 0, outside = 0;
        for (const LayerResult& l : report.results[0].layers) {
            const CalibrationGroup* by = c.groupFor(l.opClass, l.bound);
            QCOMPARE(l.calibratedBy, std::string_view(by->opClass));
            const bool byConv = by == &c.groups[0];
            convRows += byConv;
            // The pooled fits here hold no range: nothing they predict is called extrapolated.
            QCOMPARE(l.calibrationExtrapolated, byConv && (l.flops > 200e6 || l.flops < 0.5e6));
            outside += l.calibrationExtrapolated;
        }
        QVERIFY(convRows > 0 && outside > 0); // the 572 U-Net's convolutions reach 4.8 GFLOP
    }

    // A class fitted on small rows only (joint) lends a row more than twice its largest to its parent's
    // fit, else the side's pooled one, where that one saw large rows (issue 51: MobileNetV2's depthwise
    // rows at batch 8, 77 MB each, took the 38 % of three probe rows of 1 to 3 MB and came out 2.3
    // times their measured time). A row within twice its range keeps the class's own fit.
    void jointFitsLendLargeRows()
    {
        auto group = [](const char* cls, double efficiency, OverheadSource source) {
            CalibrationGroup g;
            g.opClass = cls;
            g.bound = Bound::Memory;
            g.overhead = 6e-6;
            g.efficiency = efficiency;
            g.samples = 3;
            g.minBytes = 1e6, g.maxBytes = 3e6, g.minFlops = 1e5, g.maxFlops = 1e6;
            g.overheadSource = source;
            return g;
        };
        Calibration c;
        c.groups = { group("depthwise", 0.38, OverheadSource::Joint), group("all", 0.70, OverheadSource::Rows) };
        c.groups[1].maxBytes = 100e6;
        LayerResult row;
        row.opClass = "depthwise";
        row.bound = Bound::Memory;
        row.flops = 1e6;
        row.bytes = 2e6; // inside: its own class
        CalibrationUse use = calibrationUse(c, row);
        QCOMPARE(use.group, &c.groups[0]);
        QVERIFY(!use.borrowed && !use.extrapolated);
        row.bytes = 77e6; // 26 times its largest: the pooled fit, which saw 100 MB
        use = calibrationUse(c, row);
        QCOMPARE(use.group, &c.groups[1]);
        QVERIFY(use.borrowed && !use.extrapolated);
        // 9 x 96 x 112 x 112 x 8 B at 57 GB/s: 1.35 ms of bound; 6 us + 1.35 / 0.70 = 1.94 ms, where
        // the joint fit said 6 us + 1.35 / 0.38 = 3.56 ms.
        QCOMPARE(use.group->predict(1.35e-3), 6e-6 + 1.35e-3 / 0.70);
        // The parent's fit first, where it has one of its own that is not joint.
        c.groups.push_back(group("conv", 0.80, OverheadSource::Rows));
        c.groups.back().maxBytes = 200e6;
        QCOMPARE(calibrationUse(c, row).group, &c.groups[2]);
        // Where every candidate is joint too, the class keeps its own (said extrapolated).
        c.groups[1].overheadSource = c.groups[2].overheadSource = OverheadSource::Joint;
        use = calibrationUse(c, row);
        QCOMPARE(use.group, &c.groups[0]);
        QVERIFY(use.extrapolated);
    }

    // One row: no overhead can be told apart; the efficiency is bound / measured.
    void oneRowGivesItsOwnEfficiency()
    {
        const CalibrationGroup g = fitGroup({ sample("data", Bound::Memory, 3e-6, 1e-6) });
        QCOMPARE(g.overhead, 0.0);
        RFX_COMPARE_REL(g.efficiency, 3.0, 1e-12); // 3x faster than the DRAM roof: held in cache
        QVERIFY(g.rmsError < 1e-12);
    }

    void unusableRowsAreIgnoredAndNoneIsAnError()
    {
        const CalibrationGroup g
            = fitGroup({ sample("conv", Bound::Compute, 1e-6, 2e-6), sample("conv", Bound::Compute, 0, 1),
                sample("conv", Bound::Compute, 1e-6, std::nan("")), sample("conv", Bound::Compute, 1e-6, 0) });
        QCOMPARE(g.samples, 1);
        RFX_COMPARE_REL(g.efficiency, 0.5, 1e-12);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, fitCalibration({ sample("conv", Bound::Compute, 0, 0) }));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, fitCalibration({}));
    }

    // Classes with rows get their own fit, every side a pooled one; a class without rows borrows its side's
    // pooled fit, and a side without rows the other side's.
    void groupsAndFallbacks()
    {
        // Fewer than kMinClassSamples rows make no fit of their own: they count in the pooled fit.
        const Calibration few = fitCalibration({ sample("conv", Bound::Compute, 1e-3, 2e-3),
            sample("conv", Bound::Compute, 2e-3, 4e-3), sample("conv1x1", Bound::Compute, 1e-3, 4e-3) });
        QVERIFY(few.ownGroup("conv1x1", Bound::Compute) == nullptr && few.ownGroup("conv", Bound::Compute) == nullptr);
        QCOMPARE(few.groupFor("conv1x1", Bound::Compute)->opClass, std::string("all"));
        QCOMPARE(few.groupFor("conv1x1", Bound::Compute)->samples, 3);

        const Calibration c
            = fitCalibration({ sample("conv", Bound::Compute, 1e-3, 2e-3), sample("conv", Bound::Compute, 2e-3, 4e-3),
                sample("conv", Bound::Compute, 3e-3, 6e-3), sample("matrix", Bound::Compute, 1e-3, 4e-3),
                sample("matrix", Bound::Compute, 2e-3, 8e-3), sample("matrix", Bound::Compute, 4e-3, 16e-3) });
        const CalibrationGroup* conv = c.groupFor("conv", Bound::Compute);
        QVERIFY(conv && conv->opClass == "conv");
        RFX_COMPARE_REL(conv->efficiency, 0.5, 1e-9);
        const CalibrationGroup* matrix = c.groupFor("matrix", Bound::Compute);
        QVERIFY(matrix && matrix->opClass == "matrix");
        RFX_COMPARE_REL(matrix->efficiency, 0.25, 1e-9);
        const CalibrationGroup* deconv = c.groupFor("conv_transpose", Bound::Compute);
        QVERIFY(deconv && deconv->opClass == "all" && deconv->samples == 6);
        const CalibrationGroup* memory = c.groupFor("elementwise", Bound::Memory);
        QVERIFY(memory && memory->opClass == "all" && memory->bound == Bound::Memory);
        QCOMPARE(memory->samples, 0); // borrowed from the compute side
        QCOMPARE(memory->efficiency, deconv->efficiency);
    }
};

QTEST_APPLESS_MAIN(TestCalibration)
#include "tst_calibration.moc"
