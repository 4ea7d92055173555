// The window's language-model mode (issue 36, first step): a built-in language model chosen in the
// Network selector is analysed in both phases on every device; the charts and the table show the
// chosen phase's rows; the summaries give TTFT, TPOT, tokens per second and memory; the mode's
// controls edit the workspace's settings, undoably, a drag being one step; the networks come back.
#include "chart/chartarea.h"
#include "chart/summaryview.h"
#include "llmmode_panes.h"
#include "panels/controlpanel.h"
#include "panels/explain_llm.h"
#include "panels/llmcontrols.h"
#include "workspace/modelopener.h"
#include "workspace/workspace.h"

#include "guitestutils.h"
#include "testutils.h"

#include "io/figure.h"
#include "io/report_writer.h"
#include "io/session.h"
#include "llm/llm_analysis.h"
#include "llm/llm_arch.h"

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QUndoStack>
#include <QtTest>

#include <algorithm>
#include <set>

using namespace rfx;
using namespace rfx::test;

class TestLlmMode : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
private slots:
    void initTestCase() { test::isolateGuiTest(m_dir, QStringLiteral("tst_llmmode")); }

    void editsUndoAndADragIsOneStep()
    {
        Workspace ws;
        startWorkspace(ws);
        LlmControls controls;
        controls.follow(&ws);
        ws.showModel("mistral-7b");
        QCOMPARE(controls.batchSpin()->value(), 1);
        QCOMPARE(controls.promptSpin()->value(), 512);
        const int before = ws.undoStack()->index();
        // A drag of the batch slider, through four powers of two: one step of undo.
        controls.batchSlider()->setSliderDown(true);
        for (int position : { 1, 2, 3, 4 })
            controls.batchSlider()->setValue(position);
        controls.batchSlider()->setSliderDown(false);
        QCOMPARE(ws.state().llm.settings.batch, 16);
        QCOMPARE(ws.state().llmAnalysis->settings.batch, 16);
        QCOMPARE(ws.undoStack()->index(), before + 1);
        // A typed prompt, and the KV cache at 8 bits: two more steps.
        controls.promptSpin()->setValue(2048);
        controls.kvCombo()->setCurrentIndex(controls.kvCombo()->findData(8));
        QCOMPARE(ws.state().llm.settings.prompt, 2048);
        QCOMPARE(ws.state().llm.settings.kvBits, 8);
        QCOMPARE(ws.undoStack()->index(), before + 3);
        ws.undoStack()->undo();
        QCOMPARE(ws.state().llm.settings.kvBits, 16);
        QCOMPARE(controls.kvCombo()->currentData().toInt(), 16); // the control follows the undo
        ws.undoStack()->undo();
        ws.undoStack()->undo();
        QCOMPARE(ws.state().llm.settings.batch, 1);
        QCOMPARE(controls.batchSpin()->value(), 1);
        ws.undoStack()->redo();
        QCOMPARE(ws.state().llm.settings.batch, 16);
        // Undo past the choice of the model: the network again.
        ws.undoStack()->setIndex(0);
        QVERIFY(!ws.state().languageModel());
        QCOMPARE(ws.report()->network, std::string("U-Net"));
    }

    void thePanelAndTheSummariesFollowTheMode()
    {
        Panes panes;
        Workspace& ws = panes.ws;
        ControlPanel& panel = panes.panel;
        ChartArea& charts = panes.charts;
        QVERIFY(QTest::qWaitForWindowExposed(&charts));
        QVERIFY(!panel.llmControls()->isVisible());
        QVERIFY(panel.imageSpin()->isVisible());
        // Chosen in the Network selector, as a user would.
        QComboBox* network = panel.networkCombo();
        const int llama = network->findData(QStringLiteral("llama-3.1-8b"));
        QVERIFY(llama >= 0);
        // Under a heading of their own that cannot be chosen (issue 73 item 9), after the networks' line.
        const int heading = network->findText(QStringLiteral("Language models"));
        QVERIFY(heading > 0 && heading < network->findData(QString::fromStdString(builtinLanguageModels().front().id)));
        QCOMPARE(network->itemData(heading - 1, Qt::AccessibleDescriptionRole).toString(), QStringLiteral("separator"));
        QVERIFY(!(
            network->model()->flags(network->model()->index(heading, 0)) & (Qt::ItemIsEnabled | Qt::ItemIsSelectable)));
        QVERIFY(!network->itemData(heading).isValid()); // no model id
        // and each family under its own name, once, that cannot be chosen either (issue 75 item 4)
        const int deepseek = network->findData(QStringLiteral("deepseek-v3")),
                  qwen = network->findText(QStringLiteral("Qwen (Alibaba)"));
        QCOMPARE(network->itemText(deepseek - 1), QStringLiteral("DeepSeek"));
        QVERIFY(qwen > heading && network->itemData(qwen + 1).toString() == QStringLiteral("qwen2.5-0.5b"));
        QVERIFY(
            !(network->model()->flags(network->model()->index(qwen, 0)) & (Qt::ItemIsEnabled | Qt::ItemIsSelectable)));
        QCOMPARE(
            network->findText(QStringLiteral("Llama (Meta)")), network->findData(QStringLiteral("llama-2-7b")) - 1);
        std::set<QString> families; // each heading once: Llama 4 and Gemma 3, last of the built-ins, had a second
        for (int i = heading + 1; i < network->count(); ++i)
            QVERIFY(network->itemData(i).isValid() || network->itemText(i).isEmpty()
                || families.insert(network->itemText(i)).second);
        // Each model's tooltip: its whole title and parameters, a mixture's active ones beside (issue 75).
        QCOMPARE(network->itemData(network->findData(QStringLiteral("qwen3-30b-a3b")), Qt::ToolTipRole).toString(),
            QStringLiteral("Qwen3 30B-A3B (Alibaba, 2025; 128 experts, top 8): 30,532,122,624 parameters, "
                           "3,353,032,704 active a token"));
        QCOMPARE(network->itemData(llama, Qt::ToolTipRole).toString(),
            QStringLiteral("Llama-3.1 8B (Meta, 2024): 8,030,261,248 parameters"));
        network->setCurrentIndex(llama);
        emit network->activated(llama);
        QVERIFY(ws.state().languageModel());
        QVERIFY(panel.llmControls()->isVisible());
        QVERIFY(!panel.imageSpin()->isVisible());
        QVERIFY(!panel.batchSpin()->isVisible());
        QCOMPARE(network->currentData().toString(), QStringLiteral("llama-3.1-8b"));
        const std::vector<SummaryText*> summaries = charts.summaries();
        QCOMPARE(summaries.size(), size_t(2));
        const QString h100 = summaries[0]->plainText(), mx230 = summaries[1]->plainText();
        QVERIFY2(h100.startsWith(QStringLiteral("TTFT ")) && h100.contains(QStringLiteral("TPOT ")), qPrintable(h100));
        QVERIFY2(h100.contains(QStringLiteral("tokens/s per sequence"))
                && h100.contains(QStringLiteral("(fits; up to batch")),
            qPrintable(h100));
        QVERIFY2(h100.contains(QStringLiteral("decode: memory-bound")), qPrintable(h100));
        QVERIFY2(mx230.contains(QStringLiteral("does not fit")), qPrintable(mx230));
        // The memory bar, a cell per 1/32 of the device's memory: on the H100 (79.6 GiB) Llama-3.1 8B's
        // 16,060,522,496 bytes of weights (14.96 GiB) take 14.96 / 79.6 x 32 = 6.0 cells, the KV cache
        // (80 MiB) and the activations one each (every part has a cell), 24 are free. On the MX230 the
        // model is larger than the memory: the bar keeps its 32 cells, each 1/32 of what the model needs
        // (16,060,522,496 + 83,886,080 bytes and the activations, about 16.2 GB), 2 GiB of it within the
        // device: 32 x 2.147 / 16.2 = 4.2, so 4 cells of weights and 28 red (it had 32 + 16 red cells and
        // a "+", wider than the summary: its red cells wrapped onto the next line, issue 73 item 9).
        QCOMPARE(h100.count(QChar(0x2588)), 32);
        QVERIFY2(summaries[0]->html().contains(
                     QStringLiteral("color:#3b6fb6\">\u2588\u2588\u2588\u2588\u2588\u2588</span>")),
            qPrintable(summaries[0]->html()));
        QVERIFY(summaries[0]->html().contains(
            QStringLiteral("color:#c8c8c8\">") + QString(24, QChar(0x2588)) + QStringLiteral("</span>")));
        QCOMPARE(mx230.count(QChar(0x2588)), 32);
        QVERIFY2(summaries[1]->html().contains(QStringLiteral("color:#3b6fb6\">") + QString(4, QChar(0x2588))
                     + QStringLiteral("</span>") + QStringLiteral("<span style=\"color:#d00000\">")
                     + QString(28, QChar(0x2588)) + QStringLiteral("</span>")),
            qPrintable(summaries[1]->html()));
        QVERIFY(summaries[1]->html().contains(QStringLiteral("\u26a0\u00a0does\u00a0not\u00a0fit")));
        // The prompt's slider ends at the model's longest context (Llama-3.1: 131,072 = 2^17); a prompt
        // past it is said under the controls, the longest prompt that fits offered (131,072 - 128), no
        // U-Net image size (tst_llmcontrols_problems says where and in which words).
        QCOMPARE(panel.llmControls()->promptSlider()->maximum(), 17);
        panel.llmControls()->promptSpin()->setValue(200000);
        QVERIFY(!ws.state().problem.isEmpty());
        QVERIFY2(panel.problemText().contains(QStringLiteral("reads at most 131,072 tokens"))
                && panel.problemText().contains(QStringLiteral("Use 130,944"))
                && !panel.problemText().contains(QStringLiteral("href=\"5")),
            qPrintable(panel.problemText()));
        panel.llmControls()->promptSpin()->setValue(512);
        QVERIFY(ws.state().problem.isEmpty());
        ws.showModel("gpt2"); // 1,024 tokens
        QCOMPARE(panel.llmControls()->promptSlider()->maximum(), 10);
        ws.showModel("llama-3.1-8b");
        // Back to a network: its controls and its summaries.
        const int unet = network->findData(QStringLiteral("unet"));
        network->setCurrentIndex(unet);
        emit network->activated(unet);
        QVERIFY(!ws.state().languageModel());
        QVERIFY(!panel.llmControls()->isVisible());
        QVERIFY(panel.imageSpin()->isVisible());
        QVERIFY2(charts.summaries()[0]->plainText().contains(QStringLiteral("images/s")),
            qPrintable(charts.summaries()[0]->plainText()));
    }

    // Files as the window opens them (File > Open model file, a drop, the recent files): a Hugging
    // Face config.json, the directory that holds it; a malformed one and a file that is not GGUF are
    // refused naming the file and the field, and the window stays on what it showed.
    void languageModelFilesOpen()
    {
        Workspace ws;
        startWorkspace(ws);
        ModelOpener opener(&ws, nullptr);
        QSignalSpy opened(&opener, &ModelOpener::opened);
        QSignalSpy refused(&ws, &Workspace::networkFileRefused);
        QDir dir(m_dir.path());
        QVERIFY(dir.mkpath(QStringLiteral("llama-3.2-1b")));
        const QString config = dir.filePath(QStringLiteral("llama-3.2-1b/config.json"));
        QFile f(config);
        QVERIFY(f.open(QIODevice::WriteOnly));
        // Llama-3.2 1B's config.json (huggingface.co/meta-llama/Llama-3.2-1B): 1,235,814,400 parameters.
        f.write(R"({"model_type": "llama", "hidden_size": 2048, "num_hidden_layers": 16, "num_attention_heads": 32,
                    "num_key_value_heads": 8, "intermediate_size": 8192, "vocab_size": 128256,
                    "max_position_embeddings": 131072, "tie_word_embeddings": true})");
        f.close();
        QVERIFY(ModelOpener::isModelPath(config));
        opener.open(config);
        QCOMPARE(refused.count(), 0);
        QCOMPARE(opened.count(), 1);
        QVERIFY(ws.state().languageModel());
        QCOMPARE(ws.state().llmAnalysis->parameters, std::int64_t(1235814400));
        // The directory opens the same model.
        ws.showModel("unet");
        opener.open(dir.filePath(QStringLiteral("llama-3.2-1b")));
        QVERIFY(ws.state().languageModel());
        QCOMPARE(ws.state().llmAnalysis->parameters, std::int64_t(1235814400));
        // A negative size, and a .gguf that is not one: refused, the model shown stays.
        const QString bad = dir.filePath(QStringLiteral("broken/config.json"));
        QVERIFY(dir.mkpath(QStringLiteral("broken")));
        QFile b(bad);
        QVERIFY(b.open(QIODevice::WriteOnly));
        b.write(R"({"model_type": "llama", "hidden_size": -5})");
        b.close();
        opener.open(bad);
        QCOMPARE(refused.count(), 1);
        QCOMPARE(refused.back().at(0).toString(), bad);
        QVERIFY2(refused.back().at(1).toString().contains(QStringLiteral("hidden_size")),
            qPrintable(refused.back().at(1).toString()));
        const QString notGguf = dir.filePath(QStringLiteral("model.gguf"));
        QFile g(notGguf);
        QVERIFY(g.open(QIODevice::WriteOnly));
        g.write("this is not a GGUF file");
        g.close();
        opener.open(notGguf);
        QCOMPARE(refused.count(), 2);
        QVERIFY(!refused.back().at(1).toString().isEmpty());
        QCOMPARE(QString::fromStdString(ws.state().llm.model), dir.filePath(QStringLiteral("llama-3.2-1b")));
        QCOMPARE(opened.count(), 2);
    }

    // Issue 36 item 1: an ONNX decoder with past keys and values opens in the mode (both phases from its
    // graph), the controls its graph decides off and saying why; an ONNX model without them stays a network.
    void anOnnxDecoderOpensAsALanguageModel()
    {
        Workspace ws;
        startWorkspace(ws);
        LlmControls controls;
        controls.follow(&ws);
        ModelOpener opener(&ws, nullptr);
        QSignalSpy opened(&opener, &ModelOpener::opened);
        const QString decoder = QStringLiteral(ROOFLINE_TEST_DATA_DIR "/onnx/wild/decoder_past.onnx");
        opener.open(decoder);
        QTRY_COMPARE(opened.count(), 1);
        QVERIFY(ws.state().languageModel());
        QVERIFY(ws.state().llmAnalysis && ws.state().llmAnalysis->graph);
        QCOMPARE(ws.state().llmAnalysis->parameters, std::int64_t(16384)); // roofline-cli llm's count of the same file
        QVERIFY(!controls.kvCombo()->isEnabled());
        QVERIFY(controls.kvCombo()->toolTip().contains(QStringLiteral("ONNX decoder")));
        QVERIFY(controls.batchSpin()->isEnabled());
        // Chosen again by its path (the selector's recent entry): the mode again.
        ws.showModel("unet");
        QVERIFY(!ws.state().languageModel());
        QVERIFY(controls.kvCombo()->isEnabled() || !ws.state().languageModel());
        ws.showModel(decoder.toStdString());
        QVERIFY(ws.state().languageModel());
        // A network from ONNX stays a network.
        opener.open(QStringLiteral(ROOFLINE_TEST_DATA_DIR "/onnx/mobilenetv2.onnx"));
        QTRY_COMPARE(opened.count(), 2);
        QVERIFY(!ws.state().languageModel());
    }

    void aModelThatCannotBeReadIsRefused()
    {
        Workspace ws;
        startWorkspace(ws);
        QSignalSpy refused(&ws, &Workspace::networkFileRefused);
        const QString missing = m_dir.filePath(QStringLiteral("no-such-model/config.json"));
        ws.showModel(missing.toStdString());
        QCOMPARE(refused.count(), 1);
        QCOMPARE(refused.front().at(0).toString(), missing);
        QVERIFY(!refused.front().at(1).toString().isEmpty());
        QVERIFY(!ws.state().languageModel());
        QCOMPARE(ws.report()->network, std::string("U-Net"));
    }

    // Issue 36 item 6: Explain works a decode and a prefill row out with the numbers; the tour gains the
    // mode's pages. Llama-3.1 8B, fp16, batch 1 on an H100 (ridge 989 / 3.35 = 295.3 FLOP/B: 2 FLOPs per
    // 2-byte weight per token meet it at 296 tokens a step).
    void explainAndTheTourTeachTheMode()
    {
        LlmModel llama;
        llama.arch = *findLanguageModel("llama-3.1-8b");
        const LlmOutcome o = analyzeLlm(llama, LlmSettings {}, { test::shippedDevice("h100-sxm") });
        QVERIFY(o.analysis);
        const auto& rows = o.analysis->decode.results[0].layers;
        const int q = int(std::find_if(rows.begin(), rows.end(), [](const LayerResult& l) {
            return l.name == "blk0-31.q_proj";
        }) - rows.begin());
        QVERIFY(q < int(rows.size()));
        // q_proj: 32 blocks x 4096 x 4096 = 536,870,912 weights at 2 bytes, 2 FLOPs per weight for 1 token.
        const QString decode = explainLlmRow(*o.analysis, llama.arch, LlmPhase::Decode, 0, q);
        QVERIFY2(decode.contains(QStringLiteral("536,870,912 parameters at 2 bytes"))
                && decode.contains(QStringLiteral("= <b>1.00 FLOP/B</b>"))
                && decode.contains(QStringLiteral("left of the ridge (295 FLOP/B)"))
                && decode.contains(QStringLiteral("about 296 tokens per step")),
            qPrintable(decode));
        const QString prefill = explainLlmRow(*o.analysis, llama.arch, LlmPhase::Prefill, 0, q);
        QVERIFY2(prefill.contains(QStringLiteral("512 tokens pass through every row"))
                && prefill.contains(QStringLiteral("= <b>512 FLOP/B</b>"))
                && prefill.contains(QStringLiteral("right of the ridge")),
            qPrintable(prefill));
        const int attention = int(std::find_if(rows.begin(), rows.end(), [](const LayerResult& l) {
            return l.name == "blk0-31.attention";
        }) - rows.begin());
        QVERIFY(explainLlmRow(*o.analysis, llama.arch, LlmPhase::Decode, 0, attention)
                    .contains(QStringLiteral("reads the KV cache")));
        const QStringList pages = llmTourPages(*o.analysis, llama.arch, 0);
        QCOMPARE(pages.size(), 4);
        QVERIFY2(pages[0].contains(QStringLiteral("Why decode sits on the slope"))
                && pages[0].contains(QStringLiteral("about 1.00 FLOP/B at batch 1")),
            qPrintable(pages[0]));
        // 2 x 32 blocks x 8 KV heads x 128 x 2 bytes = 131,072 bytes per token.
        QVERIFY2(pages[2].contains(QStringLiteral(
                     "2 \u00d7 32 blocks \u00d7 8 KV heads \u00d7 128 \u00d7 2 bytes = <b>128 KiB per token</b>")),
            qPrintable(pages[2]));
        QVERIFY(pages[3].contains(QStringLiteral("compute-bound")));
    }

    // Issue 36 item 7: a session saved in the mode opens in it, with every setting and the phase; a
    // session of a network opened over the mode leaves it; a model file gone since is said, the
    // network it left opening in its place.
    void aSessionKeepsTheMode()
    {
        Workspace ws;
        startWorkspace(ws);
        Config unet = ws.state().config;
        unet.batch = 4;
        ws.setConfig(unet); // the network the mode left, kept in the session
        ws.showModel("mistral-7b");
        LlmWork w = ws.state().llm;
        w.settings.prompt = 3000;
        w.settings.batch = 6;
        w.settings.kvBits = 8;
        w.settings.actType = NumberType::Bf16;
        w.settings.attention = LlmAttention::Naive;
        w.phase = LlmPhase::Prefill;
        ws.setLlm(w);
        std::string error;
        const auto session = sessionFromJson(sessionToJson(sessionOf(ws.state())), error);
        QVERIFY2(session, error.c_str());
        QVERIFY(session->llm && *session->llm == w);

        Workspace other;
        startWorkspace(other);
        other.showSession(*session);
        QVERIFY(other.state().languageModel());
        QVERIFY(other.state().llm == w);
        QCOMPARE(other.state().report->results[0].totals.time, ws.state().llmAnalysis->prefill.results[0].totals.time);
        QCOMPARE(other.state().llmAnalysis->figures[0].tpot, ws.state().llmAnalysis->figures[0].tpot);
        QCOMPARE(other.state().config.batch, 4);

        Session network = *session;
        network.llm.reset();
        other.showSession(network);
        QVERIFY(!other.state().languageModel());
        QCOMPARE(other.report()->network, std::string("U-Net"));
        QCOMPARE(other.report()->config.batch, 4);

        QSignalSpy refused(&other, &Workspace::networkFileRefused);
        Session gone = *session;
        gone.llm->model = m_dir.filePath(QStringLiteral("deleted-model/config.json")).toStdString();
        other.showSession(gone);
        QCOMPARE(refused.count(), 1);
        QCOMPARE(refused.front().at(0).toString(), QString::fromStdString(gone.llm->model));
        QVERIFY(!other.state().languageModel());
        QCOMPARE(other.report()->network, std::string("U-Net"));
    }
};

QTEST_MAIN(TestLlmMode)
#include "tst_llmmode.moc"
