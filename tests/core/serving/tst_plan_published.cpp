// Published serving throughputs lie at or under the plan's front at the same per-user speed: the plan
// is a bound, and a real engine's measured maximum must not beat it.
//
// Source: NVIDIA TensorRT-LLM, docs/source/blogs/H200launch.md (release 0.5.0), "H200 FP8 Max
// throughput" (TensorRT-LLM v0.5.0, TensorRT 9.1.0.4; preliminary measured): output tokens/s of one
// run at a batch, tensor parallelism, input and output length. Per GPU: the throughput / TP; per user:
// the throughput / the batch (their runs' prefill included, so each user's decode ran faster still).
#include "serving/plan.h"
#include "testutils.h"

using namespace rfx;

namespace {

struct Published {
    const char* model;
    int tp, input, output, batch;
    double tokensPerSecond;
};

} // namespace

class TestPlanPublished : public QObject {
    Q_OBJECT
private slots:
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

QTEST_APPLESS_MAIN(TestPlanPublished)
#include "tst_plan_published.moc"
