// MainWindow, third file: the menu bar and the View menus' settings. Each entry names what it does and its
// shortcut, and hands the work to the part that does it (sessions, export, measurements, teaching, the
// chart area); the view settings go to the workspace, and showView() sets the charts and checks from it.
#include "window/mainwindow.h"

#include "style/text.h"

#include "window/chartroom.h"

#include "features/calibrationview.h"

#include "chart/chartarea.h"
#include "features/exportcontroller.h"
#include "features/measurementsview.h"
#include "panels/energyview.h"
#include "servingplan/servingview.h"
#include "sweep/sweepview.h"
#include "table/layerpane.h"
#include "window/helpdialogs.h"
#include "window/teaching.h"
#include "workspace/modelopener.h"
#include "workspace/sessioncontroller.h"

#include <QAction>
#include <QCheckBox>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenuBar>
#include <QMessageBox>
#include <QSignalBlocker>
#include <QSplitter>
#include <QTimer>
#include <QUndoStack>

namespace rfx {

void MainWindow::buildMenus()
{
    buildFileMenu();
    buildEditAndPresetsMenus();
    buildToolsMenu();
    buildViewMenu();
    buildHelpMenu();
}

void MainWindow::buildFileMenu()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Open session\u2026"), QKeySequence::Open, m_sessions, &SessionController::openInteractive);
    file->addAction(
            tr("Open &model file\u2026"), QKeySequence(tr("Ctrl+Shift+O")), this, [this] { m_opener->chooseAndOpen(); })
        ->setToolTip(tr("Analyse your own network: an ONNX model (.onnx) or a JSON layer list. You can also drop the "
                        "file on the window."));
    m_sessions->setRecentMenu(file->addMenu(tr("Open &recent")));
    file->addAction(
        tr("&Save session"), QKeySequence::Save, m_sessions, [this] { m_sessions->saveInteractive(false); });
    file->addAction(
        tr("Save session &as\u2026"), QKeySequence::SaveAs, m_sessions, [this] { m_sessions->saveInteractive(true); });
    file->addSeparator();
    file->addAction(
        tr("&Export chart\u2026"), QKeySequence(tr("Ctrl+E")), m_export, &ExportController::exportChartInteractive);
    file->addAction(tr("Export &table\u2026"), QKeySequence(tr("Ctrl+Shift+E")), m_export,
        &ExportController::exportTableInteractive);
    file->addAction(tr("&Copy chart"), QKeySequence(tr("Ctrl+Shift+C")), m_export, &ExportController::copyChart);
    file->addSeparator();
    file->addAction(tr("Import &measurements\u2026"), QKeySequence(tr("Ctrl+I")), this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Import measurements"), QString(), tr("Measurements (*.csv *.json);;All files (*)"));
        QString error;
        if (!path.isEmpty() && !m_measured->import(path, &error))
            QMessageBox::warning(this, tr("Import measurements"), error);
    });
    file->addAction(tr("C&lear measurements"), m_measured, &MeasurementsView::clear);
    file->addAction(tr("Open c&alibration\u2026"), this,
            [this] {
                const QString path = QFileDialog::getOpenFileName(this, tr("Open calibration"),
                    QFileInfo(CalibrationView::defaultPath(QStringLiteral("x"))).absolutePath(),
                    tr("Calibrations (*.cal.json *.json);;All files (*)"));
                QString error;
                if (!path.isEmpty() && !m_calibration->open(path, &error))
                    QMessageBox::warning(this, tr("Open calibration"), error);
            })
        ->setToolTip(tr("Times calibrated to a machine's measured kernels (from Tools \u25b8 Calibrate or roofline-cli "
                        "calibrate)"));
    file->addSeparator();
    file->addAction(tr("&Reload device files"), QKeySequence::Refresh, this, &MainWindow::reloadDevices);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);
}

void MainWindow::buildEditAndPresetsMenus()
{
    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* undo = m_sessions->undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setShortcuts(QKeySequence::Undo); // every binding the platform has (Ctrl+Y and Ctrl+Shift+Z for redo)
    QAction* redo = m_sessions->undoStack()->createRedoAction(this, tr("&Redo"));
    redo->setShortcuts(QKeySequence::Redo);
    edit->addAction(undo);
    edit->addAction(redo);

    QMenu* presets = menuBar()->addMenu(tr("&Presets"));
    presets->addAction(tr("Classic U-Net (Ronneberger 2015): 572\u00d7572, valid padding"), QKeySequence(tr("Ctrl+1")),
        this, [this] { loadPreset(0); });
    presets->addAction(tr("2022 study, balanced: 128\u00d7128, batch 16, 32-bit, same padding, three GPUs"),
        QKeySequence(tr("Ctrl+2")), this, [this] { loadPreset(1); });
    presets->addAction(tr("Energy study (Castro et al. 2018): ResNet-50 training, Titan X Maxwell and Pascal, "
                          "batch 64\u2013256, 1\u20132 GPUs"),
        QKeySequence(tr("Ctrl+3")), this, [this] { loadPreset(2); });
}

void MainWindow::buildToolsMenu()
{
    QMenu* tools = menuBar()->addMenu(tr("&Tools"));
    tools->addAction(tr("&Measure this machine\u2026"), this, [this] {
        QString summary;
        const QString id = measureThisMachine(MicrobenchOptions {}, raplPackageWatts(), &summary);
        if (!id.isEmpty())
            QMessageBox::information(this, tr("Measure this machine"), summary);
        else if (!summary.isEmpty())
            showStatus(summary, 10000);
    });

    tools
        ->addAction(tr("Measure this &network on this machine\u2026"), this,
            [this] {
                QString summary;
                const QString title = m_workspace->state().languageModel() ? tr("Measure this language model")
                                                                           : tr("Measure this network");
                const QString path = measureThisNetwork(
                    LayerBenchOptions::fullMode(), MicrobenchOptions {}, raplPackageWatts(), &summary);
                if (!path.isEmpty())
                    QMessageBox::information(this, title, summary);
                else if (!summary.isEmpty())
                    QMessageBox::warning(this, title, summary);
            })
        ->setToolTip(
            tr("Run every row of the network (a language model: its prefill and a decode step) alone on this CPU "
               "(oneDNN) and show the measured times under this machine's roofline"));
    tools
        ->addAction(tr("&Calibrate from the measurements\u2026"), this,
            [this] {
                QString summary, error;
                if (!calibrateInteractive(&summary, &error)) {
                    if (!error.isEmpty())
                        QMessageBox::warning(this, tr("Calibrate"), error);
                    return;
                }
                QMessageBox box(QMessageBox::Information, tr("Calibrate"), summary.section(QLatin1Char('\n'), 0, 0),
                    QMessageBox::Ok, this);
                box.setDetailedText(summary);
                box.exec();
            })
        ->setToolTip(tr("Fit how far this machine's kernels fall below the roofline (overhead + bound / efficiency per "
                        "operator class) from the imported measurements, save it, and show calibrated times"));
}

void MainWindow::buildViewMenu()
{
    QMenu* view = menuBar()->addMenu(tr("&View"));
    m_overlayAction = view->addAction(tr("&Overlay devices on one chart"));
    m_overlayAction->setCheckable(true);
    m_overlayAction->setShortcut(QKeySequence(tr("Ctrl+L")));
    // View settings are the workspace's (kept in sessions and figures, undone as edits are): each action
    // edits them there, and showView() sets the charts and the actions' checks from what it holds.
    connect(m_overlayAction, &QAction::toggled, this,
        [this](bool on) { editView([on](ViewSettings& v) { v.overlay = on; }); });
    m_sharedAction = view->addAction(tr("&Shared axes across devices"));
    m_sharedAction->setCheckable(true);
    m_sharedAction->setToolTip(
        tr("Every device's chart with the same ranges and unit, so that devices compare by eye"));
    connect(m_sharedAction, &QAction::toggled, this,
        [this](bool on) { editView([on](ViewSettings& v) { v.sharedAxes = on; }); });
    m_labelsAction = view->addAction(tr("&Name the layers that take 5 % of the time or more"));
    m_labelsAction->setCheckable(true);
    m_labelsAction->setChecked(true);
    connect(m_labelsAction, &QAction::toggled, this,
        [this](bool on) { editView([on](ViewSettings& v) { v.layerLabels = on ? ViewSettings {}.layerLabels : 0; }); });
    m_powersAction = view->addAction(tr("Tick labels as &powers of ten"));
    m_powersAction->setCheckable(true);
    connect(m_powersAction, &QAction::toggled, this,
        [this](bool on) { editView([on](ViewSettings& v) { v.powerTicks = on; }); });
    view->addAction(tr("&Fit axes (and reset zoom)"), QKeySequence(tr("Ctrl+0")), m_charts, &ChartArea::fitAxes);
    view->addAction(m_calibration->toggleAction());
    QAction* conv = view->addAction(tr("Only &convolutions"));
    conv->setCheckable(true);
    conv->setShortcut(QKeySequence(tr("Ctrl+K")));
    connect(conv, &QAction::toggled, m_pane->convolutionsOnlyBox(), &QCheckBox::setChecked);
    connect(m_pane->convolutionsOnlyBox(), &QCheckBox::toggled, conv, &QAction::setChecked);
    view->addSeparator();
    for (QDockWidget* dock : findChildren<QDockWidget*>())
        view->addAction(dock->toggleViewAction());
    view->addSeparator();
    QAction* tableAction = view->addAction(tr("Layer &table"));
    tableAction->setCheckable(true);
    tableAction->setChecked(true);
    tableAction->setShortcut(QKeySequence(tr("Ctrl+Shift+T")));
    tableAction->setToolTip(tr("Show or hide the layer table (hidden, the charts take the whole height)"));
    tableAction->setObjectName(
        QStringLiteral("tableAction")); // for tests and accessibility; the code holds the pointer
    m_room->setTableAction(tableAction);
    m_teaching->setTableAction(tableAction);
    connect(tableAction, &QAction::toggled, m_pane, &QWidget::setVisible);
    m_presentationAction = view->addAction(tr("&Presentation mode (large type)"));
    m_presentationAction->setCheckable(true);
    m_presentationAction->setShortcut(QKeySequence(tr("Ctrl+Shift+P")));
    connect(m_presentationAction, &QAction::toggled, m_teaching, &Teaching::setPresentationMode);
    connect(m_presentationAction, &QAction::toggled, this, [this](bool on) {
        m_energy->setFontScale(on ? 1.5 : 1.0); // as the roofline charts' (Teaching::setPresentationMode)
        m_sweeps->setFontScale(on ? 1.5 : 1.0);
        m_serving->setFontScale(on ? 1.5 : 1.0);
        QTimer::singleShot(0, this, &MainWindow::keepOnScreen);
    });
    QAction* full = view->addAction(tr("F&ull screen"));
    full->setShortcut(QKeySequence::FullScreen);
    full->setCheckable(true);
    connect(full, &QAction::toggled, this, [this](bool on) { on ? showFullScreen() : showNormal(); });
}

void MainWindow::buildHelpMenu()
{
    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&Conventions"), QKeySequence::HelpContents, this, [this] { showConventions(this); });
    help->addAction(
        tr("Guided &tour of the roofline model"), QKeySequence(tr("Shift+F1")), m_teaching, &Teaching::showTour);
    help->addAction(tr("Device &problems\u2026"), this, [this] {
        QString text;
        for (const Diagnostic& d : m_workspace->library().diagnostics)
            text += qs(toString(d)) + QLatin1Char('\n');
        QMessageBox::information(
            this, tr("Device files"), text.isEmpty() ? tr("Every device file loaded without problems.") : text);
    });
    help->addAction(tr("&About Roofline Explorer"), this, [this] { showAbout(this); });
}

void MainWindow::editView(const std::function<void(ViewSettings&)>& edit)
{
    ViewSettings v = m_workspace->view();
    edit(v);
    m_workspace->setView(v);
}

void MainWindow::showView(const ViewSettings& v)
{
    for (auto [action, on] : { std::pair { m_overlayAction, v.overlay }, std::pair { m_sharedAction, v.sharedAxes },
             std::pair { m_labelsAction, v.layerLabels > 0 }, std::pair { m_powersAction, v.powerTicks } }) {
        const QSignalBlocker quiet(action); // the value came from the workspace: nothing to send back
        action->setChecked(on);
    }
}

} // namespace rfx
