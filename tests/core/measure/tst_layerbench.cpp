// Measuring a network's rows with oneDNN (issue 18), in quick mode: every row runs or says why not,
// times are positive and ordered (best <= median), the CSV reads back through the measurement
// importer and maps onto the model's rows, budgets, memory limits, cancelling and refused
// configurations behave. No assertion on how fast anything is: the machine decides that.
#include "base/format.h"
#include "engine/roofline.h"
#include "io/measurements.h"
#include "measure/layer_bench.h"
#include "model/networks.h"
#include "open/build_network.h"
#include "testpaths.h"
#include "testutils.h"

#include <QTest>

#include <cmath>

using namespace rfx;

namespace {

// Every op of the JSON format at small sizes: convolutions with and without batch norm and ReLU,
// pools, a residual add, a concat, a transposed convolution, a linear layer.
const char* kSmallNet = R"({
  "schema": 1, "name": "every op",
  "input": { "channels": 3, "height": 16, "width": 16 },
  "layers": [
    { "name": "conv1", "op": "conv", "out_channels": 8, "kernel": 3, "padding": 1, "relu": true },
    { "name": "conv2", "op": "conv", "out_channels": 8, "kernel": 3, "padding": 1, "batch_norm": true, "bias": false },
    { "name": "res", "op": "add", "inputs": ["conv1", "conv2"] },
    { "name": "pool", "op": "maxpool", "kernel": 2 },
    { "name": "grouped", "op": "conv", "out_channels": 8, "kernel": 3, "padding": 1, "groups": 4 },
    { "name": "up", "op": "conv_transpose", "out_channels": 8, "kernel": 2, "stride": 2 },
    { "name": "join", "op": "concat", "inputs": ["up", "res"] },
    { "name": "avg", "op": "avgpool", "kernel": 16 },
    { "name": "fc", "op": "linear", "out_features": 10 }
  ] })";

Network smallNet()
{
    BuildResult b = parseNetworkJson(kSmallNet, "every-op.json", 2, false);
    if (!b.network)
        qFatal("%s", b.error.c_str());
    return std::move(*b.network);
}

void expectEveryRowAccounted(const Network& net, const NetworkMeasurement& m)
{
    QCOMPARE(m.rows.size(), net.layers.size());
    for (size_t i = 0; i < net.layers.size(); ++i) {
        const RowMeasurement& r = m.rows[i];
        QCOMPARE(r.layer, net.layers[i].name);
        QVERIFY2(r.measured != !r.skipped.empty(), r.layer.c_str());
        if (!r.measured)
            continue;
        QVERIFY2(r.best > 0 && r.best <= r.median, r.layer.c_str());
        QVERIFY(r.spread >= 0);
        QVERIFY(r.runs >= 1 && r.runs <= LayerBenchOptions::quickMode().runs);
        QVERIFY(r.reorder >= 0);
        QVERIFY2(!r.primitive.empty(), r.layer.c_str());
    }
}

} // namespace

class TestLayerBench : public QObject {
    Q_OBJECT

private slots:
    void everyOpOfTheJsonFormatRuns()
    {
        const Network net = smallNet();
        std::vector<double> fractions;
        const NetworkMeasurement m
            = measureNetwork(net, Config {}, LayerBenchOptions::quickMode(), [&](double f, const std::string&) {
                  fractions.push_back(f);
                  return true;
              });
        QVERIFY2(m.error.empty(), m.error.c_str());
        QVERIFY(!m.cancelled);
        expectEveryRowAccounted(net, m);
        for (const RowMeasurement& r : m.rows)
            QVERIFY2(r.measured, (r.layer + ": " + r.skipped).c_str());
        QCOMPARE(m.dataType, std::string("f32"));
        QVERIFY(m.library.starts_with("oneDNN 2."));
        QVERIFY(m.threads >= 1);
        QVERIFY(std::is_sorted(fractions.begin(), fractions.end()));
        QCOMPARE(fractions.back(), 1.0);
        // The row kinds map onto the primitives named.
        auto primitiveOf = [&](const std::string& layer) {
            for (const RowMeasurement& r : m.rows)
                if (r.layer == layer)
                    return r.primitive;
            return std::string();
        };
        QVERIFY(primitiveOf("conv1").starts_with("convolution ("));
        QVERIFY(primitiveOf("up").starts_with("deconvolution ("));
        QVERIFY(primitiveOf("fc").starts_with("inner_product ("));
        QVERIFY(primitiveOf("pool").starts_with("pooling ("));
        QVERIFY(primitiveOf("join").starts_with("concat ("));
        QVERIFY(primitiveOf("res").starts_with("binary ("));
        // Timed as a framework runs them: no row on a reference kernel where the CPU has the vector
        // units oneDNN's optimized kernels need (pooling in plain NCHW ran simple_nchw: 38x its bound).
        Config int8;
        int8.bits = 8;
        if (!measurementRefusal(int8)) // int8 is measured where oneDNN sees AVX2 or newer
            for (const RowMeasurement& r : m.rows)
                QVERIFY2(!isReferenceKernel(r.primitive), (r.layer + ": " + r.primitive).c_str());
    }

    void theCsvReadsBackAndMapsOntoTheModel()
    {
        const Network net = smallNet();
        const NetworkMeasurement m = measureNetwork(net, Config {}, LayerBenchOptions::quickMode());
        const std::string csv = networkMeasurementCsv(m, { "--model", "every-op.json" }, "2026-12-01T18:00Z");
        QVERIFY(csv.starts_with("# Measured by roofline-cli measure --network with oneDNN 2."));
        QVERIFY(csv.find("# configuration: --model every-op.json\n") != std::string::npos);
        // the memory's read bandwidth probed before and after the rows, in the header (an AVX2 or
        // AVX-512 server or VM reads at 5 GB/s at the very least, 2 TB/s at the most)
        QVERIFY2(m.dramBefore > 5e9 && m.dramBefore < 2e12 && m.dramAfter > 5e9 && m.dramAfter < 2e12,
            (std::to_string(m.dramBefore) + " " + std::to_string(m.dramAfter)).c_str());
        QVERIFY(csv.find("\n# memory read under load: " + formatSI(m.dramBefore, "B/s") + " before the rows, ")
            != std::string::npos);
        const MeasurementSet set = parseMeasurements(csv, "m.csv");
        QVERIFY2(set.ok(), set.diagnostics.empty() ? "" : toString(set.diagnostics.front()).c_str());
        QCOMPARE(int(set.rows.size()), m.measuredCount());
        for (size_t i = 0; i < set.rows.size(); ++i) {
            QCOMPARE(set.rows[i].name, m.rows[i].layer);
            QCOMPARE(set.rows[i].time, set.rows[i].median); // time_s is the median
            QVERIFY(set.rows[i].best > 0 && set.rows[i].best <= set.rows[i].median * (1 + 1e-5));
            QVERIFY(set.rows[i].runs >= 1);
        }
        // Every measured row lands on its model row.
        Device cpu;
        cpu.id = "cpu";
        cpu.name = "a CPU";
        cpu.kind = "cpu";
        cpu.peak["fp32"] = 1e11;
        cpu.dramBandwidth = 2e10;
        cpu.memoryBytes = 16e9;
        const Report report = analyze(net, Config {}, { cpu });
        const Comparison c = compareMeasurements(set, report.results.front());
        QCOMPARE(int(c.layers.size()), m.measuredCount());
        QVERIFY(c.unmatched.empty());
    }

    void aRowTooLargeIsSkippedBeforeAllocating()
    {
        LayerBenchOptions o = LayerBenchOptions::quickMode();
        o.memoryLimitBytes = 64; // every row of the network needs more
        const Network net = smallNet();
        const NetworkMeasurement m = measureNetwork(net, Config {}, o);
        QCOMPARE(m.rows.size(), net.layers.size());
        for (const RowMeasurement& r : m.rows) {
            QVERIFY(!r.measured);
            QVERIFY2(r.skipped.find(" B a row may use") != std::string::npos, r.skipped.c_str());
        }
    }

    void theTotalBudgetStopsTheMeasurement()
    {
        LayerBenchOptions o = LayerBenchOptions::quickMode();
        o.totalBudgetSeconds = 0; // spent after the first row
        const NetworkMeasurement m = measureNetwork(smallNet(), Config {}, o);
        QVERIFY(m.rows.front().measured || m.rows.front().skipped.find("time budget") != std::string::npos);
        QVERIFY2(m.rows.back().skipped.find("time budget (0 s") != std::string::npos, m.rows.back().skipped.c_str());
    }

    void cancellingStopsAtOnceAndKeepsNothingHalfDone()
    {
        int calls = 0;
        const Network net = smallNet();
        const NetworkMeasurement m = measureNetwork(
            net, Config {}, LayerBenchOptions::quickMode(), [&](double, const std::string&) { return ++calls < 3; });
        QVERIFY(m.cancelled);
        QVERIFY(m.rows.size() < net.layers.size());
        for (const RowMeasurement& r : m.rows)
            QVERIFY(r.measured || !r.skipped.empty());
    }

    void configurationsItCannotMeasureAreRefused()
    {
        const Network net = smallNet();
        Config training;
        training.mode = Mode::Training;
        QVERIFY(measureNetwork(net, training, LayerBenchOptions::quickMode()).error.find("training is not measured")
            != std::string::npos);
        Config c;
        c.bits = 64;
        const NetworkMeasurement m = measureNetwork(net, c, LayerBenchOptions::quickMode());
        QVERIFY2(m.error.find("64-bit numbers are not measured") != std::string::npos, m.error.c_str());
        QVERIFY(m.rows.empty());
    }

    // int8 (u8 activations, s8 weights, f32 bias) where the CPU has AVX2: the U-Net's rows run, and every
    // row of the small network runs or says why not (oneDNN has no u8 batch norm, for one).
    void int8RowsRunWhereTheCpuHasThem()
    {
        Config c;
        c.bits = 8;
        if (const auto why = measurementRefusal(c)) {
            QVERIFY2(why->find("8-bit numbers are measured as int8, which oneDNN runs on CPUs with AVX2")
                    != std::string::npos,
                why->c_str());
            QSKIP("this CPU has no AVX2: int8 is refused, as checked");
        }
        const Network net = smallNet();
        NetworkMeasurement m = measureNetwork(net, c, LayerBenchOptions::quickMode());
        QVERIFY2(m.error.empty(), m.error.c_str());
        QCOMPARE(m.dataType, std::string("int8 (u8 activations, s8 weights)"));
        expectEveryRowAccounted(net, m);
        c.unet.height = c.unet.width = 64;
        c.unet.padding = Padding::Same;
        c.unet.baseFilters = 8;
        const BuildResult b = buildNetwork(c);
        QVERIFY(b.network);
        m = measureNetwork(*b.network, c, LayerBenchOptions::quickMode());
        expectEveryRowAccounted(*b.network, m);
        QCOMPARE(m.measuredCount(), int(b.network->layers.size()));
    }

    void theUNetRunsRowByRow()
    {
        Config c;
        c.unet.height = c.unet.width = 64;
        c.unet.padding = Padding::Same;
        c.unet.baseFilters = 8;
        const BuildResult b = buildNetwork(c);
        QVERIFY(b.network);
        const NetworkMeasurement m = measureNetwork(*b.network, c, LayerBenchOptions::quickMode());
        expectEveryRowAccounted(*b.network, m);
        QCOMPARE(m.measuredCount(), int(b.network->layers.size())); // conv, bias, relu, pool, up-convolution, concat
    }

    // Item 5 of issue 27: the same measurement twice agrees within 5 % on the total and 10 % on every
    // row over 1 % of the time (or its runs' spread, where wider), in quick mode. A machine too busy to measure says so
    // (the noise verdict) and the test is skipped with its words; a pair that disagrees gets one more measurement,
    // which must agree with the second (the first can catch a clock still settling). Optimised builds only: sanitizers
    // and -O0 time the instrumentation.
    void twoMeasurementsAgree()
    {
#if !defined(__OPTIMIZE__) || RFX_TEST_SANITIZED
        QSKIP("an optimised build without sanitizers times the kernels");
#endif
        Config c; // the issue's own case: U-Net 128 x 128, same padding (72 rows, about 50 ms)
        c.unet.height = c.unet.width = 128;
        c.unet.padding = Padding::Same;
        const BuildResult built = buildNetwork(c);
        QVERIFY(built.network);
        auto disagreement
            = [](const NetworkMeasurement& a, const NetworkMeasurement& b, bool best = false) -> std::string {
            const auto time = [best](const RowMeasurement& r) { return best ? r.best : r.median; };
            double ta = 0, tb = 0;
            for (size_t i = 0; i < a.rows.size(); ++i) {
                ta += time(a.rows[i]);
                tb += time(b.rows[i]);
            }
            if (std::abs(tb / ta - 1) > 0.05)
                return "totals " + std::to_string(ta) + " s and " + std::to_string(tb) + " s";
            // A row is apart by more than 10 % and by more than its own runs' spread in either
            // measurement (slowest - fastest over the median): two medians within the scatter of
            // the runs they are the middle of do not disagree (this project's VM, 2026-12-06: rows
            // of 1-6 ms 12-20 % apart between quick measurements, in one run of six, while every
            // run of them scattered as widely).
            for (size_t i = 0; i < a.rows.size(); ++i) {
                const double tolerance = std::max({ 0.10, a.rows[i].spread, b.rows[i].spread });
                if (time(a.rows[i]) > 0.01 * ta && std::abs(time(b.rows[i]) / time(a.rows[i]) - 1) > tolerance)
                    return a.rows[i].layer + ": " + std::to_string(time(a.rows[i])) + " s and "
                        + std::to_string(time(b.rows[i])) + " s (their runs' spreads "
                        + std::to_string(a.rows[i].spread) + " and " + std::to_string(b.rows[i].spread) + ")";
            }
            return {};
        };
        std::vector<NetworkMeasurement> runs { measureNetwork(*built.network, c, LayerBenchOptions::quickMode()) };
        QCOMPARE(runs.front().measuredCount(), int(built.network->layers.size()));
        std::string apart;
        for (int k = 1; k < 4; ++k) { // two in a row must agree; a machine that settles gets two more chances
            runs.push_back(measureNetwork(*built.network, c, LayerBenchOptions::quickMode()));
            QCOMPARE(runs.back().measuredCount(), int(built.network->layers.size()));
            apart = disagreement(runs[size_t(k) - 1], runs[size_t(k)]);
            if (apart.empty())
                break;
            qInfo("measurements %d and %d apart (%s)", k, k + 1, apart.c_str());
        }
        if (!apart.empty()) { // a machine that changed under the test is said, not failed
            double low = 1e300, high = 0;
            for (const NetworkMeasurement& m : runs) {
                if (!m.noise.empty())
                    QSKIP(("the machine was too noisy to measure: " + m.noise).c_str());
                for (double clock : { m.clockBefore, m.clockAfter })
                    if (clock > 0) {
                        low = std::min(low, clock);
                        high = std::max(high, clock);
                    }
            }
            if (high > 1.03 * low)
                QSKIP(("the clock under load moved between the measurements, " + std::to_string(low / 1e9) + " to "
                    + std::to_string(high / 1e9) + " GHz: the machine changed under the test")
                          .c_str());
            // Medians apart while the fastest runs agree: the same kernels, slowed by another tenant's
            // load for minutes at a time (this project's VM, 2026-12-06: the same decode weights at one
            // batch took 1.13-1.25 times as long between files measured minutes apart), said, not failed.
            if (disagreement(runs[runs.size() - 2], runs.back(), true).empty())
                QSKIP(
                    ("the medians moved (" + apart + ") while the fastest runs agree: another tenant's load").c_str());
        }
        QVERIFY2(apart.empty(), apart.c_str());
    }

    // The noise verdict, worked by hand. Clock 3.90 -> 4.10 GHz: 5.1 % apart, over 3 %; 3.90 -> 4.00:
    // 2.6 %, not. Rows: medians 9 ms and 1 ms with best runs 8 and 0.5 ms: (1 + 0.5) / 10 = 15 %
    // above the best, over 10 %; best 8.5 and 0.9: 0.6 / 10 = 6 %, not.
    void theNoiseVerdict()
    {
        NetworkMeasurement m;
        RowMeasurement a, b;
        a.measured = b.measured = true;
        a.median = 9e-3, a.best = 8.5e-3;
        b.median = 1e-3, b.best = 0.9e-3;
        m.rows = { a, b };
        m.clockBefore = 3.9e9, m.clockAfter = 4.0e9;
        QVERIFY(noiseVerdict(m).empty());
        m.clockAfter = 4.1e9;
        QVERIFY2(noiseVerdict(m).find("the clock moved from 3.90 GHz to 4.10 GHz") != std::string::npos,
            noiseVerdict(m).c_str());
        m.clockAfter = 4.0e9;
        m.rows[0].best = 8e-3;
        m.rows[1].best = 0.5e-3;
        QVERIFY2(noiseVerdict(m).find("15 % slower than their best") != std::string::npos, noiseVerdict(m).c_str());
        QVERIFY(noiseVerdict(m).find("measure again") != std::string::npos);
        m.clockAfter = 0; // not measured: only the rows speak
        QVERIFY(noiseVerdict(m).find("the clock moved") == std::string::npos);
        // The memory's read bandwidth before and after the rows: 30 -> 32.5 GB/s is 8.3 % apart, not
        // over 10 %; 30 -> 34 GB/s is 13 %, and 30 -> 26 GB/s 13 % the other way: said, with the clock's.
        m.rows[0].best = 8.5e-3;
        m.rows[1].best = 0.9e-3;
        m.clockAfter = 3.9e9;
        m.dramBefore = 30e9, m.dramAfter = 32.5e9;
        QVERIFY(noiseVerdict(m).empty());
        m.dramAfter = 34e9;
        QCOMPARE(noiseVerdict(m),
            std::string("the memory's read bandwidth moved from 30.0 GB/s to 34.0 GB/s during the measurement: "
                        "the machine was busy or changed its clock, measure again"));
        m.dramAfter = 26e9;
        m.clockAfter = 4.1e9;
        QVERIFY2(noiseVerdict(m).starts_with(
                     "the clock moved from 3.90 GHz to 4.10 GHz during the measurement; the memory's read "
                     "bandwidth moved from 30.0 GB/s to 26.0 GB/s"),
            noiseVerdict(m).c_str());
        m.dramBefore = 0; // not measured
        QVERIFY(noiseVerdict(m).find("memory") == std::string::npos);
    }

    void importedRowsRunOrSayWhyNot()
    {
        for (const char* name : { "sigmoid", "matmul3d", "gemm", "conv1d", "softmax", "reducemean" }) {
            Config c;
            c.model = std::string(ROOFLINE_TEST_DATA_DIR) + "/onnx/ops/" + name + ".onnx";
            const BuildResult b = buildNetwork(c);
            QVERIFY2(b.network, b.error.c_str());
            const NetworkMeasurement m = measureNetwork(*b.network, c, LayerBenchOptions::quickMode());
            expectEveryRowAccounted(*b.network, m);
            const bool runs = std::string(name) != "reducemean"; // a softmax runs as oneDNN's (since issue 50)
            QVERIFY2(m.rows.front().measured == runs, (std::string(name) + ": " + m.rows.front().skipped).c_str());
            if (std::string(name) == "softmax")
                QVERIFY2(m.rows.front().primitive.starts_with("softmax"), m.rows.front().primitive.c_str());
        }
    }

    void badStatisticsColumnsAreRefused()
    {
        const MeasurementSet set = parseMeasurements("layer,time_s,best_s\nconv1,0.001,-2\n", "m.csv");
        QVERIFY(!set.ok());
        QCOMPARE(toString(set.diagnostics.front()),
            std::string("error: m.csv: line 2: best_s: must be a number from 0 to 1e6, got '-2'"));
    }
};

QTEST_GUILESS_MAIN(TestLayerBench)
#include "tst_layerbench.moc"
