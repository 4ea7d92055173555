// ControlPanel and the workspace: the panel shows the workspace's configuration and problem, and
// sends it its edits. Nothing the panel sent comes back to be shown again: setConfig() does nothing
// when the panel shows the value already.
#include "panels/controlpanel.h"

#include "model/unet.h"
#include "panels/llmcontrols.h"
#include "panels/modelinputs.h"
#include "workspace/workspace.h"

#include <QAbstractSlider>
#include <QComboBox>
#include <QDir>
#include <QFileInfo>

namespace rfx {

void ControlPanel::follow(Workspace* workspace)
{
    m_llm->follow(workspace);
    connect(workspace, &Workspace::changed, this, [this](const WorkspaceState& s, Workspace::Parts parts) {
        if (parts & Workspace::Analysis)
            showWork(s);
    });
    connect(this, &ControlPanel::configChanged, workspace,
        [this, workspace](const Config& c) { workspace->setConfig(c, drag()); });
    connect(this, &ControlPanel::modelChosen, workspace, &Workspace::showModel);
    connect(workspace, &Workspace::networkFileRefused, this, [this, workspace](const QString& path) {
        // The workspace went back to what it showed; the selector forgets the file (the window says why).
        forgetNetworkFile(path);
        setConfig(workspace->config());
    });
}

void ControlPanel::showLanguageModel(const std::string& spec)
{
    const bool llm = !spec.empty();
    if (llm) { // the selector names the model (a file under its name, as network files are)
        const QString id = QString::fromStdString(spec);
        int index = m_network->findData(id);
        if (index < 0) {
            index = m_network->count() - 1;
            // A Hugging Face config.json by its directory's name ("Llama-3.2-1B/config.json").
            const QFileInfo file(id);
            const QString name = file.fileName().compare(QLatin1String("config.json"), Qt::CaseInsensitive) == 0
                ? file.dir().dirName() + QLatin1Char('/') + file.fileName()
                : file.fileName();
            m_network->insertItem(index, name, id);
            m_network->setItemData(index, id, Qt::ToolTipRole);
        }
        m_network->setCurrentIndex(index);
    }
    if (llm == !m_llmShown.empty() && spec == m_llmShown)
        return;
    m_llmShown = spec;
    for (QWidget* w : m_networkRows)
        w->setVisible(!llm);
    for (QWidget* w : m_networkGroups)
        w->setVisible(!llm);
    if (llm)
        m_modelInputs->setVisible(false);
    m_llm->setVisible(llm);
    if (!llm)
        m_shown = false; // the network's controls shown anew (what a file fixes, the square width)
}

int ControlPanel::drag() const
{
    const auto* slider = qobject_cast<const QAbstractSlider*>(m_lastEdited);
    return slider && slider->isSliderDown() ? m_drags : 0;
}

void ControlPanel::showWork(const WorkspaceState& s)
{
    if (s.model != m_model) { // another file, or read again: what it fixes is shown anew
        m_model = s.model;
        m_shown = false;
    }
    setConfig(s.config);
    showLanguageModel(s.llm.model);
    if (s.problem.isEmpty()) {
        clearProblem();
        return;
    }
    // A language model's settings that do not work: said under the field, in the window's words, with
    // the values that work (issue 73 item 6).
    if (s.languageModel() && s.llmModel)
        if (const auto fix = llmSettingsFix(s.llmModel->arch, s.llm.settings); fix && m_llm->fieldFor(fix->field)) {
            showLanguageModelProblem(*fix, s.report != nullptr);
            return;
        }
    // The U-Net's sizes that work near the one asked for, offered as one-click fixes (not for a language
    // model's problem: its U-Net sizes were offered for a prompt too long for the model).
    QList<int> suggestions;
    if (!s.languageModel() && !validate(s.config) && s.config.model == "unet")
        for (int e : suggestedExtents(s.config.unet))
            suggestions.append(e);
    showProblem(s.problem, suggestions, s.report != nullptr);
}

} // namespace rfx
