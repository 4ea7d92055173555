// "Measure this machine" (core/microbench.h): the micro-benchmarks run, report sane figures, can be
// cancelled, and write a device file the loader accepts. One check holds the figures against what the
// core can do per cycle at the clock measured in the same run (cpu_expectations.h), which a slower
// machine does not change: its clock and its figures go down together.
#include "device_loader.h"
#include "microbench.h"
#include "testutils.h"

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
        const auto r = runMicrobenchmarks(quick(), [&](double f, const std::string& stage) {
            fractions.push_back(f);
            return !stage.empty();
        });
        QVERIFY(r);
        QVERIFY(sane(r->fp32) && sane(r->fp64) && sane(r->dram) && sane(r->l1) && sane(r->l2));
        QVERIFY(r->l3.best == 0 || sane(r->l3));
        QVERIFY(r->int8.best == 0 || sane(r->int8));
        QVERIFY(r->cores >= 1 && r->cores <= r->threads);
        QCOMPARE(r->threads, 2);
        QVERIFY(!r->isa.empty());
        QVERIFY(r->memoryBytes > 0);
        QVERIFY(std::is_sorted(fractions.begin(), fractions.end()));
        QCOMPARE(fractions.back(), 1.0);
        // 2 repeats of each test (clock, FP32, FP64, L1, L2, DRAM and, where there are, int8 and L3), the
        // usable-L3 probes, then "done"
        const size_t tests = 6 + (r->int8.best > 0) + (r->l3.best > 0);
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

    // The per-cycle table: CPUID's display family and model name the core; the figures multiply out.
    void knowsItsCores()
    {
        const auto zen5 = cycleFiguresFor({ "AuthenticAMD", 0x1A, 0x02 }); // EPYC 9005 (Turin)
        QVERIFY(zen5);
        QCOMPARE(zen5->microarchitecture, std::string("AMD Zen 5"));
        QCOMPARE(zen5->fp32Flop, 64.0); // 2 FMA pipes x 16 lanes x 2
        QCOMPARE(zen5->l1Bytes, 128.0); // 2 x 64-byte loads
        QCOMPARE(cycleFiguresFor({ "AuthenticAMD", 0x19, 0x11 })->microarchitecture, std::string("AMD Zen 4")); // EPYC 9004
        QCOMPARE(cycleFiguresFor({ "AuthenticAMD", 0x19, 0x11 })->fp32Flop, 32.0); // AVX-512 in two 256-bit halves
        QCOMPARE(cycleFiguresFor({ "GenuineIntel", 6, 0x8F })->microarchitecture, std::string("Intel Sapphire Rapids"));
        QVERIFY(!cycleFiguresFor({ "AuthenticAMD", 0x1A, 0x24 })); // Zen 5 mobile: 256-bit data paths, not in the table
        QVERIFY(!cycleFiguresFor({ "GenuineIntel", 6, 0x97 })); // Alder Lake: hybrid cores, no one figure
        QVERIFY(!cycleFiguresFor({}));
        // 2 Zen 5 cores at 3.45 GHz: 64 x 2 x 3.45e9 = 441.6 GFLOP/s; int8 4 x that; L1 128 x 2 x 3.45e9 = 883.2 GB/s.
        const ExpectedFigures e = expectedFigures(*zen5, 2, 3.45e9);
        RFX_COMPARE_REL(e.fp32, 441.6e9, 1e-12);
        RFX_COMPARE_REL(e.int8, 1766.4e9, 1e-12);
        RFX_COMPARE_REL(e.l1, 883.2e9, 1e-12);
        RFX_COMPARE_REL(e.l3, 220.8e9, 1e-12);
    }

    // Measured / expected on this machine, where its core is in the table: the compute kernels reach
    // the FMA and VNNI units' rate, the loads the L1's, the L2 and L3 sums at least half their fill
    // rates (AMD and Intel quote peaks that a read stream approaches, never meets). Above 110 % means a
    // wrong clock or a wrong table. Optimised builds only: sanitizers and -O0 slow the kernels, not the
    // clock.
    void reachesWhatTheCoreCanDo()
    {
#if !defined(__OPTIMIZE__) || defined(__SANITIZE_ADDRESS__)
        QSKIP("an optimised build without sanitizers measures the kernels");
#endif
        if (!cycleFiguresFor(detectCpuIdentity()))
            QSKIP("no per-cycle figures for this CPU");
        MicrobenchOptions o = quick();
        o.secondsPerTest = 0.03;
        o.repeats = 3;
        const auto r = runMicrobenchmarks(o, {});
        QVERIFY(r && r->measuredClockHz > 0);
        auto within = [&](const char* what, double measured, double expected, double low) {
            const double ratio = measured / expected;
            const std::string why = std::string(what) + ": " + std::to_string(ratio * 100) + " % of expected at "
                + std::to_string(r->measuredClockHz / 1e9) + " GHz";
            QVERIFY2(ratio >= low && ratio <= 1.1, why.c_str());
            qInfo("%s", why.c_str());
        };
        within("FP32", r->fp32.best, r->expected.fp32, 0.85);
        within("FP64", r->fp64.best, r->expected.fp64, 0.85);
        if (r->int8.best > 0)
            within("int8", r->int8.best, r->expected.int8, 0.8);
        within("L1", r->l1.best, r->expected.l1, 0.7);
        within("L2", r->l2.best, r->expected.l2, 0.5);
        if (r->l3.best > 0 && r->expected.l3 > 0)
            within("L3", r->l3.best, r->expected.l3, 0.5);
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
