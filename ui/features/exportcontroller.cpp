#include "features/exportcontroller.h"

#include "style/text.h"

#include "features/exportdialog.h"
#include "figure/figurerenderer.h"
#include "io/report_writer.h"
#include "servingplan/servingfigure.h"
#include "style/style.h"
#include "sweep/sweepfigure.h"
#include "workspace/windowsettings.h"
#include "workspace/workspace.h"

#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QSaveFile>

namespace rfx {

ExportController::ExportController(Workspace* workspace, std::function<FigureSpec()> figure, QWidget* window)
    : QObject(window)
    , m_workspace(workspace)
    , m_figure(std::move(figure))
    , m_window(window)
{
}

void ExportController::exportChartInteractive()
{
    if (!m_workspace->report() || m_workspace->report()->results.empty()) {
        QMessageBox::information(
            m_window, tr("Export chart"), tr("Check a device first: there is no chart to export."));
        return;
    }
    const QString dir = lastExportDirectory();
    ExportDialog dialog(QDir(dir).filePath(QStringLiteral("roofline.png")), m_window);
    // The figure as the window shows it: configuration, devices, overlay, filter, measurements.
    auto withView = [this](FigureSpec spec) {
        const FigureSpec view = m_figure();
        spec.config = view.config;
        spec.devices = view.devices;
        spec.overlay = view.overlay;
        spec.sharedAxes = view.sharedAxes;
        spec.powerTicks = view.powerTicks;
        spec.measurements = view.measurements;
        spec.measuredDevice = view.measuredDevice;
        spec.filter = view.filter;
        spec.llm = view.llm;
        return spec;
    };
    dialog.setMeasure(
        [this, withView](const FigureSpec& s) { return figureSize(*m_workspace->report(), withView(s)); });
    if (dialog.exec() != QDialog::Accepted)
        return;
    const FigureSpec spec = withView(dialog.spec());
    const RenderResult r = renderFigure(*m_workspace->report(), spec);
    if (!r.ok) {
        QMessageBox::warning(m_window, tr("Cannot export chart"), r.error);
        return;
    }
    setLastExportDirectory(QFileInfo(qs(spec.file)).absolutePath());
    emit statusMessage(r.captionFile.isEmpty()
            ? tr("Exported %1").arg(qs(spec.file))
            : tr("Exported %1, its caption in %2").arg(qs(spec.file), QFileInfo(r.captionFile).fileName()),
        8000);
}

RenderResult ExportController::exportSweep(LlmSweepAxis axis, FigureSpec spec) const
{
    const WorkspaceState& w = m_workspace->state();
    if (!w.languageModel() || !w.llmAnalysis || !w.llmModel) {
        RenderResult r;
        r.error = tr("no language model is shown: choose one in the Network selector");
        return r;
    }
    const std::vector<Device> devices = m_workspace->checkedDevices();
    spec.llm = w.llm;
    spec.sweep = axis;
    spec.devices.clear();
    for (const Device& d : devices)
        spec.devices.push_back(d.id);
    return renderSweepFigure(*w.llmModel, *w.llmAnalysis, devices, spec);
}

RenderResult ExportController::exportServing(const ServingFigure& targets, FigureSpec spec, const Plan* planned) const
{
    const WorkspaceState& w = m_workspace->state();
    if (!w.languageModel() || !w.llmModel) {
        RenderResult r;
        r.error = tr("no language model is shown: choose one in the Network selector");
        return r;
    }
    const std::vector<Device> devices = m_workspace->checkedDevices();
    spec.llm = w.llm;
    spec.serving = targets;
    spec.devices.clear();
    for (const Device& d : devices)
        spec.devices.push_back(d.id);
    return renderServingFigure(*w.llmModel, devices, spec, planned);
}

void ExportController::exportServingInteractive(const ServingFigure& targets)
{
    const WorkspaceState& w = m_workspace->state();
    const std::vector<Device> devices = m_workspace->checkedDevices();
    if (!w.languageModel() || !w.llmModel || devices.empty()) {
        QMessageBox::information(m_window, tr("Export serving plan"),
            tr("Choose a language model and check a device first: there is no serving plan to export."));
        return;
    }
    // Planned once for the dialog's sizes (the page's height follows its legend and caption).
    FigureSpec base;
    base.llm = w.llm;
    base.serving = targets;
    const PlanSettings settings = servingFigureSettings(base);
    const Plan plan = planServing(*w.llmModel, settings, devices);
    QStringList names;
    for (const Device& d : devices)
        names << shortDeviceName(d.name);
    ExportDialog dialog(QDir(lastExportDirectory()).filePath(QStringLiteral("serving-plan.png")), m_window);
    dialog.setWindowTitle(tr("Export the serving plan"));
    dialog.setMeasure([&](FigureSpec s) {
        s.llm = w.llm;
        s.serving = targets;
        for (const Device& d : devices)
            s.devices.push_back(d.id);
        return servingPage(plan, settings, names, s, QString(), qs(servingCaption(s, plan.model)))->size();
    });
    if (dialog.exec() != QDialog::Accepted)
        return;
    const FigureSpec spec = dialog.spec();
    const RenderResult r
        = exportServing(targets, spec, &plan); // planned above, for the same model, devices and targets
    if (!r.ok) {
        QMessageBox::warning(m_window, tr("Cannot export the serving plan"), r.error);
        return;
    }
    setLastExportDirectory(QFileInfo(qs(spec.file)).absolutePath());
    emit statusMessage(tr("Exported %1").arg(qs(spec.file)), 8000);
}

void ExportController::exportSweepInteractive(LlmSweepAxis axis)
{
    const WorkspaceState& w = m_workspace->state();
    if (!w.languageModel() || !w.llmAnalysis || w.llmAnalysis->figures.empty()) {
        QMessageBox::information(m_window, tr("Export sweep"),
            tr("Choose a language model and check a device first: there is no sweep to export."));
        return;
    }
    const QString name
        = axis == LlmSweepAxis::Context ? QStringLiteral("context-sweep.png") : QStringLiteral("batch-sweep.png");
    ExportDialog dialog(QDir(lastExportDirectory()).filePath(name), m_window);
    dialog.setWindowTitle(
        axis == LlmSweepAxis::Context ? tr("Export the context sweep") : tr("Export the batch sweep"));
    dialog.setMeasure([this, axis, &w](FigureSpec s) {
        const std::vector<Device> devices = m_workspace->checkedDevices();
        s.llm = w.llm;
        s.sweep = axis;
        const LlmSweep sweep = sweepLlm(*w.llmModel, *w.llmAnalysis, devices, axis);
        return sweepPage(sweep, sweepDeviceNames(devices), s, QString(), qs(sweepCaption(s, w.llmAnalysis->model)))
            ->size();
    });
    if (dialog.exec() != QDialog::Accepted)
        return;
    const FigureSpec spec = dialog.spec();
    const RenderResult r = exportSweep(axis, spec);
    if (!r.ok) {
        QMessageBox::warning(m_window, tr("Cannot export the sweep"), r.error);
        return;
    }
    setLastExportDirectory(QFileInfo(qs(spec.file)).absolutePath());
    emit statusMessage(r.captionFile.isEmpty()
            ? tr("Exported %1").arg(qs(spec.file))
            : tr("Exported %1, its caption in %2").arg(qs(spec.file), QFileInfo(r.captionFile).fileName()),
        8000);
}

bool ExportController::exportTable(const QString& path, QString* error)
{
    if (!m_workspace->report()) {
        if (error)
            *error = tr("nothing to export");
        return false;
    }
    // The format by the file's suffix, from the one list the CLI's --format uses too.
    const TableFormat* format = tableFormatBySuffix(QFileInfo(path).suffix().toStdString());
    if (!format) {
        QStringList suffixes;
        for (const TableFormat& f : tableFormats())
            suffixes << QStringLiteral(".") + qs(f.suffixes.front());
        if (error)
            *error = tr("%1: unknown table format; use %2").arg(path, suffixes.join(QStringLiteral(", ")));
        return false;
    }
    const std::string text = format->write(*m_workspace->report());
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(QByteArray::fromStdString(text)) < 0 || !file.commit()) {
        if (error)
            *error = QStringLiteral("%1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

void ExportController::exportTableInteractive()
{
    const QString dir = lastExportDirectory();
    const QString path = QFileDialog::getSaveFileName(
        m_window, tr("Export table"), QDir(dir).filePath(QStringLiteral("roofline.csv")), [] {
            // CSV first (the default file name's), then the others, each with its suffixes.
            QStringList filters;
            for (const TableFormat& f : tableFormats()) {
                QStringList globs;
                for (const std::string& s : f.suffixes)
                    globs << QStringLiteral("*.") + QString::fromStdString(s);
                const QString filter = QStringLiteral("%1 (%2)").arg(
                    QString::fromStdString(f.description), globs.join(QLatin1Char(' ')));
                f.name == "csv" ? filters.prepend(filter) : filters.append(filter);
            }
            return filters.join(QStringLiteral(";;"));
        }());
    if (path.isEmpty())
        return;
    QString error;
    if (!exportTable(path, &error))
        QMessageBox::warning(m_window, tr("Cannot export table"), error);
    else {
        setLastExportDirectory(QFileInfo(path).absolutePath());
        emit statusMessage(tr("Exported %1").arg(path), 8000);
    }
}

void ExportController::copyChart()
{
    if (!m_workspace->report() || m_workspace->report()->results.empty())
        return;
    FigureSpec spec = m_figure();
    spec.widthIn = 7;
    spec.dpi = 200;
    QApplication::clipboard()->setImage(renderFigureImage(*m_workspace->report(), spec));
    emit statusMessage(tr("Chart copied to the clipboard"), 4000);
}

} // namespace rfx
