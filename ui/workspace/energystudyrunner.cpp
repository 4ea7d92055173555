#include "workspace/energystudyrunner.h"

#include "workspace/workspace.h"

namespace rfx {

EnergyStudyRunner::EnergyStudyRunner(QObject* parent)
    : QObject(parent)
{
    m_timer.setSingleShot(true);
    m_timer.setInterval(40);
    connect(&m_timer, &QTimer::timeout, this, &EnergyStudyRunner::run);
}

void EnergyStudyRunner::follow(Workspace* workspace)
{
    m_workspace = workspace;
    connect(workspace, &Workspace::changed, this, [this](const WorkspaceState& s, Workspace::Parts parts) {
        if (parts & Workspace::Analysis && s.problem.isEmpty() && s.report)
            takeInputs();
    });
}

void EnergyStudyRunner::setActive(bool active)
{
    m_active = active;
    takeInputs(); // what changed while it was hidden
}

void EnergyStudyRunner::takeInputs()
{
    if (m_workspace && m_active)
        setInputs(m_workspace->config(), m_workspace->checkedDevices());
}

void EnergyStudyRunner::setInputs(const Config& config, const std::vector<Device>& devices)
{
    m_config = config;
    m_devices = devices;
    schedule();
}

void EnergyStudyRunner::setRanges(const TuneRanges& ranges)
{
    m_ranges = ranges;
    schedule();
}

void EnergyStudyRunner::schedule()
{
    m_pending = true;
    if (!m_timer.isActive())
        m_timer.start();
}

void EnergyStudyRunner::flush()
{
    if (m_pending)
        run();
}

void EnergyStudyRunner::run()
{
    m_pending = false;
    m_timer.stop();
    m_studied = m_config;
    m_studiedDevices = m_devices;
    m_study = m_devices.empty() ? EnergyStudy {} : studyEnergy(m_config, m_devices, m_ranges);
    emit studied();
}

} // namespace rfx
