// MainWindow, second file: the work as a value (a session, a figure, the settings kept between
// runs), the window's events (close, drops, status messages) and the entry points of the parts
// beside it. mainwindow.cpp has the composition and the loop; mainwindow_menus.cpp the menu bar.
#include "window/mainwindow.h"

#include "chart/chartarea.h"
#include "features/calibrationview.h"
#include "features/exportcontroller.h"
#include "features/measurementsview.h"
#include "features/thislanguagemodel.h"
#include "features/thismachine.h"
#include "features/thisnetwork.h"
#include "panels/algorithmmenu.h"
#include "panels/controlpanel.h"
#include "panels/devicepicker.h"
#include "panels/energyview.h"
#include "style/text.h"
#include "table/layerpane.h"
#include "window/chartroom.h"
#include "window/teaching.h"
#include "workspace/modelopener.h"
#include "workspace/presets.h"
#include "workspace/sessioncontroller.h"
#include "workspace/windowsettings.h"

#include "model/networks.h"
#include "onnx/onnx_model.h"

#include <QCloseEvent>
#include <QCoreApplication>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QGuiApplication>
#include <QMimeData>
#include <QScreen>
#include <QSplitter>
#include <QStatusBar>
#include <QTimer>
#include <QUrl>

#include <cmath>

namespace rfx {

// The window fits the screen it opens on: first start at 1440 x 900 where there is room, else the
// screen's free area less the room a window manager's frame takes (a 1280 x 720 or 1024 x 640 screen
// had the compute roof, the compute-bound points and the status bar off-screen); a restored geometry
// larger than this screen is brought into it too.
void MainWindow::fitFirstWindow(bool first)
{
    const QScreen* where = screen() ? screen() : QGuiApplication::primaryScreen();
    const QRect free = where ? where->availableGeometry() : QRect(0, 0, 1440, 900);
    const QSize frame(16, 48); // a title bar and borders, before the window manager says
    const QSize room = (free.size() - frame).expandedTo(QSize(320, 240));
    const QSize wanted = first ? QSize(1440, 900) : size();
    if (first || wanted.width() > room.width() || wanted.height() > room.height()) {
        resize(wanted.boundedTo(room));
        if (!free.contains(frameGeometry()))
            move(free.topLeft());
    }
}

// A first start whose devices' charts do not fit beside Configuration and Devices puts them on one
// chart rather than hide both panels (issue 73 item 4: at 1024 x 640 with three devices a newcomer saw
// no control). The choice is the window's once; the user's Overlay choice is kept from then on.
void MainWindow::offerOverlayOnFirstStart()
{
    m_room->setFirstStart([this] {
        if (m_overlayAction->isChecked() || m_workspace->deviceIds().size() < 2)
            return false;
        m_overlayAction->setChecked(true);
        showStatus(tr("Every device on one chart, so that Configuration and Devices fit beside it: "
                      "View \u25b8 Overlay devices on one chart (Ctrl+L) gives each its own"),
            15000);
        return true;
    });
}

void MainWindow::restoreSettings(const GuiOptions& o)
{
    Config config;
    QStringList devices { QStringLiteral("rtx-2060-super") };
    bool overlay = o.overlay;
    ViewSettings view;
    std::optional<LlmWork> lastLanguageModel; // the language model the window last showed, if it showed one
    fitFirstWindow(); // first start; a saved geometry replaces it
    if (!o.noRestore) {
        const StoredWindow s = loadStoredWindow();
        if (s.state.isEmpty() && o.screenshot.isEmpty())
            offerOverlayOnFirstStart();
        if (restoreGeometry(s.geometry))
            fitFirstWindow(false); // saved on a larger screen than this one: it still fits
        restoreState(s.state, kWindowStateVersion);
        m_splitter->restoreState(s.splitter);
        if (const std::optional<Session> last = loadLastWork()) { // the work as the window last showed it
            config = last->config;
            devices.clear();
            for (const std::string& id : last->devices)
                devices.append(qs(id));
            overlay = overlay || last->view.overlay;
            view = last->view;
            lastLanguageModel = last->llm;
        }
    }
    if (o.configGiven) {
        config = o.config.config;
        if (!o.config.devices.empty()) {
            devices.clear();
            for (const std::string& id : o.config.devices)
                devices.append(qs(id));
        }
    }
    // What the ids name ("all": every device), by the library's one rule, as the CLI reads them.
    std::vector<std::string> ids;
    for (const QString& id : devices)
        ids.push_back(id.toStdString());
    const DeviceLibrary::Choice choice = m_workspace->library().choose(ids);
    devices.clear();
    for (const Device& d : choice.devices)
        devices.append(qs(d.id));
    QStringList unknown;
    for (const std::string& id : choice.unknown)
        unknown.append(qs(id));
    if (!unknown.isEmpty())
        showStatus(tr("Unknown device id(s) ignored: %1").arg(unknown.join(QStringLiteral(", "))), 10000);
    view.overlay = overlay;
    m_workspace->setView(view);
    if (o.presentation) // before the first analysis: the charts are laid out once, in large type
        m_presentationAction->setChecked(true);
    // --model llama-3.1-8b: a language model, in its own mode, over the network the session had; so is
    // an ONNX decoder with past keys and values, as when it is opened from the File menu.
    std::string languageModel;
    if (isLanguageModelChoice(config.model)
        || (isOnnxFile(config.model) && isOnnxDecoder(cachedOnnxModel(config.model).model.get()))) {
        languageModel = config.model;
        config.model = m_workspace->config().model.empty() || isLanguageModelChoice(m_workspace->config().model)
            ? std::string("unet")
            : m_workspace->config().model;
    }
    m_workspace->setWork(config, devices);
    // The language model, its phase and settings as the window last showed them (issue 73: the mode
    // was lost at the next start): where the command line names no other work, or names a language
    // model, which then opens over it with those settings; one that cannot be read is said in its
    // dialog, over the work still shown.
    if (lastLanguageModel && (!o.configGiven || !languageModel.empty()))
        m_workspace->setLlm(*lastLanguageModel, 0);
    if (!languageModel.empty())
        m_workspace->showLanguageModel(languageModel);
}

void MainWindow::saveSettings() const
{
    StoredWindow s;
    s.geometry = saveGeometry();
    s.state = saveState(kWindowStateVersion);
    s.splitter = m_splitter->saveState();
    saveStoredWindow(s);
    // The work as a session: the next start shows the same configuration, devices and view (the
    // files it names are opened by sessions, not by a start).
    saveLastWork(sessionOf(m_workspace->state()));
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
    if (m_options.screenshot.isEmpty() && !m_sessions->maybeSave()) {
        event->ignore();
        return;
    }
    if (m_options.screenshot.isEmpty()) {
        m_room->giveBack(); // the layout saved is the user's, not what this size made give way
        saveSettings();
    }
    event->accept();
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
    if (path.endsWith(QLatin1String(".rfx.json")))
        m_sessions->openFromUser(path);
    else
        m_opener->open(path); // a model, or a message saying what the window opens
}

Session MainWindow::currentSession() const { return sessionOf(m_workspace->state()); }

void MainWindow::showSession(const Session& session)
{
    m_workspace->showSession(session);
    // The files it names, read as File > Import measurements and Open calibration read them: a file
    // that cannot be read any more is said, and the rest of the session stays open.
    QStringList unread;
    if (session.measurements.empty())
        m_measured->clear();
    else if (QString error; !m_measured->import(qs(session.measurements), &error))
        unread << qs(session.measurements);
    if (session.calibration.empty())
        m_calibration->close();
    else if (QString error; !m_calibration->open(qs(session.calibration), &error))
        unread << qs(session.calibration);
    else if (!session.calibrated)
        m_calibration->toggleAction()->setChecked(false); // loaded, its times not shown
    if (!unread.isEmpty())
        showStatus(tr("\u26a0 The session's %1 could not be read: %2")
                       .arg(unread.size() == 1 ? tr("file") : tr("files"), unread.join(QStringLiteral(", "))),
            15000);
}

FigureSpec MainWindow::currentFigure() const { return figureOf(m_workspace->state()); }

bool MainWindow::calibrateFromMeasurements(const QString& path, QString* summary, QString* error)
{
    return m_calibration->calibrateFromMeasurements(path, summary, error);
}

bool MainWindow::calibrateInteractive(QString* summary, QString* error)
{
    const WorkspaceState& w = m_workspace->state();
    if (!w.measurements || !w.report || w.tableDeviceIndex < 0
        || (!w.languageModel() && w.measurements->ofLanguageModel()))
        return calibrateFromMeasurements(QString(), summary, error); // says what is missing, or what does not fit
    const QString id = w.tableDevice;
    // The proposed folder must exist: a file dialog opened on a missing one falls back to the working
    // directory, and the calibration landed there (seen in a real window under Xvfb).
    const QString proposed = CalibrationView::defaultPath(id);
    QDir().mkpath(QFileInfo(proposed).absolutePath());
    const QString path
        = QFileDialog::getSaveFileName(this, tr("Save the calibration"), proposed, tr("Calibrations (*.cal.json)"));
    return !path.isEmpty() && calibrateFromMeasurements(path, summary, error);
}

QMenu* MainWindow::layerAlgorithmMenu(int layer)
{
    return rfx::layerAlgorithmMenu(
        m_workspace->report(), m_workspace->config(), layer, [this](const Config& c) { m_workspace->setConfig(c); },
        this);
}

QString MainWindow::measureThisMachine(const MicrobenchOptions& options, double tdpWatts, QString* summary)
{
    const QString id = rfx::measureThisMachine(this, options, tdpWatts, summary);
    if (!id.isEmpty()) {
        reloadDevices();
        QStringList ids = m_workspace->deviceIds();
        if (!ids.contains(id))
            ids.append(id);
        m_workspace->setDevices(ids);
    }
    return id;
}

QString MainWindow::measureThisNetwork(
    const LayerBenchOptions& options, const MicrobenchOptions& ceilings, double tdpWatts, QString* summary)
{
    const QString machine = QStringLiteral("this-machine");
    const WorkspaceState& w = m_workspace->state();
    // Core's workflow (measure/network_run.h), as roofline-cli measure --network and --llm take it:
    // what cannot be measured is said first; this machine's ceilings are measured when missing or
    // from another clock.
    std::optional<NetworkRun> run;
    std::optional<QString> refused;
    if (w.languageModel()) {
        refused = w.llmModel ? languageModelMeasurementRefusal(*w.llmModel, w.llm.settings)
                             : tr("The language model is not read yet.");
    } else {
        run = NetworkRun::prepare(m_workspace->config());
        if (!run->ready())
            refused = tr("Cannot measure this configuration: %1").arg(QString::fromStdString(run->whyNot()));
    }
    if (refused) {
        if (summary)
            *summary = *refused;
        return {};
    }
    const Device* mine = m_workspace->library().find(machine.toStdString());
    const double tdp = mine && mine->tdpWatts > 0 ? mine->tdpWatts : tdpWatts; // the figure the user gave stays
    if (ceilingsFirst(mine, machine.toStdString()) && measureThisMachine(ceilings, tdp, summary).isEmpty())
        return {};
    if (!m_workspace->deviceIds().contains(machine))
        m_workspace->setDevices(m_workspace->deviceIds() + QStringList { machine });
    // The state again: adding this machine recomputed it (the language model stays the one read).
    const WorkspaceState& now = m_workspace->state();
    const QString path = run
        ? rfx::measureThisNetwork(this, *run, options, summary)
        : measureThisLanguageModel(this, *now.llmModel, now.llm.model, now.llm.settings, options, summary);
    QString error;
    if (path.isEmpty() || !m_measured->import(path, &error)) {
        if (!error.isEmpty() && summary)
            *summary = error;
        return {};
    }
    m_workspace->setTableDevice(machine); // the diamonds on this machine's chart
    return path;
}

LayerTable* MainWindow::table() const { return m_pane->table(); }
LayerTableModel* MainWindow::tableModel() const { return m_pane->model(); }

void MainWindow::loadPreset(int which)
{
    const Preset p = studyPreset(which);
    if (p.energyRanges) {
        m_energy->setRanges(*p.energyRanges);
        m_energyDock->show();
        // After the layout settles: a dock resized before it is shown keeps its old height.
        QTimer::singleShot(0, this, [this] { resizeDocks({ m_energyDock }, { height() / 2 }, Qt::Vertical); });
    }
    m_workspace->setWork(p.config, p.devices);
}

// Device files: shipped, the user folder, --devices-dir; re-read by File > Reload device files.
void MainWindow::reloadDevices()
{
    std::vector<std::filesystem::path> extra;
    for (const QString& d : m_options.deviceDirs)
        extra.emplace_back(d.toStdString());
    m_workspace->setLibrary(
        loadDeviceLibrary(deviceSearchPath(QCoreApplication::applicationDirPath().toStdString(), extra)));
}

} // namespace rfx
