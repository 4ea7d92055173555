#include "features/analysisline.h"

#include "style/text.h"
#include "workspace/workspace.h"

#include "base/format.h"
#include "io/llm_writer.h"
#include "io/report_writer.h"

namespace rfx {

AnalysisLine::AnalysisLine(QWidget* parent)
    : ElidedLabel(parent)
    , m_notes(new QLabel(parent))
{
    // A link, not a QToolButton: a button among the status bar's permanent widgets showed the
    // analysis line again over a message given at start-up (tst_mainwindow).
    m_notes->setVisible(false);
    m_notes->setObjectName(QStringLiteral("notesButton"));
    m_notes->setTextFormat(Qt::RichText);
    m_notes->setTextInteractionFlags(Qt::LinksAccessibleByMouse | Qt::LinksAccessibleByKeyboard);
    connect(m_notes, &QLabel::linkActivated, this, &AnalysisLine::notesRequested);
}

void AnalysisLine::follow(Workspace* workspace)
{
    connect(workspace, &Workspace::changed, this, [this](const WorkspaceState& s, Workspace::Parts parts) {
        if (parts & Workspace::Analysis)
            showWork(s);
    });
}

void AnalysisLine::showWork(const WorkspaceState& s)
{
    if (!s.problem.isEmpty()) {
        setText(tr("\u26a0 %1").arg(s.problem));
        return;
    }
    if (!s.report)
        return;
    const Report& r = *s.report;
    if (s.languageModel() && s.llmAnalysis) {
        showLanguageModel(s);
        return;
    }
    QString status = QStringLiteral("%1 \u00b7 %2").arg(qs(reportTitle(r)), qs(networkTotalsLine(r)));
    setToolTip(tr(
        "%1\n%2 convolutions, analysed in %5. Totals per batch of %3 on %4: a MAC is a multiply-add of a convolution "
        "or matrix product (2 FLOP); 'other' is the elementwise, pooling and normalisation work; bytes "
        "are the DRAM traffic under the traffic model; peak memory is weights, activations, gradients "
        "and optimizer state at their largest.")
                   .arg(qs(reportTitle(r)))
                   .arg(r.convolutions)
                   .arg(r.config.batch)
                   .arg(r.results.empty() ? QString() : qs(r.results[0].device.name))
                   .arg(qs(formatTime(double(s.analysisNs) * 1e-9, true))));
    if (r.uncountedRows > 0)
        status += tr(" \u00b7 \u26a0 %n row(s) not counted (unknown operators)", "", r.uncountedRows);
    setText(status);
    showNotes(s);
}

void AnalysisLine::showLanguageModel(const WorkspaceState& s)
{
    // The model, the phase and its settings, each tensor's precision and the parameters: short enough
    // for a 1280-px window (issue 73 item 9: the network's title and totals, cut with "..." in every
    // size, said "precision as in the file" of a built-in model). The totals are the summaries'.
    const LlmAnalysis& a = *s.llmAnalysis;
    const LlmSettings& t = a.settings;
    const QString model = qs(a.model).section(QStringLiteral(" ("), 0, 0);
    const QString phase = s.llm.phase == LlmPhase::Prefill ? tr("prefill of %1 tokens").arg(qs(formatCount(t.prompt)))
        : s.llm.phase == LlmPhase::Decode                  ? tr("decode at context %1").arg(qs(formatCount(a.context)))
                                                           : tr("prefill of %1 tokens and decode at context %2")
                                                .arg(qs(formatCount(t.prompt)), qs(formatCount(a.context)));
    setText(tr("%1 \u00b7 %2, batch %3 \u00b7 %4 \u00b7 %5 parameters")
                .arg(model, phase, qs(formatCount(t.batch)), qs(llmPrecisionText(t)),
                    qs(formatSI(double(a.parameters), ""))));
    setToolTip(tr("%1: %2").arg(qs(a.model), qs(llmSettingsLine(a))));
    showNotes(s);
}

void AnalysisLine::showNotes(const WorkspaceState& s)
{
    // Notes (ceiling fallbacks, device file problems) are listed in the Devices panel, beside the
    // devices; the link counts them and opens that list.
    const WorkNotes& notes = s.notes;
    const int count = notes.count();
    m_notes->setVisible(count > 0);
    m_notes->setText(QStringLiteral("<a href=\"#notes\">%1</a>")
                         .arg(count == 1 ? tr("\u26a0 1 note") : tr("\u26a0 %1 notes").arg(count)));
    m_notes->setToolTip(
        tr("Show them in the Devices panel:\n%1").arg((notes.deviceFiles + notes.analysis).join(QLatin1Char('\n'))));
}

} // namespace rfx
