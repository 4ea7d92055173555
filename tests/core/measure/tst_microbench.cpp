// "Measure this machine" (core/microbench.h): the micro-benchmarks run, report sane figures, can be
// cancelled, and write a device file the loader accepts. No timing thresholds: a slow or busy machine
// gives smaller numbers, not a failure.
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
        QCOMPARE(r->threads, 2);
        QVERIFY(!r->isa.empty());
        QVERIFY(r->memoryBytes > 0);
        QVERIFY(std::is_sorted(fractions.begin(), fractions.end()));
        QCOMPARE(fractions.back(), 1.0);
        QCOMPARE(fractions.size(), size_t(5 * 2 + 1)); // 5 tests x 2 repeats, then "done"

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
        QVERIFY(d.notes.find("tdp_w is the figure given when measuring (not measured)") != std::string::npos);
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
