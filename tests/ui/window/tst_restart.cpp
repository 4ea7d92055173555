// The window reopens as it was (docs/window.md; issue 73 item 3): a language model, its phase and
// settings come back at the next start with no arguments; a model file named on the command line that
// cannot be read is said and the last work stays; a network named there is what opens, and one that
// cannot be used is said in a dialog while the U-Net opens with the rest of the configuration.
#include "chart/chartarea.h"
#include "panels/controlpanel.h"
#include "panels/llmcontrols.h"
#include "window/mainwindow.h"
#include "workspace/workspace.h"

#include "guitestutils.h"
#include "testpaths.h"
#include "testutils.h"
#include "ui/window/mainwindowtests.h"

#include <QComboBox>
#include <QMessageBox>
#include <QtTest>

using namespace rfx;
using namespace rfx::mainwindowtest;

class TestRestart : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

    // A window on Llama-3.1 8B in the prefill phase at batch 4 and prompt 2,048, closed (which saves).
    static void closeOnALanguageModel()
    {
        MainWindow w(fresh({ QStringLiteral("h100-sxm"), QStringLiteral("rtx-4090") }));
        w.show();
        w.workspace().showModel("llama-3.1-8b");
        LlmWork work = w.workspace().state().llm;
        QCOMPARE(work.model, std::string("llama-3.1-8b"));
        work.phase = LlmPhase::Prefill;
        work.settings.batch = 4;
        work.settings.prompt = 2048;
        w.workspace().setLlm(work, 0);
        QVERIFY(w.workspace().state().languageModel());
        w.close(); // saves
    }

private slots:
    void initTestCase()
    {
        rfx::test::isolateGuiTest(m_dir, QStringLiteral("tst_restart"));
        qputenv("XDG_DATA_HOME", m_dir.filePath(QStringLiteral("data")).toUtf8());
    }

    void aLanguageModelComesBack()
    {
        closeOnALanguageModel();
        MainWindow w((GuiOptions())); // no arguments
        w.show();
        const WorkspaceState& s = w.workspace().state();
        QVERIFY(s.languageModel());
        QCOMPARE(s.llm.model, std::string("llama-3.1-8b"));
        QCOMPARE(s.llm.phase, LlmPhase::Prefill);
        QCOMPARE(s.llm.settings.batch, 4);
        QCOMPARE(s.llm.settings.prompt, 2048);
        QVERIFY(s.llmAnalysis);
        QCOMPARE(w.workspace().deviceIds(), (QStringList { QStringLiteral("h100-sxm"), QStringLiteral("rtx-4090") }));
        QCOMPARE(w.controls()->networkCombo()->currentData().toString(), QStringLiteral("llama-3.1-8b"));
    }

    // roofline-explorer x.gguf where x.gguf cannot be read: its dialog, and the last work stays shown.
    void anUnreadableModelKeepsTheLastOne()
    {
        closeOnALanguageModel();
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("x.gguf"));
        QVERIFY(rfx::test::writeFile(file, "GGU"));
        GuiOptions o;
        o.configGiven = true;
        o.config.config.model = file.toStdString();
        MainWindow w(o);
        w.show();
        QCoreApplication::processEvents();
        auto* box = w.findChild<QMessageBox*>(QStringLiteral("networkFileError"));
        QVERIFY(box);
        // In the window's words (issue 73 item 7): a language model, a sentence, no command line.
        QCOMPARE(box->text(), QStringLiteral("x.gguf cannot be used as a language model."));
        const QString reason = box->informativeText();
        QVERIFY2(reason.at(0).isUpper() && !reason.contains(QStringLiteral("roofline-cli")), qPrintable(reason));
        QVERIFY2(reason.contains(QStringLiteral("The window still shows Llama-3.1 8B, prefill.")), qPrintable(reason));
        const WorkspaceState& s = w.workspace().state();
        QVERIFY(s.languageModel());
        QCOMPARE(s.llm.model, std::string("llama-3.1-8b"));
        QCOMPARE(s.llm.settings.batch, 4);
        box->close();
    }

    // An empty ONNX file: a network, its reason a sentence, what opens said in the window's words.
    void anEmptyNetworkFileIsSaidInWords()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("x.onnx"));
        QVERIFY(rfx::test::writeFile(file, ""));
        GuiOptions o = fresh();
        o.config.config.model = file.toStdString();
        MainWindow w(o);
        w.show();
        QCoreApplication::processEvents();
        auto* box = w.findChild<QMessageBox*>(QStringLiteral("networkFileError"));
        QVERIFY(box);
        QCOMPARE(box->text(), QStringLiteral("x.onnx cannot be used as a network."));
        const QString reason = box->informativeText();
        QVERIFY2(reason.startsWith(QStringLiteral("The file is empty"))
                && reason.contains(QStringLiteral("opsets 7 to 23"))
                && !reason.contains(QStringLiteral("roofline-cli")),
            qPrintable(reason));
        box->close();
    }

    // roofline-explorer decoder_model_merged.onnx: a decoder with past keys and values opens in the
    // language-model mode, as from the File menu (it opened as a network from the command line).
    void aDecoderOnTheCommandLineOpensAsALanguageModel()
    {
        GuiOptions o = fresh();
        o.configGiven = true;
        o.config.config.model = std::string(ROOFLINE_TEST_DATA_DIR) + "/onnx/wild/optimum_merged.onnx";
        MainWindow w(o);
        w.show();
        QVERIFY(w.workspace().state().languageModel());
        QCOMPARE(w.workspace().state().llm.model, o.config.config.model);
        QVERIFY(w.workspace().state().llmAnalysis);
        QCOMPARE(w.workspace().state().llmAnalysis->parameters, std::int64_t(2'754'816));
        // its cache as the graph stores it (fp32), not the setting's fp16 the disabled box showed
        QCOMPARE(w.controls()->llmControls()->kvCombo()->currentText(), QStringLiteral("fp32"));
    }

    // A network named on the command line opens, not the language model of the last start.
    void aNetworkOnTheCommandLineOpens()
    {
        closeOnALanguageModel();
        GuiOptions o;
        o.configGiven = true;
        o.config.config.model = "resnet50";
        MainWindow w(o);
        w.show();
        QVERIFY(!w.workspace().state().languageModel());
        QCOMPARE(w.workspace().report()->network, std::string("ResNet-50"));
    }

    // A window that starts on a network file that cannot be used says why in a dialog (file, place,
    // reason) and opens on the U-Net with the rest of the configuration, not on an empty window.
    void startsOnABrokenNetworkFile()
    {
        QTemporaryDir dir;
        QFile f(dir.filePath(QStringLiteral("broken.json")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({ "schema": 1, "name": "b", "input": { "channels": 3, "height": 32, "width": 32 },
                    "layers": [ { "name": "a", "op": "conv", "kernel": 3 } ] })");
        f.close();
        GuiOptions o = fresh();
        o.config.config.model = f.fileName().toStdString();
        o.config.config.batch = 4;
        MainWindow w(o);
        w.show();
        QCoreApplication::processEvents();
        auto* box = w.findChild<QMessageBox*>(QStringLiteral("networkFileError"));
        QVERIFY(box);
        QVERIFY2(box->informativeText().contains(QStringLiteral("layers[0] (a): out_channels: missing")),
            qPrintable(box->informativeText()));
        QVERIFY(box->text().contains(QStringLiteral("broken.json")));
        QVERIFY(w.workspace().report());
        QCOMPARE(w.workspace().report()->config.model, std::string("unet"));
        QCOMPARE(w.workspace().report()->config.batch, 4);
        QCOMPARE(w.controls()->networkCombo()->currentData().toString(), QStringLiteral("unet"));
        QCOMPARE(w.chartArea()->charts().size(), size_t(1));
        box->close();
    }
};

QTEST_MAIN(TestRestart)
#include "tst_restart.moc"
