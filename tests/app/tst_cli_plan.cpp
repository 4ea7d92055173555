// roofline-cli plan: the serving planner from the command line: its formats, its answer when no
// configuration meets the targets, and its refusals in the user's words.
#include "clirun.h"

#include <QtTest>

#include <nlohmann/json.hpp>

using namespace rfx;
using test::contains;

class TestCliPlan : public QObject {
    Q_OBJECT
    QTemporaryDir m_home;

private slots:
    void initTestCase() { test::isolateCli(m_home); }

    // Llama-3.1-70B for 200 users at P = 2,000, G = 300 within TTFT 1 s and TPOT 50 ms on two devices:
    // the table names each device's best and the GPUs; JSON holds every point with its targets and GPUs;
    // CSV a line a point; Markdown the bests.
    void planInEveryFormat()
    {
        const std::vector<std::string> base { "plan", "--model", "llama-3.1-70b", "--device", "h100-sxm", "--device",
            "mi300x", "--prompt", "2000", "--generate", "300", "--ttft", "1s", "--tpot", "50ms", "--users", "200" };
        const test::Run table = test::cli(base);
        QVERIFY2(table.code == 0, table.err.c_str());
        QVERIFY(contains(table.out, "Serving Llama-3.1 70B"));
        QVERIFY(contains(table.out, "targets TTFT <= 1.00 s, TPOT <= 50.0 ms; 200 users at once"));
        QVERIFY(contains(table.out, "roofline bound"));
        QVERIFY(contains(table.out, "NVIDIA H100 SXM5 80 GB (h100-sxm)\n  best: TP "));
        QVERIFY(contains(table.out, "for 200 users at once: "));
        QVERIFY(contains(table.out, "Meeting the targets, best first (fewest GPUs, then tokens/s per GPU)"));
        QVERIFY(contains(table.out, "J a token"));
        QVERIFY(
            contains(table.out, "Not ranked by cost: no price for NVIDIA H100 SXM5 80 GB, AMD Instinct MI300X 192 GB"));
        std::vector<std::string> priced = base;
        priced.insert(priced.end(), { "--price", "h100-sxm=2.99", "--price", "mi300x=2.49" });
        const test::Run costed = test::cli(priced);
        QCOMPARE(costed.code, 0);
        QVERIFY(contains(costed.out, "Meeting the targets, best first (least cost an hour)"));
        QVERIFY(contains(costed.out, "per million tokens at $2.99 per GPU-hour"));
        std::vector<std::string> args = base;
        args.insert(args.end(), { "--format", "json" });
        const test::Run json = test::cli(args);
        QCOMPARE(json.code, 0);
        const nlohmann::json j = nlohmann::json::parse(json.out);
        QCOMPARE(j["devices"].size(), size_t(2));
        int points = 0;
        for (const auto& d : j["devices"]) {
            QVERIFY(!d["best"].is_null());
            const auto& best = d["points"][d["best"].get<size_t>()];
            QVERIFY(best["meets_targets"].get<bool>());
            QVERIFY(best["tpot_s"].get<double>() <= 0.050 && best["ttft_s"].get<double>() <= 1);
            QCOMPARE(best["gpus"].get<int>(), best["replicas"].get<int>() * best["tensor_parallel"].get<int>());
            QVERIFY(best["replicas"].get<int>() * best["users"].get<int>() >= 200);
            points += int(d["points"].size());
        }
        args.back() = "csv";
        const test::Run csv = test::cli(args);
        QCOMPARE(csv.code, 0);
        QCOMPARE(int(std::count(csv.out.begin(), csv.out.end(), '\n')), points + 1);
        QVERIFY(csv.out.rfind("device,tensor_parallel,weights_bits,arithmetic,kv_bits,users,tpot_s", 0) == 0);
        args.back() = "markdown";
        const test::Run md = test::cli(args);
        QCOMPARE(md.code, 0);
        QVERIFY(contains(md.out, "| Device | Configuration |"));
    }

    // --disaggregated: each device's prefill and decode pools beside its aggregated best, in every form.
    void disaggregatedInEveryFormat()
    {
        std::vector<std::string> args { "plan", "--model", "llama-3.1-70b", "--device", "h100-sxm", "--prompt", "2000",
            "--generate", "300", "--ttft", "1s", "--tpot", "50ms", "--users", "200", "--disaggregated" };
        const test::Run table = test::cli(args);
        QVERIFY2(table.code == 0, table.err.c_str());
        QVERIFY2(contains(table.out, "  disaggregated best: prefill TP "), table.out.c_str());
        QVERIFY(contains(table.out, "over NVLink 4 (H100, 18 links), 450 GB/s per direction"));
        QVERIFY(contains(table.out, " prefill replica"));
        QVERIFY(contains(table.out, "x the aggregated best's"));
        QVERIFY(contains(table.out, "Disaggregated against aggregated, tokens/s per GPU"));
        args.insert(args.end(), { "--format", "json" });
        const test::Run json = test::cli(args);
        QCOMPARE(json.code, 0);
        const nlohmann::json j = nlohmann::json::parse(json.out);
        const nlohmann::json& split = j["devices"][0]["disaggregated"];
        QVERIFY(!split["best"].is_null());
        const nlohmann::json& best = split["points"][split["best"].get<size_t>()];
        QVERIFY(best["meets_targets"].get<bool>());
        QVERIFY(best["ttft_s"].get<double>() <= 1 && best["tpot_s"].get<double>() <= 0.050);
        QCOMPARE(best["gpus"].get<int>(),
            best["prefill_replicas"].get<int>() * best["prefill_tensor_parallel"].get<int>()
                + best["decode_replicas"].get<int>() * best["decode_tensor_parallel"].get<int>());
        args.back() = "csv";
        const test::Run csv = test::cli(args);
        QCOMPARE(csv.code, 0);
        QVERIFY(contains(csv.out, ",mode,prefill_tensor_parallel,prefill_batch,kv_transfer_s"));
        QVERIFY(contains(csv.out, ",aggregated,,,,,\n"));
        QVERIFY(contains(csv.out, ",disaggregated,"));
        args.back() = "markdown";
        const test::Run md = test::cli(args);
        QCOMPARE(md.code, 0);
        QVERIFY(contains(md.out, "**Disaggregated** (prefill and decode pools)"));
    }

    // --draft: every configuration with and without speculative decoding, said in the heading and the labels.
    void speculativeDecodingWeighed()
    {
        const test::Run r = test::cli({ "plan", "--model", "llama-3.1-8b", "--prompt", "2000", "--generate", "300",
            "--draft", "llama-3.2-1b", "--accept", "0.7", "--format", "json" });
        QVERIFY2(r.code == 0, r.err.c_str());
        const nlohmann::json j = nlohmann::json::parse(r.out);
        QCOMPARE(j["speculation"]["lookahead"].get<int>(), 4);
        int drafted = 0;
        for (const nlohmann::json& p : j["devices"][0]["points"])
            drafted += p["lookahead"].get<int>() == 4;
        QVERIFY(drafted > 5 && drafted < int(j["devices"][0]["points"].size()));
        const test::Run t
            = test::cli({ "plan", "--model", "llama-3.1-8b", "--draft", "llama-3.2-1b", "--accept", "0.7" });
        QCOMPARE(t.code, 0);
        QVERIFY(contains(t.out, "Speculative decoding weighed against plain decoding: draft Llama-3.2 1B"));
        QVERIFY(contains(t.out, ", draft K = 4 "));
    }

    // --calibration: a calibration made the user's way (calibrate --measured-tokens-per-s: Llama-3.1-8B at
    // 64 sequences measured at 2,000 tokens/s on an H100, against a bound of 6,336) plans the H100 a
    // second time beside its bound, in every form; one for a device not planned is refused, naming it.
    void calibratedPlanBesideTheBound()
    {
        const std::string cal = m_home.filePath("h100.cal.json").toStdString();
        const test::Run fit = test::cli({ "calibrate", "--measured-tokens-per-s", "2000", "--model", "llama-3.1-8b",
            "--batch", "64", "--prompt", "2000", "--generate", "300", "--device", "h100-sxm", "--output", cal });
        QVERIFY2(fit.code == 0, fit.err.c_str());
        std::vector<std::string> args { "plan", "--model", "llama-3.1-70b", "--device", "h100-sxm", "--device",
            "mi300x", "--prompt", "2000", "--generate", "300", "--tpot", "50ms", "--users", "200", "--calibration",
            cal };
        const test::Run table = test::cli(args);
        QVERIFY2(table.code == 0, table.err.c_str());
        QVERIFY(contains(table.out, "  calibrated by " + cal + " (each row at the efficiency its kernels were"));
        QVERIFY(contains(table.out, " x the bound's best, 1,358 tokens/s per GPU\n"));
        QVERIFY(contains(table.out, "  calibrated front:\n"));
        args.insert(args.end(), { "--format", "json" });
        const test::Run json = test::cli(args);
        QCOMPARE(json.code, 0);
        const nlohmann::json j = nlohmann::json::parse(json.out);
        QVERIFY(!j["devices"][1].contains("calibrated"));
        const nlohmann::json& bound = j["devices"][0];
        const nlohmann::json& c = bound["calibrated"];
        QCOMPARE(c["calibration"].get<std::string>(), cal);
        QVERIFY(!c["bound"].get<bool>() && !c["best"].is_null());
        const double perGpu = c["points"][c["best"].get<size_t>()]["tokens_per_s_per_gpu"].get<double>();
        const double boundPerGpu = bound["points"][bound["best"].get<size_t>()]["tokens_per_s_per_gpu"].get<double>();
        // The fit reached about a third of the roof (2,000 of 6,336 tokens/s): so does the plan, within it.
        QVERIFY2(perGpu > 0.2 * boundPerGpu && perGpu < 0.5 * boundPerGpu, json.out.substr(0, 200).c_str());
        args.back() = "csv";
        const test::Run csv = test::cli(args);
        QCOMPARE(csv.code, 0);
        QVERIFY(contains(csv.out, ",cost_per_million_tokens_usd,lookahead,times\n"));
        QVERIFY(contains(csv.out, ",bound\n") && contains(csv.out, ",calibrated\n"));
        args.back() = "markdown";
        const test::Run md = test::cli(args);
        QCOMPARE(md.code, 0);
        QVERIFY(contains(md.out, "| NVIDIA H100 SXM5 80 GB, calibrated (" + cal + ") | TP "));
        const test::Run other
            = test::cli({ "plan", "--model", "llama-3.1-8b", "--device", "mi300x", "--calibration", cal });
        QCOMPARE(other.code, 2);
        QVERIFY2(contains(other.err,
                     "the calibration is for 'h100-sxm', which is not among the devices planned for "
                     "(add --device h100-sxm)"),
            other.err.c_str());
        const test::Run missing = test::cli({ "plan", "--model", "llama-3.1-8b", "--calibration", "nowhere.json" });
        QCOMPARE(missing.code, 2);
        QVERIFY2(contains(missing.err, "nowhere.json"), missing.err.c_str());
    }

    // No configuration meets the target: the plan is still printed, the reason goes to the error
    // stream with what to relax, and the exit is 1 (for scripts).
    void targetNobodyMeets()
    {
        const test::Run r = test::cli({ "plan", "--model", "llama-3.1-70b", "--tpot", "1ms" });
        QCOMPARE(r.code, 1);
        QVERIFY2(
            contains(r.err, "no configuration of the NVIDIA H100 SXM5 80 GB meets TPOT <= 1.00 ms for Llama-3.1 70B"),
            r.err.c_str());
        QVERIFY(contains(r.err, "relax --tpot"));
        QVERIFY(contains(r.out, "front"));
    }

    void refusalsSayWhy()
    {
        auto err = [](std::vector<std::string> args) {
            args.insert(args.begin(), "plan");
            const test::Run r = test::cli(args);
            return r.code == 2 ? r.err : std::string("exit ") + std::to_string(r.code);
        };
        QVERIFY(contains(err({ "--model", "llama-3.1-8b", "--tp", "2" }), "--tp: the plan searches it"));
        QVERIFY(contains(err({ "--model", "llama-3.1-8b", "--ttft", "soon" }), "--ttft soon: give a time above 0"));
        QVERIFY(contains(err({ "--model", "llama-3.1-8b", "--users", "0" }), "--users 0: give a whole number"));
        QVERIFY(contains(err({ "--model", "llama-3.1-8b", "--users", "5", "--rate", "2" }), "give one load"));
        QVERIFY(contains(err({ "--model", "llama-3.1-8b", "--usable-memory", "1.5" }), "at most 1"));
        QVERIFY(contains(err({ "--model", "llama-3.1-8b", "--price", "2.99" }), "--price 2.99: give ID=USD"));
        QVERIFY(contains(err({ "--model", "llama-3.1-8b", "--price", "mi300x=2.49" }),
            "mi300x is not among the devices planned for"));
        QVERIFY(contains(err({ "--model", "llama-3.1-8b", "--device", "h900" }), "h900"));
        QVERIFY(contains(err({ "--device", "h100-sxm" }), "--model is required"));
        QVERIFY(contains(err({ "--model", "llama-3.1-8b", "--format", "latex" }),
            "--format: expected table, json, csv or markdown"));
        QVERIFY(contains(err({ "--model", "llama-3.1-8b", "--prompt", "200000", "--generate", "1000" }), "131,072"));
        QVERIFY(contains(err({ "--model", "llama-3.1-8b", "--kv-link", "nvlink4" }), "add --disaggregated"));
        QVERIFY(contains(err({ "--model", "llama-3.1-8b", "--disaggregated", "--kv-link", "carrier-pigeon" }),
            "unknown interconnect 'carrier-pigeon' (available: pcie3-x16"));
        QVERIFY(contains(err({ "--model", "llama-3.1-8b", "--disaggregated=yes" }), "--disaggregated takes no value"));
        QVERIFY(contains(err({ "--model", "llama-3.1-8b", "--lookahead", "3" }), "add --draft MODEL"));
        QVERIFY(contains(err({ "--model", "llama-3.1-8b", "--draft", "llama-3.2-1b" }), "give --accept A too"));
    }
};

QTEST_MAIN(TestCliPlan)
#include "tst_cli_plan.moc"
