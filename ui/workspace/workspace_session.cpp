// The workspace and its documents: a session (.rfx.json) and a figure are projections of the one
// state, and a session is shown through it in one analysis.
#include "workspace/workspace.h"

#include "style/text.h"

#include "base/diagnostic.h"
#include "io/report_writer.h"
#include "llm/llm_files.h"

namespace rfx {

void Workspace::showSession(const Session& session)
{
    m_state.view = session.view;
    m_state.config = session.config;
    m_state.deviceIds.clear();
    for (const std::string& d : session.devices)
        m_state.deviceIds.append(qs(d));
    if (!session.tableDevice.empty())
        m_state.tableDevice = qs(session.tableDevice);
    m_state.selectedLayer = -1;
    m_state.boundInputs = session.modelInputs;
    // The language model it was saved with, or the network; a model file gone since is said, and the
    // network it left opens in its place.
    m_state.llm = {};
    if (session.llm) {
        LlmLoad load = loadLanguageModel(session.llm->model);
        if (load.model) {
            m_state.llmModel = std::make_shared<const LlmModel>(std::move(*load.model));
            m_llmRead = session.llm->model;
            m_state.llm = *session.llm;
        } else
            refuseModel(qs(session.llm->model), qs(withoutSubject(load.error, session.llm->model)));
    }
    m_drag = 0;
    recompute(View | TableDevice | Selection);
    // The selection by the row's name, in the analysis just made (indices are the report's own).
    if (!session.selectedLayer.empty() && m_state.report && !m_state.report->results.empty()) {
        const std::vector<LayerResult>& rows = m_state.report->results.front().layers;
        for (size_t i = 0; i < rows.size(); ++i)
            if (rows[i].name == session.selectedLayer) {
                selectLayer(int(i));
                break;
            }
    }
}

QString shownWorkTitle(const WorkspaceState& w)
{
    if (w.languageModel() && w.llmAnalysis)
        return QStringLiteral("%1, %2").arg(
            qs(w.llmAnalysis->model).section(QStringLiteral(" ("), 0, 0), qs(std::string(llmPhaseName(w.llm.phase))));
    return w.report ? qs(reportTitle(*w.report)) : QString();
}

Session sessionOf(const WorkspaceState& w)
{
    Session s;
    s.config = w.config;
    for (const QString& id : w.deviceIds)
        s.devices.push_back(id.toStdString());
    s.view = w.view;
    s.tableDevice = w.tableDevice.toStdString();
    if (w.report && !w.report->results.empty() && w.selectedLayer >= 0
        && w.selectedLayer < int(w.report->results.front().layers.size()))
        s.selectedLayer = w.report->results.front().layers[size_t(w.selectedLayer)].name;
    if (w.measurements)
        s.measurements = w.measurements->file;
    if (w.calibration) {
        s.calibration = w.calibration->file;
        s.calibrated = w.calibrated;
    }
    s.modelInputs = w.boundInputs;
    if (w.languageModel())
        s.llm = w.llm;
    return s;
}

FigureSpec figureOf(const WorkspaceState& w)
{
    FigureSpec s;
    // A language model's phase: the configuration it was analysed under (its caption's conventions).
    s.config = w.languageModel() && w.report ? w.report->config : w.config;
    if (w.report)
        for (const DeviceResult& d : w.report->results)
            s.devices.push_back(d.device.id);
    s.overlay = w.view.overlay;
    s.sharedAxes = w.view.sharedAxes;
    s.powerTicks = w.view.powerTicks;
    s.filter = w.view.filter;
    if (w.comparison && w.measurements) {
        s.measurements = w.measurements->file; // the figure shows the diamonds the window shows
        s.measuredDevice = w.tableDevice.toStdString();
    }
    if (w.calibrated)
        s.calibration = w.calibration->file; // the figure shows the times the window shows
    if (w.languageModel())
        s.llm = w.llm; // the sidecar reproduces the phase's figure
    return s;
}

} // namespace rfx
