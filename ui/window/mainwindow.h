#pragma once

#include "devices/device_loader.h"
#include "engine/layerfilter.h"
#include "engine/roofline.h"
#include "io/figure.h"
#include "io/measurements.h"
#include "io/session.h"
#include "measure/layer_bench.h"
#include "measure/microbench.h"
#include "table/layertable.h"
#include "window/guioptions.h"
#include "workspace/workspace.h"

#include <QMainWindow>

#include <functional>

#include <optional>
#include <utility>

class QAction;
class QDockWidget;
class QLabel;
class QMenu;
class QSplitter;
class QTextBrowser;
class QUndoStack;

namespace rfx {

class AnalysisLine;
class ChartArea;
class ControlPanel;
class DevicePicker;
class EnergyView;
class ServingView;
class SweepView;
class ExportController;
class LayerPane;
class LayerTableModel;
class MeasurementsView;
class CalibrationView;
class ModelOpener;
class SessionController;
class Teaching;
class TourPanel;

/// The main window: the frame. It composes the parts around the Workspace (the document: the
/// configuration, devices, analysis, measurements, calibration and selection): each view follows
/// the workspace itself and sends its edits to it, never to another panel; the window creates and
/// docks them, keeps the menus and says what needs a dialog. Beside it: sessions and undo (SessionController), export
/// (ExportController), imported measurements (MeasurementsView), calibrated times (CalibrationView),
/// Explain, tour and presentation (Teaching), model files (ModelOpener), presets (studyPreset),
/// settings (windowsettings.h), the menus (mainwindow_menus.cpp).
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(const GuiOptions& options, QWidget* parent = nullptr);
    ~MainWindow() override;

    /// What the window shows; edits go through it (setConfig, setDevices, ...).
    Workspace& workspace() const { return *m_workspace; }
    /// 0: classic 2015 U-Net; 1: the 2022 study's balanced configuration; 2: the energy study (opens the energy view)
    void loadPreset(int preset);

    // The parts, for the menus and the tests.
    ControlPanel* controls() const { return m_controls; }
    EnergyView* energyView() const { return m_energy; }
    QDockWidget* energyDock() const { return m_energyDock; }
    SweepView* sweepView() const { return m_sweeps; }
    QDockWidget* sweepDock() const { return m_sweepDock; }
    ServingView* servingView() const { return m_serving; }
    QDockWidget* servingDock() const { return m_servingDock; }
    QDockWidget* configDock() const { return m_configDock; }
    QDockWidget* deviceDock() const { return m_deviceDock; }
    ChartArea* chartArea() const { return m_charts; }
    LayerTable* table() const;
    LayerTableModel* tableModel() const;
    SessionController& sessions() const { return *m_sessions; }
    ExportController& exporter() const { return *m_export; }
    MeasurementsView& measurements() const { return *m_measured; }
    CalibrationView* calibrationView() const { return m_calibration; }
    Teaching& teaching() const { return *m_teaching; }

    /// The table's context menu for a convolution row: its own algorithm, or the global one.
    /// Nothing for other rows. The caller owns the menu.
    QMenu* layerAlgorithmMenu(int layer);
    /// The work as a session (sessionOf the workspace's state: the whole screen).
    Session currentSession() const;
    /// The figure the window shows now (figureOf the workspace's state), for export.
    FigureSpec currentFigure() const;
    /// Tools > Measure this machine (thismachine.h); the device written joins the checked ones.
    /// Returns its id, or empty (cancelled or failed; `summary` then says why).
    QString measureThisMachine(const MicrobenchOptions& options, double tdpWatts, QString* summary = nullptr);
    /// Tools > Measure this network on this machine (thisnetwork.h): this CPU's ceilings first when no
    /// device "this-machine" exists (`ceilings`, `tdpWatts` as above), then every row of the shown
    /// network, or of the language model shown, both phases at the window's settings as a CPU runs
    /// them (thislanguagemodel.h); the measurement is imported and shown on this machine's chart.
    /// Returns the CSV written, or empty (`summary` says why).
    QString measureThisNetwork(const LayerBenchOptions& options, const MicrobenchOptions& ceilings, double tdpWatts,
        QString* summary = nullptr);
    /// Tools > Calibrate from the measurements without the dialogs: fits the imported measurements
    /// against the table's device, writes `path` and shows calibrated times; `summary` says how the fit did.
    bool calibrateFromMeasurements(const QString& path, QString* summary, QString* error);
    /// statusBar()->showMessage(), held back until the window is shown (see the definition).
    void showStatus(const QString& message, int timeoutMs);

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;
    void showEvent(QShowEvent* event) override;

private:
    QDockWidget* addDock(const QString& title, const QString& name, QWidget* widget, Qt::DockWidgetArea area);
    void buildMenus(); ///< the menu bar, a menu at a time:
    void buildFileMenu();
    void buildEditAndPresetsMenus();
    void buildToolsMenu();
    void buildViewMenu();
    void buildHelpMenu();
    void connectParts();
    /// Shows a session: its work through the workspace, its measurement and calibration files read
    /// (one that cannot be read is said on the status bar).
    void showSession(const Session& session);
    /// A model file that cannot be used: a dialog says why, the status bar repeats it a while.
    void sayFileUnusable(const QString& path, const QString& reason);
    /// The view settings on the View menu's checks.
    void showView(const ViewSettings& view);
    /// An edit of one view setting, sent to the workspace (which the views then follow).
    void editView(const std::function<void(ViewSettings&)>& edit);
    /// Tools > Calibrate: asks where to save (the user's calibration folder proposed), then calibrates.
    bool calibrateInteractive(QString* summary, QString* error);
    void restoreSettings(const GuiOptions& options);
    void offerOverlayOnFirstStart();
    void fitFirstWindow(bool first = true);
    /// After the type or the docks changed the window's least size: its frame back inside the screen's
    /// free area (a maximized or full-screen window is the window manager's).
    void keepOnScreen();
    void saveSettings() const;
    void reloadDevices();

    GuiOptions m_options;
    Workspace* m_workspace;

    ControlPanel* m_controls;
    DevicePicker* m_picker;
    class ChartRoom* m_room = nullptr;
    QSplitter* m_splitter = nullptr;
    ChartArea* m_charts;
    LayerPane* m_pane;
    QDockWidget* m_configDock = nullptr;
    QDockWidget* m_deviceDock = nullptr;
    QAction* m_presentationAction = nullptr;
    QAction* m_overlayAction = nullptr;
    QAction* m_sharedAction = nullptr;
    QAction* m_labelsAction = nullptr;
    QAction* m_powersAction = nullptr;
    AnalysisLine* m_status = nullptr; ///< the status bar's line on the analysis, with the notes' link
    /// A status message given before the window was shown (showStatus), with its timeout.
    std::optional<std::pair<QString, int>> m_pendingStatus;
    EnergyView* m_energy = nullptr;
    QDockWidget* m_energyDock = nullptr;
    SweepView* m_sweeps = nullptr; ///< the language model's context and batch sweeps
    QDockWidget* m_sweepDock = nullptr;
    ServingView* m_serving = nullptr; ///< the language model's serving plan
    QDockWidget* m_servingDock = nullptr;
    SessionController* m_sessions = nullptr;
    ExportController* m_export = nullptr;
    MeasurementsView* m_measured;
    CalibrationView* m_calibration;
    Teaching* m_teaching = nullptr;
    ModelOpener* m_opener;
};

} // namespace rfx
