// roofline-cli measure --llm, and calibrate and compare on what it writes (issue 50): a small decoder
// measured on this CPU in quick mode, fitted, the fit checked at another context and batch; a
// calibration from a measured throughput; bad input named.
#include "cli.h"
#include "clirun.h"
#include "testutils.h"

#include <QDir>
#include <QFile>
#include <QtTest>

#include <map>

using namespace rfx;

namespace {

using test::cli;
using test::contains;
using test::Run;

} // namespace

class TestCliLlmMeasure : public QObject {
    Q_OBJECT
    QTemporaryDir m_home; // an empty user device folder, so the developer's own devices do not leak in

    // Each file's own verdict on its run (measure's "# noisy:" header line): compare marks its line
    // with "*" and names the file and the reason under the table, beside the largest error over the
    // files measured quietly, and gives it a CSV column; calibrate warns that the fit carries it; one
    // file compared says it. Copies of the two measurements with the verdict set by hand (measured
    // here, either could have one of its own).
    void checkTheFilesOwnNoise(const std::string& csv, const std::string& other, const std::string& cal)
    {
        auto copyWith = [](const std::string& from, const std::string& to, const std::string& noise) {
            QFile in(QString::fromStdString(from)), out(QString::fromStdString(to));
            QVERIFY(in.open(QIODevice::ReadOnly) && out.open(QIODevice::WriteOnly));
            QStringList lines = QString::fromUtf8(in.readAll()).split(u'\n');
            lines.removeIf([](const QString& l) { return l.startsWith(QStringLiteral("# noisy:")); });
            if (!noise.empty())
                lines.insert(1, QStringLiteral("# noisy: ") + QString::fromStdString(noise));
            out.write(lines.join(u'\n').toUtf8());
        };
        const std::string quiet = m_home.filePath(QStringLiteral("quiet.csv")).toStdString(),
                          noisy = m_home.filePath(QStringLiteral("noisy.csv")).toStdString();
        const std::string why
            = "the clock moved from 3.00 GHz to 3.50 GHz during the measurement: the machine was busy";
        copyWith(csv, quiet, "");
        copyWith(other, noisy, why);
        Run r = cli({ "compare", quiet, noisy, "--device", "ryzen-9-5950x", "--calibration", cal });
        QVERIFY2(r.code == 0, r.err.c_str());
        const QStringList table = QString::fromStdString(r.out).split(u'\n');
        int marked = 0;
        for (const QString& line : table) {
            if (line.contains(QStringLiteral("     16      32     2  ")))
                QVERIFY2(!line.endsWith(u'*'), qPrintable(line));
            if (line.contains(QStringLiteral("      8      48     1  ")))
                marked += line.endsWith(QStringLiteral("  *"));
        }
        QCOMPARE(marked, 1);
        QVERIFY2(contains(r.out, "; over the 1 measured quietly: TTFT ")
                && contains(r.out, "* measured while the machine was noisy, by the file's own header")
                && contains(r.out, "  " + noisy + ": " + why + "\n") && !contains(r.out, quiet + ": "),
            r.out.c_str());
        r = cli({ "compare", quiet, noisy, "--device", "ryzen-9-5950x", "--calibration", cal, "--format", "csv" });
        const QStringList rows = QString::fromStdString(r.out).split(u'\n', Qt::SkipEmptyParts);
        QCOMPARE(rows.size(), 3);
        QVERIFY(rows[0].endsWith(QStringLiteral(",tokens_per_s_measured,measured_noisy")));
        QVERIFY(rows[1].endsWith(QStringLiteral(",0")) && rows[2].endsWith(QStringLiteral(",1")));
        r = cli({ "compare", noisy, "--device", "ryzen-9-5950x" });
        QVERIFY2(r.code == 0
                && contains(
                    r.out, "note: " + noisy + " was measured while the machine was noisy, by its own header: " + why),
            r.out.c_str());
        const std::string fit = m_home.filePath(QStringLiteral("noisy-cal.json")).toStdString();
        r = cli({ "calibrate", noisy, "--device", "ryzen-9-5950x", "--output", fit });
        QVERIFY2(r.code == 0
                && contains(r.err,
                    "warning: " + noisy + ": measured while the machine was noisy, by its own header (\"" + why
                        + "\"): the fit carries that into every prediction"),
            r.err.c_str());
        r = cli({ "calibrate", quiet, "--device", "ryzen-9-5950x", "--output", fit });
        QVERIFY2(r.code == 0 && !contains(r.err, "noisy"), r.err.c_str());
    }

private slots:
    void initTestCase() { test::isolateCli(m_home); }

    // Issue 50: measure --llm runs a small decoder's prefill and decode rows on this CPU and holds
    // them against a device: a Llama-shaped config.json of 2 blocks of hidden 128, in quick mode.
    void measureLlmRunsBothPhases()
    {
        const QString dir = m_home.filePath(QStringLiteral("tiny"));
        QVERIFY(QDir().mkpath(dir));
        QFile f(dir + QStringLiteral("/config.json"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"model_type": "llama", "hidden_size": 128, "num_hidden_layers": 2, "num_attention_heads": 4,
            "num_key_value_heads": 2, "intermediate_size": 256, "vocab_size": 512, "max_position_embeddings": 512})");
        f.close();
        const std::string csv = m_home.filePath(QStringLiteral("tiny.csv")).toStdString();
        Run r = cli({ "measure", "--llm", "--model", (dir + QStringLiteral("/config.json")).toStdString(), "--prompt",
            "16", "--context", "32", "--batch", "2", "--quick", "--device", "ryzen-9-5950x", "--output", csv });
        QVERIFY2(r.code == 0, r.err.c_str());
        QFile written(QString::fromStdString(csv));
        QVERIFY(written.open(QIODevice::ReadOnly));
        const std::string text = written.readAll().toStdString();
        QVERIFY2(contains(text, "# Measured by roofline-cli measure --llm")
                && contains(text, "\nprefill.blk0-1.q_proj,") && contains(text, "\ndecode.lm_head,")
                && contains(text, "--context 32 --batch 2 --bits 32"),
            text.c_str());
        // the batch probes: the decode step's weight products at the other batches (its own is the step)
        QVERIFY2(contains(text, "\nprobe.b1.blk0-1.q_proj,") && contains(text, "\nprobe.b16.lm_head,")
                && !contains(text, "probe.b2.") && !contains(text, "probe.b1.blk0-1.attn_scores"),
            text.c_str());
        QVERIFY2(contains(r.out,
                     "the decode step's weight products by batch (the batch probes; batch 2: the step measured above):")
                && contains(r.out, "\n  batch 1: measured ") && contains(r.out, "\n  batch 16: measured "),
            r.out.c_str());
        QVERIFY2(contains(r.out, "prefill of 16 tokens x 2: measured")
                && contains(r.out, "decode step at context 32 x 2: measured")
                && contains(r.out, "  decode, matrix: 8 rows, 15 kernels, "),
            r.out.c_str());
        // calibrated on it (item 3): the fit says how to apply it, and llm --calibration gives TTFT and
        // TPOT as this machine's kernels run them, at the settings it was measured at
        const std::string cal = m_home.filePath(QStringLiteral("tiny-cal.json")).toStdString();
        r = cli({ "calibrate", csv, "--device", "ryzen-9-5950x", "--output", cal });
        QVERIFY2(r.code == 0, r.err.c_str());
        QVERIFY2(contains(r.out, "on the rows fitted (40 of 40)")
                && contains(r.out,
                    "apply it with: roofline-cli llm --model " + (dir + QStringLiteral("/config.json")).toStdString()
                        + " --prompt 16 --generate 32 --context 32 --batch 2 --weights-bits 32 --kv-bits 32 --act-bits "
                          "32 --attention naive"),
            r.out.c_str());
        const std::vector<std::string> settings { "llm", "--model",
            (dir + QStringLiteral("/config.json")).toStdString(), "--prompt", "16", "--context", "32", "--batch", "2",
            "--weights-bits", "32", "--kv-bits", "32", "--act-bits", "32", "--attention", "naive", "--device",
            "ryzen-9-5950x", "--calibration", cal };
        r = cli(settings);
        QVERIFY2(r.code == 0 && contains(r.out, "calibrated (") && contains(r.out, "  ryzen-9-5950x: TTFT "),
            (r.out + r.err).c_str());
        // compare holds the measurement (or another, at another context and batch) against the model and the fit
        r = cli({ "compare", csv, "--device", "ryzen-9-5950x", "--calibration", cal });
        QVERIFY2(r.code == 0 && contains(r.out, "decode.blk0-1.q_proj") && contains(r.out, "calibrated (" + cal + "):")
                && !contains(r.out + r.err, "probe.b") && !contains(r.out + r.err, "did not map"),
            (r.out + r.err).c_str());
        // several measurements, a line each: the fit checked at another context and batch (item 3);
        // the measured decode step is the sum of the file's decode rows
        const std::string other = m_home.filePath(QStringLiteral("tiny-c48.csv")).toStdString();
        r = cli({ "measure", "--llm", "--model", (dir + QStringLiteral("/config.json")).toStdString(), "--prompt", "8",
            "--context", "48", "--quick", "--device", "ryzen-9-5950x", "--output", other });
        QVERIFY2(r.code == 0, r.err.c_str());
        r = cli({ "compare", csv, other, "--device", "ryzen-9-5950x", "--calibration", cal });
        QVERIFY2(r.code == 0 && contains(r.out, "largest error over 2 measurements: TTFT ")
                && contains(r.out, "     16      32     2  "),
            (r.out + r.err).c_str());
        r = cli({ "compare", csv, other, "--device", "ryzen-9-5950x", "--calibration", cal, "--format", "csv" });
        QVERIFY2(r.code == 0, r.err.c_str());
        const QStringList lines = QString::fromStdString(r.out).split(u'\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 3);
        QVERIFY(lines[0].startsWith(
            QStringLiteral("file,model,prompt,context,batch,ttft_measured_s,ttft_calibrated_s,ttft_error,")));
        const QStringList first = lines[1].split(u',');
        QCOMPARE(first.size(), 15);
        QCOMPARE(first[2] + first[3] + first[4], QStringLiteral("16322"));
        double decodeRows = 0;
        for (const QString& row : QString::fromStdString(text).split(u'\n'))
            if (row.startsWith(QStringLiteral("decode.")))
                decodeRows += row.section(u',', 1, 1).toDouble();
        RFX_COMPARE_REL(first[9].toDouble(), decodeRows, 1e-4);
        RFX_COMPARE_REL(first[11].toDouble(), first[10].toDouble() / first[9].toDouble() - 1, 1e-3);
        checkTheFilesOwnNoise(csv, other, cal);
        if (QTest::currentTestFailed())
            return;
        std::vector<std::string> json = settings;
        json.insert(json.end(), { "--format", "json" });
        r = cli(json);
        QCOMPARE(r.code, 2);
        QVERIFY2(contains(r.err, "--calibration: the calibrated figures are lines under the table"), r.err.c_str());
        // a measure --llm file whose header was edited by hand: named
        QFile bad(m_home.filePath(QStringLiteral("bad-llm.csv")));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write("# configuration: --llm --model llama-3.2-1b --prompt 128 --context 64 --batch 1 --bits "
                  "32\nlayer,time_s\nx,1\n");
        bad.close();
        r = cli({ "calibrate", bad.fileName().toStdString(), "--device", "ryzen-9-5950x", "--output", cal });
        QCOMPARE(r.code, 2);
        QVERIFY2(
            contains(r.err, "bad-llm.csv: its configuration lacks the model, the prompt, a context past the prompt"),
            r.err.c_str());
        r = cli({ "compare", csv, bad.fileName().toStdString(), "--device", "ryzen-9-5950x" });
        QCOMPARE(r.code, 2);
        QVERIFY2(
            contains(r.err, "compare: ") && contains(r.err, "bad-llm.csv: its configuration lacks"), r.err.c_str());
        // --keep-fastest: a second pass into the same file keeps each row's fastest run of both, says
        // there are 2 passes and counts both passes' runs; another setting's file is refused, untouched
        auto rowsOf = [](const std::string& file) {
            QFile in(QString::fromStdString(file));
            std::map<std::string, std::pair<double, int>> rows; // best_s, runs
            if (!in.open(QIODevice::ReadOnly))
                return rows;
            for (const QString& row : QString::fromUtf8(in.readAll()).split(u'\n'))
                if (row.startsWith(QStringLiteral("prefill.")) || row.startsWith(QStringLiteral("decode.")))
                    rows[row.section(u',', 0, 0).toStdString()]
                        = { row.section(u',', 2, 2).toDouble(), row.section(u',', 5, 5).toInt() };
            return rows;
        };
        const auto firstPass = rowsOf(other);
        // Two maps compared: both empty (a file that did not open, rows renamed) would compare equal.
        QVERIFY2(firstPass.size() >= 10, other.c_str());
        const std::vector<std::string> again { "measure", "--llm", "--model",
            (dir + QStringLiteral("/config.json")).toStdString(), "--prompt", "8", "--context", "48", "--quick",
            "--device", "ryzen-9-5950x", "--output", other, "--keep-fastest" };
        r = cli(again);
        QVERIFY2(r.code == 0, r.err.c_str());
        const auto secondPass = rowsOf(other);
        QVERIFY(!secondPass.empty());
        QCOMPARE(secondPass.size(), firstPass.size());
        for (const auto& [name, before] : firstPass) {
            const auto& [best, runs] = secondPass.at(name);
            QVERIFY2(best <= before.first, name.c_str());
            QVERIFY2(runs > before.second, name.c_str());
        }
        QFile kept(QString::fromStdString(other));
        QVERIFY(kept.open(QIODevice::ReadOnly));
        QVERIFY(kept.readAll().contains("\n# passes: 2 (--keep-fastest"));
        std::vector<std::string> elsewhere = again;
        *std::find(elsewhere.begin(), elsewhere.end(), "48") = "64"; // --context 64 into the context-48 file
        r = cli(elsewhere);
        QCOMPARE(r.code, 2);
        QVERIFY2(contains(r.err, "tiny-c48.csv: was measured at other settings")
                && contains(r.err, "nothing measured or written"),
            r.err.c_str());
        QVERIFY2(!contains(r.err, " % prefill.") && !contains(r.err, " % decode."),
            r.err.c_str()); // refused before measuring
        QCOMPARE(rowsOf(other), secondPass);
        r = cli({ "measure", "--llm", "--quick", "--keep-fastest" });
        QCOMPARE(r.code, 2);
        QVERIFY2(contains(r.err, "--keep-fastest: give --output FILE"), r.err.c_str());
        // what cannot be measured is said before anything runs
        for (const auto& [args, says] : std::vector<std::pair<std::vector<std::string>, std::string>> {
                 { { "--prompt", "64", "--context", "64" },
                     "--context: the decode context must be past the prompt (64 tokens)" },
                 { { "--bits", "8" }, "--bits: 32 (fp32) or 16 (bf16" },
                 { { "--batch", "0" }, "--batch: must be a whole number from 1 to 64, got '0'" },
                 { { "--model", "no-such-model" }, "cannot use the language model: no-such-model" } }) {
            std::vector<std::string> a { "measure", "--llm", "--quick", "--device", "ryzen-9-5950x" };
            a.insert(a.end(), args.begin(), args.end());
            r = cli(a);
            QCOMPARE(r.code, 2);
            QVERIFY2(contains(r.err, says), r.err.c_str());
        }
    }

    // Item 3: a calibration from the throughput a benchmark printed (no measurement file): Llama-3.2 1B
    // at fp32 on a Ryzen 9 5950X, 10 tokens/s at batch 1 and context 256.
    void calibrateFromAThroughput()
    {
        const std::vector<std::string> model { "--model", "llama-3.2-1b", "--prompt", "128", "--context", "256",
            "--weights-bits", "32", "--kv-bits", "32", "--act-bits", "32", "--device", "ryzen-9-5950x" };
        std::vector<std::string> a { "calibrate", "--measured-tokens-per-s", "10", "--output", "-" };
        a.insert(a.end(), model.begin(), model.end());
        Run r = cli(a);
        QVERIFY2(r.code == 0 && contains(r.out, "\"groups\"") && contains(r.out, "\"class\": \"all\""),
            (r.out + r.err).c_str());
        QVERIFY2(contains(r.err, "measured 10.0 tokens/s (TPOT 100 ms)")
                && contains(r.err, "efficiency: memory-bound rows ")
                && contains(r.err, "the prefill's calibrated time is a guess"),
            r.err.c_str());
        a[2] = "-3";
        r = cli(a);
        QCOMPARE(r.code, 2);
        QVERIFY2(contains(r.err, "--measured-tokens-per-s: expected the generated tokens a second of the whole batch"),
            r.err.c_str());
        a = { "calibrate", "run.csv", "--measured-tokens-per-s", "10", "--output", "-" };
        r = cli(a);
        QCOMPARE(r.code, 2);
        QVERIFY2(
            contains(r.err, "run.csv: give a measurement file or --measured-tokens-per-s, not both"), r.err.c_str());
    }
};

QTEST_GUILESS_MAIN(TestCliLlmMeasure)
#include "tst_cli_llm_measure.moc"
