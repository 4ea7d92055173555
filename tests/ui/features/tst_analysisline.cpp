// The status bar's line on the analysis (features/analysisline.h). In the language-model mode it names
// the model, the phase, the batch and each tensor's precision, short enough for a 1280-px window
// (issue 73 item 9: the network's title there said "precision as in the file" of a built-in model,
// and the line was cut with "..." at every size).
#include "features/analysisline.h"
#include "workspace/workspace.h"

#include "devices/device_loader.h"
#include "testpaths.h"

#include <QtTest>

using namespace rfx;

class TestAnalysisLine : public QObject {
    Q_OBJECT

    static void start(Workspace& ws)
    {
        ws.setLibrary(loadDeviceLibrary({ std::filesystem::path(ROOFLINE_TEST_DEVICES_DIR) }));
        ws.setWork(Config {}, { QStringLiteral("rtx-4090"), QStringLiteral("h100-sxm") });
        ws.startHistory();
    }

private slots:
    void aNetworksTitleAndTotals()
    {
        Workspace ws;
        AnalysisLine line;
        line.follow(&ws);
        start(ws);
        QVERIFY2(line.text().startsWith(QStringLiteral("U-Net 572x572x1 -> 388x388x2, batch 1, 32-bit, inference")),
            qPrintable(line.text()));
        QVERIFY2(line.text().contains(QStringLiteral("31,030,658 parameters")), qPrintable(line.text()));
    }

    void aLanguageModelsSettings()
    {
        Workspace ws;
        AnalysisLine line;
        line.follow(&ws);
        start(ws);
        ws.showModel("llama-3.1-8b");
        QCOMPARE(line.text(),
            QStringLiteral("Llama-3.1 8B \u00b7 decode at context 576, batch 1 \u00b7 weights fp16, KV cache fp16, "
                           "activations fp16 \u00b7 8.03 G parameters"));
        QVERIFY(line.toolTip().contains(QStringLiteral("prompt 512, generate 128 (decode at context 576)")));
        LlmWork w = ws.state().llm;
        w.phase = LlmPhase::Prefill;
        w.settings.batch = 4;
        w.settings.kvBits = 8;
        ws.setLlm(w, 0);
        QCOMPARE(line.text(),
            QStringLiteral("Llama-3.1 8B \u00b7 prefill of 512 tokens, batch 4 \u00b7 weights fp16, KV cache 8-bit, "
                           "activations fp16 \u00b7 8.03 G parameters"));
        w.phase = LlmPhase::Both;
        ws.setLlm(w, 0);
        QVERIFY(line.text().contains(QStringLiteral("prefill of 512 tokens and decode at context 576, batch 4")));
        QVERIFY(!line.text().contains(QStringLiteral("as in the file")));
        // The longest of them in the window's type within a 1280-px status bar, its notes' link beside.
        QVERIFY2(line.fontMetrics().horizontalAdvance(line.text()) < 1100, qPrintable(line.text()));
    }
};

QTEST_MAIN(TestAnalysisLine)
#include "tst_analysisline.moc"
