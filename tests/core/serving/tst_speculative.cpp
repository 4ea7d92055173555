// Speculative decoding (core/serving/speculative.h): the expected tokens a round, the verification's
// rows worked by hand (Llama-2-7B), a round built from the draft's and the target's steps, and the
// planner weighing it against plain decoding.
#include "serving/plan.h"
#include "testutils.h"

#include <cmath>

using namespace rfx;

namespace {

bool near(double a, double b, double rel = 1e-12)
{
    return std::abs(a - b) <= rel * std::max(std::abs(a), std::abs(b));
}

const MixedRow& row(const MixedStep& s, const std::string& name)
{
    for (const MixedRow& r : s.rows)
        if (r.name == name)
            return r;
    qFatal("no row %s", name.c_str());
}

ServingSettings traffic(int users, int prompt, int generate)
{
    ServingSettings s;
    s.users = users;
    s.llm.prompt = prompt;
    s.llm.generate = generate;
    return s;
}

} // namespace

class TestSpeculative : public QObject {
    Q_OBJECT
private slots:
    // Leviathan et al. 2023, eq. 1: (1 - A^(K+1)) / (1 - A).
    //   A = 0.7, K = 4: (1 - 0.16807) / 0.3 = 2.77310; A = 0.8, K = 3: (1 - 0.4096) / 0.2 = 2.952;
    //   A = 1: every drafted token and the next, K + 1; A = 0: the target's own token only, 1.
    void expectedTokensByHand()
    {
        QVERIFY(near(expectedTokensPerRound(0.7, 4), 0.83193 / 0.3, 1e-12));
        QVERIFY(near(expectedTokensPerRound(0.8, 3), 2.952, 1e-12));
        QCOMPARE(expectedTokensPerRound(1, 4), 5.0);
        QCOMPARE(expectedTokensPerRound(0, 4), 1.0);
        const LlmModel draft = test::builtinModel("llama-3.2-1b");
        Speculation s { &draft, 1.5, 4 };
        QVERIFY(speculationError(s)->find("--accept 1.5") == 0);
        s = { &draft, 0.7, 0 };
        QVERIFY(speculationError(s)->find("--lookahead 0") == 0);
        s = { &draft, 0.7, 17 };
        QVERIFY(speculationError(s)->find("from 1 to 16") != std::string::npos);
        s = { &draft, 0.7, 16 };
        QVERIFY(!speculationError(s));
    }

    // The verification of K = 4 drafted tokens: Llama-2-7B, one sequence at C = 512 + 128 / 2 = 576, 5
    // tokens (query j of 5 sees 571 + j keys):
    //   q_proj  32 blocks x 2 x 4,096^2 x 5 = 5,368,709,120 FLOP;
    //           32 x (x and y: 2 x 5 x 4,096 x 2 B = 81,920 + W once: 4,096^2 x 2 B = 33,554,432) = 1,076,363,264 B
    //   attention pairs 572 + 573 + 574 + 575 + 576 = 2,870 = 5 x 576 - 10; FlashAttention's 4 d + 5 = 517 FLOP a
    //           pair: 32 x 32 heads x 2,870 x 517 = 1,519,400,960 FLOP
    //   lm_head the logits of all 5: 2 x 4,096 x 32,000 x 5 = 1,310,720,000 FLOP
    void verificationRowsByHand()
    {
        const LlmModel target = test::builtinModel("llama-2-7b");
        ServingSettings s = traffic(1, 512, 128);
        s.speculation = { &target, 0.7, 4 };
        std::string error;
        const std::optional<MixedStep> step = mixedStep(target, s, test::shippedDevice("h100-sxm"), 0, &error);
        QVERIFY2(step, error.c_str());
        QCOMPARE(row(*step, "blk0-31.q_proj").flops, 5368709120.0);
        QCOMPARE(row(*step, "blk0-31.q_proj").bytes, 1076363264.0);
        QCOMPARE(row(*step, "blk0-31.attention").flops, 1519400960.0);
        QCOMPARE(row(*step, "lm_head").flops, 1310720000.0);
        QCOMPARE(decodePairs(5, 576, 0), 2870.0);
        QCOMPARE(decodePairs(1, 576, 0), 576.0);
        QCOMPARE(decodePairs(5, 576, 100), 500.0); // a window of 100: each of the 5 sees 100
    }

    // A round on one H100 SXM at batch 1: Llama-3.1-8B verified, Llama-3.2-1B drafting, K = 4, A = 0.7:
    // TPOT = (the verification + 4 draft steps) / 2.7731, each step the engine's own (mixedStep with no
    // share); energy (verification + 4 drafts) / 2.7731 tokens. Memory-bound, the verification costs
    // about one plain step: the bound is 1.5 to 2 x faster. At A = 0 a round yields one token and costs
    // more than a plain step.
    void roundFromTheTwoSteps()
    {
        const Device h100 = test::shippedDevice("h100-sxm");
        const LlmModel target = test::builtinModel("llama-3.1-8b"), draft = test::builtinModel("llama-3.2-1b");
        ServingSettings plain = traffic(1, 2000, 300);
        plain.decodeOnly = true;
        ServingSettings spec = plain;
        spec.speculation = { &draft, 0.7, 4 };
        const ServingOutcome o = servingPoint(target, spec, h100);
        QVERIFY2(o.point, o.error.c_str());
        const std::optional<MixedStep> verify = mixedStep(target, spec, h100, 0);
        const std::optional<MixedStep> drafting = mixedStep(draft, plain, h100, 0);
        const std::optional<MixedStep> alone = mixedStep(target, plain, h100, 0);
        QVERIFY(verify && drafting && alone);
        const double e = expectedTokensPerRound(0.7, 4);
        QCOMPARE(o.point->tokensPerRound, e);
        QCOMPARE(o.point->lookahead, 4);
        QCOMPARE(o.point->draftStepTime, drafting->time);
        QCOMPARE(o.point->step.time, verify->time);
        QVERIFY(near(o.point->tpot, (verify->time + 4 * drafting->time) / e));
        QVERIFY(near(o.point->energyPerToken, (verify->energy + 4 * drafting->energy) / e));
        QVERIFY(verify->time > alone->time && verify->time < 1.2 * alone->time);
        const double speedup = alone->time / o.point->tpot;
        QVERIFY2(speedup > 1.5 && speedup < 2, qPrintable(QString::number(speedup)));
        // the draft's weights and cache on the GPU: 1,235,814,400 parameters at 2 B and 2,300 tokens x 32,768 B
        QVERIFY(near(o.point->draftBytes, 1235814400.0 * 2 + 2300 * 32768.0, 1e-9));
        spec.speculation.accept = 0;
        const ServingOutcome none = servingPoint(target, spec, h100);
        QVERIFY(none.point && none.point->tpot > alone->time);
        spec.speculation.accept = 1.5;
        QVERIFY(servingPoint(target, spec, h100).error.find("--accept 1.5") == 0);
    }

    // The planner weighs it: every configuration with and without the draft; the fastest per user drafts
    // (one sequence leaves the GPU's arithmetic idle), the most tokens per GPU does not (a full batch
    // is compute-bound: the rejected tokens are work thrown away).
    void planWeighsTheDraft()
    {
        const LlmModel target = test::builtinModel("llama-3.1-70b"), draft = test::builtinModel("llama-3.2-1b");
        PlanSettings s;
        s.llm.prompt = 2000;
        s.llm.generate = 300;
        s.speculation = { &draft, 0.7, 4 };
        const Plan plan = planServing(target, s, { test::shippedDevice("h100-sxm") });
        const DevicePlan& d = plan.devices[0];
        int drafted = 0, plainPoints = 0;
        for (const PlanPoint& p : d.points)
            (p.lookahead == 4 ? drafted : plainPoints) += 1;
        QVERIFY(drafted > 10 && plainPoints > 10);
        QVERIFY(d.front.size() > 2);
        QCOMPARE(d.points[d.front.front()].lookahead, 4);
        QCOMPARE(d.points[d.front.back()].lookahead, 0);
        QVERIFY(planPointLabel(d.points[d.front.front()]).ends_with(", draft K = 4"));
    }
};

QTEST_APPLESS_MAIN(TestSpeculative)
#include "tst_speculative.moc"
