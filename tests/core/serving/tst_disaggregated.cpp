// Disaggregated serving (core/serving/disaggregated.h, the planner's split half): the two pools'
// balance worked by hand, a prefill replica equal to `llm`'s TTFT, the decode pool's step equal to
// the decode alone, each cache's bytes from the model's shapes, and the plan's choices.
#include "devices/interconnects.h"
#include "llm/llm_analysis.h"
#include "serving/plan.h"
#include "testutils.h"

#include <cmath>

using namespace rfx;

namespace {

bool near(double a, double b, double rel = 1e-12)
{
    return std::abs(a - b) <= rel * std::max(std::abs(a), std::abs(b));
}

ServingSettings traffic(int users, int prompt = 2000, int generate = 300)
{
    ServingSettings s;
    s.users = users;
    s.llm.prompt = prompt;
    s.llm.generate = generate;
    return s;
}

/// A decode replica by hand: TP 4, N = 128 at TPOT 40 ms, G = 300.
ServingPoint decodeByHand()
{
    ServingPoint d;
    d.users = 128;
    d.tensorParallel = 4;
    d.tpot = 0.040;
    d.userTokensPerSecond = 25;
    d.replicaTokensPerSecond = 3200; // 128 / 0.040
    d.gpuTokensPerSecond = 800;
    d.requestsPerSecond = 3200.0 / 300; // 10.667
    d.energyPerToken = 0.3;
    return d;
}

/// A prefill replica by hand: TP 2, 4 prompts a batch in 0.5 s, 600 J a request, each prompt's cache
/// 1,048,576,000 bytes (Llama-2-7B, P = 2,000 at 16 bits: 2 x 32 layers x 4,096 x 2 bytes x 2,000).
PrefillPoint prefillByHand()
{
    PrefillPoint p;
    p.tensorParallel = 2;
    p.batch = 4;
    p.time = 0.5;
    p.requestsPerSecond = 8;
    p.energyPerRequest = 600;
    p.kvBytes = 2.0 * 32 * 4096 * 2 * 2000;
    return p;
}

} // namespace

class TestDisaggregated : public QObject {
    Q_OBJECT
private slots:
    // The balance by hand, the caches over NVLink 4 (450 GB/s a direction):
    //   move   4 x 1,048,576,000 / (min(2, 4) x 450e9) = 4.66034 ms
    //   TTFT   0.25 (half a batch) + 0.5 + 0.00466034 = 0.75466034 s
    //   prefill GPUs a decode replica keeps busy: 2 x 10.667 / 8 = 2.6667
    //   tokens/s per GPU: 3,200 / (4 + 2.6667) = 480
    //   energy a token: 0.3 + 600 / 300 = 2.3 J
    //   200 users: ceil(200 / 128) = 2 decode replicas; 200 / (300 x 0.040) = 16.67 requests/s,
    //   ceil(16.67 / 8) = 3 prefill replicas; 2 x 4 + 3 x 2 = 14 GPUs. 20 requests/s: ceil(20 / 10.667)
    //   = 2 and ceil(20 / 8) = 3, 14 GPUs; 8 requests/s: 1 and 1, 6 GPUs.
    void balanceByHand()
    {
        const double nvlink4 = findInterconnect("nvlink4")->bandwidth;
        QCOMPARE(nvlink4, 450e9);
        const PoolBalance b = balancePools(prefillByHand(), decodeByHand(), nvlink4, 300, 0, 0);
        QVERIFY(near(b.transferTime, 4.194304e9 / 9e11));
        QVERIFY(near(b.transferTime, 0.00466033777777778, 1e-12));
        QCOMPARE(b.queueTime, 0.25);
        QVERIFY(near(b.ttft, 0.75466033777777778));
        QVERIFY(near(b.prefillGpusPerReplica, 2 * (3200.0 / 300) / 8));
        QVERIFY(near(b.gpuTokensPerSecond, 480));
        QVERIFY(near(b.energyPerToken, 2.3));
        QCOMPARE(b.gpus, 0);
        const PoolBalance users = balancePools(prefillByHand(), decodeByHand(), nvlink4, 300, 200, 0);
        QCOMPARE(users.decodeReplicas, 2);
        QCOMPARE(users.prefillReplicas, 3);
        QCOMPARE(users.gpus, 14);
        const PoolBalance rate = balancePools(prefillByHand(), decodeByHand(), nvlink4, 300, 0, 20);
        QCOMPARE(rate.decodeReplicas, 2);
        QCOMPARE(rate.prefillReplicas, 3);
        QCOMPARE(rate.gpus, 14);
        const PoolBalance light = balancePools(prefillByHand(), decodeByHand(), nvlink4, 300, 0, 8);
        QCOMPARE(light.decodeReplicas, 1);
        QCOMPARE(light.prefillReplicas, 1);
        QCOMPARE(light.gpus, 6);
    }

    // A prefill replica of one prompt is `llm`'s TTFT (TP 1 and TP 2 over NVLink 4); two prompts
    // take longer and finish more requests a second (the weights read once for both); one prompt's
    // cache, Llama-3.1-8B (8 KV heads of 128, 32 layers, 16 bits): 2 x 8 x 128 x 32 x 2 bytes x 2,000
    // = 262,144,000 bytes.
    void prefillReplicaIsLlmsTtft()
    {
        const Device h100 = test::shippedDevice("h100-sxm");
        const LlmModel model = test::builtinModel("llama-3.1-8b");
        for (int tp : { 1, 2 }) {
            ServingSettings s = traffic(1);
            s.llm.tensorParallel = tp;
            s.llm.interconnect = "nvlink4";
            std::string error;
            const std::optional<PrefillPoint> one = prefillPoint(model, s, h100, &error);
            QVERIFY2(one, error.c_str());
            LlmSettings l = s.llm;
            l.batch = 1;
            const LlmOutcome o = analyzeLlm(model, l, { h100 }, false);
            QVERIFY(o.analysis);
            QVERIFY2(near(one->time, o.analysis->figures[0].ttft),
                qPrintable(
                    QStringLiteral("TP %1: %2 against %3").arg(tp).arg(one->time).arg(o.analysis->figures[0].ttft)));
            QCOMPARE(one->kvBytes, 262144000.0);
            QCOMPARE(one->requestsPerSecond, 1 / one->time);
            QVERIFY(one->fits);
            s.users = 2;
            const std::optional<PrefillPoint> two = prefillPoint(model, s, h100);
            QVERIFY(two);
            QCOMPARE(two->batch, 2);
            QVERIFY(two->time > one->time && two->time < 2 * one->time);
            QVERIFY(two->requestsPerSecond > one->requestsPerSecond);
            QVERIFY(two->memoryBytes > one->memoryBytes);
        }
        ServingSettings bad = traffic(0);
        std::string error;
        QVERIFY(!prefillPoint(model, bad, h100, &error));
        QVERIFY2(error.find("--users 0") != std::string::npos, error.c_str());
    }

    // The decode pool's step decodes N sequences and carries no prefill: it is the decode step alone
    // (mixedStep with no share), no TTFT of its own, and each sequence's cache of P + G tokens.
    void decodePoolIsTheDecodeAlone()
    {
        const Device h100 = test::shippedDevice("h100-sxm");
        const LlmModel model = test::builtinModel("llama-3.1-8b");
        ServingSettings s = traffic(16);
        s.decodeOnly = true;
        const ServingOutcome o = servingPoint(model, s, h100);
        QVERIFY2(o.point, o.error.c_str());
        const std::optional<MixedStep> alone = mixedStep(model, s, h100, 0);
        QVERIFY(alone);
        QCOMPARE(o.point->tpot, alone->time);
        QCOMPARE(o.point->step.prefillTokens, 0.0);
        QCOMPARE(o.point->ttft, 0.0);
        QCOMPARE(o.point->kvBytes, 16 * 131072.0 * 2300);
        s.decodeOnly = false;
        const ServingOutcome mixed = servingPoint(model, s, h100);
        QVERIFY(mixed.point && mixed.point->tpot > o.point->tpot);
    }

    // The plan's split half: each decode configuration fed by its best prefill; every figure the balance
    // of its two points; the best within the targets and, one user more, past TPOT; the link the caches
    // cross: the device's scale-up link, PCIe 4.0 x16 assumed where it names none (an RTX 4090's file),
    // or --kv-link's.
    void planSplitsThePools()
    {
        const LlmModel model = test::builtinModel("llama-3.1-70b");
        PlanSettings s;
        s.llm.prompt = 2000;
        s.llm.generate = 300;
        s.ttft = 1;
        s.tpot = 0.050;
        s.users = 200;
        QVERIFY(planServing(model, s, { test::shippedDevice("h100-sxm") }).devices[0].split.empty());
        s.disaggregated = true;
        const Plan plan = planServing(model, s, { test::shippedDevice("h100-sxm") });
        const DevicePlan& d = plan.devices[0];
        QVERIFY(plan.disaggregated);
        QVERIFY(d.split.size() > 10);
        QVERIFY2(d.kvLink.find("NVLink 4") == 0, d.kvLink.c_str());
        QVERIFY(!d.kvLinkAssumed);
        QVERIFY(d.splitBest);
        for (const SplitPoint& p : d.split) {
            const PoolBalance& b = p.pools;
            QCOMPARE(p.meets, b.ttft <= 1 && b.decode.tpot <= 0.050);
            QVERIFY(near(b.gpuTokensPerSecond,
                b.decode.replicaTokensPerSecond / (b.decode.tensorParallel + b.prefillGpusPerReplica)));
            QVERIFY(b.prefill.fits && b.decode.fits);
            QCOMPARE(b.decode.step.prefillTokens, 0.0);
            QCOMPARE(b.gpus, b.decodeReplicas * b.decode.tensorParallel + b.prefillReplicas * b.prefill.tensorParallel);
            if (p.meets)
                QVERIFY(b.gpus >= d.split[*d.splitBest].pools.gpus);
        }
        QVERIFY(!d.splitFront.empty());
        // one user more on the best's decode replica misses TPOT (or does not fit)
        const SplitPoint& best = d.split[*d.splitBest];
        ServingSettings one = traffic(best.pools.decode.users + 1);
        one.decodeOnly = true;
        one.llm.tensorParallel = best.pools.decode.tensorParallel;
        one.llm.interconnect = test::shippedDevice("h100-sxm").scaleUpLink;
        one.llm.weightBits = best.weightBits;
        one.llm.actBits = best.weightBits == 8 ? 8 : 16;
        one.llm.actType = best.arithmetic;
        one.llm.kvBits = best.kvBits;
        const ServingOutcome more = servingPoint(model, one, test::shippedDevice("h100-sxm"));
        QVERIFY(more.point);
        QVERIFY(!more.point->fits || more.point->tpot > 0.050);

        const Plan pcie = planServing(test::builtinModel("llama-3.1-8b"), s, { test::shippedDevice("rtx-4090") });
        QVERIFY(pcie.devices[0].kvLinkAssumed);
        QVERIFY2(pcie.devices[0].kvLink.find("PCIe 4.0 x16") == 0, pcie.devices[0].kvLink.c_str());
        s.kvLink = "ib-ndr400";
        const Plan ib = planServing(model, s, { test::shippedDevice("h100-sxm") });
        QVERIFY(!ib.devices[0].kvLinkAssumed);
        for (const SplitPoint& p : ib.devices[0].split) {
            const int pairs = std::min(p.pools.prefill.tensorParallel, p.pools.decode.tensorParallel);
            QVERIFY(near(p.pools.transferTime, p.pools.prefill.batch * p.pools.prefill.kvBytes / (pairs * 50e9)));
        }
    }

    // A TTFT no prefill replica meets names the soonest there is and the link its cache crosses.
    void firstTokenNobodyMeets()
    {
        PlanSettings s;
        s.llm.prompt = 8000;
        s.llm.generate = 300;
        s.ttft = 0.001;
        s.disaggregated = true;
        const Plan plan = planServing(test::builtinModel("llama-3.1-8b"), s, { test::shippedDevice("h100-sxm") });
        const DevicePlan& d = plan.devices[0];
        QVERIFY(!d.splitBest);
        QVERIFY2(
            d.splitNone.find("no disaggregated configuration of the NVIDIA H100 SXM5 80 GB meets TTFT <= 1.00 ms") == 0,
            d.splitNone.c_str());
        QVERIFY2(d.splitNone.find("over NVLink 4") != std::string::npos
                && d.splitNone.find("relax --ttft") != std::string::npos,
            d.splitNone.c_str());
    }
};

QTEST_APPLESS_MAIN(TestDisaggregated)
#include "tst_disaggregated.moc"
