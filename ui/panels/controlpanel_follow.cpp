// ControlPanel and the workspace: the panel shows the workspace's configuration and problem, and
// sends it its edits. Nothing the panel sent comes back to be shown again: setConfig() does nothing
// when the panel shows the value already.
#include "panels/controlpanel.h"

#include "model/unet.h"
#include "workspace/workspace.h"

#include <QAbstractSlider>

namespace rfx {

void ControlPanel::follow(Workspace* workspace)
{
    connect(workspace, &Workspace::changed, this, [this](const WorkspaceState& s, Workspace::Parts parts) {
        if (parts & Workspace::Analysis)
            showWork(s);
    });
    connect(this, &ControlPanel::configChanged, workspace, [this, workspace](const Config& c) { workspace->setConfig(c, drag()); });
    connect(this, &ControlPanel::modelChosen, workspace, &Workspace::showModel);
    connect(workspace, &Workspace::networkFileRefused, this, [this, workspace](const QString& path) {
        // The workspace went back to what it showed; the selector forgets the file (the window says why).
        forgetNetworkFile(path);
        setConfig(workspace->config());
    });
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
    if (s.problem.isEmpty()) {
        clearProblem();
        return;
    }
    // The U-Net's sizes that work near the one asked for, offered as one-click fixes.
    QList<int> suggestions;
    if (!validate(s.config) && s.config.model == "unet")
        for (int e : suggestedExtents(s.config.unet))
            suggestions.append(e);
    showProblem(s.problem, suggestions, s.report != nullptr);
}

} // namespace rfx
