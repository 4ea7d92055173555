// The serving planner (core/serving/plan.h): the Pareto front and the GPUs for a load worked by
// hand, the search space each device allows, the best configuration within targets, and what a
// target nobody meets says.
#include "base/format.h"
#include "serving/plan.h"
#include "testutils.h"

#include <cmath>
#include <set>

using namespace rfx;

namespace {

PlanPoint pointAt(double userTokens, double gpuTokens, int users = 1)
{
    PlanPoint p;
    p.point.userTokensPerSecond = userTokens;
    p.point.gpuTokensPerSecond = gpuTokens;
    p.point.users = users;
    return p;
}

PlanSettings traffic(int prompt = 2000, int generate = 300)
{
    PlanSettings s;
    s.llm.prompt = prompt;
    s.llm.generate = generate;
    return s;
}

struct Published {
    const char* model;
    int tp, input, output, batch;
    double tokensPerSecond;
};

} // namespace

class TestPlan : public QObject {
    Q_OBJECT
private slots:
    // Three configurations by hand: A 100 tokens/s per user and 50 per GPU, B 60 and 120, C 50 and
    // 100. A is the fastest per user; B makes more per GPU than A; C is slower than B on both: the
    // front is A, B. D (100, 40) ties A per user and makes less per GPU: off it too.
    void paretoFrontOfThreeByHand()
    {
        const std::vector<PlanPoint> points { pointAt(50, 100), pointAt(100, 50), pointAt(60, 120), pointAt(100, 40) };
        const std::vector<size_t> front = paretoFront(points);
        QCOMPARE(front, (std::vector<size_t> { 1, 2 }));
        QVERIFY(paretoFront(std::vector<PlanPoint> {}).empty());
    }

    // 200 users, a replica serving 64: ceil(200 / 64) = 4 replicas. 10 requests/s against a replica
    // finishing 64 / (300 x 20 ms) = 10.67 a second: 1 replica; 11 a second: 2.
    void gpusForALoadByHand()
    {
        PlanSettings s = traffic();
        s.users = 200;
        ServingPoint p;
        p.users = 64;
        QCOMPARE(replicasFor(s, p), 4);
        s.users = 0;
        s.rate = 10;
        p.requestsPerSecond = 64 / (300 * 0.020);
        QCOMPARE(replicasFor(s, p), 1);
        s.rate = 11;
        QCOMPARE(replicasFor(s, p), 2);
        s.rate = 0;
        QCOMPARE(replicasFor(s, p), 0);
    }

    // The plan at calibrated times (plan --calibration): with every row at half its roof and TP 1 (no link
    // time, which a calibration leaves), each configuration's TPOT and TTFT double and its tokens/s per
    // user and per GPU halve, at the same N (memory does not change): both axes halve, so the front holds
    // the same configurations. Only the calibration's device is planned again; the ranking holds bounds.
    void calibratedPlanAtHalfTheRoof()
    {
        const Calibration half = test::halfTheRoof("h100-sxm");
        PlanSettings s = traffic();
        s.gpusPerNode = 1;
        s.calibration = &half;
        s.calibrationLabel = "half.json";
        const Plan plan = planServing(
            test::builtinModel("llama-3.1-8b"), s, { test::shippedDevice("h100-sxm"), test::shippedDevice("mi300x") });
        QVERIFY(plan.error.empty());
        QCOMPARE(plan.calibrated.size(), size_t(1));
        QCOMPARE(plan.calibration, std::string("half.json"));
        QVERIFY(!plan.calibratedOf("mi300x"));
        const DevicePlan& bound = plan.devices[0];
        const DevicePlan* cal = plan.calibratedOf("h100-sxm");
        QVERIFY(cal);
        QVERIFY(!bound.points.empty());
        QCOMPARE(cal->points.size(), bound.points.size());
        for (size_t i = 0; i < bound.points.size(); ++i) {
            const ServingPoint &b = bound.points[i].point, &c = cal->points[i].point;
            QCOMPARE(planPointLabel(cal->points[i]), planPointLabel(bound.points[i]));
            QVERIFY(std::abs(c.tpot / b.tpot - 2) < 1e-9);
            QVERIFY(std::abs(c.ttft / b.ttft - 2) < 1e-9);
            QVERIFY(std::abs(c.gpuTokensPerSecond / b.gpuTokensPerSecond - 0.5) < 1e-9);
            QCOMPARE(c.memoryBytes, b.memoryBytes);
        }
        QCOMPARE(cal->front, bound.front);
        QCOMPARE(plan.ranked.size(), bound.points.size() + plan.devices[1].points.size());
    }

    // What each device allows: the H100 SXM (NVLink 4, 8 GPUs, tensor FP8) every TP to 8 and fp8
    // weights; the A100 int8 (no FP8); --gpus-per-node 4 stops at TP 4; the RTX 4090 (no scale-up
    // link in its file) TP 1. Llama-3.1-70B at 16 bits (141 GB) fits no single 80 GB GPU.
    void searchSpacePerDevice()
    {
        const LlmModel model = test::builtinModel("llama-3.1-70b");
        PlanSettings s = traffic();
        const Plan plan = planServing(model, s,
            { test::shippedDevice("h100-sxm"), test::shippedDevice("a100-sxm-80gb"), test::shippedDevice("rtx-4090") });
        QVERIFY(plan.error.empty());
        QCOMPARE(plan.devices.size(), size_t(3));
        auto tps = [](const DevicePlan& d) {
            std::set<int> t;
            for (const PlanPoint& p : d.points)
                t.insert(p.tensorParallel);
            return t;
        };
        QCOMPARE(tps(plan.devices[0]), (std::set<int> { 1, 2, 4, 8 }));
        for (const PlanPoint& p : plan.devices[0].points) {
            QVERIFY(!(p.tensorParallel == 1 && p.weightBits == 16));
            QVERIFY(p.weightBits != 8 || p.arithmetic == NumberType::Fp8);
            QVERIFY(p.point.fits);
        }
        for (const PlanPoint& p : plan.devices[1].points)
            QVERIFY(p.weightBits != 8 || p.arithmetic == NumberType::Int8);
        QVERIFY(tps(plan.devices[2]).size() <= 1);
        s.gpusPerNode = 4;
        const Plan four = planServing(model, s, { test::shippedDevice("h100-sxm") });
        QCOMPARE(tps(four.devices[0]), (std::set<int> { 1, 2, 4 }));
        // Each configuration's N: 1, 2, 4, ... and the most that fit, which fits and one more would not.
        for (const PlanPoint& p : plan.devices[0].points)
            QVERIFY(p.point.memoryBytes <= p.point.usableBytes);
    }

    // Targets: the best point meets them and makes the most tokens/s per GPU of all that do; with a
    // load, the fewest GPUs (replicas x TP) first. Llama-3.1-70B, 200 users, TTFT 1 s, TPOT 50 ms.
    void bestWithinTargets()
    {
        PlanSettings s = traffic();
        s.ttft = 1;
        s.tpot = 0.050;
        const Plan plan = planServing(test::builtinModel("llama-3.1-70b"), s, { test::shippedDevice("h100-sxm") });
        const DevicePlan& d = plan.devices[0];
        QVERIFY(d.best);
        for (const PlanPoint& p : d.points) {
            QCOMPARE(p.meets, p.point.ttft <= 1 && p.point.tpot <= 0.050);
            if (p.meets)
                QVERIFY(p.point.gpuTokensPerSecond <= d.points[*d.best].point.gpuTokensPerSecond);
        }
        QVERIFY(!plan.ranked.empty());
        QCOMPARE(plan.ranked.front().point.gpuTokensPerSecond, d.points[*d.best].point.gpuTokensPerSecond);
        // The grid doubles N; the best is then bisected to the most users that meet the targets: one
        // more user misses one (or does not fit).
        const PlanPoint& best = d.points[*d.best];
        ServingSettings one;
        one.llm = s.llm;
        one.llm.tensorParallel = best.tensorParallel;
        one.llm.interconnect = test::shippedDevice("h100-sxm").scaleUpLink;
        one.llm.weightBits = best.weightBits;
        one.llm.actBits = best.weightBits == 8 ? 8 : 16;
        one.llm.actType = best.arithmetic;
        one.llm.kvBits = best.kvBits;
        one.users = best.point.users;
        const ServingOutcome same
            = servingPoint(test::builtinModel("llama-3.1-70b"), one, test::shippedDevice("h100-sxm"));
        QVERIFY(same.point);
        QCOMPARE(same.point->tpot, best.point.tpot);
        one.users += 1;
        const ServingOutcome more
            = servingPoint(test::builtinModel("llama-3.1-70b"), one, test::shippedDevice("h100-sxm"));
        QVERIFY(more.point);
        QVERIFY2(!more.point->fits || more.point->tpot > 0.050 || more.point->ttft > 1,
            qPrintable(QStringLiteral("N = %1 also meets the targets").arg(one.users)));
        s.users = 200;
        const Plan loaded = planServing(test::builtinModel("llama-3.1-70b"), s, { test::shippedDevice("h100-sxm") });
        const PlanPoint& b = loaded.devices[0].points[*loaded.devices[0].best];
        QCOMPARE(b.replicas, (200 + b.point.users - 1) / b.point.users);
        QCOMPARE(b.gpus, b.replicas * b.tensorParallel);
        for (const PlanPoint& p : loaded.devices[0].points)
            if (p.meets)
                QVERIFY(p.gpus >= b.gpus);
    }

    // Cost: $2.99 a GPU-hour at 1,000 tokens/s per GPU is 2.99 x 10^6 / (3,600 x 1,000) = $0.8306 per
    // million tokens. With a price for every device the ranking is by that (by the load's cost an
    // hour, with a load); without, the devices lacking one are named and the ranking is by tokens/s.
    void costPerMillionTokens()
    {
        PlanSettings s = traffic();
        s.tpot = 0.050;
        s.prices = { { "h100-sxm", 2.99 }, { "mi300x", 2.49 } };
        const std::vector<Device> two { test::shippedDevice("h100-sxm"), test::shippedDevice("mi300x") };
        const Plan plan = planServing(test::builtinModel("llama-3.1-70b"), s, two);
        QVERIFY(plan.byCost && plan.unpriced.empty());
        for (const DevicePlan& d : plan.devices)
            for (const PlanPoint& p : d.points) {
                QCOMPARE(p.pricePerHour, d.device == "h100-sxm" ? 2.99 : 2.49);
                QVERIFY(std::abs(p.costPerMillion - p.pricePerHour * 1e6 / (3600 * p.point.gpuTokensPerSecond))
                    < 1e-12 * p.costPerMillion);
                QVERIFY(p.point.energyPerToken > 0);
            }
        PlanPoint byHand;
        byHand.point.gpuTokensPerSecond = 1000;
        QVERIFY(std::abs(2.99 * 1e6 / (3600 * byHand.point.gpuTokensPerSecond) - 0.830556) < 1e-6);
        for (size_t i = 1; i < plan.ranked.size(); ++i)
            QVERIFY(plan.ranked[i - 1].costPerMillion <= plan.ranked[i].costPerMillion);
        s.users = 200;
        const Plan loaded = planServing(test::builtinModel("llama-3.1-70b"), s, two);
        for (size_t i = 1; i < loaded.ranked.size(); ++i)
            QVERIFY(loaded.ranked[i - 1].costPerHour <= loaded.ranked[i].costPerHour);
        QCOMPARE(loaded.ranked.front().costPerHour, loaded.ranked.front().gpus * loaded.ranked.front().pricePerHour);
        s.prices.erase("mi300x");
        const Plan half = planServing(test::builtinModel("llama-3.1-70b"), s, two);
        QVERIFY(!half.byCost);
        QCOMPARE(half.unpriced, (std::vector<std::string> { "AMD Instinct MI300X 192 GB" }));
    }

    // A target nobody meets says what to relax, with the fastest there is; a model too large for a
    // device says how much it needs.
    void targetsNobodyMeetsSayWhatToRelax()
    {
        PlanSettings s = traffic();
        s.tpot = 0.001;
        const Plan plan = planServing(test::builtinModel("llama-3.1-70b"), s, { test::shippedDevice("h100-sxm") });
        const DevicePlan& d = plan.devices[0];
        QVERIFY(!d.best && plan.ranked.empty());
        double fastest = INFINITY;
        for (const PlanPoint& p : d.points)
            fastest = std::min(fastest, p.point.tpot);
        QVERIFY2(
            d.none.find("no configuration of the NVIDIA H100 SXM5 80 GB meets TPOT <= 1.00 ms for Llama-3.1 70B") == 0,
            d.none.c_str());
        QVERIFY2(
            d.none.find("the fastest is " + formatTime(fastest) + " at TP 8") != std::string::npos, d.none.c_str());
        QVERIFY2(d.none.find("relax --tpot") != std::string::npos, d.none.c_str());
        s = traffic();
        s.gpusPerNode = 1;
        const Plan big = planServing(test::builtinModel("llama-3.1-405b"), s, { test::shippedDevice("l40s") });
        QVERIFY(big.devices[0].points.empty());
        QVERIFY2(big.devices[0].none.find("fits Llama-3.1 405B") != std::string::npos, big.devices[0].none.c_str());
        QVERIFY2(big.devices[0].none.find("4-bit weights") != std::string::npos
                && big.devices[0].none.find("GB usable per GPU") != std::string::npos,
            big.devices[0].none.c_str());
        s.gpusPerNode = 0;
        QVERIFY(!planServing(test::builtinModel("llama-3.1-70b"), s, { test::shippedDevice("l40s") }).error.empty());
    }

    // Published serving throughputs lie at or under the plan's front at the same per-user speed: the plan
    // is a bound, and a real engine's measured maximum must not beat it.
    //
    // Source: NVIDIA TensorRT-LLM, docs/source/blogs/H200launch.md (release 0.5.0), "H200 FP8 Max
    // throughput" (TensorRT-LLM v0.5.0, TensorRT 9.1.0.4; preliminary measured): output tokens/s of one
    // run at a batch, tensor parallelism, input and output length. Per GPU: the throughput / TP; per user:
    // the throughput / the batch (their runs' prefill included, so each user's decode ran faster still).
    void tensorRtLlmOnH200()
    {
        const Published rows[] = {
            { "llama-2-13b", 1, 128, 128, 1024, 11819 },
            { "llama-2-13b", 1, 128, 2048, 128, 4750 },
            { "llama-2-13b", 1, 2048, 128, 64, 1349 },
            { "llama-2-70b", 1, 128, 128, 512, 3014 },
            { "llama-2-70b", 4, 128, 2048, 512, 6616 },
            { "llama-2-70b", 2, 2048, 128, 64, 682 },
            { "llama-2-70b", 1, 2048, 128, 32, 303 },
        };
        const Device h200 = test::shippedDevice("h200-sxm");
        for (const Published& r : rows) {
            PlanSettings s;
            s.llm.prompt = r.input;
            s.llm.generate = r.output;
            const Plan plan = planServing(test::builtinModel(r.model), s, { h200 });
            QVERIFY2(plan.error.empty(), plan.error.c_str());
            const double perUser = r.tokensPerSecond / r.batch, perGpu = r.tokensPerSecond / r.tp;
            double front = 0; // the most tokens/s per GPU at that speed per user or faster
            for (const PlanPoint& p : plan.devices[0].points)
                if (p.point.userTokensPerSecond >= perUser)
                    front = std::max(front, p.point.gpuTokensPerSecond);
            QVERIFY2(front >= perGpu,
                qPrintable(QStringLiteral("%1, %2 in, %3 out: published %4 tokens/s per GPU at %5 per user, the "
                                          "plan's front %6")
                               .arg(r.model)
                               .arg(r.input)
                               .arg(r.output)
                               .arg(perGpu)
                               .arg(perUser)
                               .arg(front)));
            // and a bound that says something: the engine reaches at least a sixth of it
            QVERIFY2(perGpu > front / 6,
                qPrintable(QStringLiteral("%1: %2 against %3").arg(r.model).arg(perGpu).arg(front)));
        }
    }
};

QTEST_MAIN(TestPlan)
#include "tst_plan.moc"
