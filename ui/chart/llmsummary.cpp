#include "chart/llmsummary.h"

#include "style/unbroken.h"

#include "base/format.h"

namespace rfx {

namespace {
QString qs(const std::string& s) { return unbroken(QString::fromStdString(s).toHtmlEscaped()); }

QString doesNotFit(const QString& what)
{
    return QStringLiteral("<span style=\"color:#d00000\"><b>\u26a0 %1</b></span>").arg(what);
}
} // namespace

QString llmSummaryHtml(const LlmAnalysis& a, size_t device, LlmPhase shown)
{
    const LlmDeviceFigures& f = a.figures[device];
    const LlmSettings& s = a.settings;
    const QString speed = QStringLiteral("<b>TTFT %1</b> \u00b7 <b>TPOT %2</b> at context %3 \u00b7 %4 tokens/s per sequence, %5 for the batch of %6")
                              .arg(qs(formatTime(f.ttft, true)), qs(formatTime(f.tpot, true)), qs(formatCount(a.context)),
                                  qs(formatNumber3(f.tokensPerSecond)), qs(formatNumber3(f.batchTokensPerSecond)), qs(formatCount(s.batch)));
    const QString parts = QStringLiteral("weights %1, KV cache %2, activations %3")
                              .arg(qs(formatMemory(f.weightsBytes)), qs(formatMemory(f.kvBytes)), qs(formatMemory(f.activationBytes)));
    const QString context = f.largestContext > 0
        ? QStringLiteral("context %1%2").arg(qs(formatCount(f.largestContext)), f.contextLimitedByModel ? QStringLiteral(" (the model's limit)") : QString())
        : QString();
    QString memory;
    if (f.fits) {
        memory = QStringLiteral("memory %1 of %2: %3 (fits; up to batch %4, %5)")
                     .arg(qs(formatMemory(f.memoryBytes)), qs(formatMemory(f.capacity)), parts, qs(formatCount(f.largestBatch)), context);
    } else {
        memory = QStringLiteral("%1 memory %2 of %3: %4; %5")
                     .arg(doesNotFit(QStringLiteral("does not fit:")), qs(formatMemory(f.memoryBytes)), qs(formatMemory(f.capacity)), parts,
                         f.largestBatch > 0 ? QStringLiteral("largest batch that fits: %1").arg(qs(formatCount(f.largestBatch)))
                                            : QStringLiteral("not even batch 1 fits"));
    }
    const Report& phase = shown == LlmPhase::Prefill ? a.prefill : a.decode;
    const QString verdict = device < phase.results.size()
        ? QStringLiteral("<br><i>%1: %2</i>").arg(qs(std::string(llmPhaseName(shown))), qs(phase.results[device].verdict))
        : QString();
    return speed + QStringLiteral("<br>") + memory + verdict;
}

QString llmSummaryHeadline(const LlmAnalysis& a, size_t device)
{
    const LlmDeviceFigures& f = a.figures[device];
    return QStringLiteral("<b>TTFT %1</b> \u00b7 <b>TPOT %2</b> \u00b7 %3 tokens/s%4")
        .arg(qs(formatTime(f.ttft, true)), qs(formatTime(f.tpot, true)), qs(formatNumber3(f.tokensPerSecond)),
            f.fits ? QString() : QStringLiteral(" \u00b7 ") + doesNotFit(QStringLiteral("does not fit")));
}

} // namespace rfx
