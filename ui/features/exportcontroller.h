#pragma once

#include "figure/figurerenderer.h"
#include "io/figure.h"
#include "serving/plan.h"

#include <QObject>
#include <QString>

#include <functional>

class QWidget;

namespace rfx {

class Workspace;

/// File > Export chart (a figure for a paper, in the print style), Export table (.csv .json .md
/// .tex) and Copy chart: the window's report and figure, written atomically.
class ExportController : public QObject {
    Q_OBJECT
public:
    /// `figure`: the figure the window shows now (configuration, devices, overlay, filter,
    /// measurements, calibration); dialogs open over `window`.
    ExportController(Workspace* workspace, std::function<FigureSpec()> figure, QWidget* window);

    /// Writes the layer tables in the format the file's extension names (.csv .json .md .tex).
    bool exportTable(const QString& path, QString* error);
    void exportTableInteractive();
    void exportChartInteractive();
    /// The language model's sweep against `axis` as a figure (the export dialog, then the sweep's page).
    void exportSweepInteractive(LlmSweepAxis axis);
    /// Writes it without a dialog: `spec` gives the output; the work is the workspace's.
    RenderResult exportSweep(LlmSweepAxis axis, FigureSpec spec) const;
    /// The language model's serving plan at `targets` as a figure (the dialog, then the plan's page).
    void exportServingInteractive(const ServingFigure& targets);
    /// `planned`: the plan of these targets on the checked devices, when it is made already.
    RenderResult exportServing(const ServingFigure& targets, FigureSpec spec, const Plan* planned = nullptr) const;
    void copyChart();

signals:
    void statusMessage(const QString& message, int timeoutMs);

private:
    const Workspace* m_workspace;
    std::function<FigureSpec()> m_figure;
    QWidget* m_window;
};

} // namespace rfx
