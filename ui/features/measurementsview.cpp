#include "features/measurementsview.h"

#include "style/text.h"
#include "widgets/elidedlabel.h"

#include "workspace/workspace.h"

#include <QLabel>

namespace rfx {

MeasurementsView::MeasurementsView(Workspace* workspace, QObject* parent)
    : QObject(parent)
    , m_workspace(workspace)
    , m_label(new ElidedLabel) // a long line ends in "…" at the window's edge, whole in its tooltip
{
    m_label->setVisible(false);
    connect(workspace, &Workspace::changed, this, [this](const WorkspaceState& state, Workspace::Parts parts) {
        if (parts & (Workspace::Measurements | Workspace::TableDevice))
            show(state);
    });
}

bool MeasurementsView::import(const QString& path, QString* error)
{
    MeasurementSet set = loadMeasurements(path.toStdString());
    if (!set.ok()) {
        QStringList lines;
        for (const Diagnostic& d : set.diagnostics)
            if (lines.size() < 8)
                lines << qs(toString(d));
        if (error)
            *error = tr("%1 is not a measurement file the app reads:\n%2\n\nFormats: a plain CSV with "
                        "layer,time_s[,flops,bytes]; "
                        "ncu --csv (details page); a PyTorch profiler trace (export_chrome_trace).")
                         .arg(path, lines.join(QLatin1Char('\n')));
        return false;
    }
    m_workspace->setMeasurements(std::make_shared<const MeasurementSet>(std::move(set)));
    return true;
}

void MeasurementsView::clear() { m_workspace->setMeasurements(nullptr); }

void MeasurementsView::show(const WorkspaceState& state)
{
    m_status = measurementsLine(state);
    m_label->setVisible(!m_status.isEmpty());
    if (m_status.isEmpty())
        return;
    m_label->setText(m_status);
    if (!state.comparison) { // a language model's measurement at other settings: the line says it all
        m_label->setToolTip(m_status);
        return;
    }
    const Comparison& c = *state.comparison;
    QStringList tip;
    for (size_t i = 0; i < c.unmatched.size() && i < 30; ++i)
        tip << qs(c.unmatched[i]);
    QString text = tip.isEmpty() ? tr("Every measured row mapped to a layer")
                                 : tr("Did not map:\n%1").arg(tip.join(QLatin1Char('\n')));
    const std::string hint = tensorRoofHint(c, state.report->results[size_t(state.tableDeviceIndex)]);
    if (!hint.empty())
        text = qs(hint) + QStringLiteral("\n\n") + text;
    if (state.measurements && !state.measurements->noise.empty())
        text = tr("Measured while the machine was noisy, by the file's own header: %1")
                   .arg(qs(state.measurements->noise))
            + QStringLiteral("\n\n") + text;
    // The whole line first: at 1280 px beside the analysis line it is cut short.
    m_label->setToolTip(m_status + QStringLiteral("\n\n") + text);
}

} // namespace rfx
