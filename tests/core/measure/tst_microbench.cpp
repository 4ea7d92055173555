// "Measure this machine" (core/microbench.h): the micro-benchmarks run, report sane figures, can be
// cancelled, and write a device file the loader accepts. One check holds the figures against what the
// core can do per cycle at the clock measured in the same run (cpu_expectations.h), which a slower
// machine does not change: its clock and its figures go down together.
#include "devices/device_loader.h"
#include "measure/ceilings_age.h"
#include "measure/microbench.h"
#include "testutils.h"

#include <algorithm>
#include <cmath>

using namespace rfx;

namespace {

MicrobenchOptions quick() { return test::quickMicrobench(); }

bool sane(const BenchFigure& f) { return std::isfinite(f.best) && f.best > 0 && f.spread >= 0 && f.spread <= 1; }

} // namespace

class TestMicrobench : public QObject {
    Q_OBJECT

private slots:
    void runsAndWritesADevice()
    {
        std::vector<double> fractions;
        MicrobenchOptions withKernels = quick();
        withKernels.kernelProbes = true;
        const auto r = runMicrobenchmarks(withKernels, [&](double f, const std::string& stage) {
            fractions.push_back(f);
            return !stage.empty();
        });
        QVERIFY(r);
        QVERIFY(sane(r->fp32) && sane(r->fp64) && sane(r->dram) && sane(r->l1) && sane(r->l2));
        QVERIFY(r->l3.best == 0 || sane(r->l3));
        QVERIFY(r->int8.best == 0 || sane(r->int8));
        // The memory roof is the faster of the read stream and the triad, both measured (issue 50: a
        // decode step's weights, read alone, outran a triad's roof).
        QVERIFY(sane(r->dramRead) && sane(r->dramTriad));
        // And no lower than oneDNN's matrix-vector product over weights four times the L3, nor the FP32
        // peak than its 3x3 convolution (issue 72): a ceiling bounds every kernel the machine runs.
        QVERIFY(r->kernels.matrixFlops > 0 && r->kernels.streamBytes > 0);
        QVERIFY(r->kernels.streamWeightBytes >= 256.0 * 1024 * 1024);
        QVERIFY2(r->kernels.matrixKernel.starts_with("convolution (")
                && r->kernels.streamKernel.find('(') != std::string::npos,
            (r->kernels.matrixKernel + " / " + r->kernels.streamKernel).c_str());
        QCOMPARE(r->dram.best, std::max({ r->dramRead.best, r->dramTriad.best, r->kernels.streamBytes }));
        QVERIFY(r->fp32.best >= r->kernels.matrixFlops);
        QCOMPARE(
            r->kernels.fp32Chains > 0, r->fp32.best == r->kernels.matrixFlops && r->fp32.best > r->kernels.fp32Chains);
        QCOMPARE(kernelRateLines(*r).size(), size_t(2));
        QVERIFY(r->cores >= 1 && r->cores <= r->threads);
        // The vector units' clock where the core's FMA latency is known: within 3 % of the integer
        // clock on AMD's cores, which have no AVX-512 licence (this Zen 5: 0.98-1.017 x over four runs; the
        // test allows 10 % for a shared VM's noise). Optimised builds only: the clock is timed on the FMA
        // chains, which the sanitizers' -O1 slows (the asan build read 0.53 GHz against 3.06).
        if (r->perCycle && r->perCycle->fmaLatency > 0 && r->measuredClockHz > 0) {
            QVERIFY(r->vectorClockHz > 0);
#if defined(__OPTIMIZE__) && !RFX_TEST_SANITIZED
            constexpr bool kernelsAtSpeed = true;
#else
            constexpr bool kernelsAtSpeed = false;
#endif
            if (kernelsAtSpeed && r->cpu.vendor == "AuthenticAMD" && r->clockOccupancy >= kCeilingBands.undisturbed)
                QVERIFY2(std::abs(r->vectorClockHz / r->measuredClockHz - 1) < 0.1,
                    (std::to_string(r->vectorClockHz) + " / " + std::to_string(r->measuredClockHz)).c_str());
        }
        QCOMPARE(r->threads, 2);
        QVERIFY(!r->isa.empty());
        QVERIFY(r->memoryBytes > 0);
        QVERIFY(std::is_sorted(fractions.begin(), fractions.end()));
        QCOMPARE(fractions.back(), 1.0);
        // 2 repeats of each test (clock, FP32, FP64, L1, L2, DRAM triad and read and, where there are, int8
        // and L3), the usable-L3 probes, then "done"
        const size_t tests = 7 + (r->int8.best > 0) + (r->l3.best > 0);
        QVERIFY2(fractions.size() >= tests * 2 + 1, std::to_string(fractions.size()).c_str());

        const std::string json = microbenchDeviceJson(*r, "this-machine", "Test CPU (measured)", 65);
        const DeviceLoad load = parseDevice(json, "this-machine.json");
        QVERIFY2(load.device, load.diagnostics.empty() ? json.c_str() : toString(load.diagnostics[0]).c_str());
        const Device& d = *load.device;
        QCOMPARE(d.kind, std::string("cpu"));
        QCOMPARE(d.tdpWatts, 65.0);
        QCOMPARE(d.idleWatts, 6.5);
        RFX_COMPARE_REL(d.peak.at("fp32"), r->fp32.best, 1e-3);
        RFX_COMPARE_REL(d.peak.at("fp64"), r->fp64.best, 1e-3);
        QVERIFY(d.l1Bandwidth >= d.l2Bandwidth && d.l2Bandwidth >= d.dramBandwidth); // the loader's order holds
        QCOMPARE(d.cores, r->cores);
        RFX_COMPARE_REL(d.l2Bytes, r->l2Bytes * r->cores, 1e-9); // the whole chip's L2, as the shipped files give it
        if (r->l3.best > 0) {
            QVERIFY(d.l3Bandwidth >= d.dramBandwidth && d.l3Bandwidth <= d.l2Bandwidth);
            QVERIFY(d.l3Bytes > 0 && d.l3Bytes <= r->l3Bytes);
        }
        if (r->int8.best > 0)
            RFX_COMPARE_REL(d.peak.at("int8"), r->int8.best, 1e-3);
        QVERIFY(d.notes.find("tdp_w is the figure given when measuring (not measured)") != std::string::npos);
    }

    // When this machine's ceilings are measured again (one rule for the CLI and the window): missing, or
    // the clock under load over 3 % from theirs. Measured at 3.40 GHz: 3.50 GHz is 2.9 % off (they hold),
    // 3.55 GHz 4.4 % (measured again), 3.29 GHz 3.2 % below (again); an unknown clock (0) or a device
    // without one (boost 0) never asks.
    void ceilingsOutOfDateWhenTheClockDrifts()
    {
        Device d;
        d.boostClockHz = 3.4e9;
        QVERIFY(!ceilingsOutOfDate(&d, 3.5e9));
        QCOMPARE(ceilingsOutOfDate(&d, 3.55e9),
            std::optional<std::string>(
                "the clock under load is 3.55 GHz, this-machine's ceilings were measured at 3.40 GHz: "
                "measuring them again"));
        QVERIFY(ceilingsOutOfDate(&d, 3.29e9));
        QVERIFY(!ceilingsOutOfDate(&d, 0));
        d.boostClockHz = 0;
        QVERIFY(!ceilingsOutOfDate(&d, 3.55e9));
        QCOMPARE(ceilingsOutOfDate(nullptr, 0),
            std::optional<std::string>("no device 'this-machine' yet: measuring this CPU's ceilings first"));
    }

    // A ceiling that halves is said, in words: the Zen 2 run of issue 39 (FP32 98.8 GFLOP/s where 2 cores
    // x 3.0 GHz x 32 FLOP/cycle = 192 GFLOP/s), with no table (FP32 against FP64) and against the
    // machine's earlier file; a figure near its roof raises nothing.
    void saysWhenACeilingHalves()
    {
        MicrobenchResult r;
        r.cores = 2;
        r.measuredClockHz = 3.0e9;
        r.perCycle = cycleFiguresFor({ "AuthenticAMD", 0x17, 0x31 });
        r.expected = expectedFigures(*r.perCycle, 2, 3.0e9);
        r.fp32.best = 98.8e9; // 51 % of 192
        r.fp64.best = 95.0e9; // 99 % of 96
        r.l1.best = 380e9; // 99 % of 384
        r.l2.best = 130e9; // 68 % of 192: a note, not a suspicion
        r.l3.best = 80e9; // 42 % of 192: suspect
        auto doubts = ceilingDoubts(r);
        QCOMPARE(doubts.size(), size_t(3));
        QCOMPARE(doubts[0].figure, std::string("FP32"));
        QVERIFY(doubts[0].suspect);
        QVERIFY2(
            doubts[0].text.find("FP32 98.8 GFLOP/s is 51 % of what 2 cores of AMD Zen 2 do at the measured 3.00 GHz "
                                "(32 FLOP/cycle: 192 GFLOP/s)")
                != std::string::npos,
            doubts[0].text.c_str());
        QCOMPARE(doubts[1].figure, std::string("L2"));
        QVERIFY(!doubts[1].suspect);
        QCOMPARE(doubts[2].figure, std::string("L3"));
        QVERIFY(doubts[2].suspect);

        // No table: FP32 at 1.04 x FP64 where every x86 vector unit does 2 x.
        r.perCycle.reset();
        r.expected = {};
        doubts = ceilingDoubts(r);
        QCOMPARE(doubts.size(), size_t(1));
        QVERIFY2(doubts[0].suspect && doubts[0].text.find("is only 1.04 x FP64") != std::string::npos,
            doubts[0].text.c_str());

        // The machine's earlier file, measured at 3.1 GHz: 192.1 GFLOP/s then is 185.9 at this run's 3.0 GHz.
        r.fp64.best = 49.4e9;
        MicrobenchOptions::Earlier earlier;
        earlier.fp32 = 192.1e9;
        earlier.clockHz = 3.1e9;
        earlier.cores = 2;
        doubts = ceilingDoubts(r, earlier);
        QCOMPARE(doubts.size(), size_t(1));
        QVERIFY2(doubts[0].text.find(
                     "is 53 % of this machine's earlier measurement (192 GFLOP/s, at this run's clock 186 GFLOP/s)")
                != std::string::npos,
            doubts[0].text.c_str());
        earlier.cores = 4; // another machine's shape: not compared
        QVERIFY(ceilingDoubts(r, earlier).empty());

        // Near the roof: nothing.
        r.perCycle = cycleFiguresFor({ "AuthenticAMD", 0x17, 0x31 });
        r.expected = expectedFigures(*r.perCycle, 2, 3.0e9);
        r.fp32.best = 190e9;
        r.fp64.best = 95e9;
        r.l2.best = 170e9;
        r.l3.best = 160e9;
        QVERIFY(ceilingDoubts(r).empty());

        // A clock measured while another process shared a core (a busy loop pinned to CPU 1 here: 1.47 GHz
        // at a 53 % share) halves with the ceilings, which then look right against it: said, first.
        r.clockOccupancy = 0.53;
        r.l1.occupancy = 0.52;
        doubts = ceilingDoubts(r);
        QCOMPARE(doubts.size(), size_t(2));
        QCOMPARE(doubts[0].figure, std::string("clock"));
        QVERIFY2(doubts[0].text.find(
                     "while a thread had its CPU 53 % of the time at best: suspect, and every ceiling with it")
                != std::string::npos,
            doubts[0].text.c_str());
        QCOMPARE(doubts[1].figure, std::string("L1"));
        // A figure above what the core does at the measured clock: the clock is what is wrong. FP64
        // 131 % of 2 cores x 16 FLOP/cycle x 1.5 GHz = 48 GFLOP/s (seen while a build shared the cores).
        {
            MicrobenchResult low = r;
            low.clockOccupancy = 1;
            low.l1.occupancy = 1;
            low.measuredClockHz = 1.5e9;
            low.expected.fp64 = 2 * 16 * 1.5e9;
            low.fp64.best = 1.31 * low.expected.fp64;
            const auto above = ceilingDoubts(low);
            QVERIFY(!above.empty());
            QCOMPARE(above.front().figure, std::string("clock"));
            QVERIFY2(above.front().suspect
                    && above.front().text.find("is too low for FP64 62.9 GFLOP/s (131 % of what") != std::string::npos,
                above.front().text.c_str());
        }
        r.doubts = doubts;
        const std::string json = microbenchDeviceJson(r, "this-machine", "Test CPU (measured)", 65);
        QVERIFY2(json.find("SUSPECT: The clock under load") != std::string::npos
                && json.find(kSuspectAdvice) != std::string::npos,
            json.c_str());
    }

    // Measured / expected on this machine, where its core is in the table: the compute kernels reach
    // the FMA and VNNI units' rate, the loads the L1's, the L2 and L3 sums at least half their fill
    // rates (AMD and Intel quote peaks that a read stream approaches, never meets). Above 110 % means a
    // wrong clock or a wrong table. A shared machine (CI once measured L1 at 67 % while another tenant
    // ran) is why a run may be repeated, not a reason to pass. Optimised builds only: sanitizers and
    // -O0 slow the kernels, not the clock.
    void reachesWhatTheCoreCanDo()
    {
#if !defined(__OPTIMIZE__) || RFX_TEST_SANITIZED
        QSKIP("an optimised build without sanitizers measures the kernels");
#endif
        if (!cycleFiguresFor(detectCpuIdentity()))
            QSKIP("no per-cycle figures for this CPU");
        // The per-cycle table is right when a quiet run lands every figure in its band
        // (kCeilingBands, the product's own bands). A doubt explains a noisy run, never a wrong table:
        // a figure outside its band counts against the table unless that run measured it while a
        // thread lacked its CPU (its occupancy, or the clock's, under kCeilingBands.undisturbed). A
        // wrong table entry is outside in every run; noise rarely is three times over, so the test
        // fails only when three runs in a row each leave an undisturbed figure outside its band.
        const CeilingBands& band = kCeilingBands;
        std::vector<std::string> outside;
        for (int attempt = 0; attempt < 3; ++attempt) {
            MicrobenchOptions o = quick();
            o.secondsPerTest = 0.03;
            o.repeats = 3;
            const auto r = runMicrobenchmarks(o, {});
            QVERIFY(r && r->measuredClockHz > 0);
            const bool clockDisturbed = r->clockOccupancy < band.undisturbed;
            outside.clear();
            auto within = [&](const char* what, const BenchFigure& f, double expected, double low, double high) {
                if (!(f.best > 0) || !(expected > 0))
                    return;
                const double ratio = f.best / expected;
                const bool disturbed = clockDisturbed || f.occupancy < band.undisturbed;
                const std::string why = std::string(what) + ": " + std::to_string(ratio * 100) + " % of expected at "
                    + std::to_string(r->expectationClockHz() / 1e9) + " GHz (integer clock "
                    + std::to_string(r->measuredClockHz / 1e9) + ", vector " + std::to_string(r->vectorClockHz / 1e9)
                    + ")" + (disturbed ? " (disturbed run)" : "");
                qInfo("run %d: %s", attempt + 1, why.c_str());
                if ((ratio < low || ratio > high) && !disturbed)
                    outside.push_back(why);
            };
            within("FP32", r->fp32, r->expected.fp32, band.compute, band.above);
            within("FP64", r->fp64, r->expected.fp64, band.compute, band.above);
            within("int8", r->int8, r->expected.int8, band.compute, band.above);
            within("L1", r->l1, r->expected.l1, band.l1, band.above);
            within("L2", r->l2, r->expected.l2, band.cache, 1e300); // a stream may beat the documented fill width
            within("L3", r->l3, r->expected.l3, band.cache, 1e300);
            if (outside.empty())
                return;
        }
        std::string all;
        for (const std::string& w : outside)
            all += w + "; ";
        QVERIFY2(outside.empty(), ("outside its band in three runs (the last: " + all + ")").c_str());
    }

    // The bands the test above holds the table to are the product's (one place), worked by hand: a
    // figure at 79 % of per-cycle x cores x clock is suspect for compute, 59 % for L1, 49 % for L2.
    void bandsAreTheProducts()
    {
        MicrobenchResult r;
        r.cores = 2;
        r.measuredClockHz = 3e9;
        r.clockOccupancy = 1;
        CycleFigures c;
        c.microarchitecture = "Zen 3";
        c.fp32Flop = 32;
        c.fp64Flop = 16;
        c.l1Bytes = 64;
        c.l2Bytes = 32;
        r.perCycle = c;
        // 2 cores x 3 GHz: FP32 192 GFLOP/s, FP64 96, L1 384 GB/s, L2 192 GB/s
        r.expected.fp32 = 192e9;
        r.expected.fp64 = 96e9;
        r.expected.l1 = 384e9;
        r.expected.l2 = 192e9;
        r.fp32.best = 0.79 * 192e9;
        r.fp64.best = 0.81 * 96e9;
        r.l1.best = 0.59 * 384e9;
        r.l2.best = 0.49 * 192e9;
        auto suspect = [&](const char* figure) {
            for (const auto& d : ceilingDoubts(r))
                if (d.figure == figure && d.suspect)
                    return true;
            return false;
        };
        QVERIFY(suspect("FP32"));
        QVERIFY(!suspect("FP64"));
        QVERIFY(suspect("L1"));
        QVERIFY(suspect("L2"));
        QCOMPARE(kCeilingBands.compute, 0.8);
        QCOMPARE(kCeilingBands.l1, 0.6);
        QCOMPARE(kCeilingBands.cache, 0.5);
    }

    // Cancelling at the first step stops before any benchmark runs; at a later step, within one repeat.
    void cancels()
    {
        int calls = 0;
        QVERIFY(!runMicrobenchmarks(quick(), [&](double, const std::string&) { return ++calls < 1; }));
        QCOMPARE(calls, 1);
        calls = 0;
        QVERIFY(!runMicrobenchmarks(quick(), [&](double, const std::string&) { return ++calls < 4; }));
        QCOMPARE(calls, 4);
    }
};

QTEST_GUILESS_MAIN(TestMicrobench)
#include "tst_microbench.moc"
