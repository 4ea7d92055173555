#include "features/calibrationview.h"

#include "style/text.h"

#include "base/format.h"
#include "devices/device_loader.h"
#include "io/calibration_file.h"
#include "io/llm_measure_header.h"
#include "io/llm_probes.h"
#include "llm/llm_both.h"
#include "workspace/workspace.h"

#include <QAction>
#include <QDate>
#include <QDir>
#include <QFileInfo>
#include <QSaveFile>

#include <filesystem>

namespace rfx {

CalibrationView::CalibrationView(Workspace* workspace, QObject* parent)
    : QObject(parent)
    , m_workspace(workspace)
    , m_toggle(new QAction(tr("&Calibrated times"), this))
{
    m_toggle->setCheckable(true);
    connect(m_toggle, &QAction::toggled, this, [this](bool on) {
        if (on && !m_calibration) {
            m_toggle->setChecked(false); // nothing to show: Tools > Calibrate or File > Open calibration first
            return;
        }
        publish();
    });
    updateAction();
}

QString CalibrationView::file() const { return m_calibration ? qs(m_calibration->file) : QString(); }

bool CalibrationView::open(const QString& path, QString* error)
{
    const CalibrationLoad load = loadCalibration(path.toStdString());
    if (!load.calibration) {
        QStringList lines;
        for (const Diagnostic& d : load.diagnostics)
            lines << qs(toString(d));
        if (error)
            *error = tr(
                "%1 is not a calibration file the app reads:\n%2\n\nCalibration files come from Tools \u25b8 Calibrate "
                "from the measurements or roofline-cli calibrate.")
                         .arg(path, lines.join(QLatin1Char('\n')));
        return false;
    }
    m_calibration = *load.calibration;
    updateAction();
    const QSignalBlocker block(m_toggle);
    m_toggle->setChecked(true);
    publish();
    return true;
}

bool CalibrationView::calibrate(const MeasurementSet& set, const Report& report, int device, const QString& path,
    QString* summary, QString* error, const std::vector<CalibrationSample>& probes)
{
    if (device < 0 || device >= int(report.results.size())) {
        if (error)
            *error = tr("No device to calibrate: check the device the measurements ran on.");
        return false;
    }
    // The bounds the fit is relative to: the report's own, never calibrated ones.
    const DeviceResult& r = report.results[size_t(device)];
    const Comparison c = compareMeasurements(set, r);
    Calibration cal;
    try {
        cal = calibrateFrom(c, r, report.config, set.configuration, set.file,
            QDate::currentDate().toString(Qt::ISODate).toStdString(), probes);
    } catch (const std::invalid_argument& e) {
        if (error)
            *error = tr("%1: %2 (%3 of %4 measured rows matched a layer of %5)")
                         .arg(qs(set.file), qs(e.what()))
                         .arg(c.layers.size())
                         .arg(set.rows.size())
                         .arg(qs(report.network));
        return false;
    }
    const std::string doc = calibrationToJson(cal);
    QDir().mkpath(QFileInfo(path).absolutePath());
    QSaveFile out(path); // atomic: the old file or the new one, never half of one
    if (!out.open(QIODevice::WriteOnly) || out.write(doc.c_str(), qint64(doc.size())) < 0 || !out.commit()) {
        if (error)
            *error = tr("%1: cannot write: %2").arg(path, out.errorString());
        return false;
    }
    cal.file = path.toStdString();
    m_calibration = cal;
    updateAction();
    {
        const QSignalBlocker block(m_toggle);
        m_toggle->setChecked(true);
    }
    if (summary) {
        Report fitted = report;
        applyCalibration(fitted, cal, QFileInfo(path).fileName().toStdString());
        const Comparison back = compareMeasurements(set, fitted.results[size_t(device)]);
        *summary = tr("Saved %1.\n\n%2\nOn the %3 rows fitted: measured %4, roofline bound %5, calibrated %6.\n\n"
                      "Calibrated times are on (View \u25b8 Calibrated times). Import measurements of another batch, "
                      "size or network to see the calibrated prediction's error on work it was not fitted on.")
                       .arg(path, qs(calibrationToTable(cal)))
                       .arg(back.layers.size())
                       .arg(qs(formatTime(back.measuredTotal)), qs(formatTime(back.boundTotal)),
                           qs(formatTime(back.calibratedTotal)));
        if (c.mapping == "by order") // another network's or configuration's measurement fits, and means nothing
            *summary = tr("Warning: the measured rows' names are not the layers of %1, so they were mapped by order. "
                          "Check that the measurement is of this configuration.\n\n")
                           .arg(qs(report.network))
                + *summary;
        if (!set.noise.empty()) // the run's noise goes into every prediction of the fit
            *summary = tr("Warning: %1 was measured while the machine was noisy, by its own header (\u201c%2\u201d): "
                          "the fit "
                          "carries that into every prediction. Measure it again when the machine is quiet.\n\n")
                           .arg(QFileInfo(qs(set.file)).fileName(), qs(set.noise))
                + *summary;
    }
    publish();
    return true;
}

void CalibrationView::close()
{
    if (!m_calibration)
        return;
    m_calibration.reset();
    updateAction();
    const QSignalBlocker block(m_toggle);
    m_toggle->setChecked(false);
    publish();
}

bool CalibrationView::shown() const { return m_calibration && m_toggle->isChecked(); }

void CalibrationView::publish()
{
    m_workspace->setCalibration(m_calibration ? std::make_shared<const Calibration>(*m_calibration) : nullptr, shown());
}

QString CalibrationView::defaultPath(const QString& deviceId)
{
    // Beside the user device folder (…/roofline-explorer/devices): …/roofline-explorer/calibrations.
    const std::filesystem::path devices = userDeviceDir();
    const QString folder = devices.empty() ? QDir::home().filePath(QStringLiteral(".roofline-explorer-calibrations"))
                                           : qs((devices.parent_path() / "calibrations").string());
    return QDir(folder).filePath(
        QStringLiteral("%1-%2.cal.json").arg(deviceId, QDate::currentDate().toString(Qt::ISODate)));
}

void CalibrationView::updateAction()
{
    m_toggle->setEnabled(m_calibration.has_value());
    m_toggle->setToolTip(m_calibration
            ? tr("Show times calibrated to %1's measured kernels (%2) instead of the roofline bound")
                  .arg(qs(m_calibration->deviceName.empty() ? m_calibration->deviceId : m_calibration->deviceName),
                      file())
            : tr("No calibration yet: Tools \u25b8 Calibrate from the measurements, or File \u25b8 Open calibration"));
}

bool CalibrationView::calibrateFromMeasurements(const QString& path, QString* summary, QString* error)
{
    const WorkspaceState& w = m_workspace->state();
    if (!w.measurements || !w.report) {
        if (error)
            *error
                = tr("Import measurements first (File \u25b8 Import measurements, or Tools \u25b8 Measure this network "
                     "on this machine): the calibration is fitted on them.");
        return false;
    }
    // A language model's measurement with a network shown: its rows are not the network's (mapped by
    // order, a Llama file was fitted onto U-Net's rows and saved, seen in the window).
    if (!w.languageModel() && w.measurements->ofLanguageModel()) {
        if (error)
            *error = tr("%1 is a language model's measurement (measure --llm): its rows are not %2's. Choose its model "
                        "under Network to calibrate on it, or import a measurement of this network.")
                         .arg(QFileInfo(qs(w.measurements->file)).fileName(), qs(w.report->network));
        return false;
    }
    if (w.languageModel() && w.llmAnalysis) { // both phases' rows, whichever is shown: a measure --llm file has both
        const Report both = bothPhases(*w.llmAnalysis);
        // its batch probes against each probed batch's decode step, at the settings the file names
        std::string why;
        if (const auto h = llmMeasureHeader(w.measurements->configuration, why);
            h && w.llmModel && w.tableDeviceIndex >= 0 && size_t(w.tableDeviceIndex) < both.results.size()) {
            const LlmProbeSplit split = splitLlmProbes(
                *w.measurements, *w.llmModel, h->settings, both.results[size_t(w.tableDeviceIndex)].device);
            return calibrate(split.rows, both, w.tableDeviceIndex, path, summary, error, split.probes);
        }
        return calibrate(withoutLlmProbes(*w.measurements), both, w.tableDeviceIndex, path, summary, error);
    }
    return calibrate(*w.measurements, *w.report, w.tableDeviceIndex, path, summary, error);
}

} // namespace rfx
