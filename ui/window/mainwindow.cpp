#include "window/mainwindow.h"

#include "style/text.h"

#include "chart/chartarea.h"
#include "features/analysisline.h"
#include "features/calibrationview.h"
#include "features/exportcontroller.h"
#include "features/measurementsview.h"
#include "features/thismachine.h"
#include "model/networks.h"
#include "panels/algorithmmenu.h"
#include "panels/controlpanel.h"
#include "panels/devicepicker.h"
#include "panels/energyview.h"
#include "servingplan/servingview.h"
#include "sweep/sweepview.h"
#include "table/layerpane.h"
#include "widgets/elidingstatusbar.h"
#include "widgets/steadyscrollarea.h"
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
#include <QFileInfo>
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
    auto* area = new SteadyScrollArea;
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
    , m_opener(new ModelOpener(m_workspace, this))
{
    WheelGuard::install(); // before the controls are polished: they take the wheel only when focused
    setWindowTitle(tr("Roofline Explorer"));
    QScrollArea* controlsScroll = scrolled(m_controls);
    // As needed, not off: in presentation mode at 1280 x 720 the spin boxes were cut off at the right.
    controlsScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    QDockWidget* configDock
        = addDock(tr("Configuration"), QStringLiteral("configurationDock"), controlsScroll, Qt::LeftDockWidgetArea);
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
                    showStatus(
                        tr("The charts are small at this size: View \u25b8 Overlay devices on one chart (Ctrl+L) "
                           "draws every device on one larger chart"),
                        10000);
            });
    });
    // The views follow the workspace themselves (its one signal), in this order: the charts before the
    // Explain and tour panels that mark them. Their edits go to it; nothing comes back to the view it came from.
    m_controls->follow(m_workspace);
    m_picker->follow(m_workspace);
    m_charts->follow(m_workspace);
    m_pane->follow(m_workspace);
    m_teaching = new Teaching({ this, m_workspace, m_charts, m_controls, configDock }); // the Explain dock
    m_sessions = new SessionController(m_workspace,
        { [this] { return currentSession(); }, [this](const Session& session) { showSession(session); } }, this);
    m_export = new ExportController(
        m_workspace, [this] { return currentFigure(); }, this);
    m_energy = new EnergyView;
    m_energy->follow(m_workspace);
    // Scrolled: in large type its charts' and controls' least height pushed a 720-line window 37 px past
    // the screen's bottom, status bar and legend with it, and it stayed there (issue 52).
    m_energyDock
        = addDock(tr("Energy and tuning"), QStringLiteral("energyDock"), scrolled(m_energy), Qt::BottomDockWidgetArea);
    m_energyDock->hide();
    m_energyDock->toggleViewAction()->setShortcut(QKeySequence(Qt::Key_F10));
    m_sweeps = new SweepView;
    m_sweeps->follow(m_workspace);
    connect(m_sweeps, &SweepView::exportRequested, m_export, &ExportController::exportSweepInteractive);
    m_sweepDock = addDock(
        tr("Language-model sweeps"), QStringLiteral("sweepDock"), scrolled(m_sweeps), Qt::BottomDockWidgetArea);
    m_sweepDock->hide();
    m_sweepDock->toggleViewAction()->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F10));
    m_serving = new ServingView;
    m_serving->follow(m_workspace);
    connect(m_serving, &ServingView::exportRequested, m_export, &ExportController::exportServingInteractive);
    m_servingDock
        = addDock(tr("Serving plan"), QStringLiteral("servingDock"), scrolled(m_serving), Qt::BottomDockWidgetArea);
    m_servingDock->hide();
    m_servingDock->toggleViewAction()->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_F10));
    // Opened at a height their charts can be read at (a new dock gets its least height).
    for (QDockWidget* dock : { m_sweepDock, m_servingDock })
        connect(dock, &QDockWidget::visibilityChanged, this, [this, dock](bool shown) {
            if (shown && !dock->isFloating() && dock->height() < height() * 2 / 5)
                QTimer::singleShot(
                    0, this, [this, dock] { resizeDocks({ dock }, { height() * 9 / 20 }, Qt::Vertical); });
        });

    setStatusBar(new ElidingStatusBar); // its messages end with "…" where they do not fit
    m_status = new AnalysisLine; // elided: the measurements' line beside it can leave it short of room
    m_status->follow(m_workspace);
    statusBar()->addWidget(m_status, 1);
    statusBar()->addPermanentWidget(m_status->notesLink());
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
    m_workspace->startHistory(); // undo starts from the first window
}

MainWindow::~MainWindow()
{
    // QWidget's destructor hides the docks before QObject's disconnects them: a visibility signal
    // would then call into a half-destroyed window (UBSan caught it).
    disconnect(m_energyDock, nullptr, this, nullptr);
    disconnect(m_sweepDock, nullptr, this, nullptr);
    disconnect(m_servingDock, nullptr, this, nullptr);
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
    connect(statusBar(), &QStatusBar::messageChanged, this,
        [this](const QString& message) { m_status->setVisible(message.isEmpty()); });

    // The view settings on the View menu's checks (the views follow the workspace themselves); a
    // network file the workspace refuses is said in a dialog (the selector forgets it by itself).
    connect(m_workspace, &Workspace::changed, this, [this](const WorkspaceState& s, Workspace::Parts parts) {
        if (parts & Workspace::View)
            showView(s.view);
    });
    connect(m_workspace, &Workspace::networkFileRefused, this, &MainWindow::sayFileUnusable);
    connect(m_pane, &LayerPane::layerMenuRequested, this, [this](int layer, const QPoint& at) {
        if (QMenu* menu = layerAlgorithmMenu(layer)) {
            menu->exec(at);
            menu->deleteLater();
        }
    });

    for (QDockWidget* dock : { m_energyDock, m_sweepDock, m_servingDock })
        connect(dock, &QDockWidget::visibilityChanged, this,
            [this](bool) { QTimer::singleShot(0, this, &MainWindow::keepOnScreen); });
    connect(m_status, &AnalysisLine::notesRequested, this, [this] {
        // The notes live beside the devices: show that panel and its list.
        m_deviceDock->show();
        m_deviceDock->raise();
        m_picker->showNotes();
    });
    connect(m_controls, &ControlPanel::openFileRequested, m_opener, &ModelOpener::chooseAndOpen);
    connect(m_opener, &ModelOpener::opened, this, [this](const QString& path) {
        const Config& c = m_workspace->config();
        if (isNetworkFile(c.model) && c.model == path.toStdString())
            m_sessions->addRecent(path); // it worked: the analysis now shows it
    });
    connect(m_sessions, &SessionController::recentModelChosen, m_opener, &ModelOpener::open);
    connect(m_sessions, &SessionController::statusMessage, this, &MainWindow::showStatus);
    connect(m_export, &ExportController::statusMessage, this, &MainWindow::showStatus);
    connect(m_teaching, &Teaching::statusMessage, this, &MainWindow::showStatus);
}

void MainWindow::sayFileUnusable(const QString& path, const QString& reason)
{
    const QString shown = shownWorkTitle(m_workspace->state());
    ModelOpener::showError(this, path, reason, shown.isEmpty() ? tr("the default U-Net") : shown);
    // A message, not the analysis line: it went stale over later actions until the configuration
    // changed. The dialog said it in full; the status bar repeats it for a while.
    showStatus(tr("\u26a0 %1: %2").arg(QFileInfo(path).fileName(), reason), 15000);
}

void MainWindow::keepOnScreen()
{
    // A --screenshot is drawn at the size asked, whatever the screen (offscreen's is 800 x 600: a
    // presentation-mode screenshot at --size 1280x720 came out 796 px wide, issue 73 item 5).
    if (!isVisible() || isMaximized() || isFullScreen() || !screen() || !m_options.screenshot.isEmpty())
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
