// The language-model controls say what does not work beside the field, in the window's words, with
// one-click fixes (issue 73 item 6): a prompt longer than the model reads, a tensor-parallel split its
// heads do not divide into, a typed value out of range (said under its box, not in a tooltip that
// vanished before it was read).
#include "panels/llmcontrols.h"
#include "widgets/problemnote.h"

#include "ui/workspace/llmmode_panes.h"

#include <QLineEdit>
#include <QSpinBox>
#include <QtTest>

using namespace rfx;
using namespace rfx::test;

namespace {
// The panel's note on the work (not a box's correction): the one whose text asks for a fix.
ProblemNote* workNote(ControlPanel& panel)
{
    for (ProblemNote* note : panel.findChildren<ProblemNote*>())
        if (note->isVisible() && note->text().contains(QStringLiteral("do not work")))
            return note;
    return nullptr;
}
} // namespace

class TestLlmControlsProblems : public QObject {
    Q_OBJECT

private slots:
    void aPromptTooLongIsSaidUnderItWithTheLongestThatFits()
    {
        Panes p;
        p.ws.showModel("llama-3.1-8b");
        LlmControls* c = p.panel.llmControls();
        c->promptSpin()->setValue(200000);
        QVERIFY(!p.ws.state().problem.isEmpty());
        ProblemNote* note = workNote(p.panel);
        QVERIFY(note);
        QVERIFY(note->field() && note->field()->isAncestorOf(c->promptSpin())); // the prompt's row: its slider and box
        QVERIFY2(note->text().contains(QStringLiteral(
                     "Llama-3.1 8B reads at most 131,072 tokens: a prompt of 200,000 and 128 generated make 200,128."))
                && !note->text().contains(QStringLiteral("--prompt")),
            qPrintable(note->text()));
        QVERIFY2(note->text().contains(QStringLiteral("<a href=\"llm:prompt:130944\">Use 130,944</a>")),
            qPrintable(note->text()));
        emit note->linkActivated(QStringLiteral("llm:prompt:130944"));
        QCOMPARE(p.ws.state().llm.settings.prompt, 130944);
        QVERIFY(p.ws.state().problem.isEmpty());
        QVERIFY(!workNote(p.panel));
    }

    void aSplitTheHeadsDoNotTakeOffersTheNearestThatDo()
    {
        Panes p;
        p.ws.showModel("llama-3.1-8b");
        LlmControls* c = p.panel.llmControls();
        c->tensorParallelSpin()->setValue(3);
        // The charts' banner and the status line say it in the same words, not the CLI's "--tp 3: ...".
        QCOMPARE(
            p.ws.state().problem, QStringLiteral("Llama-3.1 8B: its 32 attention heads do not divide among 3 GPUs."));
        ProblemNote* note = workNote(p.panel);
        QVERIFY(note);
        QCOMPARE(note->field(), static_cast<QWidget*>(c->tensorParallelSpin()));
        QVERIFY2(
            note->text().contains(QStringLiteral("Llama-3.1 8B: its 32 attention heads do not divide among 3 GPUs."))
                && note->text().contains(QStringLiteral("Use 2")) && note->text().contains(QStringLiteral("Use 4"))
                && !note->text().contains(QStringLiteral("--tp")),
            qPrintable(note->text()));
        emit note->linkActivated(QStringLiteral("llm:tp:4"));
        QCOMPARE(p.ws.state().llm.settings.tensorParallel, 4);
        QVERIFY(p.ws.state().problem.isEmpty());
    }

    // 99999999 typed into the batch (its largest is 65,536): set to 65,536 and said under the box.
    void aTypedValueOutOfRangeIsSaidUnderItsBox()
    {
        Panes p;
        p.ws.showModel("llama-3.1-8b");
        LlmControls* c = p.panel.llmControls();
        QSpinBox* batch = c->batchSpin();
        batch->setFocus();
        batch->selectAll();
        QTest::keyClicks(batch, QStringLiteral("99999999"));
        QTest::keyClick(batch, Qt::Key_Return);
        QCOMPARE(p.ws.state().llm.settings.batch, 65536);
        QCoreApplication::processEvents(); // the box says its correction after its own edit
        QVERIFY2(c->correctionText().contains(QStringLiteral("99,999,999"))
                && c->correctionText().contains(QStringLiteral("batch"))
                && c->correctionText().contains(QStringLiteral("65,536")),
            qPrintable(c->correctionText()));
        auto* said = c->findChild<ProblemNote*>();
        QVERIFY(said && said->isVisible());
        QVERIFY(said->field() && said->field()->isAncestorOf(batch));
        c->promptSpin()->setValue(1024); // the next edit ends it
        QVERIFY(c->correctionText().isEmpty());
    }

    // A letter typed into a number's box was dropped without a word (issue 73 item 6): it is still not
    // taken, and the note under the box says why and what the box takes.
    void aTypedLetterIsSaidUnderItsBox()
    {
        Panes p;
        p.ws.showModel("llama-3.1-8b");
        LlmControls* c = p.panel.llmControls();
        QSpinBox* batch = c->batchSpin();
        QCoreApplication::processEvents(); // the window's activation first: its focus change commits a typed value
        batch->setFocus();
        batch->selectAll();
        QTest::keyClicks(batch, QStringLiteral("4x"));
        QCoreApplication::processEvents();
        QCOMPARE(batch->text(), QStringLiteral("4"));
        QVERIFY2(c->correctionText() == QStringLiteral("Batch takes whole numbers from 1 to 65,536: 'x' is not typed"),
            qPrintable(c->correctionText()));
        auto* said = c->findChild<ProblemNote*>();
        QVERIFY(said && said->isVisible() && said->field() && said->field()->isAncestorOf(batch));
        QTest::keyClick(batch, Qt::Key_Return);
        QCOMPARE(p.ws.state().llm.settings.batch, 4);
    }
};

QTEST_MAIN(TestLlmControlsProblems)
#include "tst_llmcontrols_problems.moc"
