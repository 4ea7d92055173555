#include "summaryview.h"

#include "format.h"

namespace rfx {

namespace {
QString qs(const std::string& s) { return QString::fromStdString(s); }
}

QString summaryHtml(const DeviceResult& d, const Config& config)
{
    const Totals& t = d.totals;
    QString memory;
    if (t.fits) {
        memory = QStringLiteral("memory %1 of %2 (fits; up to batch %3)")
                     .arg(qs(formatMemory(t.memory.total())), qs(formatMemory(t.capacity)))
                     .arg(t.largestBatch);
    } else {
        memory = QStringLiteral("<span style=\"color:#d00000\"><b>\u26a0 does not fit:</b></span> memory %1 of %2; "
                                "%3")
                     .arg(qs(formatMemory(t.memory.total())), qs(formatMemory(t.capacity)),
                         t.largestBatch > 0 ? QStringLiteral("largest batch that fits: %1").arg(t.largestBatch)
                                            : QStringLiteral("not even batch 1 fits"));
    }
    return QStringLiteral("<b>%1</b> per batch of %2 \u00b7 %3 images/s \u00b7 attained %4 = %5 of %6 %7<br>%8<br><i>%9</i>")
        .arg(qs(formatTime(t.time, true)))
        .arg(config.batch)
        .arg(qs(formatNumber3(t.throughput)), qs(formatSI(t.attained, "FLOP/s")), qs(formatPercent(t.peakShare)),
            qs(precisionLabel(d.ceiling.key)), qs(formatSI(d.ceiling.flops, "FLOP/s")), memory, qs(d.verdict));
}

} // namespace rfx
