#pragma once

#include "serving/plan.h"

#include <QObject>
#include <QStringList>

#include <memory>

namespace rfx {

class Workspace;

/// The serving plan (core/serving/plan.h) of the language model the workspace shows, on its checked
/// devices, at the targets set here. A plan is a few hundred analyses (some 40 ms for Llama-3.1 70B on
/// four devices): it is computed off the window's thread, only while a view shows it, one at a time,
/// the newest settings winning; the view draws what it holds and redraws on planChanged.
class ServingPlanner : public QObject {
    Q_OBJECT
public:
    /// What the user asks of the deployment (the lengths come from the language-model controls).
    struct Targets {
        double ttft = 1; ///< second; 0: none
        double tpot = 0.05; ///< second; 0: none
        int users = 0; ///< users served at once: the GPUs for them (0: no load)
        friend bool operator==(const Targets&, const Targets&) = default;
    };

    explicit ServingPlanner(QObject* parent = nullptr);
    void follow(Workspace* workspace);
    /// Plans only while active (a view shows the plan); becoming active plans what changed meanwhile.
    void setActive(bool active);
    void setTargets(const Targets& targets);
    const Targets& targets() const { return m_targets; }

    /// The newest plan, or null (none yet, or a network shown).
    const std::shared_ptr<const Plan>& plan() const { return m_plan; }
    const PlanSettings& settings() const { return m_settings; } ///< what plan() was planned with
    QStringList deviceNames() const { return m_names; } ///< plan()'s devices, as the view names them
    /// Why there is no plan to show ("" when there is one).
    QString message() const { return m_message; }
    bool busy() const { return m_running; }

signals:
    void planChanged();

private:
    void schedule();
    void start();
    Workspace* m_workspace = nullptr;
    Targets m_targets;
    bool m_active = false;
    bool m_pending = false;
    bool m_running = false;
    int m_generation = 0;
    std::shared_ptr<const Plan> m_plan;
    PlanSettings m_settings;
    QStringList m_names;
    QString m_message;
};

} // namespace rfx
