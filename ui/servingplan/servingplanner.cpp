#include "servingplan/servingplanner.h"

#include "style/style.h"
#include "style/text.h"
#include "workspace/workspace.h"

#include <QFutureWatcher>
#include <QPromise>
#include <QThreadPool>

namespace rfx {

ServingPlanner::ServingPlanner(QObject* parent)
    : QObject(parent)
{
}

void ServingPlanner::follow(Workspace* workspace)
{
    m_workspace = workspace;
    connect(workspace, &Workspace::changed, this, [this](const WorkspaceState&, Workspace::Parts parts) {
        if (parts & (Workspace::Analysis | Workspace::Library))
            schedule();
    });
    schedule();
}

void ServingPlanner::setActive(bool active)
{
    m_active = active;
    if (active && m_pending)
        schedule();
}

void ServingPlanner::setTargets(const Targets& targets)
{
    if (targets == m_targets)
        return;
    m_targets = targets;
    schedule();
}

void ServingPlanner::schedule()
{
    m_pending = true;
    if (m_active && !m_running)
        start();
}

void ServingPlanner::start()
{
    m_pending = false;
    if (!m_workspace)
        return;
    const WorkspaceState& s = m_workspace->state();
    if (!s.languageModel() || !s.llmModel) {
        m_plan.reset();
        m_names.clear();
        m_message
            = tr("The serving plan is a language model's: choose one in the Network selector (Llama-3.1 70B, "
                 "Mistral 7B, ...) or open its config.json, GGUF or safetensors file. Then this view plans how to "
                 "serve it on every checked device: tensor parallelism, precisions and users per replica.");
        emit planChanged();
        return;
    }
    PlanSettings settings;
    settings.llm = s.llm.settings;
    settings.llm.batch = 1;
    settings.llm.context = 0;
    settings.llm.decodeTokens = 1;
    settings.ttft = m_targets.ttft;
    settings.tpot = m_targets.tpot;
    settings.users = m_targets.users;
    std::vector<Device> devices = m_workspace->checkedDevices();
    QStringList names;
    for (const Device& d : devices)
        names.append(shortDeviceName(d.name));
    // The job holds its own copies: the workspace moves on while it runs.
    std::shared_ptr<const LlmModel> model = s.llmModel;
    const int generation = ++m_generation;
    m_running = true;
    // The job reaches nothing of this object: it fulfils a promise the watcher (a child) hears.
    using Result = std::shared_ptr<const Plan>;
    auto promise = std::make_shared<QPromise<Result>>();
    promise->start();
    auto* watcher = new QFutureWatcher<Result>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, settings, names, generation] {
        watcher->deleteLater();
        m_running = false;
        if (generation == m_generation && watcher->future().resultCount() > 0) {
            m_plan = watcher->result();
            m_settings = settings;
            m_names = names;
            m_message = m_plan->error.empty() ? QString() : tr("No plan: %1").arg(qs(m_plan->error));
            emit planChanged();
        }
        if (m_pending && m_active)
            start();
    });
    watcher->setFuture(promise->future());
    QThreadPool::globalInstance()->start([promise, model, settings, devices = std::move(devices)] {
        promise->addResult(std::make_shared<const Plan>(planServing(*model, settings, devices)));
        promise->finish();
    });
}

} // namespace rfx
