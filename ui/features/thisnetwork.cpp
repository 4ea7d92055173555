#include "features/thisnetwork.h"

#include "base/format.h"
#include "devices/device_loader.h"
#include "widgets/progressrun.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QSaveFile>

namespace rfx {

QString measurementFolder()
{
    // Beside the user device folder (…/roofline-explorer/devices): …/roofline-explorer/measurements.
    const std::filesystem::path devices = userDeviceDir();
    return devices.empty() ? QDir::home().filePath(QStringLiteral(".roofline-explorer-measurements"))
                           : QString::fromStdString((devices.parent_path() / "measurements").string());
}

QString measureThisNetwork(QWidget* parent, const NetworkRun& run, const LayerBenchOptions& options, QString* summary)
{
    auto say = [&](const QString& text) {
        if (summary)
            *summary = text;
    };
    if (!run.ready()) {
        say(QObject::tr("Cannot measure this configuration: %1").arg(QString::fromStdString(run.whyNot())));
        return {};
    }
    NetworkMeasurement m;
    const bool finished = runWithProgress(parent, QObject::tr("Measure this network"),
        QObject::tr("Running the network's rows on this CPU"),
        [&](const ProgressReport& report) { m = run.run(options, report); });
    if (!finished || m.cancelled) {
        say(QObject::tr("Measuring cancelled; nothing written"));
        return {};
    }
    if (!m.error.empty()) {
        say(QObject::tr("Cannot measure this configuration: %1").arg(QString::fromStdString(m.error)));
        return {};
    }
    const QString model = QFileInfo(QString::fromStdString(run.config.model)).completeBaseName();
    return saveMeasurement(m, run.csv(m), model, summary);
}

QString saveMeasurement(const NetworkMeasurement& m, const std::string& csv, const QString& stem, QString* summary)
{
    auto say = [&](const QString& text) {
        if (summary)
            *summary = text;
    };
    const QDateTime now = QDateTime::currentDateTimeUtc();
    const QString path
        = QDir(measurementFolder())
              .filePath(QStringLiteral("%1-%2.csv").arg(stem, now.toString(QStringLiteral("yyyyMMdd-HHmmss"))));
    QDir().mkpath(measurementFolder());
    QSaveFile out(path); // atomic
    if (!out.open(QIODevice::WriteOnly) || out.write(csv.c_str(), qint64(csv.size())) < 0 || !out.commit()) {
        say(QObject::tr("%1: cannot write: %2").arg(path, out.errorString()));
        return {};
    }
    QStringList notRun;
    for (const RowMeasurement& r : m.rows)
        if (!r.measured)
            notRun << QObject::tr("%1: %2").arg(QString::fromStdString(r.layer), QString::fromStdString(r.skipped));
    say(QObject::tr("%1; written to %2.%3")
            .arg(QString::fromStdString(measuredLine(m)), path,
                notRun.isEmpty() ? QString() : QObject::tr("\n\nNot run:\n%1").arg(notRun.join(QLatin1Char('\n')))));
    return path;
}

} // namespace rfx
