// roofline-cli llm: the hand-worked cases of tests/core/llm/tst_llm.cpp in every format, the language
// models in 'networks', and bad input named by its flag. Figures worked by hand here; the devices'
// ceilings from their shipped files (H100 SXM: 3.35 TB/s, tensor FP16 989.4 TFLOP/s, 80 GB).
#include "cli.h"
#include "clirun.h"
#include "testpaths.h"
#include "testutils.h"

#include <QDir>
#include <QFile>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <sstream>

using namespace rfx;
using nlohmann::json;

namespace {

using test::cli;
using test::contains;
using test::Run;

const json& row(const json& layers, const std::string& name)
{
    for (const json& l : layers)
        if (l["name"] == name)
            return l;
    qFatal("no row %s", name.c_str());
}

} // namespace

class TestCliLlm : public QObject {
    Q_OBJECT
    QTemporaryDir m_home; // an empty user device folder, so the developer's own devices do not leak in

private slots:
    void initTestCase() { test::isolateCli(m_home); }

    // Llama-2-7B, 512 tokens in, 128 out, batch 1, fp16 on an H100 SXM.
    void jsonHoldsTheWorkedCase()
    {
        const Run r = cli({ "llm", "--model", "llama-2-7b", "--prompt", "512", "--generate", "128", "--device",
            "h100-sxm", "--format", "json" });
        QCOMPARE(r.code, 0);
        const json j = json::parse(r.out);
        QCOMPARE(j["params"].get<std::int64_t>(), std::int64_t(6738415616)); // Meta's published count
        const json& d = j["devices"][0];
        QCOMPARE(d["id"].get<std::string>(), std::string("h100-sxm"));
        QCOMPARE(d["params"].get<std::int64_t>(), std::int64_t(6738415616));
        // a token of cache: 2 (k, v) x 32 layers x 32 KV heads x 128 x 2 bytes = 524,288; 640 tokens of it
        QCOMPARE(d["kv_bytes_per_token"].get<double>(), 524288.0);
        QCOMPARE(d["kv_bytes"].get<double>(), 640 * 524288.0);
        // weights at 2 bytes: 13,476,831,232 bytes
        QCOMPARE(d["weights_bytes"].get<double>(), 13476831232.0);
        QVERIFY(d["fits"].get<bool>());
        // prefill q_proj: 2 x 512 x 4096 x 4096 FLOP per block, x, W, y at 2 bytes, 32 blocks
        const json& q = row(d["phases"]["prefill"]["layers"], "blk0-31.q_proj");
        QCOMPARE(q["flops"].get<double>(), 32 * 2.0 * 512 * 4096 * 4096);
        QCOMPARE(q["bytes"].get<double>(), 32 * (512 * 4096 * 2.0 + 4096.0 * 4096 * 2 + 512 * 4096 * 2.0));
        QCOMPARE(q["bound"].get<std::string>(), std::string("compute"));
        // decode at C = 512 + 64 = 576: q_proj reads its weights for one token, memory-bound
        QCOMPARE(j["settings"]["context"].get<int>(), 576);
        const json& qd = row(d["phases"]["decode"]["layers"], "blk0-31.q_proj");
        QCOMPARE(qd["bound"].get<std::string>(), std::string("memory"));
        // TPOT is no less than the weights over the bandwidth, 13.48 GB / 3.35 TB/s = 4.023 ms, and
        // within 5 % of it (the KV cache, 302 MB at C = 576, and the activations are the rest)
        const double tpot = d["tpot_s"].get<double>();
        QVERIFY2(
            tpot >= 13476831232.0 / 3.35e12 && tpot < 1.05 * 13476831232.0 / 3.35e12, std::to_string(tpot).c_str());
        QCOMPARE(d["tokens_per_s"].get<double>(), 1 / tpot);
        // TTFT: 2 x 6.74 G x 512 FLOP at 989.4 TFLOP/s is 6.97 ms for the matrices alone
        QVERIFY(d["ttft_s"].get<double>() > 2 * 6.476e9 * 512 / 989.4e12);
        QVERIFY(d["generation_s"].get<double>() > d["ttft_s"].get<double>() + 128 * tpot * 0.99);
        for (const char* key :
            { "batch_tokens_per_s", "memory_bytes", "largest_batch", "longest_context", "energy_per_token_j" })
            QVERIFY2(d.contains(key), key);
    }

    // The same case as a table, CSV, Markdown and LaTeX: each carries the worked figures.
    void everyFormat_data()
    {
        QTest::addColumn<QString>("format");
        QTest::addColumn<QStringList>("expected");
        QTest::newRow("table") << "table"
                               << QStringList { "TTFT", "TPOT", "blk0-31.q_proj", "4.04 ms", "roofline bounds" };
        QTest::newRow("csv") << "csv"
                             << QStringList { "device,phase,layer,op", "h100-sxm,prefill,blk0-31.q_proj,matmul",
                                    "h100-sxm,decode,blk0-31.attention" };
        QTest::newRow("markdown") << "markdown" << QStringList { "| device | TTFT | TPOT", "| h100-sxm |", "4.04 ms" };
        QTest::newRow("latex") << "latex" << QStringList { "\\toprule", "h100-sxm", "4.04\\,ms" };
    }
    void everyFormat()
    {
        QFETCH(QString, format);
        QFETCH(QStringList, expected);
        const Run r = cli({ "llm", "--model", "llama-2-7b", "--device", "h100-sxm", "--format", format.toStdString() });
        QCOMPARE(r.code, 0);
        for (const QString& e : expected)
            QVERIFY2(contains(r.out, e.toStdString()), qPrintable(e));
        QVERIFY(!contains(r.out, "nan") && !contains(r.out, "inf "));
    }

    // Llama-2-70B: 138 GB at fp16 does not fit an 80 GB A100; at 4 bits or over two GPUs it does.
    void seventyBillionFits()
    {
        auto fits = [](std::vector<std::string> more) {
            std::vector<std::string> args { "llm", "--model", "llama-2-70b", "--device", "a100-sxm-80gb", "--format",
                "json" };
            args.insert(args.end(), more.begin(), more.end());
            const Run r = cli(args);
            if (r.code != 0)
                qFatal("%s", r.err.c_str());
            return json::parse(r.out)["devices"][0]["fits"].get<bool>();
        };
        QVERIFY(!fits({}));
        QVERIFY(fits({ "--weights-bits", "4" }));
        QVERIFY(fits({ "--tp", "2" }));
    }

    // The activations' arithmetic (issue 47), on the ceilings the vendors' datasheets give (dense): an
    // A100 has tensor INT8 at 624 TOPS and no FP8, so fp8 rows run on tensor FP16, 312 TFLOPS, and say
    // so; an H100 has tensor FP8 at 1,979 TFLOPS; a T4 (Turing) has no BF16 at all: FP32's 8.1 TFLOPS.
    void activationTypesTakeTheirCeilings_data()
    {
        QTest::addColumn<QString>("device");
        QTest::addColumn<QString>("act");
        QTest::addColumn<double>("peak");
        QTest::addColumn<QString>("type");
        QTest::addColumn<QString>("note");
        QTest::newRow("a100 int8") << "a100-sxm-80gb"
                                   << "8" << 624e12 << "int8"
                                   << "";
        QTest::newRow("a100 fp8") << "a100-sxm-80gb"
                                  << "fp8" << 312e12 << "fp8"
                                  << "has no tensor FP8 ceiling; using its tensor FP16 ceiling";
        QTest::newRow("h100 fp8") << "h100-sxm"
                                  << "fp8" << 1978.9e12 << "fp8"
                                  << "";
        QTest::newRow("t4 fp16") << "t4"
                                 << "16" << 65.13e12 << "fp16"
                                 << "";
        QTest::newRow("t4 bf16") << "t4"
                                 << "bf16" << 8.141e12 << "bf16"
                                 << "has no tensor BF16 ceiling; using its FP32 ceiling";
    }
    void activationTypesTakeTheirCeilings()
    {
        QFETCH(QString, device);
        QFETCH(QString, act);
        QFETCH(double, peak);
        QFETCH(QString, type);
        QFETCH(QString, note);
        const Run r = cli({ "llm", "--model", "llama-2-7b", "--device", device.toStdString(), "--act-bits",
            act.toStdString(), "--format", "json" });
        QVERIFY2(r.code == 0, r.err.c_str());
        const json j = json::parse(r.out);
        QCOMPARE(QString::fromStdString(j["settings"]["act_type"].get<std::string>()), type);
        const json& q = row(j["devices"][0]["phases"]["prefill"]["layers"], "blk0-31.q_proj");
        QCOMPARE(q["peak_flops"].get<double>(), peak);
        QCOMPARE(QString::fromStdString(q["arithmetic"].get<std::string>()), type);
        bool said = note.isEmpty();
        for (const json& n : j["notes"])
            said = said || contains(n.get<std::string>(), note.toStdString());
        QVERIFY2(said, r.out.c_str());
        if (type == QLatin1String("fp8")) { // fp8 and int8 activations are both one byte: the same traffic
            const Run int8 = cli({ "llm", "--model", "llama-2-7b", "--device", device.toStdString(), "--act-bits", "8",
                "--format", "json" });
            const json j8 = json::parse(int8.out);
            const json& q8 = row(j8["devices"][0]["phases"]["prefill"]["layers"], "blk0-31.q_proj");
            QCOMPARE(q["bytes"].get<double>(), q8["bytes"].get<double>());
        }
    }

    void networksListsTheLanguageModels()
    {
        const Run t = cli({ "networks" });
        QCOMPARE(t.code, 0);
        QVERIFY(contains(t.out, "llama-3.1-8b") && contains(t.out, "8,030,261,248"));
        const Run j = cli({ "networks", "--format", "json" });
        int models = 0;
        for (const json& n : json::parse(j.out))
            if (n["kind"] == "language model") {
                ++models;
                QCOMPARE(n["params"].get<std::int64_t>(), n["published_params"].get<std::int64_t>());
                if (n["id"] == "qwen3-30b-a3b") // tests/core/llm/tst_llm_today.cpp works it out
                    QCOMPARE(n["active_params"].get<std::int64_t>(), std::int64_t(3'353'032'704));
            }
        QCOMPARE(models, 27);
    }

    // The other commands take convolutional networks; a language model there is sent to 'llm'.
    void otherCommandsPointToLlm()
    {
        for (const std::vector<std::string>& args :
            std::vector<std::vector<std::string>> { { "analyze", "--model", "llama-3.1-8b" },
                { "tune", "--model", "mixtral-8x7b" }, { "networks", "--model", "model.gguf" },
                { "analyze", "--model", "/models/Qwen2.5-7B/config.json" } }) {
            const Run r = cli(args);
            QCOMPARE(r.code, 2);
            QVERIFY2(contains(r.err,
                         "a language model; its prefill and decode are analysed by 'roofline-cli llm --model " + args[2]
                             + "'"),
                r.err.c_str());
        }
        QCOMPARE(cli({ "analyze", "--model", "resnet18", "--format", "json" }).code, 0);
    }

    // --draft: the decode step as speculative rounds beside plain decoding's (tests/core/serving/
    // tst_speculative.cpp works a round out); the three options refused alone or out of range.
    void speculativeDecoding()
    {
        const Run r = cli({ "llm", "--model", "llama-3.1-8b", "--draft", "llama-3.2-1b", "--accept", "0.7",
            "--lookahead", "4", "--prompt", "2000", "--generate", "300" });
        QVERIFY2(r.code == 0, r.err.c_str());
        QVERIFY2(contains(r.out,
                     "Speculative decoding with Llama-3.2 1B (Meta, 2024): K = 4 drafted a round, A = 0.70 "
                     "accepted each: (1 - A^5) / (1 - A) = 2.77 tokens a round"),
            r.out.c_str());
        QVERIFY(contains(r.out, "  h100-sxm: TPOT "));
        QVERIFY(contains(r.out, " = 4 draft steps of "));
        QVERIFY(contains(r.out, "x plain decoding's"));
        const Run j = cli(
            { "llm", "--model", "llama-3.1-8b", "--draft", "llama-3.2-1b", "--accept", "0.7", "--format", "json" });
        QCOMPARE(j.code, 0);
        const json sp = json::parse(j.out)["speculative"];
        QCOMPARE(sp["lookahead"].get<int>(), 4);
        const json& d = sp["devices"][0];
        QVERIFY(d["speedup"].get<double>() > 1);
        QVERIFY(std::abs(d["tpot_s"].get<double>() * sp["tokens_per_round"].get<double>() - d["round_s"].get<double>())
            < 1e-12);
        QVERIFY(std::abs(d["round_s"].get<double>() - d["verification_s"].get<double>()
                    - 4 * d["draft_step_s"].get<double>())
            < 1e-12);
        auto err = [](std::vector<std::string> args) {
            args.insert(args.begin(), { "llm", "--model", "llama-3.1-8b" });
            const Run x = cli(args);
            return x.code == 2 ? x.err : "exit " + std::to_string(x.code);
        };
        QVERIFY(contains(err({ "--draft", "llama-3.2-1b" }), "give --accept A too"));
        QVERIFY(contains(err({ "--accept", "0.7" }), "add --draft MODEL"));
        QVERIFY(contains(err({ "--draft", "llama-3.2-1b", "--accept", "1.2" }), "--accept 1.2: give the share"));
        QVERIFY(contains(err({ "--draft", "llama-3.2-1b", "--accept", "0.7", "--lookahead", "0" }), "--lookahead 0"));
        QVERIFY(
            contains(err({ "--draft", "no-such-model", "--accept", "0.7" }), "--draft: cannot use the draft model"));
        QVERIFY(contains(
            err({ "--draft", "llama-3.2-1b", "--accept", "0.7", "--format", "csv" }), "--format table or json"));
    }

    // An ONNX decoder with past keys and values (issue 49 item 3): both phases from the file's graph, the
    // cache from its past inputs. tiny_llama_genai (make_fixtures.py): 1,705,216 parameters; weights
    // 1,337,856 B of Q4_0-sized MatMulNBits, fp16 embedding and norms, and the 262,144 B of its rotary
    // tables (tests/core/llm/tst_llm_onnx.cpp works them out); a token of fp16 cache 2 layers x (K, V) x 2
    // heads x 64 x 2 B = 1,024 B, 640 tokens of it.
    void onnxDecoder()
    {
        const std::string file = std::string(ROOFLINE_TEST_DATA_DIR) + "/onnx/wild/tiny_llama_genai.onnx";
        const Run r = cli(
            { "llm", "--model", file, "--prompt", "512", "--generate", "128", "--format", "json", "--kv-bits", "8" });
        QCOMPARE(r.code, 0);
        const json j = json::parse(r.out);
        QCOMPARE(j["params"].get<std::int64_t>(), std::int64_t(1705216));
        QCOMPARE(j["settings"]["attention"].get<std::string>(), std::string("graph"));
        QCOMPARE(j["settings"]["kv_bits"].get<int>(), 16);
        const json& d = j["devices"][0];
        QCOMPARE(d["weights_bytes"].get<double>(), 1600000.0);
        QCOMPARE(d["kv_bytes_per_token"].get<double>(), 1024.0);
        QCOMPARE(d["kv_bytes"].get<double>(), 640 * 1024.0);
        QVERIFY2(
            contains(r.err, "--kv-bits: not used: an ONNX decoder is analysed as its graph stores it"), r.err.c_str());
        const Run table = cli({ "llm", "--model", file });
        QCOMPARE(table.code, 0);
        QVERIFY2(
            contains(table.out, "attention as the graph computes it") && contains(table.out, "GroupQueryAttention"),
            table.out.c_str());
        const Run tp = cli({ "llm", "--model", file, "--tp", "2" });
        QCOMPARE(tp.code, 2);
        QVERIFY2(contains(tp.err, "--tp 2: an ONNX decoder is one GPU's graph"), tp.err.c_str());
        const Run cnn = cli({ "llm", "--model", std::string(ROOFLINE_TEST_DATA_DIR) + "/onnx/resnet50.onnx" });
        QCOMPARE(cnn.code, 2);
        QVERIFY2(contains(cnn.err, "not a decoder with past keys and values"), cnn.err.c_str());
        // 'analyze' takes the same file as a prefill from an empty cache, and says where both phases are
        const Run analyze = cli({ "analyze", "--model", file, "--image", "64" });
        QCOMPARE(analyze.code, 0);
        QVERIFY2(contains(analyze.out + analyze.err, "analysed as a prefill of 64 tokens from an empty cache"),
            analyze.err.c_str());
    }

    // Issue 36 item 5: the context sweep as CSV; the RTX 4090's line ends at 18,182 tokens (worked by hand
    // in tst_llm_sweep: 24 GiB less the weights and activations over 524,288 bytes per token).
    void sweepAsCsv()
    {
        const Run r = cli({ "llm", "--model", "llama-3.1-8b", "--device", "rtx-4090", "--batch", "4", "--sweep",
            "context", "--format", "csv" });
        QVERIFY2(r.code == 0, r.err.c_str());
        const QStringList lines = QString::fromStdString(r.out).trimmed().split(QLatin1Char('\n'));
        QCOMPARE(lines.front(),
            QStringLiteral("device,context,tpot_s,tokens_per_s,batch_tokens_per_s,memory_bytes,capacity_bytes"));
        QCOMPARE(lines.size(), 11);
        QVERIFY2(lines.back().startsWith(QStringLiteral("rtx-4090,18182,")), qPrintable(lines.back()));
        const Run table
            = cli({ "llm", "--model", "llama-3.1-8b", "--device", "rtx-4090", "--batch", "4", "--sweep", "context" });
        QVERIFY(contains(table.out, "rtx-4090: fits up to context 18,182 (then memory runs out)"));
        QVERIFY(contains(table.out, "      576*"));
    }

    void badInputNamesTheFlag_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown model") << QStringList { "--model", "llama-9b" }
                                       << "llama-9b: no such file, and not a built-in";
        QTest::newRow("no model") << QStringList { "--prompt", "5" } << "--model is required";
        QTest::newRow("negative prompt") << QStringList { "--model", "gpt2", "--prompt", "-5" }
                                         << "--prompt: must be a whole number from 1";
        QTest::newRow("not a number") << QStringList { "--model", "gpt2", "--generate", "lots" }
                                      << "--generate: expected a whole number";
        QTest::newRow("absurd batch") << QStringList { "--model", "gpt2", "--batch", "10000000" }
                                      << "--batch: must be a whole number from 1 to 65536";
        QTest::newRow("context over the maximum") << QStringList { "--model", "llama-2-7b", "--context", "100000" }
                                                  << "--context 100,000: longer than Llama-2 7B";
        QTest::newRow("tokens over the maximum") << QStringList { "--model", "gpt2", "--prompt", "1000", "--generate",
            "100" } << "--prompt 1,000 and --generate 100: 1,100 tokens";
        QTest::newRow("tp does not divide the heads") << QStringList { "--model", "llama-2-7b", "--tp",
            "3" } << "--tp 3: Llama-2 7B (Meta, 2023) cannot be split that way: its 32 attention heads";
        QTest::newRow("weights bits") << QStringList { "--model", "gpt2", "--weights-bits",
            "5" } << "--weights-bits: must be 4, mxfp4, 8, 16, 32 or \"file\" (as the weight file stores them), got 5";
        QTest::newRow("weights from no file") << QStringList { "--model", "gpt2", "--weights-bits", "file" }
                                              << "--weights-bits file: gpt2 gives no tensor types";
        QTest::newRow("kv bits") << QStringList { "--model", "gpt2", "--kv-bits", "3" }
                                 << "--kv-bits: must be 4, 8, 16 or 32";
        QTest::newRow("act type") << QStringList { "--model", "gpt2", "--act-bits", "fp4" }
                                  << "--act-bits: expected a width in bits or int8, fp8, fp16, bf16, fp32, got 'fp4'";
        QTest::newRow("act bits") << QStringList { "--model", "gpt2", "--act-bits", "4" }
                                  << "--act-bits: must be 8, 16 or 32";
        QTest::newRow("attention") << QStringList { "--model", "gpt2", "--attention", "sparse" }
                                   << "--attention: expected flash or naive";
        QTest::newRow("interconnect") << QStringList { "--model", "gpt2", "--tp", "2", "--interconnect", "smoke" }
                                      << "--interconnect: unknown interconnect 'smoke'";
        QTest::newRow("device") << QStringList { "--model", "gpt2", "--device", "nope" } << "unknown device 'nope'";
        QTest::newRow("format") << QStringList { "--model", "gpt2", "--format", "xml" }
                                << "--format: expected table, json, csv, markdown or latex";
        QTest::newRow("sweep axis") << QStringList { "--model", "gpt2", "--sweep", "prompt" }
                                    << "--sweep: expected context or batch";
        QTest::newRow("sweep format") << QStringList { "--model", "gpt2", "--sweep", "batch", "--format", "latex" }
                                      << "--sweep: give --format table, csv or json";
    }
    void badInputNamesTheFlag()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        std::vector<std::string> a { "llm" };
        for (const QString& s : args)
            a.push_back(s.toStdString());
        const Run r = cli(a);
        QCOMPARE(r.code, 2);
        QVERIFY2(contains(r.err, "roofline-cli: ") && contains(r.err, message.toStdString()), r.err.c_str());
        QVERIFY(r.out.empty());
    }
};

QTEST_GUILESS_MAIN(TestCliLlm)
#include "tst_cli_llm.moc"
