#include "workspace/llmsweeprunner.h"

#include "workspace/workspace.h"

namespace rfx {

LlmSweepRunner::LlmSweepRunner(QObject* parent)
    : QObject(parent)
{
    m_timer.setSingleShot(true);
    m_timer.setInterval(40);
    connect(&m_timer, &QTimer::timeout, this, [this] {
        if (m_pending)
            run();
    });
}

void LlmSweepRunner::follow(Workspace* workspace)
{
    m_workspace = workspace;
    connect(workspace, &Workspace::changed, this, [this](const WorkspaceState&, Workspace::Parts parts) {
        if (parts & (Workspace::Analysis | Workspace::Library))
            schedule();
    });
    schedule();
}

void LlmSweepRunner::setActive(bool active)
{
    m_active = active;
    if (m_active && m_pending)
        run(); // what changed while hidden
}

void LlmSweepRunner::schedule()
{
    m_pending = true;
    if (!m_active)
        return; // done when shown
    if (!m_timer.isActive()) {
        run(); // the first change at once, then at most one per interval while they keep coming
        m_timer.start();
    }
}

void LlmSweepRunner::flush()
{
    m_timer.stop();
    run();
}

void LlmSweepRunner::run()
{
    m_pending = false;
    m_sweeps = {};
    m_error.clear();
    m_devices.clear();
    const WorkspaceState* s = m_workspace ? &m_workspace->state() : nullptr;
    if (!s || !s->languageModel() || !s->llmAnalysis || !s->llmModel) {
        m_outcome = s ? Outcome::NoLanguageModel : Outcome::NoWorkspace;
        emit swept();
        return;
    }
    m_devices = m_workspace->checkedDevices();
    m_outcome = Outcome::Swept;
    for (LlmSweepAxis axis : { LlmSweepAxis::Context, LlmSweepAxis::Batch }) {
        LlmSweep sweep = sweepLlm(*s->llmModel, *s->llmAnalysis, m_devices, axis);
        if (!sweep.error.empty()) {
            m_outcome = Outcome::Refused;
            m_error = sweep.error;
            m_sweeps = {};
            break;
        }
        m_sweeps[size_t(axis)] = std::move(sweep);
    }
    emit swept();
}

} // namespace rfx
