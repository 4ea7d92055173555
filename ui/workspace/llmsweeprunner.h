#pragma once

#include "llm/llm_sweep.h"

#include <QObject>
#include <QTimer>

#include <array>
#include <string>
#include <vector>

namespace rfx {

class Workspace;

/// The language-model mode's two sweeps (llm/llm_sweep.h: tokens per second against the context and
/// against the batch) of the workspace's model on its checked devices, worked out for the Sweeps view,
/// which shows them and says whether it is shown. While shown it follows each analysis and each change
/// of the device library: the first change at once, then at most one per 40 ms while they keep coming
/// (the two sweeps are some twenty decode analyses); hidden, it waits and works when shown again.
class LlmSweepRunner : public QObject {
    Q_OBJECT
public:
    explicit LlmSweepRunner(QObject* parent = nullptr);
    void follow(Workspace* workspace);
    void setActive(bool active);
    /// Runs a pending sweep now (tests, exports).
    void flush();

    /// What the last run found: no language model shown, a sweep that could not be made, or both sweeps.
    enum class Outcome { NoWorkspace, NoLanguageModel, Refused, Swept };
    Outcome outcome() const { return m_outcome; }
    /// Why a sweep could not be made (Refused).
    const std::string& error() const { return m_error; }
    const LlmSweep& sweep(LlmSweepAxis axis) const { return m_sweeps[size_t(axis)]; }
    /// The devices the sweeps' lines are of, in their order.
    const std::vector<Device>& devices() const { return m_devices; }

signals:
    /// The outcome and the sweeps are new.
    void swept();

private:
    void schedule();
    void run();

    Workspace* m_workspace = nullptr;
    bool m_active = false;
    bool m_pending = false;
    QTimer m_timer;
    Outcome m_outcome = Outcome::NoWorkspace;
    std::string m_error;
    std::array<LlmSweep, 2> m_sweeps;
    std::vector<Device> m_devices;
};

} // namespace rfx
