#pragma once

#include "engine/calibration.h"
#include "io/measurements.h"

#include <QObject>
#include <QString>

#include <optional>

class QAction;

namespace rfx {

class Workspace;

/// Calibrated times in the window (core/engine/calibration.h): File > Open calibration…, Tools >
/// Calibrate from the measurements… (fits the shown measurements against their device and saves the
/// calibration file) and View > Calibrated times (a toggle). The calibration is handed to the Workspace,
/// whose every analysis applies it: the calibration's device gets calibrated times beside its bounds
/// and, with the toggle on, every part (table, summaries, charts, exports) shows the calibrated view, stamped
/// "calibrated with FILE". Measurements imported from another configuration then show the calibrated
/// prediction's error per layer (the table's Cal. error) and in total (the status bar): held-out work.
class CalibrationView : public QObject {
    Q_OBJECT
public:
    CalibrationView(Workspace* workspace, QObject* parent);

    /// Loads a calibration file and turns calibrated times on; false and `error` (file, field, reason)
    /// when it is not usable, and then the calibration shown before stays.
    bool open(const QString& path, QString* error);
    /// Fits the measurements against `device` of `report` (the bounds they are relative to), writes the
    /// calibration to `path` atomically, loads it and turns calibrated times on; `summary` says how the
    /// fit did. False and `error` when nothing could be fitted or written. `probes`: a language model's
    /// batch probes (llmProbeSamples), for the matrix fit's efficiency by batch.
    bool calibrate(const MeasurementSet& set, const Report& report, int device, const QString& path, QString* summary,
        QString* error, const std::vector<CalibrationSample>& probes = {});
    /// Fits the workspace's measurements as calibrate() does, against the table's device: a language
    /// model's both phases (a measure --llm file holds both), its batch probes split off by the settings
    /// the file names; a network's report otherwise. False and `error` in the user's words when there is
    /// nothing to fit or the measurements are not of what is shown.
    bool calibrateFromMeasurements(const QString& path, QString* summary, QString* error);
    /// No calibration (a session without one): calibrated times off.
    void close();
    /// View > Calibrated times is on (and a calibration is loaded).
    bool shown() const;
    QAction* toggleAction() const { return m_toggle; }
    const std::optional<Calibration>& calibration() const { return m_calibration; }
    /// The file the calibration came from, or empty.
    QString file() const;

    /// Where Tools > Calibrate proposes to save: the user data folder's calibrations/DEVICE-DATE.cal.json.
    static QString defaultPath(const QString& deviceId);

private:
    void updateAction();
    /// Loaded, cleared or toggled: the workspace takes it (and analyses again).
    void publish();

    Workspace* m_workspace;

    QAction* m_toggle;
    std::optional<Calibration> m_calibration;
};

} // namespace rfx
