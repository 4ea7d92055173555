// Session documents and the Markdown/LaTeX table writers.
#include "io/report_writer.h"
#include "io/session.h"
#include "open/analyses.h"
#include "testutils.h"

#include <QRegularExpression>

using namespace rfx;

class TestSession : public QObject {
    Q_OBJECT
private slots:
    void roundTrip()
    {
        Session s;
        s.config.unet.height = s.config.unet.width = 128;
        s.config.unet.padding = Padding::Same;
        s.config.batch = 16;
        s.config.mode = Mode::Training;
        s.devices = { "geforce-mx230", "rtx-2060-super" };
        s.view.overlay = true;
        s.view.filter = { true, 7 };
        s.tableDevice = "rtx-2060-super";
        std::string error;
        auto back = sessionFromJson(sessionToJson(s), error);
        QVERIFY2(back, error.c_str());
        QVERIFY(*back == s);
        // The whole screen (issue 37 item 1): every view setting, the selection, the files shown.
        s.view.sharedAxes = true;
        s.view.powerTicks = true;
        s.view.layerLabels = 0;
        s.selectedLayer = "enc2.conv1";
        s.measurements = "/home/me/runs/unet-128.csv";
        s.calibration = "/home/me/runs/unet-128.calibration.json";
        s.calibrated = true;
        s.modelInputs["/models/if_flag.onnx"] = { { { "flag", 0.0 } }, { { "branch", false } } };
        s.modelInputs["/models/rnn_in_if.onnx"] = { {}, { { "loud_or_quiet", true } } };
        back = sessionFromJson(sessionToJson(s), error);
        QVERIFY2(back, error.c_str());
        QVERIFY(*back == s);
        // A language model shown (issue 36 item 7): every setting away from its default comes back.
        LlmWork w;
        w.model = "/home/me/models/llama/config.json";
        w.phase = LlmPhase::Prefill;
        w.settings = { 2048, 300, 1500, 12, 0, 8, 8, NumberType::Fp8, LlmAttention::Naive, true, 4, "pcie5-x16" };
        s.llm = w;
        back = sessionFromJson(sessionToJson(s), error);
        QVERIFY2(back, error.c_str());
        QVERIFY(back->llm && back->llm->settings == w.settings && back->llm->model == w.model);
        QVERIFY(*back == s);
        s.llm->settings = { 7, 1, 0, 1, 4, 4, 32, NumberType::Unset, LlmAttention::Flash, false, 1, "nvlink4" };
        s.llm->phase = LlmPhase::Decode;
        back = sessionFromJson(sessionToJson(s), error);
        QVERIFY2(back, error.c_str());
        QVERIFY(*back == s);
        QVERIFY(sessionToJson(s).find(R"("--act-bits",
      "32")")
            != std::string::npos);
    }

    // A session written before the view's later fields and the files existed opens with their defaults.
    void anOlderSessionOpens()
    {
        const std::string old = R"({ "schema": 1, "kind": "roofline-explorer session", "config_args": ["--batch", "4"],
            "devices": ["t4"], "view": { "overlay": true, "convolutions_only": false, "top_n": 5 } })";
        std::string error;
        const auto s = sessionFromJson(old, error);
        QVERIFY2(s, error.c_str());
        QCOMPARE(s->config.batch, 4);
        QVERIFY(s->view.overlay && !s->view.sharedAxes && !s->view.powerTicks);
        QCOMPARE(s->view.layerLabels, 0.05);
        QVERIFY(
            s->tableDevice.empty() && s->selectedLayer.empty() && s->measurements.empty() && s->calibration.empty());
        QVERIFY(!s->calibrated);
    }

    void corrupted_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("error");
        const QString good = QString::fromStdString(sessionToJson(Session {}));
        QTest::newRow("empty") << ""
                               << "not valid JSON";
        QTest::newRow("truncated") << good.left(good.size() / 2) << "not valid JSON";
        QTest::newRow("array") << "[]"
                               << "expected a JSON object";
        QTest::newRow("no schema") << "{}"
                                   << "schema: missing";
        QTest::newRow("future") << QString(good).replace(
            QStringLiteral("\"schema\": 1"), QStringLiteral("\"schema\": 9"))
                                << "schema: version 9 is not supported";
        QTest::newRow("bad arg") << QString(good).replace(
            QStringLiteral("\"--bits\",\n    \"32\""), QStringLiteral("\"--bits\",\n    \"12\""))
                                 << "config_args: bits must be 8, 16, 32 or 64, got 12";
        QTest::newRow("devices not list")
            << QString(good).replace(QStringLiteral("\"devices\": []"), QStringLiteral("\"devices\": 3"))
            << "devices: must be a list";
        QTest::newRow("overlay text") << QString(good).replace(
            QStringLiteral("\"overlay\": false"), QStringLiteral("\"overlay\": \"no\""))
                                      << "view.overlay: must be true or false";
        QTest::newRow("labels share") << QString(good).replace(
            QStringLiteral("\"layer_labels\": 0.05"), QStringLiteral("\"layer_labels\": 5"))
                                      << "view.layer_labels: must be a share of the time from 0 to 1";
        QTest::newRow("shared text") << QString(good).replace(
            QStringLiteral("\"shared_axes\": false"), QStringLiteral("\"shared_axes\": 1"))
                                     << "view.shared_axes: must be true or false";
        QTest::newRow("calibration path")
            << QString(good).replace(QStringLiteral("\n}"), QStringLiteral(",\n  \"calibration\": \"c.json\"\n}"))
            << "calibration: must be an object";
        QTest::newRow("calibration shown") << QString(good).replace(
            QStringLiteral("\n}"), QStringLiteral(",\n  \"calibration\": { \"file\": \"c.json\" }\n}"))
                                           << "calibration.shown: missing";
        QTest::newRow("measurements number")
            << QString(good).replace(QStringLiteral("\n}"), QStringLiteral(",\n  \"measurements\": 3\n}"))
            << "measurements: must be the path of a measurement file";
        QTest::newRow("bound value") << QString(good).replace(QStringLiteral("\n}"),
            QStringLiteral(",\n  \"model_inputs\": { \"a.onnx\": { \"values\": { \"sr\": \"x\" } } }\n}"))
                                     << "model_inputs.a.onnx.values.sr: must be a number";
        QTest::newRow("bound branch") << QString(good).replace(QStringLiteral("\n}"),
            QStringLiteral(",\n  \"model_inputs\": { \"a.onnx\": { \"branches\": { \"if\": 1 } } }\n}"))
                                      << "model_inputs.a.onnx.branches.if: must be true (then) or false (else)";
        const QString llm = QStringLiteral(",\n  \"language_model\": { \"model\": \"llama-3.1-8b\", \"phase\": \"%1\", "
                                           "\"llm_args\": [%2] }\n}");
        auto withLlm = [&](const QString& phase, const QString& args) {
            return QString(good).replace(QStringLiteral("\n}"), llm.arg(phase, args));
        };
        QTest::newRow("llm phase") << withLlm(QStringLiteral("all"), QString())
                                   << "language_model.phase: must be \"prefill\", \"decode\" or \"both\"";
        QTest::newRow("llm option") << withLlm(QStringLiteral("decode"), QStringLiteral("\"--bits\", \"8\""))
                                    << "language_model.llm_args: not a language-model option: --bits";
        QTest::newRow("llm batch") << withLlm(QStringLiteral("decode"), QStringLiteral("\"--batch\", \"0\""))
                                   << "language_model.llm_args: --batch: must be a whole number from 1 to 65536, got 0";
        QTest::newRow("llm kv") << withLlm(QStringLiteral("decode"), QStringLiteral("\"--kv-bits\", \"fp7\""))
                                << "language_model.llm_args: --kv-bits: expected a width in bits";
        QTest::newRow("llm no model") << QString(good).replace(
            QStringLiteral("\n}"), QStringLiteral(",\n  \"language_model\": { \"phase\": \"decode\" }\n}"))
                                      << "language_model.model: missing";
        QTest::newRow("top negative") << QString(good).replace(
            QStringLiteral("\"top_n\": 0"), QStringLiteral("\"top_n\": -4"))
                                      << "view.top_n: must be a whole number";
    }
    void corrupted()
    {
        QFETCH(QString, text);
        QFETCH(QString, error);
        std::string why;
        QVERIFY(!sessionFromJson(text.toStdString(), why));
        QVERIFY2(QString::fromStdString(why).startsWith(error), why.c_str());
    }

    void markdownTable()
    {
        const Report r = *analyzeConfig(Config {}, { rfx::test::shippedDevice("rtx-2060-super") }).report;
        const QString md = QString::fromStdString(reportToMarkdown(r));
        const auto lines = md.split(QLatin1Char('\n'));
        int rows = 0;
        for (const QString& l : lines)
            rows += l.startsWith(QLatin1String("| ")) ? 1 : 0;
        // header + every layer + total
        QCOMPARE(rows, 1 + int(r.results[0].layers.size()) + 1);
        QVERIFY(md.contains(
            QStringLiteral("| enc1.conv1 | conv | 1x64x570x570 | 576 | 374 MFLOP | 84.5 MB | 4.43 | memory |")));
        QVERIFY(md.contains(QStringLiteral("| **total** | | | 31,030,658 |")));
        QVERIFY(md.contains(QStringLiteral("compute-bound: 88 % of time")));
    }

    void latexTable()
    {
        Config c;
        c.mode = Mode::Training;
        const Report r
            = *analyzeConfig(c, { rfx::test::shippedDevice("rtx-2060-super"), rfx::test::shippedDevice("t4") }).report;
        const QString tex = QString::fromStdString(reportToLatex(r));
        QCOMPARE(tex.count(QStringLiteral("\\begin{tabular}")), 2);
        QCOMPARE(tex.count(QStringLiteral("\\end{tabular}")), 2);
        QCOMPARE(tex.count(QStringLiteral("\\toprule")), 2);
        QCOMPARE(tex.count(QStringLiteral("\\bottomrule")), 2);
        QVERIFY(tex.contains(QStringLiteral("\\label{tab:roofline-t4}")));
        // LaTeX specials are escaped: no bare %, _ or & outside the column separators.
        for (const QString& line : tex.split(QLatin1Char('\n'))) {
            if (line.startsWith(QLatin1Char('%')))
                continue;
            QVERIFY2(!line.contains(QRegularExpression(QStringLiteral("(?<!\\\\)%"))), qPrintable(line));
            QVERIFY2(!line.contains(QRegularExpression(QStringLiteral("(?<!\\\\)_"))), qPrintable(line));
        }
        QVERIFY(tex.contains(QStringLiteral("optimizer (momentum) & optimizer & -- &")));
        QVERIFY(tex.contains(QStringLiteral("\\,$\\mu$s")) || tex.contains(QStringLiteral("\\,ms")));
        // every body row ends its line
        const int rows = int(tex.count(QStringLiteral(" \\\\\n")));
        QCOMPARE(rows, 2 * (1 + int(r.results[0].layers.size()) + 1));
    }
};

QTEST_GUILESS_MAIN(TestSession)
#include "tst_session.moc"
