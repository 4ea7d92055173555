// ChartArea and the workspace: the charts show the workspace's analysis (or its problem over the
// last one that worked), the measurements against the table's device, the selection and the view
// settings; a click on a layer goes back to it as the selection.
#include "chart/chartarea.h"

#include "style/text.h"
#include "workspace/workspace.h"

namespace rfx {

void ChartArea::follow(Workspace* workspace)
{
    connect(workspace, &Workspace::changed, this,
        [this](const WorkspaceState& s, Workspace::Parts parts) { showWork(s, int(parts)); });
    connect(this, &ChartArea::layerClicked, workspace, [this, workspace](int layer, int device) {
        const Report* r = workspace->report();
        if (!m_overlay && r && device >= 0 && device < int(r->results.size()))
            workspace->setTableDevice(qs(r->results[size_t(device)].device.id));
        workspace->selectLayer(layer);
    });
}

void ChartArea::showWork(const WorkspaceState& s, int parts)
{
    if (parts & Workspace::View) {
        setOverlay(s.view.overlay);
        setSharedAxes(s.view.sharedAxes);
        setLayerLabels(s.view.layerLabels);
        setPowerTicks(s.view.powerTicks);
        setFilter(s.view.filter);
    }
    if (parts & Workspace::Analysis) {
        if (!s.problem.isEmpty()) {
            // Nothing worked yet: said where the charts would be; otherwise a banner over the stale charts.
            setProblem(s.problem, shownWorkTitle(s)); // what the stale charts show
            return;
        }
        setProblem(QString());
    }
    if (!s.report)
        return;
    if (parts & Workspace::Analysis)
        setLanguageModel(s.languageModel() ? s.llmAnalysis : nullptr, s.llm.phase);
    if (parts & (Workspace::Analysis | Workspace::Measurements)) // once, diamonds and all
        setReport(s.report, s.comparison ? &*s.comparison : nullptr, s.tableDeviceIndex);
    if (parts & (Workspace::Analysis | Workspace::TableDevice | Workspace::Selection))
        setSelectedLayer(s.selectedLayer);
}

} // namespace rfx
