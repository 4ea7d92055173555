// LayerPane and the workspace: the table shows the rows of the workspace's table device, the
// measured columns against them, the selection and the filter; the device chosen, the row made
// current and the filter go back to it.
#include "table/layerpane.h"

#include "table/layertablemodel.h"
#include "workspace/workspace.h"

namespace rfx {

void LayerPane::follow(Workspace* workspace)
{
    connect(workspace, &Workspace::changed, this,
        [this](const WorkspaceState& s, Workspace::Parts parts) { showWork(s, int(parts)); });
    connect(this, &LayerPane::deviceChanged, workspace, [this, workspace] { workspace->setTableDevice(deviceId()); });
    connect(this, &LayerPane::layerActivated, workspace, &Workspace::selectLayer);
    connect(this, &LayerPane::filterChanged, workspace, [workspace](const LayerFilter& filter) {
        ViewSettings v = workspace->view();
        v.filter = filter;
        workspace->setView(v);
    });
}

void LayerPane::showWork(const WorkspaceState& s, int parts)
{
    if (parts & Workspace::View)
        setFilter(s.view.filter);
    if (parts & Workspace::Analysis && !s.problem.isEmpty())
        return; // the last report stays, as on the charts
    if (!s.report)
        return;
    const bool measured = parts & (Workspace::Analysis | Workspace::TableDevice | Workspace::Measurements);
    if (parts & Workspace::Analysis) {
        setReport(s.report); // keeps its device when the report has it, as the workspace does
        if (deviceId() != s.tableDevice && setDeviceId(s.tableDevice))
            showDevice(s.report);
    } else if (parts & Workspace::TableDevice) {
        setDeviceId(s.tableDevice);
        showDevice(s.report);
    }
    if (measured) {
        setMeasuredColumnsShown(s.comparison.has_value());
        m_model->setComparison(s.comparison);
    }
    if (parts & Workspace::Analysis)
        fitColumnsIfRowsChanged();
    else if (parts & Workspace::TableDevice)
        refit(); // another device's numbers
    if (parts & (Workspace::Analysis | Workspace::TableDevice | Workspace::Selection))
        selectLayer(s.selectedLayer);
}

} // namespace rfx
