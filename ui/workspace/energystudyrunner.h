#pragma once

#include "open/analyses.h"

#include <QObject>
#include <QTimer>

#include <vector>

namespace rfx {

class Workspace;

/// The energy study of the workspace's configuration (open/analyses.h studyEnergy), worked out for
/// the Energy view, which shows it: the view hands over its sweep ranges and says whether it is shown.
/// While shown, each analysis that works brings the workspace's configuration and checked devices;
/// shown again, what changed while hidden. Throttled, not debounced: a slider drag sends a step every
/// few milliseconds and a study costs a few more, so at most one study runs per 40 ms, and the view
/// stays live while the slider moves.
class EnergyStudyRunner : public QObject {
    Q_OBJECT
public:
    explicit EnergyStudyRunner(QObject* parent = nullptr);

    void follow(Workspace* workspace);
    /// Shown: takes the followed workspace's inputs now and after each analysis; hidden: none.
    void setActive(bool active);
    void setInputs(const Config& config, const std::vector<Device>& devices);
    void setRanges(const TuneRanges& ranges);
    /// Runs a pending study now (tests, exports).
    void flush();

    const EnergyStudy& study() const { return m_study; }
    /// What study() was worked out for.
    const Config& config() const { return m_studied; }
    const std::vector<Device>& devices() const { return m_studiedDevices; }

signals:
    /// study() is new.
    void studied();

private:
    void takeInputs();
    void schedule();
    void run();

    Workspace* m_workspace = nullptr;
    bool m_active = false;
    Config m_config;
    std::vector<Device> m_devices;
    TuneRanges m_ranges;
    Config m_studied;
    std::vector<Device> m_studiedDevices;
    EnergyStudy m_study;
    QTimer m_timer;
    bool m_pending = false;
};

} // namespace rfx
