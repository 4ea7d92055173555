#include "window/mainwindow.h"

#include "style/text.h"

#include "base/format.h"
#include "chart/chartarea.h"
#include "features/calibrationview.h"
#include "features/exportcontroller.h"
#include "features/measurementsview.h"
#include "features/thismachine.h"
#include "io/report_writer.h"
#include "model/networks.h"
#include "panels/algorithmmenu.h"
#include "panels/controlpanel.h"
#include "panels/devicepicker.h"
#include "panels/energyview.h"
#include "table/layerpane.h"
#include "table/layertablemodel.h"
#include "widgets/elidedlabel.h"
#include "widgets/wheelguard.h"
#include "window/chartroom.h"
#include "window/teaching.h"
#include "workspace/modelopener.h"
#include "workspace/presets.h"
#include "workspace/sessioncontroller.h"
#include "workspace/windowsettings.h"

#include <QCloseEvent>
#include <QCoreApplication>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QLabel>
#include <QLayout>
#include <QMenu>
#include <QMimeData>
#include <QScreen>
#include <QScrollArea>
#include <QSplitter>
#include <QStatusBar>
#include <QTimer>
#include <QUrl>

#include <algorithm>

namespace rfx {

namespace {

QScrollArea* scrolled(QWidget* w)
{
    auto* area = new QScrollArea;
    area->setWidget(w);
    area->setWidgetResizable(true);
    area->setFrameShape(QFrame::NoFrame);
    return area;
}
} // namespace

MainWindow::MainWindow(const GuiOptions& options, QWidget* parent)
    : QMainWindow(parent)
    , m_options(options)
    , m_workspace(new Workspace(this))
    , m_controls(new ControlPanel)
    , m_picker(new DevicePicker)
    , m_charts(new ChartArea)
    , m_pane(new LayerPane)
    , m_measured(new MeasurementsView(m_workspace, this))
    , m_calibration(new CalibrationView(m_workspace, this))
    , m_opener(new ModelOpener(this))
{
    WheelGuard::install(); // before the controls are polished: they take the wheel only when focused
    setWindowTitle(tr("Roofline Explorer"));
    QScrollArea* controlsScroll = scrolled(m_controls);
    // As needed, not off: in presentation mode at 1280 x 720 the spin boxes were cut off at the right.
    controlsScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    QDockWidget* configDock = addDock(tr("Configuration"), QStringLiteral("configurationDock"), controlsScroll, Qt::LeftDockWidgetArea);
    configDock->setMinimumWidth(m_controls->sizeHint().width() + 24);
    m_configDock = configDock;
    m_deviceDock = addDock(tr("Devices"), QStringLiteral("devicesDock"), m_picker, Qt::LeftDockWidgetArea);

    auto* splitter = new QSplitter(Qt::Vertical);
    splitter->setObjectName(QStringLiteral("mainSplitter"));
    m_splitter = splitter;
    QScrollArea* chartScroll = scrolled(m_charts);
    splitter->addWidget(chartScroll);
    splitter->addWidget(m_pane);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    splitter->setChildrenCollapsible(false);
    splitter->setSizes({ 620, 380 }); // first start: the chart gets the larger part
    setCentralWidget(splitter);
    resizeDocks({ configDock, m_deviceDock }, { 640, 300 }, Qt::Vertical);

    // The charts keep their minimum useful size: summaries shrink, then the left column gives way.
    m_room = new ChartRoom(this, chartScroll, m_charts, { configDock, m_deviceDock }, splitter);
    connect(m_room, &ChartRoom::message, this, [this](const QString& text) { showStatus(text, 10000); });
    connect(m_room, &ChartRoom::withdrawn, this, [this](const QString& text) {
        if (!text.isEmpty() && statusBar()->currentMessage() == text)
            statusBar()->clearMessage();
    });
    // A grid whose plots stay short in every arrangement at this size says how to see them larger
    // (issue 52: three devices at 1280 x 720 in presentation type). Said once the layout has settled,
    // so that a passing state (before the left column gives way) says nothing.
    connect(m_charts, &ChartArea::crampedChanged, this, [this](bool cramped) {
        if (cramped)
            QTimer::singleShot(300, this, [this] {
                if (m_charts->cramped() && !m_charts->overlay())
                    showStatus(tr("The charts are small at this size: View \u25b8 Overlay devices on one chart (Ctrl+L) "
                                  "draws every device on one larger chart"),
                        10000);
            });
    });
    m_teaching = new Teaching({ this, m_workspace, m_charts, m_controls, configDock }); // the Explain dock
    m_sessions = new SessionController(m_workspace,
        { [this] { return currentSession(); }, [this](const Session& session) { showSession(session); } }, this);
    m_export = new ExportController(m_workspace, [this] { return currentFigure(); }, this);
    m_energy = new EnergyView;
    // Scrolled: in large type its charts' and controls' least height pushed a 720-line window 37 px past
    // the screen's bottom, status bar and legend with it, and it stayed there (issue 52).
    m_energyDock = addDock(tr("Energy and tuning"), QStringLiteral("energyDock"), scrolled(m_energy), Qt::BottomDockWidgetArea);
    m_energyDock->hide();
    m_energyDock->toggleViewAction()->setShortcut(QKeySequence(Qt::Key_F10));

    m_status = new ElidedLabel; // the measurements' line beside it can leave it short of room
    statusBar()->addWidget(m_status, 1);
    // A link, not a QToolButton: a button among the status bar's permanent widgets showed the
    // analysis line again over a message given at start-up (tst_mainwindow).
    m_notes = new QLabel;
    m_notes->setVisible(false);
    m_notes->setObjectName(QStringLiteral("notesButton"));
    m_notes->setTextFormat(Qt::RichText);
    m_notes->setTextInteractionFlags(Qt::LinksAccessibleByMouse | Qt::LinksAccessibleByKeyboard);
    statusBar()->addPermanentWidget(m_notes);
    statusBar()->addPermanentWidget(m_measured->label());

    buildMenus();
    connectParts();
    reloadDevices();
    setAcceptDrops(true);

    restoreSettings(options); // with the first analysis
    if (options.preset >= 0)
        loadPreset(options.preset);
    if (!options.measurements.isEmpty()) {
        QString error;
        if (!m_measured->import(options.measurements, &error))
            showStatus(error.section(QLatin1Char('\n'), 0, 1), 15000);
    }
    if (!options.calibration.isEmpty()) {
        QString error;
        if (!m_calibration->open(options.calibration, &error))
            showStatus(error.section(QLatin1Char('\n'), 0, 1), 15000);
    }
    m_sessions->start({ m_workspace->config(), m_workspace->deviceIds(), m_workspace->view() });
}

MainWindow::~MainWindow()
{
    // QWidget's destructor hides the docks before QObject's disconnects them: a visibility signal
    // would then call into a half-destroyed window (UBSan caught it).
    disconnect(m_energyDock, nullptr, this, nullptr);
    // Nor may a part's last signal (a table's selection cleared as it goes) reach the workspace's
    // listeners: this window's views are being destroyed.
    m_workspace->blockSignals(true);
    delete m_teaching;
}

QDockWidget* MainWindow::addDock(const QString& title, const QString& name, QWidget* widget, Qt::DockWidgetArea area)
{
    auto* dock = new QDockWidget(title, this);
    dock->setObjectName(name);
    dock->setWidget(widget);
    addDockWidget(area, dock);
    return dock;
}

void MainWindow::connectParts()
{
    // A message and the analysis line never drawn over each other: QStatusBar hides its normal widgets
    // only if they are visible when the message comes, and a presentation-mode switch (the type
    // changing under the status bar) left both drawn. The line steps aside for every message.
    connect(statusBar(), &QStatusBar::messageChanged, this, [this](const QString& message) { m_status->setVisible(message.isEmpty()); });

    // The loop: every edit goes to the workspace, which analyses once and hands its value back here.
    connect(m_workspace, &Workspace::changed, this, &MainWindow::showWorkspace);
    connect(m_workspace, &Workspace::networkFileRefused, this, &MainWindow::refuseNetworkFile);
    connect(m_controls, &ControlPanel::configChanged, this, [this](const Config& c) { m_workspace->setConfig(c, m_controls->lastEdited()); });
    connect(m_picker, &DevicePicker::checkedChanged, m_workspace, &Workspace::setDevices);
    connect(m_energy, &EnergyView::clockRequested, this, [this](int percent) {
        Config c = m_workspace->config();
        c.clockPercent = percent;
        m_workspace->setConfig(c);
    });
    connect(m_charts, &ChartArea::layerClicked, this, [this](int layer, int device) {
        const Report* r = m_workspace->report();
        if (!m_charts->overlay() && r && device >= 0 && device < int(r->results.size()))
            m_workspace->setTableDevice(qs(r->results[size_t(device)].device.id));
        m_workspace->selectLayer(layer);
    });
    connect(m_pane, &LayerPane::deviceChanged, this, [this] { m_workspace->setTableDevice(m_pane->deviceId()); });
    connect(m_pane, &LayerPane::layerActivated, m_workspace, &Workspace::selectLayer);
    connect(m_pane, &LayerPane::filterChanged, this, [this](const LayerFilter& filter) {
        editView([&filter](ViewSettings& v) { v.filter = filter; });
    });
    connect(m_pane, &LayerPane::layerMenuRequested, this, [this](int layer, const QPoint& at) {
        if (QMenu* menu = layerAlgorithmMenu(layer)) {
            menu->exec(at);
            menu->deleteLater();
        }
    });

    // The sweep costs milliseconds: it runs only while the view is shown.
    connect(m_energyDock, &QDockWidget::visibilityChanged, this, [this](bool) {
        updateEnergy();
        QTimer::singleShot(0, this, &MainWindow::keepOnScreen);
    });
    connect(m_notes, &QLabel::linkActivated, this, [this] {
        // The notes live beside the devices: show that panel and its list.
        m_deviceDock->show();
        m_deviceDock->raise();
        m_picker->showNotes();
    });
    connect(m_controls, &ControlPanel::openFileRequested, m_opener, &ModelOpener::chooseAndOpen);
    connect(m_opener, &ModelOpener::opened, this, [this](const QString& path, int imageSize) {
        m_controls->useNetworkFile(path, imageSize);
        const Config& c = m_workspace->config();
        if (isNetworkFile(c.model) && c.model == path.toStdString())
            m_sessions->addRecent(path); // it worked: the analysis now shows it
    });
    connect(m_opener, &ModelOpener::failed, this, &MainWindow::sayFileUnusable);
    connect(m_sessions, &SessionController::recentModelChosen, m_opener, &ModelOpener::open);
    connect(m_sessions, &SessionController::statusMessage, this, &MainWindow::showStatus);
    connect(m_export, &ExportController::statusMessage, this, &MainWindow::showStatus);
    connect(m_teaching, &Teaching::statusMessage, this, &MainWindow::showStatus);
}

// ---- The loop's end: the workspace's value on every view ----

void MainWindow::showWorkspace(const WorkspaceState& s, Workspace::Parts parts)
{
    if (parts & Workspace::View)
        showView(s.view);
    if (parts & Workspace::Library) {
        m_picker->setDevices(m_workspace->library().devices);
        m_picker->setChecked(s.deviceIds);
    }
    if (parts & Workspace::Analysis) {
        // The panels take the value (each does nothing when it already shows it).
        m_controls->setConfig(s.config);
        m_picker->setChecked(s.deviceIds);
        if (!s.problem.isEmpty()) {
            showProblem(s); // the last report stays on screen, marked stale
            return;
        }
        m_controls->clearProblem();
        m_charts->setProblem(QString());
    }
    const Report* report = s.report.get();
    if (!report)
        return;
    const Comparison* measured = s.comparison ? &*s.comparison : nullptr;
    if (parts & Workspace::Analysis) {
        updateEnergy();
        m_charts->setReport(s.report, measured, s.tableDeviceIndex); // once, diamonds and all
        m_pane->setReport(s.report); // keeps its device when the report has it, as the workspace does
        if (m_pane->deviceId() != s.tableDevice && m_pane->setDeviceId(s.tableDevice))
            m_pane->showDevice(s.report);
        showMeasured(s);
        m_pane->fitColumnsIfRowsChanged();
        showAnalysisStatus(s);
    } else if (parts & (Workspace::TableDevice | Workspace::Measurements)) {
        if (parts & Workspace::TableDevice) {
            m_pane->setDeviceId(s.tableDevice);
            m_pane->showDevice(s.report);
        }
        if (parts & Workspace::Measurements) // the diamonds: none to move without measurements
            m_charts->setReport(s.report, measured, s.tableDeviceIndex);
        showMeasured(s);
        if (parts & Workspace::TableDevice)
            m_pane->refit(); // another device's numbers
    }
    if (parts & (Workspace::Analysis | Workspace::TableDevice | Workspace::Selection)) {
        m_charts->setSelectedLayer(s.selectedLayer);
        m_pane->selectLayer(s.selectedLayer);
    }
    m_teaching->follow(parts);
}

void MainWindow::showMeasured(const WorkspaceState& s)
{
    m_pane->setMeasuredColumnsShown(s.comparison.has_value());
    m_pane->model()->setComparison(s.comparison);
}

void MainWindow::showProblem(const WorkspaceState& s)
{
    QList<int> suggestions;
    if (auto err = validate(s.config); !err && s.config.model == "unet")
        for (int e : suggestedExtents(s.config.unet))
            suggestions.append(e);
    m_controls->showProblem(s.problem, suggestions, s.report != nullptr);
    // Nothing worked yet: said where the charts would be; otherwise a banner over the stale charts.
    m_charts->setProblem(s.problem, s.report ? qs(reportTitle(*s.report)) : QString());
    m_status->setText(tr("\u26a0 %1").arg(s.problem));
}

void MainWindow::showAnalysisStatus(const WorkspaceState& s)
{
    const Report& r = *s.report;
    // The network's totals where the eye finds them (checking ResNet-50's 4.1 GMAC meant multiplying
    // a rate by a time): parameters, FLOP and MAC, traffic, peak memory.
    QString status = QStringLiteral("%1 \u00b7 %2").arg(qs(reportTitle(r)), qs(networkTotalsLine(r)));
    m_status->setToolTip(tr("%1\n%2 convolutions, analysed in %5. Totals per batch of %3 on %4: a MAC is a multiply-add of a convolution "
                            "or matrix product (2 FLOP); 'other' is the elementwise, pooling and normalisation work; bytes "
                            "are the DRAM traffic under the traffic model; peak memory is weights, activations, gradients "
                            "and optimizer state at their largest.")
                             .arg(qs(reportTitle(r)))
                             .arg(r.convolutions)
                             .arg(r.config.batch)
                             .arg(r.results.empty() ? QString() : qs(r.results[0].device.name))
                             .arg(qs(formatTime(double(s.analysisNs) * 1e-9, true))));
    if (r.uncountedRows > 0)
        status += tr(" \u00b7 \u26a0 %n row(s) not counted (unknown operators)", "", r.uncountedRows);
    m_status->setText(status);
    // Notes (ceiling fallbacks, device file problems): listed in the Devices panel, beside the
    // devices; the status bar's link counts them and opens that list.
    QStringList analysisNotes, fileProblems;
    for (const Diagnostic& d : r.diagnostics) // an imported node's note names the node
        analysisNotes.append(d.field.starts_with("node ") ? qs(d.field + ": " + d.message) : qs(d.message));
    for (const Diagnostic& d : m_workspace->library().diagnostics)
        if (d.severity != Severity::Info)
            fileProblems.append(qs(toString(d)));
    m_picker->setNotes(fileProblems, analysisNotes);
    const int notes = int(analysisNotes.size() + fileProblems.size());
    m_notes->setVisible(notes > 0);
    m_notes->setText(QStringLiteral("<a href=\"#notes\">%1</a>").arg(notes == 1 ? tr("\u26a0 1 note") : tr("\u26a0 %1 notes").arg(notes)));
    m_notes->setToolTip(tr("Show them in the Devices panel:\n%1").arg((fileProblems + analysisNotes).join(QLatin1Char('\n'))));
}

void MainWindow::updateEnergy()
{
    if (m_energyDock->isVisible())
        m_energy->setInputs(m_workspace->config(), m_workspace->checkedDevices());
}

void MainWindow::refuseNetworkFile(const QString& path, const QString& reason)
{
    // The workspace went back to what it showed; the selector forgets the file.
    m_controls->forgetNetworkFile(path);
    m_controls->setConfig(m_workspace->config());
    sayFileUnusable(path, reason);
}

void MainWindow::sayFileUnusable(const QString& path, const QString& reason)
{
    const Report* r = m_workspace->report();
    ModelOpener::showError(this, path, reason, r ? qs(reportTitle(*r)) : tr("the default U-Net"));
    // A message, not the analysis line: it went stale over later actions until the configuration
    // changed. The dialog said it in full; the status bar repeats it for a while.
    showStatus(tr("\u26a0 %1: %2").arg(QFileInfo(path).fileName(), reason), 15000);
}

void MainWindow::keepOnScreen()
{
    if (!isVisible() || isMaximized() || isFullScreen() || !screen())
        return;
    if (layout()) // the docks' and the type's new least sizes, now rather than at the next event
        layout()->activate();
    const QRect free = screen()->availableGeometry();
    if (free.contains(frameGeometry()))
        return;
    const QSize frame = frameGeometry().size() - size(); // the window manager's border and title
    resize(size().boundedTo(free.size() - frame).expandedTo(minimumSize()));
    const QRect now = frameGeometry();
    move(std::clamp(now.x(), free.left(), std::max(free.left(), free.right() + 1 - now.width())),
        std::clamp(now.y(), free.top(), std::max(free.top(), free.bottom() + 1 - now.height())));
}

} // namespace rfx
