#include "mainwindow.h"

#include "modelopener.h"

#include "chartarea.h"
#include "controlpanel.h"
#include "devicepicker.h"
#include "energyview.h"
#include "explain.h"
#include "exportdialog.h"
#include "figurerenderer.h"
#include "format.h"
#include "layerfilterproxy.h"
#include "layertablemodel.h"
#include "options.h"
#include "report_writer.h"
#include "session.h"
#include "rooflinechart.h"
#include "celldelegate.h"
#include "layertable.h"
#include "tourpanel.h"
#include "wheelguard.h"
#include "networks.h"
#include "version.h"

#include <QActionGroup>
#include <QApplication>
#include <QMenu>
#include <QCheckBox>
#include <QCloseEvent>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QMimeData>
#include <QUrl>
#include <QComboBox>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QScrollArea>
#include <QSettings>
#include <QSpinBox>
#include <QSplitter>
#include <QStatusBar>
#include <QTableView>
#include <QVBoxLayout>
#include <QClipboard>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFile>
#include <QFileDialog>
#include <QDir>
#include <QFileInfo>
#include <QPushButton>
#include <QSaveFile>
#include <QStackedWidget>
#include <QTextBrowser>
#include <QTimer>
#include <QEventLoop>
#include <QThread>
#include <QProgressDialog>
#include <QInputDialog>
#include <QUndoCommand>
#include <QToolButton>
#include <QUndoStack>

#include <atomic>
#include <memory>
#include <mutex>

namespace rfx {

namespace {

// Every QSettings key in one place; bump the version when the meaning of a key changes.
namespace SettingsKey {
constexpr auto Geometry = "window/geometry";
constexpr auto State = "window/state";
constexpr auto Splitter = "window/splitter";
constexpr auto Config = "analysis/configArgs";
constexpr auto Devices = "analysis/devices";
constexpr auto Overlay = "view/overlay";
constexpr auto ConvOnly = "view/convolutionsOnly";
constexpr auto TopN = "view/topN";
constexpr auto Recent = "session/recentFiles";
constexpr auto LastDir = "session/lastDirectory";
constexpr int StateVersion = 1;
} // namespace SettingsKey

QString qs(const std::string& s) { return QString::fromStdString(s); }

const QStringList kStudyDevices { QStringLiteral("geforce-mx230"), QStringLiteral("geforce-940mx-ddr3"),
    QStringLiteral("rtx-2060-super") };

// One undoable change of the configuration or the device set. Changes that arrive within 700 ms of
// each other (a slider drag) merge into one step.
class StateCommand : public QUndoCommand {
public:
    /// `source`: the control whose change this is; successive changes of one control within 0.7 s
    /// (a slider drag, a spin box held down) are one step of undo. Changes of different controls, or
    /// from no control (devices, presets, sessions), never merge: merging them lost the step between
    /// (undo went from an invalid image size straight past the algorithm chosen before it).
    StateCommand(MainWindow* window, MainWindow::State before, MainWindow::State after, const QObject* source)
        : m_window(window)
        , m_before(std::move(before))
        , m_after(std::move(after))
        , m_source(source)
    {
        setText(QObject::tr("change"));
        m_time.start();
    }
    int id() const override { return 1; }
    bool mergeWith(const QUndoCommand* other) override
    {
        const auto* o = static_cast<const StateCommand*>(other);
        if (m_time.elapsed() > 700 || !m_source || o->m_source != m_source)
            return false;
        m_after = o->m_after;
        m_time.restart();
        return true;
    }
    void undo() override { m_window->applyState(m_before); }
    void redo() override
    {
        if (m_first) { // the change is already on screen when the command is pushed
            m_first = false;
            return;
        }
        m_window->applyState(m_after);
    }

private:
    MainWindow* m_window;
    MainWindow::State m_before, m_after;
    const QObject* m_source;
    QElapsedTimer m_time;
    bool m_first = true;
};

constexpr int kMaxRecent = 8;

} // namespace

MainWindow::MainWindow(const GuiOptions& options, QWidget* parent)
    : QMainWindow(parent)
    , m_options(options)
    , m_controls(new ControlPanel)
    , m_picker(new DevicePicker)
    , m_charts(new ChartArea)
    , m_model(new LayerTableModel(this))
    , m_proxy(new LayerFilterProxy(this))
{
    WheelGuard::install(); // before the controls are polished: they take the wheel only when focused
    setWindowTitle(tr("Roofline Explorer"));
    m_proxy->setSourceModel(m_model);

    auto* controlsScroll = new QScrollArea;
    controlsScroll->setWidget(m_controls);
    controlsScroll->setWidgetResizable(true);
    controlsScroll->setFrameShape(QFrame::NoFrame);
    auto* configDock = new QDockWidget(tr("Configuration"), this);
    configDock->setObjectName(QStringLiteral("configurationDock"));
    configDock->setWidget(controlsScroll);
    // As needed, not off: in presentation mode at 1280 x 720 the spin boxes were cut off at the right.
    controlsScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    configDock->setMinimumWidth(m_controls->sizeHint().width() + 24);
    addDockWidget(Qt::LeftDockWidgetArea, configDock);
    auto* deviceDock = new QDockWidget(tr("Devices"), this);
    deviceDock->setObjectName(QStringLiteral("devicesDock"));
    deviceDock->setWidget(m_picker);
    addDockWidget(Qt::LeftDockWidgetArea, deviceDock);

    auto* chartScroll = new QScrollArea;
    chartScroll->setWidget(m_charts);
    chartScroll->setWidgetResizable(true);
    chartScroll->setFrameShape(QFrame::NoFrame);
    auto* splitter = new QSplitter(Qt::Vertical);
    splitter->setObjectName(QStringLiteral("mainSplitter"));
    splitter->addWidget(chartScroll);
    splitter->addWidget(buildTablePane());
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    splitter->setChildrenCollapsible(false);
    splitter->setSizes({ 620, 380 }); // first start: the chart gets the larger part
    setCentralWidget(splitter);
    resizeDocks({ configDock, deviceDock }, { 640, 300 }, Qt::Vertical);

    m_explain = new QTextBrowser;
    m_explain->setOpenExternalLinks(false);
    m_explainDock = new QDockWidget(tr("Explain"), this);
    m_explainDock->setObjectName(QStringLiteral("explainDock"));
    m_explainDock->setWidget(m_explain);
    addDockWidget(Qt::RightDockWidgetArea, m_explainDock);
    m_explainDock->hide();
    m_explainDock->toggleViewAction()->setShortcut(QKeySequence(Qt::Key_F9));
    connect(m_explainDock, &QDockWidget::visibilityChanged, this, [this](bool) { updateExplain(); });
    m_energy = new EnergyView;
    m_energyDock = new QDockWidget(tr("Energy and tuning"), this);
    m_energyDock->setObjectName(QStringLiteral("energyDock"));
    m_energyDock->setWidget(m_energy);
    addDockWidget(Qt::BottomDockWidgetArea, m_energyDock);
    m_energyDock->hide();
    m_energyDock->toggleViewAction()->setShortcut(QKeySequence(Qt::Key_F10));
    // The sweep costs milliseconds: it runs only while the view is shown.
    connect(m_energyDock, &QDockWidget::visibilityChanged, this, [this](bool) { updateEnergy(); });
    connect(m_energy, &EnergyView::clockRequested, this, [this](int percent) {
        Config c = m_config;
        c.clockPercent = percent;
        setConfig(c);
    });
    m_undo = new QUndoStack(this);
    m_baseFont = QApplication::font();

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
    connect(m_notes, &QLabel::linkActivated, this, [this, deviceDock] {
        // The notes live beside the devices: show that panel and its list.
        deviceDock->show();
        deviceDock->raise();
        m_picker->showNotes();
    });
    m_measuredLabel = new QLabel;
    m_measuredLabel->setVisible(false);
    statusBar()->addPermanentWidget(m_measuredLabel);

    buildMenus();
    reloadDevices();

    connect(m_controls, &ControlPanel::configChanged, this, &MainWindow::setConfig);
    m_opener = new ModelOpener(this);
    connect(m_controls, &ControlPanel::openFileRequested, m_opener, &ModelOpener::chooseAndOpen);
    connect(m_opener, &ModelOpener::opened, this, [this](const QString& path, int imageSize) {
        m_controls->useNetworkFile(path, imageSize);
        if (isNetworkFile(m_config.model) && m_config.model == path.toStdString())
            addRecent(path); // it worked: the analysis now shows it
    });
    connect(m_opener, &ModelOpener::failed, this, [this](const QString& path, const QString& reason) {
        ModelOpener::showError(this, path, reason, m_report ? qs(reportTitle(*m_report)) : tr("the default U-Net"));
        m_status->setText(tr("\u26a0 %1: %2").arg(QFileInfo(path).fileName(), reason));
    });
    setAcceptDrops(true);
    connect(m_picker, &DevicePicker::checkedChanged, this, &MainWindow::setDevices);
    connect(m_charts, &ChartArea::layerClicked, this, [this](int layer, int device) {
        if (!m_charts->overlay() && device != m_tableDevice->currentIndex())
            m_tableDevice->setCurrentIndex(device);
        selectLayer(layer);
    });

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
    m_state = { m_config, m_deviceIds };
    m_dirty = false;
    updateTitle();
}

MainWindow::~MainWindow()
{
    // QWidget's destructor hides the docks before QObject's disconnects them: a visibility signal
    // would then call into a half-destroyed window (UBSan caught it).
    disconnect(m_explainDock, nullptr, this, nullptr);
    disconnect(m_energyDock, nullptr, this, nullptr);
}

QWidget* MainWindow::buildTablePane()
{
    auto* pane = new QWidget;
    auto* v = new QVBoxLayout(pane);
    v->setContentsMargins(0, 0, 0, 0);
    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Layers on")));
    m_tableDevice = new QComboBox;
    m_tableDevice->setToolTip(tr("The device whose per-layer figures the table shows"));
    m_tableDevice->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    bar->addWidget(m_tableDevice);
    bar->addSpacing(16);
    m_convOnly = new QCheckBox(tr("Only convolutions"));
    m_convOnly->setToolTip(tr("Show only conv and conv_transpose rows, in the charts and the table"));
    bar->addWidget(m_convOnly);
    bar->addSpacing(8);
    bar->addWidget(new QLabel(tr("Top")));
    m_topN = new QSpinBox;
    m_topN->setRange(0, 999);
    m_topN->setSpecialValueText(tr("all"));
    m_topN->setSuffix(tr(" by time"));
    m_topN->setToolTip(tr("Show only the N layers that take the most time (0 = all)"));
    bar->addWidget(m_topN);
    bar->addStretch();
    v->addLayout(bar);

    m_table = new LayerTable;
    m_table->setModel(m_proxy);
    m_table->sortByColumn(LayerTableModel::Name, Qt::AscendingOrder);
    m_table->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_table, &QTableView::customContextMenuRequested, this, [this](const QPoint& pos) {
        const QModelIndex index = m_table->indexAt(pos);
        if (!index.isValid())
            return;
        if (QMenu* menu = layerAlgorithmMenu(index.data(LayerTableModel::LayerIndexRole).toInt())) {
            menu->exec(m_table->viewport()->mapToGlobal(pos));
            menu->deleteLater();
        }
    });
    v->addWidget(m_table, 1);

    connect(m_tableDevice, &QComboBox::currentIndexChanged, this, [this](int) {
        if (m_report)
            m_model->setReport(*m_report, m_tableDevice->currentIndex());
        updateLevelColumns();
        updateMeasurements();
        m_proxy->refresh();
        m_table->fitColumns(); // another device's numbers
        selectLayer(m_selectedLayer);
    });
    auto filterChanged = [this] {
        m_filter.convolutionsOnly = m_convOnly->isChecked();
        m_filter.topN = m_topN->value();
        m_charts->setFilter(m_filter);
        m_proxy->setLayerFilter(m_filter);
        markDirty();
    };
    connect(m_convOnly, &QCheckBox::toggled, this, filterChanged);
    connect(m_topN, &QSpinBox::valueChanged, this, filterChanged);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex& current) {
        if (!current.isValid())
            return;
        const int layer = m_proxy->mapToSource(current).row();
        if (layer != m_selectedLayer) {
            m_selectedLayer = layer;
            m_charts->setSelectedLayer(layer);
            updateExplain();
        }
    });
    return pane;
}

void MainWindow::buildMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Open session\u2026"), QKeySequence::Open, this, &MainWindow::openInteractive);
    file->addAction(tr("Open &model file\u2026"), QKeySequence(tr("Ctrl+Shift+O")), this, [this] { m_opener->chooseAndOpen(); })
        ->setToolTip(tr("Analyse your own network: an ONNX model (.onnx) or a JSON layer list. You can also drop the file on the window."));
    m_recentMenu = file->addMenu(tr("Open &recent"));
    rebuildRecentMenu();
    file->addAction(tr("&Save session"), QKeySequence::Save, this, [this] { saveInteractive(false); });
    file->addAction(tr("Save session &as\u2026"), QKeySequence::SaveAs, this, [this] { saveInteractive(true); });
    file->addSeparator();
    file->addAction(tr("&Export chart\u2026"), QKeySequence(tr("Ctrl+E")), this, &MainWindow::exportChartInteractive);
    file->addAction(tr("Export &table\u2026"), QKeySequence(tr("Ctrl+Shift+E")), this, &MainWindow::exportTableInteractive);
    file->addAction(tr("&Copy chart"), QKeySequence(tr("Ctrl+Shift+C")), this, &MainWindow::copyChart);
    file->addSeparator();
    file->addAction(tr("Import &measurements\u2026"), QKeySequence(tr("Ctrl+I")), this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Import measurements"), QString(),
            tr("Measurements (*.csv *.json);;All files (*)"));
        QString error;
        if (!path.isEmpty() && !importMeasurements(path, &error))
            QMessageBox::warning(this, tr("Import measurements"), error);
    });
    file->addAction(tr("C&lear measurements"), this, &MainWindow::clearMeasurements);
    file->addSeparator();
    file->addAction(tr("&Reload device files"), QKeySequence::Refresh, this, &MainWindow::reloadDevices);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* undo = m_undo->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    QAction* redo = m_undo->createRedoAction(this, tr("&Redo"));
    redo->setShortcut(QKeySequence::Redo);
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

    QMenu* tools = menuBar()->addMenu(tr("&Tools"));
    tools->addAction(tr("&Measure this machine\u2026"), this, [this] {
        QString summary;
        const QString id = measureThisMachine(MicrobenchOptions {}, raplPackageWatts(), &summary);
        if (!id.isEmpty())
            QMessageBox::information(this, tr("Measure this machine"), summary);
        else if (!summary.isEmpty())
            showStatus(summary, 10000);
    });

    QMenu* view = menuBar()->addMenu(tr("&View"));
    m_overlayAction = view->addAction(tr("&Overlay devices on one chart"));
    m_overlayAction->setCheckable(true);
    m_overlayAction->setShortcut(QKeySequence(tr("Ctrl+L")));
    connect(m_overlayAction, &QAction::toggled, m_charts, &ChartArea::setOverlay);
    connect(m_overlayAction, &QAction::toggled, this, &MainWindow::markDirty);
    QAction* shared = view->addAction(tr("&Shared axes across devices"));
    shared->setCheckable(true);
    shared->setToolTip(tr("Every device's chart with the same ranges and unit, so that devices compare by eye"));
    connect(shared, &QAction::toggled, m_charts, &ChartArea::setSharedAxes);
    QAction* labels = view->addAction(tr("&Name the layers that take 5 % of the time or more"));
    labels->setCheckable(true);
    labels->setChecked(true);
    connect(labels, &QAction::toggled, m_charts, [this](bool on) { m_charts->setLayerLabels(on ? 0.05 : 0); });
    QAction* powers = view->addAction(tr("Tick labels as &powers of ten"));
    powers->setCheckable(true);
    connect(powers, &QAction::toggled, m_charts, &ChartArea::setPowerTicks);
    view->addAction(tr("&Fit axes (and reset zoom)"), QKeySequence(tr("Ctrl+0")), m_charts, &ChartArea::fitAxes);
    QAction* conv = view->addAction(tr("Only &convolutions"));
    conv->setCheckable(true);
    conv->setShortcut(QKeySequence(tr("Ctrl+K")));
    connect(conv, &QAction::toggled, m_convOnly, &QCheckBox::setChecked);
    connect(m_convOnly, &QCheckBox::toggled, conv, &QAction::setChecked);
    view->addSeparator();
    for (QDockWidget* dock : findChildren<QDockWidget*>())
        view->addAction(dock->toggleViewAction());
    view->addSeparator();
    QAction* tableAction = view->addAction(tr("Layer &table"));
    tableAction->setCheckable(true);
    tableAction->setChecked(true);
    tableAction->setShortcut(QKeySequence(tr("Ctrl+Shift+T")));
    tableAction->setToolTip(tr("Show or hide the layer table (hidden, the charts take the whole height)"));
    tableAction->setObjectName(QStringLiteral("tableAction"));
    connect(tableAction, &QAction::toggled, this, [this](bool on) {
        if (auto* splitter = findChild<QSplitter*>(QStringLiteral("mainSplitter")))
            splitter->widget(1)->setVisible(on);
    });
    m_presentationAction = view->addAction(tr("&Presentation mode (large type)"));
    m_presentationAction->setCheckable(true);
    m_presentationAction->setShortcut(QKeySequence(tr("Ctrl+Shift+P")));
    connect(m_presentationAction, &QAction::toggled, this, &MainWindow::setPresentationMode);
    QAction* full = view->addAction(tr("F&ull screen"));
    full->setShortcut(QKeySequence::FullScreen);
    full->setCheckable(true);
    connect(full, &QAction::toggled, this, [this](bool on) { on ? showFullScreen() : showNormal(); });

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&Conventions"), QKeySequence::HelpContents, this, &MainWindow::showConventions);
    help->addAction(tr("Guided &tour of the roofline model"), QKeySequence(tr("Shift+F1")), this, &MainWindow::showTour);
    help->addAction(tr("Device &problems\u2026"), this, [this] {
        QString text;
        for (const Diagnostic& d : m_library.diagnostics)
            text += qs(toString(d)) + QLatin1Char('\n');
        QMessageBox::information(this, tr("Device files"),
            text.isEmpty() ? tr("Every device file loaded without problems.") : text);
    });
    help->addAction(tr("&About Roofline Explorer"), this, &MainWindow::showAbout);
}

void MainWindow::reloadDevices()
{
    std::vector<std::filesystem::path> dirs { shippedDeviceDir(QCoreApplication::applicationDirPath().toStdString()) };
    for (const QString& d : m_options.deviceDirs)
        dirs.emplace_back(d.toStdString());
    if (auto user = userDeviceDir(); !user.empty())
        dirs.push_back(user);
    m_library = loadDeviceLibrary(dirs);
    m_picker->setDevices(m_library.devices);
    m_picker->setChecked(m_deviceIds);
    if (m_report)
        recompute();
}

void MainWindow::restoreSettings(const GuiOptions& o)
{
    QSettings settings;
    Config config;
    QStringList devices { QStringLiteral("rtx-2060-super") };
    bool overlay = o.overlay;
    resize(1440, 900); // first start; a saved geometry replaces it
    if (!o.noRestore) {
        restoreGeometry(settings.value(QLatin1String(SettingsKey::Geometry)).toByteArray());
        restoreState(settings.value(QLatin1String(SettingsKey::State)).toByteArray(), SettingsKey::StateVersion);
        if (auto* splitter = findChild<QSplitter*>(QStringLiteral("mainSplitter")))
            splitter->restoreState(settings.value(QLatin1String(SettingsKey::Splitter)).toByteArray());
        // The configuration is stored as the command-line arguments that reproduce it.
        const QStringList saved = settings.value(QLatin1String(SettingsKey::Config)).toStringList();
        std::vector<std::string> args;
        for (const QString& a : saved)
            args.push_back(a.toStdString());
        ConfigOptions parsed;
        std::string error;
        if (!saved.isEmpty() && parseConfigArgs(args, parsed, error) && !validate(parsed.config))
            config = parsed.config;
        if (settings.contains(QLatin1String(SettingsKey::Devices)))
            devices = settings.value(QLatin1String(SettingsKey::Devices)).toStringList();
        overlay = overlay || settings.value(QLatin1String(SettingsKey::Overlay), false).toBool();
        m_convOnly->setChecked(settings.value(QLatin1String(SettingsKey::ConvOnly), false).toBool());
        m_topN->setValue(settings.value(QLatin1String(SettingsKey::TopN), 0).toInt());
    }
    if (o.configGiven) {
        config = o.config.config;
        if (!o.config.devices.empty()) {
            devices.clear();
            for (const std::string& id : o.config.devices) {
                if (id == "all") {
                    devices.clear();
                    for (const Device& d : m_library.devices)
                        devices.append(qs(d.id));
                    break;
                }
                devices.append(qs(id));
            }
        }
    }
    QStringList unknown;
    for (const QString& id : devices)
        if (!m_library.find(id.toStdString()))
            unknown.append(id);
    if (!unknown.isEmpty())
        showStatus(tr("Unknown device id(s) ignored: %1").arg(unknown.join(QStringLiteral(", "))), 10000);
    m_config = config;
    m_controls->setConfig(config);
    m_deviceIds = devices;
    m_picker->setChecked(devices);
    m_deviceIds = m_picker->checked();
    m_overlayAction->setChecked(overlay);
}

void MainWindow::saveSettings() const
{
    QSettings settings;
    settings.setValue(QLatin1String(SettingsKey::Geometry), saveGeometry());
    settings.setValue(QLatin1String(SettingsKey::State), saveState(SettingsKey::StateVersion));
    if (auto* splitter = findChild<QSplitter*>(QStringLiteral("mainSplitter")))
        settings.setValue(QLatin1String(SettingsKey::Splitter), splitter->saveState());
    QStringList args;
    for (const std::string& a : configToArgs(m_config))
        args.append(qs(a));
    settings.setValue(QLatin1String(SettingsKey::Config), args);
    settings.setValue(QLatin1String(SettingsKey::Devices), m_deviceIds);
    settings.setValue(QLatin1String(SettingsKey::Overlay), m_charts->overlay());
    settings.setValue(QLatin1String(SettingsKey::ConvOnly), m_filter.convolutionsOnly);
    settings.setValue(QLatin1String(SettingsKey::TopN), m_filter.topN);
}

void MainWindow::showStatus(const QString& message, int timeoutMs)
{
    // QStatusBar hides its normal widgets (the analysis line) for a message only if they are visible at
    // that moment: a message given before the window is shown (an unknown device id on the command line,
    // a measurement file) was drawn over that line. Such a message waits for the window to show.
    if (!isVisible()) {
        m_pendingStatus = { message, timeoutMs };
        return;
    }
    statusBar()->showMessage(message, timeoutMs);
}

void MainWindow::showEvent(QShowEvent* event)
{
    QMainWindow::showEvent(event); // children, the analysis line among them, are visible by now
    if (m_pendingStatus) {
        const auto [message, timeoutMs] = *std::exchange(m_pendingStatus, std::nullopt);
        statusBar()->showMessage(message, timeoutMs);
    }
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (m_options.screenshot.isEmpty() && !maybeSave()) {
        event->ignore();
        return;
    }
    if (m_options.screenshot.isEmpty())
        saveSettings();
    event->accept();
}

QMenu* MainWindow::layerAlgorithmMenu(int layer)
{
    if (!m_report || m_report->results.empty())
        return nullptr;
    const auto& layers = m_report->results.front().layers;
    if (layer < 0 || size_t(layer) >= layers.size() || !runsOnMatrixUnits(layers[size_t(layer)].op))
        return nullptr;
    const std::string name = layers[size_t(layer)].name;
    auto* menu = new QMenu(this);
    menu->setTitle(tr("Algorithm for %1").arg(QString::fromStdString(name)));
    menu->addSection(tr("Algorithm for %1").arg(QString::fromStdString(name)));
    auto* group = new QActionGroup(menu);
    const auto own = m_config.layerAlgorithms.find(name);
    QAction* global = menu->addAction(tr("As the global setting (%1)").arg(QString::fromUtf8(algorithmName(m_config.algorithm).data())));
    global->setCheckable(true);
    global->setChecked(own == m_config.layerAlgorithms.end());
    group->addAction(global);
    connect(global, &QAction::triggered, this, [this, name] {
        Config c = m_config;
        c.layerAlgorithms.erase(name);
        setConfig(c);
    });
    for (ConvAlgorithm a : { ConvAlgorithm::Direct, ConvAlgorithm::Im2col, ConvAlgorithm::Fft, ConvAlgorithm::Winograd2,
             ConvAlgorithm::Winograd4, ConvAlgorithm::Auto }) {
        QAction* act = menu->addAction(QString::fromUtf8(algorithmName(a).data()));
        act->setCheckable(true);
        act->setChecked(own != m_config.layerAlgorithms.end() && own->second == a);
        act->setObjectName(QStringLiteral("algorithm-%1").arg(QString::fromUtf8(algorithmName(a).data())));
        group->addAction(act);
        connect(act, &QAction::triggered, this, [this, name, a] {
            Config c = m_config;
            c.layerAlgorithms[name] = a;
            setConfig(c);
        });
    }
    return menu;
}

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

void MainWindow::loadPreset(int preset)
{
    Config c;
    QStringList devices { QStringLiteral("rtx-2060-super") };
    if (preset == 1) {
        // Salim et al. 2022: the balanced choice is the RTX 2060 Super with batch 16, 128x128 images,
        // 32-bit numbers; same padding keeps 128x128 valid. Shown against the study's three GPUs.
        c.unet.height = c.unet.width = 128;
        c.unet.padding = Padding::Same;
        c.batch = 16;
        c.bits = 32;
        devices = kStudyDevices;
    } else if (preset == 2) {
        // Castro et al., CCPE 2018 (doi 10.1002/cpe.4786): training a ResNet and an AlexNet-class network
        // on two Maxwell and two Pascal Titan X, batch 64, 128 and 256, PCIe 3.0. ResNet-50 at 224 x 224
        // here; the Network selector switches to AlexNet and the recommendations follow.
        const ModelInfo* m = findModel("resnet50");
        c.model = "resnet50";
        c.unet.height = m->height;
        c.unet.width = m->width;
        c.unet.inChannels = m->channels;
        c.unet.classes = m->classes;
        c.mode = Mode::Training;
        c.batch = 64;
        c.interconnect = "pcie3-x16";
        devices = { QStringLiteral("titan-x-maxwell"), QStringLiteral("titan-x-pascal") };
        TuneRanges r;
        r.batchMin = 64;
        r.batchMax = 256;
        r.gpusMax = 2;
        r.clockMin = 50;
        m_energy->setRanges(r);
        m_energyDock->show();
        // After the layout settles: a dock resized before it is shown keeps its old height.
        QTimer::singleShot(0, this, [this] { resizeDocks({ m_energyDock }, { height() / 2 }, Qt::Vertical); });
    }
    m_controls->setConfig(c);
    m_config = c;
    m_deviceIds = devices;
    m_picker->setChecked(devices);
    recompute();
    pushState();
}

void MainWindow::updateEnergy()
{
    if (!m_energyDock->isVisible())
        return;
    std::vector<Device> devices;
    for (const QString& id : m_deviceIds)
        if (const Device* d = m_library.find(id.toStdString()))
            devices.push_back(*d);
    m_energy->setInputs(m_config, devices);
}

bool MainWindow::importMeasurements(const QString& path, QString* error)
{
    MeasurementSet set = loadMeasurements(path.toStdString());
    if (!set.ok()) {
        QStringList lines;
        for (const Diagnostic& d : set.diagnostics)
            if (lines.size() < 8)
                lines << qs(toString(d));
        if (error)
            *error = tr("%1 is not a measurement file the app reads:\n%2\n\nFormats: a plain CSV with layer,time_s[,flops,bytes]; "
                        "ncu --csv (details page); a PyTorch profiler trace (export_chrome_trace).")
                         .arg(path, lines.join(QLatin1Char('\n')));
        return false;
    }
    m_measurements = std::move(set);
    updateMeasurements();
    return true;
}

void MainWindow::clearMeasurements()
{
    m_measurements.reset();
    updateMeasurements();
}

void MainWindow::updateMeasurements()
{
    const int device = m_tableDevice->currentIndex();
    const bool shown = m_measurements && m_report && device >= 0 && device < int(m_report->results.size());
    for (int column : { int(LayerTableModel::Measured), int(LayerTableModel::OfBound), int(LayerTableModel::Error) })
        if (m_table->isColumnHidden(column) == shown)
            m_table->setColumnHidden(column, !shown);
    if (!shown) {
        m_model->setComparison(std::nullopt);
        m_charts->clearMeasured();
        m_measurementsStatus.clear();
        m_measuredLabel->setVisible(false);
        return;
    }
    const DeviceResult& r = m_report->results[size_t(device)];
    const Comparison c = compareMeasurements(*m_measurements, r);
    m_model->setComparison(c);
    m_charts->setMeasured(device, c);
    m_measurementsStatus = tr("Measured: %1 (%2), %3 layers mapped %4 onto %5; %6 of the bound reached%7")
                               .arg(QFileInfo(qs(m_measurements->file)).fileName(),
                                   qs(std::string(measurementFormatName(m_measurements->format))))
                               .arg(c.layers.size())
                               .arg(qs(c.mapping), qs(r.device.name),
                                   qs(formatPercent(c.measuredTotal > 0 ? c.boundTotal / c.measuredTotal : 0)),
                                   c.unmatched.empty() ? QString() : tr("; %n row(s) did not map", "", int(c.unmatched.size())));
    m_measuredLabel->setText(m_measurementsStatus);
    QStringList tip;
    for (size_t i = 0; i < c.unmatched.size() && i < 30; ++i)
        tip << qs(c.unmatched[i]);
    m_measuredLabel->setToolTip(tip.isEmpty() ? tr("Every measured row mapped to a layer")
                                              : tr("Did not map:\n%1").arg(tip.join(QLatin1Char('\n'))));
    m_measuredLabel->setVisible(true);
}

QString MainWindow::measureThisMachine(const MicrobenchOptions& options, double tdpWatts, QString* summary)
{
    auto say = [&](const QString& text) {
        if (summary)
            *summary = text;
    };
    if (tdpWatts <= 0) {
        bool ok = false;
        tdpWatts = QInputDialog::getDouble(this, tr("Measure this machine"),
            tr("The CPU's TDP in watts, for the energy model (power cannot be measured here; the device file says so "
               "and can be edited later):"),
            65, 1, 10000, 0, &ok);
        if (!ok) {
            say(tr("Measuring cancelled"));
            return {};
        }
    }
    QProgressDialog dialog(tr("Measuring this machine\u2026"), tr("Cancel"), 0, 1000, this);
    dialog.setWindowTitle(tr("Measure this machine"));
    dialog.setWindowModality(Qt::WindowModal);
    dialog.setMinimumDuration(0);
    dialog.setValue(0);
    std::atomic<int> permille { 0 };
    std::atomic<bool> cancel { false };
    std::mutex stageLock;
    std::string stage = "starting";
    std::optional<MicrobenchResult> result;
    // The benchmarks run on their own thread (they load every core); this one keeps the dialog alive.
    std::unique_ptr<QThread> worker(QThread::create([&] {
        result = runMicrobenchmarks(options, [&](double fraction, const std::string& what) {
            permille = int(fraction * 1000);
            const std::lock_guard<std::mutex> lock(stageLock);
            stage = what;
            return !cancel.load();
        });
    }));
    QEventLoop loop;
    connect(worker.get(), &QThread::finished, &loop, &QEventLoop::quit);
    connect(&dialog, &QProgressDialog::canceled, &loop, [&] { cancel = true; });
    QTimer poll;
    poll.setInterval(50);
    connect(&poll, &QTimer::timeout, &dialog, [&] {
        dialog.setValue(permille.load());
        const std::lock_guard<std::mutex> lock(stageLock);
        dialog.setLabelText(tr("Measuring this machine: %1").arg(qs(stage)));
    });
    worker->start();
    poll.start();
    if (!worker->isFinished())
        loop.exec();
    worker->wait();
    poll.stop();
    dialog.reset();
    if (!result) {
        say(cancel ? tr("Measuring cancelled; no device file written") : tr("Measuring failed: the benchmark arrays did not fit in memory"));
        return {};
    }
    const MicrobenchResult& r = *result;
    const std::string id = "this-machine";
    const std::string text = microbenchDeviceJson(r, id, r.cpuName + " (measured)", tdpWatts);
    const std::filesystem::path dir = userDeviceDir();
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    const QString path = qs((dir / (id + ".json")).string());
    QSaveFile out(path); // atomic
    if (!out.open(QIODevice::WriteOnly) || out.write(text.c_str(), qint64(text.size())) < 0 || !out.commit()) {
        say(tr("%1: cannot write: %2").arg(path, out.errorString()));
        return {};
    }
    reloadDevices();
    QStringList ids = m_deviceIds;
    if (!ids.contains(qs(id)))
        ids.append(qs(id));
    setDevices(ids);
    auto line = [&](const QString& what, const BenchFigure& f, const char* unit) {
        return tr("%1: %2 (repeats within %3)").arg(what, qs(formatSI(f.best, unit)), qs(formatPercent(f.spread)));
    };
    say(tr("%1, %2 threads, %3, in %4:\n%5\n%6\n%7\n%8\n%9\n\nWritten to %10 as device \u201cthis-machine\u201d.")
            .arg(qs(r.cpuName))
            .arg(r.threads)
            .arg(qs(r.isa), qs(formatTime(r.seconds)), line(tr("FP32 peak"), r.fp32, "FLOP/s"),
                line(tr("FP64 peak"), r.fp64, "FLOP/s"), line(tr("L1 read"), r.l1, "B/s"), line(tr("L2 read"), r.l2, "B/s"),
                line(tr("DRAM triad"), r.dram, "B/s"))
            .arg(path));
    return qs(id);
}

void MainWindow::updateLevelColumns()
{
    // Per-level intensities exist only under the tiled model, on devices whose file gives L2 / L1 bandwidths.
    const DeviceResult* shown = m_model->deviceResult();
    const bool l2 = shown && shown->l2Bandwidth > 0, l1 = shown && shown->l1Bandwidth > 0;
    if (m_table->isColumnHidden(LayerTableModel::IntensityL2) == l2)
        m_table->setColumnHidden(LayerTableModel::IntensityL2, !l2);
    if (m_table->isColumnHidden(LayerTableModel::IntensityL1) == l1)
        m_table->setColumnHidden(LayerTableModel::IntensityL1, !l1);
}

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
    m_status->setText(tr("\u26a0 %1: %2").arg(QFileInfo(path).fileName(), reason));
}

void MainWindow::updateTableDevices()
{
    const QString current = m_tableDevice->currentData().toString();
    QStringList ids;
    for (const DeviceResult& d : m_report->results)
        ids.append(qs(d.device.id));
    QStringList existing;
    for (int i = 0; i < m_tableDevice->count(); ++i)
        existing.append(m_tableDevice->itemData(i).toString());
    if (existing == ids)
        return;
    const QSignalBlocker block(m_tableDevice);
    m_tableDevice->clear();
    for (const DeviceResult& d : m_report->results)
        m_tableDevice->addItem(qs(d.device.name), qs(d.device.id));
    const int keep = int(ids.indexOf(current));
    m_tableDevice->setCurrentIndex(keep >= 0 ? keep : 0);
}

void MainWindow::recompute()
{
    QElapsedTimer timer;
    timer.start();
    std::vector<Device> devices;
    for (const QString& id : m_deviceIds)
        if (const Device* d = m_library.find(id.toStdString()))
            devices.push_back(*d);

    AnalysisOutcome outcome = analyzeConfig(m_config, devices);
    if (!outcome.report && isNetworkFile(m_config.model) && (!m_report || m_report->config.model != m_config.model)) {
        refuseNetworkFile(qs(outcome.error)); // a file just chosen that cannot be used: the window stays as it was
        return;
    }
    if (!outcome.report) {
        QList<int> suggestions;
        if (auto err = validate(m_config); !err && m_config.model == "unet") {
            const UNetParams& u = m_config.unet;
            const int extent = unetOutputExtent(u.height, u) ? u.width : u.height;
            const NearestExtents n = nearestWorkingExtents(extent, u);
            for (int s : { n.below, n.above })
                if (s > 0)
                    suggestions.append(s);
        }
        m_controls->showProblem(qs(outcome.error), suggestions, m_report.has_value());
        // Nothing worked yet: said where the charts would be; otherwise a banner over the stale charts.
        m_charts->setProblem(qs(outcome.error), m_report ? qs(reportTitle(*m_report)) : QString());
        m_status->setText(tr("\u26a0 %1").arg(qs(outcome.error)));
        return;
    }
    m_controls->clearProblem();
    m_charts->setProblem(QString());
    m_report = std::move(outcome.report);
    updateEnergy();
    const qint64 analysisNs = timer.nsecsElapsed();

    m_charts->setReport(*m_report);
    updateTableDevices();
    if (m_tour && m_tourDock->isVisible()) { // the tour's figures follow the sliders
        m_tour->updatePages(tourPages(*m_report, tourDevice()));
        updateTourHighlight();
    }
    m_model->setReport(*m_report, m_tableDevice->currentIndex());
    m_proxy->refresh();
    // The algorithm columns say something only once an algorithm is chosen: all "direct" and empty
    // otherwise, and three fewer columns of text to paint on every slider step.
    const bool algorithms = m_config.algorithm != ConvAlgorithm::Direct || !m_config.layerAlgorithms.empty();
    for (int column : { int(LayerTableModel::Algorithm), int(LayerTableModel::Extra), int(LayerTableModel::Workspace) })
        if (m_table->isColumnHidden(column) == algorithms)
            m_table->setColumnHidden(column, !algorithms);
    updateLevelColumns();
    updateMeasurements();
    // Columns to their content when the rows change in kind (network, table device, mode, the
    // columns shown); not on every slider step, which would cost more than the analysis: between
    // those, the table widens a column whose number no longer fits (LayerTable).
    const QString rowsKind = QStringLiteral("%1|%2|%3|%4|%5")
                                 .arg(qs(m_config.model), m_tableDevice->currentData().toString())
                                 .arg(int(m_config.mode))
                                 .arg(algorithms)
                                 .arg(m_model->rowCount());
    if (rowsKind != m_rowsKind) {
        m_table->fitColumns();
        m_rowsKind = rowsKind;
    }
    if (m_selectedLayer >= 0 && !m_report->results.empty() && m_selectedLayer >= int(m_report->results[0].layers.size()))
        m_selectedLayer = -1;
    selectLayer(m_selectedLayer);

    const Report& r = *m_report;
    QString status = QStringLiteral("%1 \u00b7 %2 convolutions \u00b7 %3 parameters \u00b7 analysed in %4")
                         .arg(qs(reportTitle(r)))
                         .arg(r.convolutions)
                         .arg(qs(formatCount(r.results.empty() ? 0 : r.results[0].totals.params)))
                         .arg(qs(formatTime(double(analysisNs) * 1e-9, true)));
    if (r.uncountedRows > 0)
        status += tr(" \u00b7 \u26a0 %n row(s) not counted (unknown operators)", "", r.uncountedRows);
    m_status->setText(status);
    // Notes (ceiling fallbacks, device file problems): listed in the Devices panel, beside the
    // devices; the status bar's button counts them and opens that list.
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
    updateExplain();
    if (layer < 0) {
        m_table->clearSelection();
        return;
    }
    const QModelIndex proxyIndex = m_proxy->mapFromSource(m_model->index(layer, 0));
    if (proxyIndex.isValid()) {
        m_table->selectionModel()->setCurrentIndex(
            proxyIndex, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        m_table->scrollTo(proxyIndex);
    }
}

void MainWindow::pushState()
{
    const State now { m_config, m_deviceIds };
    if (m_applyingState || now == m_state)
        return;
    // A change from the panel names its control; any other (devices, presets, sessions) names none.
    const QObject* source = now.devices == m_state.devices ? m_controls->lastEdited() : nullptr;
    m_undo->push(new StateCommand(this, m_state, now, source));
    m_state = now;
    markDirty();
}

void MainWindow::applyState(const State& state)
{
    m_applyingState = true;
    m_config = state.config;
    m_controls->setConfig(state.config);
    m_deviceIds = state.devices;
    m_picker->setChecked(state.devices);
    recompute();
    m_state = state;
    m_applyingState = false;
    markDirty();
}

void MainWindow::markDirty()
{
    m_dirty = true;
    updateTitle();
}

void MainWindow::updateTitle()
{
    const QString name = m_sessionPath.isEmpty() ? tr("Untitled") : QFileInfo(m_sessionPath).fileName();
    setWindowTitle(tr("%1[*] \u2014 Roofline Explorer").arg(name));
    setWindowModified(m_dirty && !m_sessionPath.isEmpty());
}

bool MainWindow::maybeSave()
{
    // Without a session file nothing is lost on quitting: the configuration is restored at the next
    // start. With one, unsaved changes to it are.
    if (m_sessionPath.isEmpty() || !m_dirty)
        return true;
    const auto answer = QMessageBox::warning(this, tr("Unsaved changes"),
        tr("%1 has unsaved changes. Save them?").arg(QFileInfo(m_sessionPath).fileName()),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Cancel)
        return false;
    if (answer == QMessageBox::Save)
        return saveInteractive(false);
    return true;
}

Session MainWindow::currentSession() const
{
    Session s;
    s.config = m_config;
    for (const QString& id : m_deviceIds)
        s.devices.push_back(id.toStdString());
    s.overlay = m_charts->overlay();
    s.filter = m_filter;
    s.tableDevice = m_tableDevice->currentData().toString().toStdString();
    return s;
}

bool MainWindow::saveSession(const QString& path, QString* error)
{
    QSaveFile file(path); // atomic: the old session stays intact until the new one is complete
    if (!file.open(QIODevice::WriteOnly) || file.write(QByteArray::fromStdString(sessionToJson(currentSession()))) < 0
        || !file.commit()) {
        if (error)
            *error = QStringLiteral("%1: %2").arg(path, file.errorString());
        return false;
    }
    m_sessionPath = path;
    m_dirty = false;
    m_undo->setClean();
    addRecent(path);
    updateTitle();
    return true;
}

bool MainWindow::openSession(const QString& path, QString* error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        if (error)
            *error = QStringLiteral("%1: %2").arg(path, file.errorString());
        return false;
    }
    if (file.size() > qint64(kMaxSessionBytes)) {
        if (error)
            *error = QStringLiteral("%1: larger than 1 MiB; not a session").arg(path);
        return false;
    }
    std::string why;
    const auto session = sessionFromJson(file.readAll().toStdString(), why);
    if (!session) {
        if (error)
            *error = QStringLiteral("%1: %2").arg(path, qs(why));
        return false; // nothing was changed
    }
    m_applyingState = true;
    m_config = session->config;
    m_controls->setConfig(session->config);
    m_deviceIds.clear();
    for (const std::string& d : session->devices)
        m_deviceIds.append(qs(d));
    m_picker->setChecked(m_deviceIds);
    m_overlayAction->setChecked(session->overlay);
    m_convOnly->setChecked(session->filter.convolutionsOnly);
    m_topN->setValue(session->filter.topN);
    recompute();
    if (const int i = m_tableDevice->findData(qs(session->tableDevice)); i >= 0)
        m_tableDevice->setCurrentIndex(i);
    m_state = { m_config, m_deviceIds };
    m_applyingState = false;
    m_undo->clear();
    m_sessionPath = path;
    m_dirty = false;
    addRecent(path);
    updateTitle();
    return true;
}

void MainWindow::addRecent(const QString& path)
{
    QSettings settings;
    QStringList recent = settings.value(QLatin1String(SettingsKey::Recent)).toStringList();
    const QString abs = QFileInfo(path).absoluteFilePath();
    recent.removeAll(abs);
    recent.prepend(abs);
    while (recent.size() > kMaxRecent)
        recent.removeLast();
    settings.setValue(QLatin1String(SettingsKey::Recent), recent);
    settings.setValue(QLatin1String(SettingsKey::LastDir), QFileInfo(abs).absolutePath());
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu()
{
    if (!m_recentMenu)
        return;
    m_recentMenu->clear();
    const QStringList recent = QSettings().value(QLatin1String(SettingsKey::Recent)).toStringList();
    for (const QString& path : recent) {
        m_recentMenu->addAction(QFileInfo(path).fileName(), this, [this, path] {
            if (ModelOpener::isModelPath(path)) {
                m_opener->open(path); // a model file: it joins the current work (undo takes it back)
                return;
            }
            if (!maybeSave())
                return;
            QString error;
            if (!openSession(path, &error))
                QMessageBox::warning(this, tr("Cannot open session"), tr("%1\n\nYour current work is unchanged.").arg(error));
        })->setToolTip(path);
    }
    m_recentMenu->setEnabled(!recent.isEmpty());
}

// Dropping a model file analyses it; dropping a session opens it (after asking to save).
void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    if (urls.size() == 1 && urls.front().isLocalFile())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event)
{
    const QString path = event->mimeData()->urls().value(0).toLocalFile();
    event->acceptProposedAction();
    if (path.endsWith(QLatin1String(".rfx.json"))) {
        QString error;
        if (maybeSave() && !openSession(path, &error))
            QMessageBox::warning(this, tr("Cannot open session"), tr("%1\n\nYour current work is unchanged.").arg(error));
        return;
    }
    m_opener->open(path); // a model, or a message saying what the window opens
}

void MainWindow::openInteractive()
{
    if (!maybeSave())
        return;
    const QString dir = QSettings().value(QLatin1String(SettingsKey::LastDir)).toString();
    const QString path = QFileDialog::getOpenFileName(this, tr("Open session"), dir, tr("Roofline Explorer sessions (*.rfx.json);;JSON (*.json)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!openSession(path, &error))
        QMessageBox::warning(this, tr("Cannot open session"), tr("%1\n\nYour current work is unchanged.").arg(error));
}

bool MainWindow::saveInteractive(bool saveAs)
{
    QString path = m_sessionPath;
    if (saveAs || path.isEmpty()) {
        const QString dir = QSettings().value(QLatin1String(SettingsKey::LastDir)).toString();
        path = QFileDialog::getSaveFileName(this, tr("Save session"), QDir(dir).filePath(QStringLiteral("roofline.rfx.json")),
            tr("Roofline Explorer sessions (*.rfx.json)"));
        if (path.isEmpty())
            return false;
        if (!path.endsWith(QLatin1String(".json")))
            path += QStringLiteral(".rfx.json");
    }
    QString error;
    if (!saveSession(path, &error)) {
        QMessageBox::warning(this, tr("Cannot save session"), error);
        return false;
    }
    showStatus(tr("Saved %1").arg(path), 5000);
    return true;
}

FigureSpec MainWindow::currentFigure() const
{
    FigureSpec s;
    s.config = m_config;
    if (m_report)
        for (const DeviceResult& d : m_report->results)
            s.devices.push_back(d.device.id);
    s.overlay = m_charts->overlay();
    s.sharedAxes = m_charts->sharedAxes();
    s.powerTicks = m_charts->powerTicks();
    s.filter = m_filter;
    const int device = m_tableDevice->currentIndex();
    if (m_measurements && m_report && device >= 0 && device < int(m_report->results.size())) {
        s.measurements = m_measurements->file; // the figure shows the diamonds the window shows
        s.measuredDevice = m_report->results[size_t(device)].device.id;
    }
    return s;
}

void MainWindow::exportChartInteractive()
{
    if (!m_report || m_report->results.empty()) {
        QMessageBox::information(this, tr("Export chart"), tr("Check a device first: there is no chart to export."));
        return;
    }
    const QString dir = QSettings().value(QLatin1String(SettingsKey::LastDir), QDir::homePath()).toString();
    ExportDialog dialog(QDir(dir).filePath(QStringLiteral("roofline.png")), this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    FigureSpec spec = dialog.spec();
    const FigureSpec view = currentFigure();
    spec.config = view.config;
    spec.devices = view.devices;
    spec.overlay = view.overlay;
    spec.sharedAxes = view.sharedAxes;
    spec.powerTicks = view.powerTicks;
    spec.measurements = view.measurements;
    spec.measuredDevice = view.measuredDevice;
    spec.filter = view.filter;
    const RenderResult r = renderFigure(*m_report, spec);
    if (!r.ok) {
        QMessageBox::warning(this, tr("Cannot export chart"), r.error);
        return;
    }
    QSettings().setValue(QLatin1String(SettingsKey::LastDir), QFileInfo(qs(spec.file)).absolutePath());
    showStatus(tr("Exported %1").arg(qs(spec.file)), 8000);
}

bool MainWindow::exportTable(const QString& path, QString* error)
{
    if (!m_report) {
        if (error)
            *error = tr("nothing to export");
        return false;
    }
    const QString ext = QFileInfo(path).suffix().toLower();
    std::string text;
    if (ext == QLatin1String("csv"))
        text = reportToCsv(*m_report);
    else if (ext == QLatin1String("json"))
        text = reportToJson(*m_report);
    else if (ext == QLatin1String("md") || ext == QLatin1String("markdown"))
        text = reportToMarkdown(*m_report);
    else if (ext == QLatin1String("tex"))
        text = reportToLatex(*m_report);
    else {
        if (error)
            *error = tr("%1: unknown table format; use .csv, .json, .md or .tex").arg(path);
        return false;
    }
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(QByteArray::fromStdString(text)) < 0 || !file.commit()) {
        if (error)
            *error = QStringLiteral("%1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

void MainWindow::exportTableInteractive()
{
    const QString dir = QSettings().value(QLatin1String(SettingsKey::LastDir), QDir::homePath()).toString();
    const QString path = QFileDialog::getSaveFileName(this, tr("Export table"), QDir(dir).filePath(QStringLiteral("roofline.csv")),
        tr("CSV (*.csv);;JSON (*.json);;Markdown (*.md);;LaTeX booktabs (*.tex)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!exportTable(path, &error))
        QMessageBox::warning(this, tr("Cannot export table"), error);
    else
        showStatus(tr("Exported %1").arg(path), 8000);
}

void MainWindow::copyChart()
{
    if (!m_report || m_report->results.empty())
        return;
    FigureSpec spec = currentFigure();
    spec.widthIn = 7;
    spec.dpi = 200;
    QApplication::clipboard()->setImage(renderFigureImage(*m_report, spec));
    showStatus(tr("Chart copied to the clipboard"), 4000);
}

void MainWindow::updateExplain()
{
    if (!m_explainDock->isVisible() || !m_report || m_report->results.empty()) {
        return;
    }
    const int device = std::max(0, m_tableDevice->currentIndex());
    if (m_selectedLayer < 0) {
        m_explain->setHtml(explainOverview(*m_report, device));
        return;
    }
    const BuildResult built = buildNetwork(m_config);
    if (built.network)
        m_explain->setHtml(explainLayer(*m_report, device, m_selectedLayer, *built.network));
}

void MainWindow::showTour()
{
    if (!m_report || m_report->results.empty()) {
        QMessageBox::information(this, tr("Guided tour"), tr("Check a device first: the tour uses its roofline."));
        return;
    }
    // A panel docked beside the charts, not a dialog over them: each page marks on the chart what
    // it explains (slope, roof, ridge, the layer taking the most time) and stays with the window.
    if (!m_tour) {
        m_tour = new TourPanel;
        m_tourDock = new QDockWidget(tr("Guided tour"), this);
        m_tourDock->setObjectName(QStringLiteral("tourDock"));
        m_tourDock->setWidget(m_tour);
        addDockWidget(Qt::RightDockWidgetArea, m_tourDock);
        connect(m_tour, &TourPanel::pageChanged, this, [this](int) { updateTourHighlight(); });
        connect(m_tour, &TourPanel::closeRequested, m_tourDock, &QDockWidget::close);
        connect(m_tourDock, &QDockWidget::visibilityChanged, this, [this](bool) { updateTourHighlight(); });
    }
    m_tour->setPages(tourPages(*m_report, tourDevice()));
    m_tourDock->show();
    m_tourDock->raise();
    resizeDocks({ m_tourDock }, { std::max(320, width() / 4) }, Qt::Horizontal);
    updateTourHighlight();
}

int MainWindow::tourDevice() const
{
    // The device of the chart the marks go on: the table's in a grid, the overlay's first.
    return m_charts->overlay() ? 0 : std::max(0, m_tableDevice->currentIndex());
}

void MainWindow::updateTourHighlight()
{
    const bool on = m_tour && m_tourDock->isVisible() && m_report && !m_report->results.empty();
    const std::vector<RooflineChart*> charts = m_charts->charts();
    const size_t target = m_charts->overlay() ? 0 : size_t(tourDevice());
    for (size_t i = 0; i < charts.size(); ++i) {
        RooflineChart::Highlight what = RooflineChart::Highlight::None;
        if (on && i == target) {
            static constexpr RooflineChart::Highlight kPages[] = { RooflineChart::Highlight::Slope,
                RooflineChart::Highlight::Roof, RooflineChart::Highlight::Ridge, RooflineChart::Highlight::Layer };
            what = kPages[std::clamp(m_tour->page(), 0, 3)];
        }
        charts[i]->setHighlight(what, on ? tourLayer(*m_report, tourDevice()) : -1);
    }
}

void MainWindow::setPresentationMode(bool on)
{
    // Everything 1.5x larger for a projector: widgets, table, and the charts' text.
    m_presentation = on;
    QFont f = m_baseFont;
    if (on)
        f.setPointSizeF(m_baseFont.pointSizeF() * 1.5);
    QApplication::setFont(f);
    m_charts->setFontScale(on ? 1.5 : 1.0);
    // On a projector's 720 or 1080 lines the charts need the height: the table steps aside (View >
    // Layer table brings it back) unless the window is tall, and returns with normal type.
    if (auto* table = findChild<QAction*>(QStringLiteral("tableAction"))) {
        if (on && height() <= 1000 && table->isChecked()) {
            table->setChecked(false);
            m_tableHiddenForPresentation = true;
            if (isVisible()) // at start-up (--presentation) the View menu says it
                showStatus(tr("Layer table hidden for the presentation: View \u25b8 Layer table (Ctrl+Shift+T) shows it"), 10000);
        } else if (!on && m_tableHiddenForPresentation) {
            table->setChecked(true);
            m_tableHiddenForPresentation = false;
        }
    }
    // The panel as wide as its larger controls need, up to half the window (it scrolls beyond).
    QTimer::singleShot(0, this, [this] {
        if (auto* dock = findChild<QDockWidget*>(QStringLiteral("configurationDock"))) {
            // The panel, its vertical scroll bar and the dock's frame, so that no horizontal bar appears.
            const int extra = style()->pixelMetric(QStyle::PM_ScrollBarExtent) + 2 * style()->pixelMetric(QStyle::PM_DockWidgetFrameWidth) + 12;
            const int wanted = std::min(m_controls->sizeHint().width() + extra, width() / 2);
            dock->setMinimumWidth(std::max(wanted, 200));
            resizeDocks({ dock }, { wanted }, Qt::Horizontal);
        }
    });
}

void MainWindow::showConventions()
{
    QMessageBox box(this);
    box.setWindowTitle(tr("Conventions"));
    box.setTextFormat(Qt::RichText);
    box.setText(tr("<h3>How Roofline Explorer counts</h3>"
                   "<p><b>FLOP</b>: one floating-point operation; a fused multiply-add counts 2.<br>"
                   "<b>Convolution</b>: 2\u00b7N\u00b7Cout\u00b7Hout\u00b7Wout\u00b7(Cin/groups)\u00b7Kh\u00b7Kw. "
                   "<b>Transposed convolution</b>: counted at input positions (equal to the output count when "
                   "kernel = stride).<br>"
                   "<b>Elementwise rows</b>: bias 1, ReLU 1, batch norm 2 FLOP per element; max-pool k\u00b2\u22121 per "
                   "output; concat 0.</p>"
                   "<p><b>Bytes</b>: compulsory DRAM traffic per layer: inputs and weights read once, output written "
                   "once; element size = bits/8.<br><b>Intensity</b> I = FLOPs/bytes.</p>"
                   "<p><b>Roofline</b>: attainable P(I) = min(P<sub>peak</sub>, I\u00b7B); ridge I* = P<sub>peak</sub>/B; "
                   "memory-bound if I &lt; I*. Layer time = max(F/P<sub>peak</sub>, Q/B); network time = sum.</p>"
                   "<p><b>Training</b>: forward + backward (a convolution's data and weight gradients each cost its "
                   "forward FLOPs) + an optimizer step over the parameters.</p>"
                   "<p>Memory in GiB (2<sup>30</sup> bytes); traffic and bandwidth in decimal GB.</p>"));
    box.exec();
}

void MainWindow::showAbout()
{
    QMessageBox::about(this, tr("About Roofline Explorer"),
        tr("<h3>Roofline Explorer %1</h3><p>Where a convolutional network's time goes on a GPU or CPU, and why: "
           "per-layer FLOPs, bytes and arithmetic intensity held against each device's roofline.</p>"
           "<p>Built on the classic U-Net (Ronneberger et al. 2015) and the devices of three studies: Salim et al. "
           "2022 (U-Net roofline analysis), Li et al. 2016 (GPU CNN performance), Castro et al. (energy-based "
           "tuning on multi-GPUs).</p>")
            .arg(QString::fromLatin1(kVersion)));
}

} // namespace rfx
