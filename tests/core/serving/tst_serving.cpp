// The serving model (core/serving): continuous batching in steady state. The mixed step's rows
// worked by hand (Llama-2-7B: its shapes from its config.json; the row formulas as tst_llm's), the
// decode step alone equal to `llm`'s TPOT, a prompt's chunks, the memory of N users; speculative
// decoding's rounds.
#include "llm/llm_analysis.h"
#include "serving/plan.h"
#include "serving/serving.h"
#include "testutils.h"

#include <cmath>

using namespace rfx;

namespace {

LlmModel builtin(const char* id) { return test::builtinModel(id); }

const MixedRow& row(const MixedStep& s, const std::string& name)
{
    for (const MixedRow& r : s.rows)
        if (r.name == name)
            return r;
    qFatal("no row %s", name.c_str());
}

ServingSettings traffic(int users, int prompt = 512, int generate = 128)
{
    ServingSettings s;
    s.users = users;
    s.llm.prompt = prompt;
    s.llm.generate = generate;
    return s;
}

bool near(double a, double b, double rel = 1e-12)
{
    return std::abs(a - b) <= rel * std::max(std::abs(a), std::abs(b));
}

} // namespace

class TestServing : public QObject {
    Q_OBJECT
private slots:
    // N = 4 users, P = 512, G = 128: a step decodes 4 tokens at C = 512 + 64 = 576 and carries
    // 4 x 512 / 128 = 16 prompt tokens, a share N / G = 1/32 of a prompt's prefill.
    // Llama-2-7B's q_proj (4,096 x 4,096, 32 blocks, fp16):
    //   FLOPs 32 x 2 x 4,096^2 x (4 + 512 / 32) = 32 x 2 x 4,096^2 x 20 = 21,474,836,480
    //   bytes 32 x (x and y of the 4 decode tokens: 2 x 4 x 4,096 x 2 = 65,536
    //             + 1/32 of the prefill's x and y: 2 x 512 x 4,096 x 2 / 32 = 262,144
    //             + W once: 4,096^2 x 2 = 33,554,432) = 32 x 33,882,112 = 1,084,227,584
    // Attention (FlashAttention, 32 heads of 128): 4 d + 5 = 517 FLOP a (query, key) pair;
    //   decode 4 x 576 = 2,304 pairs, prefill 512 x 513 / 2 = 131,328 pairs of which 1/32.
    void mixedStepRowsByHand()
    {
        const Device h100 = test::shippedDevice("h100-sxm");
        const ServingSettings s = traffic(4);
        std::string error;
        const std::optional<MixedStep> step = mixedStep(builtin("llama-2-7b"), s, h100, 4.0 / 128, &error);
        QVERIFY2(step, error.c_str());
        QCOMPARE(step->prefillTokens, 16.0);
        const MixedRow& q = row(*step, "blk0-31.q_proj");
        QCOMPARE(q.flops, 21474836480.0);
        QCOMPARE(q.bytes, 1084227584.0);
        QCOMPARE(q.weightBytes, 32 * 33554432.0);
        // Attention: the decode's 32 x 32 x 517 x 2,304 FLOP and 1/32 of the prefill's row as `llm` reports it.
        LlmSettings one = s.llm;
        const LlmOutcome o = analyzeLlm(builtin("llama-2-7b"), one, { h100 }, false);
        QVERIFY(o.analysis);
        double prefillAttention = 0;
        for (const LayerResult& r : o.analysis->prefill.results[0].layers)
            if (r.name == "blk0-31.attention")
                prefillAttention = r.flops;
        QVERIFY(near(prefillAttention, 32 * 32 * 517 * 131328.0,
            1e-3)); // 512 x 513 / 2 pairs (the engine's gemm model within 0.01 %)
        QVERIFY(near(row(*step, "blk0-31.attention").flops, 32 * 32 * 517 * 2304.0 + prefillAttention / 32));
        // The whole step: each row's bound, summed; the weights read once (every matrix of a dense
        // model; the embedding's rows gathered: 4 decode tokens against 512 / 32 = 16 of a prompt's).
        double flops = 0, bytes = 0, time = 0;
        for (const MixedRow& r : step->rows)
            flops += r.flops, bytes += r.bytes, time += r.time;
        QVERIFY(near(step->flops, flops) && near(step->bytes, bytes) && near(step->time, time));
        // A step is slower than the decode alone and faster than it plus a separate prefill chunk.
        const std::optional<MixedStep> alone = mixedStep(builtin("llama-2-7b"), s, h100, 0);
        const std::optional<MixedStep> chunkOnly = mixedStep(builtin("llama-2-7b"), traffic(1), h100, 4.0 / 128);
        QVERIFY(alone && chunkOnly);
        QVERIFY(step->time > alone->time);
        QVERIFY(step->time < alone->time + chunkOnly->time);
    }

    // Without the prefill share the step is `llm`'s decode step: at N = 1 its TPOT, on a GPU, a CPU and
    // over four GPUs of tensor parallelism (their all-reduces over NVLink 4 included).
    void decodeAloneIsLlmsTpot()
    {
        for (const char* id : { "h100-sxm", "ryzen-9-5950x" })
            for (int tp : { 1, 4 }) {
                if (tp > 1 && QByteArray(id).startsWith("ryzen"))
                    continue;
                const Device d = test::shippedDevice(id);
                ServingSettings s = traffic(1);
                s.llm.tensorParallel = tp;
                const std::optional<MixedStep> step = mixedStep(builtin("llama-3.1-8b"), s, d, 0);
                QVERIFY(step);
                LlmSettings l = s.llm;
                l.batch = 1;
                const LlmOutcome o = analyzeLlm(builtin("llama-3.1-8b"), l, { d }, false);
                QVERIFY(o.analysis);
                QVERIFY2(near(step->time, o.analysis->figures[0].tpot),
                    qPrintable(QStringLiteral("%1 TP %2: %3 against %4")
                                   .arg(id)
                                   .arg(tp)
                                   .arg(step->time)
                                   .arg(o.analysis->figures[0].tpot)));
                QVERIFY(tp == 1 || step->linkTime > 0);
                // Its energy: the engine's power model over the same rows, as `llm` gives it a token
                // (each GPU's energy times the GPUs, for one sequence), and the GPUs idle while the
                // all-reduces cross the link (which `llm` leaves out).
                const double rows = step->energy - d.idleWatts * step->linkTime;
                QVERIFY2(near(rows * tp, o.analysis->figures[0].energyPerToken, 1e-9),
                    qPrintable(QStringLiteral("%1 TP %2: %3 J against %4 J")
                                   .arg(id)
                                   .arg(tp)
                                   .arg(rows * tp)
                                   .arg(o.analysis->figures[0].energyPerToken)));
                QCOMPARE(step->prefillTokens, 0.0);
            }
    }

    // A step at calibrated times (plan --calibration): at half the roof on both sides and no overhead each
    // joined row takes twice its bound, and the step twice its rows plus the same all-reduces over NVLink 4
    // (a link has no fit). With 5 us of overhead on the memory side, q_proj (memory-bound: 8 decode tokens
    // and 8 x 2,000 / 300 = 53.3 of a prompt's, M = 61 against the H100's fp16 ridge of 295 FLOP/B) pays
    // 5 us in each of the 32 blocks its row stands for: 32 x 5 us + 2 x its bound. A calibration of another
    // device changes nothing.
    void calibratedStepByHand()
    {
        const Device h100 = test::shippedDevice("h100-sxm");
        ServingSettings s = traffic(8, 2000, 300);
        s.llm.tensorParallel = 2;
        const LlmModel model = builtin("llama-3.1-8b");
        const std::optional<MixedStep> bound = mixedStep(model, s, h100, 8.0 / 300);
        const Calibration half = test::halfTheRoof("h100-sxm"), overhead = test::halfTheRoof("h100-sxm", 5e-6),
                          other = test::halfTheRoof("mi300x");
        s.calibration = &half;
        const std::optional<MixedStep> halved = mixedStep(model, s, h100, 8.0 / 300);
        s.calibration = &overhead;
        const std::optional<MixedStep> paying = mixedStep(model, s, h100, 8.0 / 300);
        s.calibration = &other;
        const std::optional<MixedStep> elsewhere = mixedStep(model, s, h100, 8.0 / 300);
        QVERIFY(bound && halved && paying && elsewhere);
        QVERIFY(bound->linkTime > 0);
        QCOMPARE(halved->rows.size(), bound->rows.size());
        QVERIFY(!bound->rows.empty());
        for (size_t i = 0; i < bound->rows.size(); ++i)
            QVERIFY(near(halved->rows[i].time, 2 * bound->rows[i].time));
        QVERIFY(near(halved->time, 2 * (bound->time - bound->linkTime) + bound->linkTime));
        QCOMPARE(halved->linkTime, bound->linkTime);
        QVERIFY(near(row(*paying, "blk0-31.q_proj").time, 32 * 5e-6 + 2 * row(*bound, "blk0-31.q_proj").time));
        QCOMPARE(elsewhere->time, bound->time);
    }

    // A mixture's experts: Mixtral-8x7B's 4 decode tokens touch 8 (1 - (6/8)^4) = 5.47 of 8 experts a
    // layer; 1/32 of a prompt's 512 tokens touch at least 1/32 of the ~8 a whole prompt does. The step
    // reads the larger: the decode's experts (the row's weights as the decode alone reads them).
    void expertsReadTheLargerPart()
    {
        const Device h100 = test::shippedDevice("h100-sxm");
        const std::optional<MixedStep> step = mixedStep(builtin("mixtral-8x7b"), traffic(4), h100, 4.0 / 128);
        const std::optional<MixedStep> alone = mixedStep(builtin("mixtral-8x7b"), traffic(4), h100, 0);
        QVERIFY(step && alone);
        int experts = 0;
        for (size_t i = 0; i < alone->rows.size(); ++i)
            if (alone->rows[i].name.find("expert") != std::string::npos) {
                ++experts;
                QCOMPARE(step->rows[i].name, alone->rows[i].name);
                QCOMPARE(step->rows[i].weightBytes, alone->rows[i].weightBytes);
                QVERIFY(step->rows[i].flops > alone->rows[i].flops);
            }
        QVERIFY(experts > 0);
    }

    // The steady state of Llama-3.1-8B on one H100 SXM for 64 users, P = 2,000, G = 300:
    // a step carries 64 x 2,000 / 300 = 426.7 prompt tokens; a new prompt is prefilled in chunks of
    // 2,048 tokens (the budget, at most P): one step. TTFT = t / 2 + that step's time. Memory: the
    // weights 8,030,261,248 x 2 bytes, the cache 64 x 2,300 tokens x 131,072 bytes.
    void steadyStateOfAReplica()
    {
        const Device h100 = test::shippedDevice("h100-sxm");
        const ServingOutcome o = servingPoint(builtin("llama-3.1-8b"), traffic(64, 2000, 300), h100);
        QVERIFY2(o.point, o.error.c_str());
        const ServingPoint& p = *o.point;
        QVERIFY(near(p.step.prefillTokens, 64 * 2000 / 300.0));
        QCOMPARE(p.tpot, p.step.time);
        QVERIFY(near(p.userTokensPerSecond, 1 / p.tpot));
        QVERIFY(near(p.replicaTokensPerSecond, 64 / p.tpot));
        QVERIFY(near(p.gpuTokensPerSecond, p.replicaTokensPerSecond));
        QVERIFY(near(p.requestsPerSecond, 64 / p.tpot / 300));
        QCOMPARE(p.chunk, 2000.0);
        QCOMPARE(p.prefillSteps, 1);
        const std::optional<MixedStep> burst = mixedStep(builtin("llama-3.1-8b"), traffic(64, 2000, 300), h100, 1.0);
        QVERIFY(burst);
        QVERIFY(near(p.chunkStepTime, burst->time));
        QVERIFY(near(p.ttft, p.tpot / 2 + burst->time));
        QCOMPARE(p.weightsBytes, 8030261248.0 * 2);
        QCOMPARE(p.kvBytes, 64 * 2300 * 131072.0);
        QVERIFY(p.activationBytes > 0);
        QVERIFY(near(p.memoryBytes, p.weightsBytes + p.kvBytes + p.activationBytes));
        QVERIFY(near(p.usableBytes, 0.9 * h100.memoryBytes));
        QVERIFY(p.fits); // 16.1 GB + 19.3 GB of 72 GB
        // A prompt longer than the budget: ceil(8,000 / 2,048) = 4 chunks of 2,048.
        const ServingOutcome longer = servingPoint(builtin("llama-3.1-8b"), traffic(8, 8000, 300), h100);
        QVERIFY(longer.point);
        QCOMPARE(longer.point->chunk, 2048.0);
        QCOMPARE(longer.point->prefillSteps, 4);
        // More users: each waits longer for a token, the replica makes more of them.
        const ServingOutcome fewer = servingPoint(builtin("llama-3.1-8b"), traffic(8, 2000, 300), h100);
        QVERIFY(fewer.point);
        QVERIFY(fewer.point->tpot < p.tpot);
        QVERIFY(fewer.point->replicaTokensPerSecond < p.replicaTokensPerSecond);
    }

    // What cannot be served says why, naming the option.
    void impossibleSettingsAreNamed()
    {
        const Device h100 = test::shippedDevice("h100-sxm");
        ServingSettings s = traffic(0);
        QVERIFY(servingPoint(builtin("llama-3.1-8b"), s, h100).error.find("--users 0") != std::string::npos);
        s = traffic(4);
        s.usableMemory = 1.5;
        QVERIFY(servingPoint(builtin("llama-3.1-8b"), s, h100).error.find("--usable-memory") != std::string::npos);
        s = traffic(4, 200000, 128);
        const std::string tooLong = servingPoint(builtin("llama-3.1-8b"), s, h100).error;
        QVERIFY2(tooLong.find("131,072") != std::string::npos, tooLong.c_str());
        s = traffic(4);
        s.llm.tensorParallel = 3;
        QVERIFY(!servingPoint(builtin("llama-3.1-8b"), s, h100).error.empty());
        // Too many users for one GPU's memory: the point says it does not fit (the planner skips it).
        const ServingOutcome full = servingPoint(builtin("llama-3.1-8b"), traffic(4096, 2000, 300), h100);
        QVERIFY(full.point && !full.point->fits);
    }

    // Speculative decoding (core/serving/speculative.h): the expected tokens a round, the verification's
    // rows worked by hand, a round built from the draft's and the target's steps, the planner weighing it.
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

QTEST_MAIN(TestServing)
#include "tst_serving.moc"
