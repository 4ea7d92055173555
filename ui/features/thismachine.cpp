#include "thismachine.h"

#include "text.h"

#include "device_loader.h"
#include "format.h"
#include "progressrun.h"

#include <QInputDialog>
#include <QSaveFile>

#include <filesystem>

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
            QObject::tr("The CPU's TDP in watts, for the energy model (power cannot be measured here; the device file says so "
               "and can be edited later):"),
            65, 1, 10000, 0, &ok);
        if (!ok) {
            say(QObject::tr("Measuring cancelled"));
            return {};
        }
    }
    std::optional<MicrobenchResult> result;
    const bool finished = runWithProgress(parent, QObject::tr("Measure this machine"), QObject::tr("Measuring this machine"),
        [&](const ProgressReport& report) { result = runMicrobenchmarks(options, report); });
    if (!result) {
        say(!finished ? QObject::tr("Measuring cancelled; no device file written") : QObject::tr("Measuring failed: the benchmark arrays did not fit in memory"));
        return {};
    }
    const MicrobenchResult& r = *result;
    const std::string id = "this-machine";
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
    auto line = [&](const QString& what, const BenchFigure& f, const char* unit) {
        return QObject::tr("%1: %2 (repeats within %3)").arg(what, qs(formatSI(f.best, unit)), qs(formatPercent(f.spread)));
    };
    say(QObject::tr("%1, %2 threads, %3, in %4:\n%5\n%6\n%7\n%8\n%9\n\nWritten to %10 as device \u201cthis-machine\u201d.")
            .arg(qs(r.cpuName))
            .arg(r.threads)
            .arg(qs(r.isa), qs(formatTime(r.seconds)), line(QObject::tr("FP32 peak"), r.fp32, "FLOP/s"),
                line(QObject::tr("FP64 peak"), r.fp64, "FLOP/s"), line(QObject::tr("L1 read"), r.l1, "B/s"), line(QObject::tr("L2 read"), r.l2, "B/s"),
                line(QObject::tr("DRAM triad"), r.dram, "B/s"))
            .arg(path));
    return qs(id);
}

} // namespace rfx
