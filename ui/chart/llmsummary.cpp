#include "chart/llmsummary.h"

#include "style/text.h"
#include "style/unbroken.h"

#include "base/format.h"
#include "measure/llm_measure.h"

#include <QStringList>

#include <algorithm>
#include <cmath>

namespace rfx {

namespace {

// The memory's parts, in the bar and beside their figures.
constexpr const char* kWeightsColour = "#3b6fb6";
constexpr const char* kKvColour = "#e07b00";
constexpr const char* kActivationsColour = "#2e9b5b";

QString doesNotFit(const QString& what)
{
    // The sign and its words on one line ("⚠" ended a line, "does not fit" began the next).
    return QStringLiteral("<span style=\"color:#d00000\"><b>\u26a0\u00a0%1</b></span>")
        .arg(QString(what).replace(QLatin1Char(' '), QChar(0x00a0)));
}
// The memory's parts as a bar of block characters (drawn by the summaries' own text path, so it
// scales with them): 32 cells, each 1/32 of the device's memory; weights, KV cache and activations
// each in their colour, the free memory grey. A model larger than the memory: each cell is 1/32 of
// what it needs, the cells within the device's memory in the parts' colours and the rest red, so
// that the bar keeps its length (one of 32 + 16 red cells and a "+" was wider than a summary at
// 1280 x 720 and wrapped its red cells onto the next line, issue 73 item 9). Every part above
// nothing has a cell.
QString memoryBar(const LlmDeviceFigures& f)
{
    constexpr int kCells = 32;
    if (!(f.capacity > 0))
        return QString();
    const double parts[3] = { f.weightsBytes, f.kvBytes, f.activationBytes };
    const double need = parts[0] + parts[1] + parts[2];
    const bool over = !f.fits && need > f.capacity;
    const double perCell = (over ? need : f.capacity) / kCells;
    int cells[3];
    for (int i = 0; i < 3; ++i)
        cells[i] = parts[i] > 0 ? std::max(1, int(std::lround(parts[i] / perCell))) : 0;
    if (over) { // the small parts' one cell each taken from the largest: the bar stays 32 cells
        int* largest = std::max_element(cells, cells + 3);
        *largest = std::max(1, *largest - (cells[0] + cells[1] + cells[2] - kCells));
    }
    const int used = cells[0] + cells[1] + cells[2];
    QString bar;
    auto run = [&bar](const char* colour, int n, const QString& glyph) {
        if (n > 0)
            bar += QStringLiteral("<span style=\"color:%1\">%2</span>").arg(QLatin1String(colour), glyph.repeated(n));
    };
    const QString block = QStringLiteral("\u2588");
    // Within the device's memory: the parts in order; beyond it, red.
    const int within = over ? std::clamp(int(std::lround(f.capacity / perCell)), 1, kCells - 1) : kCells;
    int left = within;
    const char* colours[3] = { kWeightsColour, kKvColour, kActivationsColour };
    for (int i = 0; i < 3; ++i) {
        const int inside = std::min(cells[i], left);
        run(colours[i], inside, block);
        left -= inside;
    }
    if (over)
        run("#d00000", std::max(used - within, 0), block);
    else
        run("#c8c8c8", std::max(left, 0), block);
    return bar;
}

// The calibrated TTFT and TPOT: the phases' calibrated totals and their link time; none where a
// phase of this device is not calibrated.
struct CalibratedTimes {
    bool calibrated = false;
    double ttft = 0, tpot = 0;
};
CalibratedTimes calibratedTimes(const LlmAnalysis& a, size_t device)
{
    const LlmDeviceFigures& f = a.figures[device];
    if (!(device < a.prefill.results.size() && device < a.decode.results.size()
            && a.prefill.results[device].totals.calibratedTime >= 0
            && a.decode.results[device].totals.calibratedTime >= 0))
        return {};
    return { true, a.prefill.results[device].totals.calibratedTime + f.prefillLinkTime,
        a.decode.results[device].totals.calibratedTime + f.decodeLinkTime };
}

// The calibrated TTFT and TPOT, or a line of the phases measured on this device beside them: what
// this machine does next to the bound.
QString calibratedAndMeasured(const LlmAnalysis& a, size_t device, const std::vector<LlmMeasuredGroup>* measured)
{
    const auto [calibrated, ttft, tpot] = calibratedTimes(a, device);
    QStringList said;
    if (measured) {
        for (const LlmMeasuredGroup& g : *measured) {
            if (!(g.measured > 0))
                continue;
            const bool prefill = g.phase == LlmPhase::Prefill;
            const double predicted = g.calibrated; // of the rows measured, so that a part compares with its part
            const size_t rows = (prefill ? a.prefill : a.decode).results[device].layers.size();
            const QString of = g.rows < int(rows) ? QStringLiteral(", %1 of %2 rows").arg(g.rows).arg(rows) : QString();
            said << (predicted > 0
                    ? QStringLiteral("%1 %2 (calibrated %3, %4%5)")
                          .arg(prefill ? QStringLiteral("TTFT") : QStringLiteral("TPOT"),
                              qsRich(formatTime(g.measured, true)), qsRich(formatTime(predicted, true)),
                              qsRich(formatSignedPercent(predicted / g.measured - 1, true)), of)
                    : QStringLiteral("%1 %2 (%3 of the bound reached%4)")
                          .arg(prefill ? QStringLiteral("TTFT") : QStringLiteral("TPOT"),
                              qsRich(formatTime(g.measured, true)), qsRich(formatPercent(g.bound / g.measured)), of));
        }
    }
    if (!said.isEmpty())
        return QStringLiteral("<br>measured: %1").arg(said.join(QStringLiteral(" \u00b7 ")));
    if (calibrated)
        return QStringLiteral("<br>calibrated (%1): TTFT %2 \u00b7 TPOT %3 \u00b7 %4 tokens/s per sequence")
            .arg(qsRich(a.decode.results[device].calibration), qsRich(formatTime(ttft, true)),
                qsRich(formatTime(tpot, true)), qsRich(formatNumber3(tpot > 0 ? 1 / tpot : 0)));
    return QString();
}

} // namespace

QString llmSummaryHtml(
    const LlmAnalysis& a, size_t device, LlmPhase shown, const std::vector<LlmMeasuredGroup>* measured)
{
    const LlmDeviceFigures& f = a.figures[device];
    const LlmSettings& s = a.settings;
    // Beside a calibrated or measured line, the first one says it is the bound.
    const QString beside = calibratedAndMeasured(a, device, measured);
    const QString speed
        = QStringLiteral("%7<b>TTFT %1</b> \u00b7 <b>TPOT %2</b> at context %3 \u00b7 %4 tokens/s per sequence, %5 for "
                         "the batch of %6")
              .arg(qsRich(formatTime(f.ttft, true)), qsRich(formatTime(f.tpot, true)), qsRich(formatCount(a.context)),
                  qsRich(formatNumber3(f.tokensPerSecond)), qsRich(formatNumber3(f.batchTokensPerSecond)),
                  qsRich(formatCount(s.batch)), beside.isEmpty() ? QString() : QStringLiteral("bound: "))
        + beside;
    auto part = [](const char* colour, const QString& text) {
        return QStringLiteral("<span style=\"color:%1\">\u25a0</span>\u00a0%2").arg(QLatin1String(colour), text);
    };
    const QString parts = part(kWeightsColour, QStringLiteral("weights %1").arg(qsRich(formatMemory(f.weightsBytes))))
        + QStringLiteral(", ") + part(kKvColour, QStringLiteral("KV cache %1").arg(qsRich(formatMemory(f.kvBytes))))
        + QStringLiteral(", ")
        + part(kActivationsColour, QStringLiteral("activations %1").arg(qsRich(formatMemory(f.activationBytes))));
    const QString context = f.largestContext > 0
        ? QStringLiteral("context %1%2")
              .arg(qsRich(formatCount(f.largestContext)),
                  f.contextLimitedByModel ? QStringLiteral(" (the model's limit)") : QString())
        : QString();
    QString memory;
    if (f.fits) {
        memory = QStringLiteral("memory %1 of %2: %3 (fits; up to batch %4, %5)")
                     .arg(qsRich(formatMemory(f.memoryBytes)), qsRich(formatMemory(f.capacity)), parts,
                         qsRich(formatCount(f.largestBatch)), context);
    } else {
        memory = QStringLiteral("%1 memory %2 of %3: %4; %5")
                     .arg(doesNotFit(QStringLiteral("does not fit:")), qsRich(formatMemory(f.memoryBytes)),
                         qsRich(formatMemory(f.capacity)), parts,
                         f.largestBatch > 0
                             ? QStringLiteral("largest batch that fits: %1").arg(qsRich(formatCount(f.largestBatch)))
                             : QStringLiteral("not even batch 1 fits"));
    }
    // the shown phase's verdict, or both phases' (each its own: the prefill's is not the decode's)
    QStringList verdicts;
    for (const LlmPhase p : { LlmPhase::Prefill, LlmPhase::Decode }) {
        const Report& phase = p == LlmPhase::Prefill ? a.prefill : a.decode;
        if ((shown == p || shown == LlmPhase::Both) && device < phase.results.size())
            verdicts << QStringLiteral("%1: %2").arg(
                qsRich(std::string(llmPhaseName(p))), qsRich(phase.results[device].verdict));
    }
    const QString verdict
        = verdicts.isEmpty() ? QString() : QStringLiteral("<br><i>%1</i>").arg(verdicts.join(QStringLiteral("; ")));
    const QString bar = memoryBar(f);
    return speed + QStringLiteral("<br>") + (bar.isEmpty() ? QString() : bar + QStringLiteral(" ")) + memory + verdict;
}

QString llmSummaryHeadline(const LlmAnalysis& a, size_t device)
{
    const LlmDeviceFigures& f = a.figures[device];
    // Calibrated, the line gives the times the chart and the table show, and says so: the bounds
    // are in the whole summary (the tooltip).
    const CalibratedTimes c = calibratedTimes(a, device);
    const double ttft = c.calibrated ? c.ttft : f.ttft, tpot = c.calibrated ? c.tpot : f.tpot;
    return QStringLiteral("%5<b>TTFT %1</b> \u00b7 <b>TPOT %2</b> \u00b7 %3 tokens/s%4")
        .arg(qsRich(formatTime(ttft, true)), qsRich(formatTime(tpot, true)),
            qsRich(formatNumber3(tpot > 0 ? 1 / tpot : f.tokensPerSecond)),
            f.fits ? QString() : QStringLiteral(" \u00b7 ") + doesNotFit(QStringLiteral("does not fit")),
            c.calibrated ? QStringLiteral("calibrated ") : QString());
}

} // namespace rfx
