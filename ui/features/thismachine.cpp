#include "features/thismachine.h"

#include "style/text.h"

#include "base/format.h"
#include "devices/device_loader.h"
#include "widgets/progressrun.h"

#include <QInputDialog>
#include <QSaveFile>
#include <QStringList>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace rfx {

QString measureThisMachine(QWidget* parent, const MicrobenchOptions& options, double tdpWatts, QString* summary)
{
    auto say = [&](const QString& text) {
        if (summary)
            *summary = text;
    };
    if (tdpWatts <= 0) {
        bool ok = false;
        tdpWatts = QInputDialog::getDouble(parent, QObject::tr("Measure this machine"),
            QObject::tr(
                "The CPU's TDP in watts, for the energy model (power cannot be measured here; the device file says so "
                "and can be edited later):"),
            65, 1, 10000, 0, &ok);
        if (!ok) {
            say(QObject::tr("Measuring cancelled"));
            return {};
        }
    }
    const std::string id = "this-machine";
    const std::filesystem::path file = userDeviceDir() / (id + ".json");
    MicrobenchOptions withEarlier = options; // the machine's earlier ceilings, to hold the new ones against
    if (std::ifstream earlier(file); earlier) {
        std::stringstream text;
        text << earlier.rdbuf();
        if (const DeviceLoad load = parseDevice(text.str(), file.string()); load.device)
            withEarlier.earlier = earlierCeilings(*load.device);
    }
    std::optional<MicrobenchResult> result;
    const bool finished
        = runWithProgress(parent, QObject::tr("Measure this machine"), QObject::tr("Measuring this machine"),
            [&](const ProgressReport& report) { result = runMicrobenchmarks(withEarlier, report); });
    if (!result) {
        say(!finished ? QObject::tr("Measuring cancelled; no device file written")
                      : QObject::tr("Measuring failed: the benchmark arrays did not fit in memory"));
        return {};
    }
    const MicrobenchResult& r = *result;
    const std::string text = microbenchDeviceJson(r, id, r.cpuName + " (measured)", tdpWatts);
    const std::filesystem::path dir = userDeviceDir();
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    const QString path = qs((dir / (id + ".json")).string());
    QSaveFile out(path); // atomic
    if (!out.open(QIODevice::WriteOnly) || out.write(text.c_str(), qint64(text.size())) < 0 || !out.commit()) {
        say(QObject::tr("%1: cannot write: %2").arg(path, out.errorString()));
        return {};
    }
    const CycleFigures c = r.perCycle.value_or(CycleFigures {});
    QStringList lines;
    auto line = [&](const QString& what, const BenchFigure& f, const char* unit, double expected, double perCycle,
                    const char* perCycleUnit) {
        if (!(f.best > 0))
            return;
        const std::string against = expectationText(f.best, expected, perCycle, perCycleUnit, r);
        lines << QObject::tr("%1: %2 (repeats within %3%4)")
                     .arg(what, qs(formatSI(f.best, unit)), qs(formatPercent(f.spread)),
                         against.empty() ? QString() : qs("; " + against));
    };
    if (r.measuredClockHz > 0)
        lines << QObject::tr("Clock under load: %1").arg(qs(formatSI(r.measuredClockHz, "Hz")));
    if (r.vectorClockLower())
        lines << QObject::tr("The vector units' clock under load: %1 (the expected figures are at it)")
                     .arg(qs(formatSI(r.vectorClockHz, "Hz")));
    line(QObject::tr("FP32 peak"), r.fp32, "FLOP/s", r.expected.fp32, c.fp32Flop, "FLOP/cycle");
    line(QObject::tr("FP64 peak"), r.fp64, "FLOP/s", r.expected.fp64, c.fp64Flop, "FLOP/cycle");
    line(QObject::tr("int8 (VNNI)"), r.int8, "OP/s", r.expected.int8, c.int8Ops(), "OP/cycle");
    line(QObject::tr("L1 read"), r.l1, "B/s", r.expected.l1, c.l1Bytes, "B/cycle");
    line(QObject::tr("L2 read"), r.l2, "B/s", r.expected.l2, c.l2Bytes, "B/cycle");
    line(QObject::tr("L3 read"), r.l3, "B/s", r.expected.l3, c.l3Bytes, "B/cycle");
    line(QObject::tr("DRAM read"), r.dramRead, "B/s", 0, 0, "");
    line(QObject::tr("DRAM triad"), r.dramTriad, "B/s", 0, 0, "");
    for (const std::string& k : kernelRateLines(r))
        lines << qs(k);
    if (r.l3Usable > 0)
        lines << QObject::tr("L3 usable: %1 MiB of the %2 MiB L3%3")
                     .arg(qs(formatNumber3(r.l3Usable / (1024 * 1024))), qs(formatNumber3(r.l3Bytes / (1024 * 1024))),
                         r.l3Claimed > 0 ? QObject::tr(" (CPUID claims %1 MiB: a virtual machine's may be its host's)")
                                               .arg(qs(formatNumber3(r.l3Claimed / (1024 * 1024))))
                                         : QString());
    for (const MicrobenchResult::Doubt& d : r.doubts)
        lines << (d.suspect ? QObject::tr("Suspect: %1") : QObject::tr("Note: %1")).arg(qs(d.text));
    if (std::any_of(r.doubts.begin(), r.doubts.end(), [](const auto& d) { return d.suspect; }))
        lines << qs(kSuspectAdvice);
    lines << (r.perCycle
            ? QObject::tr("Expected figures: %1 (%2).").arg(qs(r.perCycle->microarchitecture), qs(r.perCycle->source))
            : QObject::tr("No per-cycle figures are known for this CPU; the measurements stand alone."));
    say(QObject::tr("%1, %2 threads on %3 cores, %4, in %5:\n%6\n\nWritten to %7 as device \u201cthis-machine\u201d.")
            .arg(qs(r.cpuName))
            .arg(r.threads)
            .arg(r.cores)
            .arg(qs(r.isa), qs(formatTime(r.seconds)), lines.join(QLatin1Char('\n')), path));
    return qs(id);
}

} // namespace rfx
