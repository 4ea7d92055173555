#include "mainwindow.h"

#include "algorithmmenu.h"
#include "calibrationview.h"
#include "chartarea.h"
#include "chartroom.h"
#include "controlpanel.h"
#include "devicepicker.h"
#include "energyview.h"
#include "exportcontroller.h"
#include "format.h"
#include "layerpane.h"
#include "measurementsview.h"
#include "modelopener.h"
#include "networks.h"
#include "presets.h"
#include "report_writer.h"
#include "sessioncontroller.h"
#include "teaching.h"
#include "thismachine.h"
#include "wheelguard.h"
#include "windowsettings.h"

#include <QCloseEvent>
#include <QCoreApplication>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QLabel>
#include <QMenu>
#include <QMimeData>
#include <QScrollArea>
#include <QSplitter>
#include <QStatusBar>
#include <QTimer>
#include <QUrl>

namespace rfx {

namespace {
QString qs(const std::string& s) { return QString::fromStdString(s); }

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
    , m_controls(new ControlPanel)
    , m_picker(new DevicePicker)
    , m_charts(new ChartArea)
    , m_pane(new LayerPane)
    , m_sessions(new SessionController(this))
    , m_export(new ExportController(this))
    , m_measured(new MeasurementsView(m_pane, m_charts, this))
    , m_calibration(new CalibrationView(this))
    , m_teaching(nullptr)
    , m_opener(new ModelOpener(this))
{
    WheelGuard::install(); // before the controls are polished: they take the wheel only when focused
    setWindowTitle(tr("Roofline Explorer"));
    QScrollArea* controlsScroll = scrolled(m_controls);
    // As needed, not off: in presentation mode at 1280 x 720 the spin boxes were cut off at the right.
    controlsScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    QDockWidget* configDock = addDock(tr("Configuration"), QStringLiteral("configurationDock"), controlsScroll, Qt::LeftDockWidgetArea);
    configDock->setMinimumWidth(m_controls->sizeHint().width() + 24);
    m_deviceDock = addDock(tr("Devices"), QStringLiteral("devicesDock"), m_picker, Qt::LeftDockWidgetArea);

    auto* splitter = new QSplitter(Qt::Vertical);
    splitter->setObjectName(QStringLiteral("mainSplitter"));
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
    m_teaching = new Teaching(this); // the Explain dock
    m_energy = new EnergyView;
    m_energyDock = addDock(tr("Energy and tuning"), QStringLiteral("energyDock"), m_energy, Qt::BottomDockWidgetArea);
    m_energyDock->hide();
    m_energyDock->toggleViewAction()->setShortcut(QKeySequence(Qt::Key_F10));

    m_status = new QLabel;
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
    reloadDevices();
    connectParts();
    setAcceptDrops(true);

    restoreSettings(options);
    if (options.presentation)
        m_presentationAction->setChecked(true);
    recompute();
    if (options.preset >= 0)
        loadPreset(options.preset);
    if (!options.measurements.isEmpty()) {
        QString error;
        if (!importMeasurements(options.measurements, &error))
            showStatus(error.section(QLatin1Char('\n'), 0, 1), 15000);
    }
    if (!options.calibration.isEmpty()) {
        QString error;
        if (!m_calibration->open(options.calibration, &error))
            showStatus(error.section(QLatin1Char('\n'), 0, 1), 15000);
    }
    m_sessions->start({ m_config, m_deviceIds });
}

MainWindow::~MainWindow()
{
    // QWidget's destructor hides the docks before QObject's disconnects them: a visibility signal
    // would then call into a half-destroyed window (UBSan caught it).
    disconnect(m_energyDock, nullptr, this, nullptr);
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
    // The sweep costs milliseconds: it runs only while the view is shown.
    connect(m_energyDock, &QDockWidget::visibilityChanged, this, [this](bool) { updateEnergy(); });
    connect(m_energy, &EnergyView::clockRequested, this, [this](int percent) {
        Config c = m_config;
        c.clockPercent = percent;
        setConfig(c);
    });
    connect(m_notes, &QLabel::linkActivated, this, [this] {
        // The notes live beside the devices: show that panel and its list.
        m_deviceDock->show();
        m_deviceDock->raise();
        m_picker->showNotes();
    });
    connect(m_controls, &ControlPanel::configChanged, this, &MainWindow::setConfig);
    connect(m_controls, &ControlPanel::openFileRequested, m_opener, &ModelOpener::chooseAndOpen);
    connect(m_opener, &ModelOpener::opened, this, [this](const QString& path, int imageSize) {
        m_controls->useNetworkFile(path, imageSize);
        if (isNetworkFile(m_config.model) && m_config.model == path.toStdString())
            m_sessions->addRecent(path); // it worked: the analysis now shows it
    });
    connect(m_opener, &ModelOpener::failed, this, [this](const QString& path, const QString& reason) {
        ModelOpener::showError(this, path, reason, m_report ? qs(reportTitle(*m_report)) : tr("the default U-Net"));
        // A message, not the analysis line: it went stale over later actions until the configuration
    // changed. The dialog said it in full; the status bar repeats it for a while.
    showStatus(tr("\u26a0 %1: %2").arg(QFileInfo(path).fileName(), reason), 15000);
    });
    connect(m_sessions, &SessionController::recentModelChosen, m_opener, &ModelOpener::open);
    connect(m_sessions, &SessionController::statusMessage, this, &MainWindow::showStatus);
    connect(m_export, &ExportController::statusMessage, this, &MainWindow::showStatus);
    connect(m_measured, &MeasurementsView::changed, this, &MainWindow::updateMeasurements);
    connect(m_calibration, &CalibrationView::changed, this, &MainWindow::recompute);
    connect(m_picker, &DevicePicker::checkedChanged, this, &MainWindow::setDevices);
    connect(m_charts, &ChartArea::layerClicked, this, [this](int layer, int device) {
        if (!m_charts->overlay() && device != m_pane->device() && m_report && device < int(m_report->results.size()))
            m_pane->setDeviceId(qs(m_report->results[size_t(device)].device.id));
        selectLayer(layer);
    });
    connect(m_pane, &LayerPane::deviceChanged, this, [this] {
        if (m_report)
            m_pane->showDevice(*m_report);
        updateMeasurements();
        m_pane->refit(); // another device's numbers
        selectLayer(m_selectedLayer);
    });
    connect(m_pane, &LayerPane::filterChanged, this, [this](const LayerFilter& filter) {
        m_charts->setFilter(filter);
        m_sessions->markDirty();
    });
    connect(m_pane, &LayerPane::layerActivated, this, [this](int layer) {
        if (layer != m_selectedLayer) {
            m_selectedLayer = layer;
            m_charts->setSelectedLayer(layer);
            m_teaching->updateExplain();
        }
    });
    connect(m_pane, &LayerPane::layerMenuRequested, this, [this](int layer, const QPoint& at) {
        if (QMenu* menu = layerAlgorithmMenu(layer)) {
            menu->exec(at);
            menu->deleteLater();
        }
    });
}

// ---- The loop: configuration and devices -> analysis -> every view ----

void MainWindow::setConfig(const Config& config)
{
    m_config = config;
    if (m_controls->config() != config)
        m_controls->setConfig(config);
    recompute();
    pushState();
}

void MainWindow::setDevices(const QStringList& ids)
{
    m_deviceIds = ids;
    if (m_picker->checked() != ids)
        m_picker->setChecked(ids);
    recompute();
    pushState();
}

void MainWindow::showState(const Config& config, const QStringList& devices)
{
    m_config = config;
    m_controls->setConfig(config);
    m_deviceIds = devices;
    m_picker->setChecked(devices);
    recompute();
}

void MainWindow::pushState() { m_sessions->record({ m_config, m_deviceIds }, m_controls->lastEdited()); }

std::vector<Device> MainWindow::checkedDevices() const
{
    std::vector<Device> devices;
    for (const QString& id : m_deviceIds)
        if (const Device* d = m_library.find(id.toStdString()))
            devices.push_back(*d);
    return devices;
}

void MainWindow::recompute()
{
    QElapsedTimer timer;
    timer.start();
    AnalysisOutcome outcome = analyzeConfig(m_config, checkedDevices());
    if (!outcome.report && isNetworkFile(m_config.model) && (!m_report || m_report->config.model != m_config.model)) {
        refuseNetworkFile(qs(outcome.error)); // a file just chosen that cannot be used: the window stays as it was
        return;
    }
    if (!outcome.report) {
        showProblem(qs(outcome.error));
        return;
    }
    m_controls->clearProblem();
    m_charts->setProblem(QString());
    m_report = std::move(outcome.report);
    m_calibration->apply(*m_report); // calibrated times beside the bounds; in their place when shown
    updateEnergy();
    const qint64 analysisNs = timer.nsecsElapsed();

    m_charts->setReport(*m_report);
    m_pane->setReport(*m_report);
    m_teaching->reportChanged(); // the tour's figures follow the sliders
    updateMeasurements();
    m_pane->fitColumnsIfRowsChanged();
    if (m_selectedLayer >= 0 && !m_report->results.empty() && m_selectedLayer >= int(m_report->results[0].layers.size()))
        m_selectedLayer = -1;
    selectLayer(m_selectedLayer);
    showAnalysisStatus(analysisNs);
}

void MainWindow::showProblem(const QString& error)
{
    QList<int> suggestions;
    if (auto err = validate(m_config); !err && m_config.model == "unet") {
        const UNetParams& u = m_config.unet;
        const int extent = unetOutputExtent(u.height, u) ? u.width : u.height;
        const NearestExtents n = nearestWorkingExtents(extent, u);
        for (int s : { n.below, n.above })
            if (s > 0)
                suggestions.append(s);
    }
    m_controls->showProblem(error, suggestions, m_report.has_value());
    // Nothing worked yet: said where the charts would be; otherwise a banner over the stale charts.
    m_charts->setProblem(error, m_report ? qs(reportTitle(*m_report)) : QString());
    m_status->setText(tr("\u26a0 %1").arg(error));
}

void MainWindow::showAnalysisStatus(qint64 analysisNs)
{
    const Report& r = *m_report;
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
                             .arg(qs(formatTime(double(analysisNs) * 1e-9, true))));
    if (r.uncountedRows > 0)
        status += tr(" \u00b7 \u26a0 %n row(s) not counted (unknown operators)", "", r.uncountedRows);
    m_status->setText(status);
    // Notes (ceiling fallbacks, device file problems): listed in the Devices panel, beside the
    // devices; the status bar's link counts them and opens that list.
    QStringList analysisNotes, fileProblems;
    for (const Diagnostic& d : r.diagnostics) // an imported node's note names the node
        analysisNotes.append(d.field.starts_with("node ") ? qs(d.field + ": " + d.message) : qs(d.message));
    for (const Diagnostic& d : m_library.diagnostics)
        if (d.severity != Severity::Info)
            fileProblems.append(qs(toString(d)));
    m_picker->setNotes(fileProblems, analysisNotes);
    const int notes = int(analysisNotes.size() + fileProblems.size());
    m_notes->setVisible(notes > 0);
    m_notes->setText(QStringLiteral("<a href=\"#notes\">%1</a>").arg(notes == 1 ? tr("\u26a0 1 note") : tr("\u26a0 %1 notes").arg(notes)));
    m_notes->setToolTip(tr("Show them in the Devices panel:\n%1").arg((fileProblems + analysisNotes).join(QLatin1Char('\n'))));
}

void MainWindow::selectLayer(int layer)
{
    m_selectedLayer = layer;
    m_charts->setSelectedLayer(layer);
    m_teaching->updateExplain();
    m_pane->selectLayer(layer);
}

void MainWindow::updateEnergy()
{
    if (m_energyDock->isVisible())
        m_energy->setInputs(m_config, checkedDevices());
}

void MainWindow::updateMeasurements() { m_measured->show(m_report ? &*m_report : nullptr, m_pane->device()); }

void MainWindow::refuseNetworkFile(const QString& error)
{
    const QString path = qs(m_config.model);
    const bool hadReport = m_report.has_value();
    Config shown = m_config; // nothing shown yet (started on this file): the U-Net, with the rest as given
    shown.model = "unet";
    shown.layerAlgorithms.clear();
    if (hadReport)
        shown = m_report->config;
    m_controls->forgetNetworkFile(path);
    m_config = shown;
    m_controls->setConfig(shown); // the selector back on the network the charts show
    if (!hadReport)
        recompute();
    QString reason = error;
    if (reason.startsWith(path + QStringLiteral(": ")))
        reason = reason.mid(path.size() + 2);
    ModelOpener::showError(this, path, reason, m_report ? qs(reportTitle(*m_report)) : tr("the default U-Net"));
    // A message, not the analysis line: it went stale over later actions until the configuration
    // changed. The dialog said it in full; the status bar repeats it for a while.
    showStatus(tr("\u26a0 %1: %2").arg(QFileInfo(path).fileName(), reason), 15000);
}

void MainWindow::loadPreset(int which)
{
    const Preset p = studyPreset(which);
    if (p.energyRanges) {
        m_energy->setRanges(*p.energyRanges);
        m_energyDock->show();
        // After the layout settles: a dock resized before it is shown keeps its old height.
        QTimer::singleShot(0, this, [this] { resizeDocks({ m_energyDock }, { height() / 2 }, Qt::Vertical); });
    }
    m_controls->setConfig(p.config);
    m_config = p.config;
    m_deviceIds = p.devices;
    m_picker->setChecked(p.devices);
    recompute();
    pushState();
}

// Device files: shipped, --device-dir, the user folder; re-read by File > Reload device files.
void MainWindow::reloadDevices()
{
    std::vector<std::filesystem::path> extra;
    for (const QString& d : m_options.deviceDirs)
        extra.emplace_back(d.toStdString());
    m_library = loadDeviceLibrary(deviceSearchPath(QCoreApplication::applicationDirPath().toStdString(), extra));
    m_picker->setDevices(m_library.devices);
    m_picker->setChecked(m_deviceIds);
    if (m_report)
        recompute();
}

} // namespace rfx
