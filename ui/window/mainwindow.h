#pragma once

#include "device_loader.h"
#include "figure.h"
#include "guioptions.h"
#include "layerfilter.h"
#include "layer_bench.h"
#include "layertable.h"
#include "measurements.h"
#include "microbench.h"
#include "roofline.h"
#include "session.h"

#include <QMainWindow>

#include <optional>
#include <utility>

class QAction;
class QDockWidget;
class QLabel;
class QMenu;
class QTextBrowser;
class QUndoStack;

namespace rfx {

class ChartArea;
class ControlPanel;
class DevicePicker;
class EnergyView;
class ExportController;
class LayerPane;
class LayerTableModel;
class MeasurementsView;
class CalibrationView;
class ModelOpener;
class SessionController;
class Teaching;
class TourPanel;

/// The main window: configuration and device docks, the charts, the layer table and summaries.
/// It composes the parts and runs the one loop that matters: every change of the configuration or
/// the devices goes through recompute(), which analyses once and hands the Report to each view.
/// The rest lives beside it: sessions and undo (SessionController), export (ExportController),
/// imported measurements (MeasurementsView), Explain, tour and presentation (Teaching), model
/// files (ModelOpener), presets (studyPreset), settings (windowsettings.h), the menus
/// (mainwindow_menus.cpp).
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(const GuiOptions& options, QWidget* parent = nullptr);
    ~MainWindow() override;

    /// Applies a configuration (as from the controls) and recomputes; one step of undo.
    void setConfig(const Config& config);
    void setDevices(const QStringList& ids);
    /// 0: classic 2015 U-Net; 1: the 2022 study's balanced configuration; 2: the energy study (opens the energy view)
    void loadPreset(int preset);

    const std::optional<Report>& report() const { return m_report; }
    const Config& config() const { return m_config; }
    const QStringList& deviceIds() const { return m_deviceIds; }
    ControlPanel* controls() const { return m_controls; }
    EnergyView* energyView() const { return m_energy; }
    QDockWidget* energyDock() const { return m_energyDock; }
    ChartArea* chartArea() const { return m_charts; }
    LayerTable* table() const;
    LayerTableModel* tableModel() const;
    /// The device whose rows the table shows: an index into the report's results.
    int tableDevice() const;
    /// Layer index (into the report's layer list) selected in the table and charts, or -1.
    int selectedLayer() const { return m_selectedLayer; }
    /// The table's context menu for a convolution row: its own algorithm, or the global one.
    /// Nothing for other rows. The caller owns the menu.
    QMenu* layerAlgorithmMenu(int layer);

    /// Sessions (.rfx.json): see SessionController.
    bool saveSession(const QString& path, QString* error);
    bool openSession(const QString& path, QString* error);
    /// The work as a session: configuration, devices, overlay, filter, the table's device.
    Session currentSession() const;
    QString sessionPath() const;
    bool isDirty() const;
    QUndoStack* undoStack() const;

    /// The figure the window shows now (configuration, devices, overlay, filter), for export.
    FigureSpec currentFigure() const;
    /// Writes the layer tables in the format the file's extension names (.csv .json .md .tex).
    bool exportTable(const QString& path, QString* error);
    /// Loads measured timings (plain CSV, ncu --csv, PyTorch trace) and shows them beside the model for
    /// the table's device; false and `error` (file, line, reason) when the file is not usable, and then
    /// whatever was shown before stays.
    bool importMeasurements(const QString& path, QString* error);
    void clearMeasurements();
    /// "measurements: FILE (format), mapped by name onto DEVICE ..." or empty.
    QString measurementsStatus() const;
    /// Tools > Measure this machine (thismachine.h); the device written joins the checked ones.
    /// Returns its id, or empty (cancelled or failed; `summary` then says why).
    QString measureThisMachine(const MicrobenchOptions& options, double tdpWatts, QString* summary = nullptr);
    /// Tools > Measure this network on this machine (thisnetwork.h): this CPU's ceilings first when no
    /// device "this-machine" exists (`ceilings`, `tdpWatts` as above), then every row of the shown
    /// network; the measurement is imported and shown on this machine's chart. Returns the CSV
    /// written, or empty (`summary` says why).
    QString measureThisNetwork(const LayerBenchOptions& options, const MicrobenchOptions& ceilings, double tdpWatts,
        QString* summary = nullptr);

    /// Calibrated times (CalibrationView): File > Open calibration, Tools > Calibrate, View > Calibrated times.
    CalibrationView* calibrationView() const { return m_calibration; }
    /// Tools > Calibrate from the measurements without the dialogs: fits the imported measurements
    /// against the table's device, writes `path` and shows calibrated times; `summary` says how the fit did.
    bool calibrateFromMeasurements(const QString& path, QString* summary, QString* error);

    QTextBrowser* explainView() const;
    void setPresentationMode(bool on);
    /// Help > Guided tour: opens the tour beside the charts.
    void showTour();
    /// The guided tour's panel (null until Help > Guided tour was opened once).
    TourPanel* tourPanel() const;

    /// For the controllers: show a state or session without recording a step of undo.
    void showState(const Config& config, const QStringList& devices);
    void showSession(const Session& session);
    /// statusBar()->showMessage(), held back until the window is shown (see the definition).
    void showStatus(const QString& message, int timeoutMs);

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;
    void showEvent(QShowEvent* event) override;

private:
    QDockWidget* addDock(const QString& title, const QString& name, QWidget* widget, Qt::DockWidgetArea area);
    void buildMenus();
    void connectParts();
    void pushState();
    /// A network file just chosen cannot be used: says why in a dialog, back to what is shown.
    void refuseNetworkFile(const QString& error);
    void recompute();
    void showProblem(const QString& error);
    void showAnalysisStatus(qint64 analysisNs);
    void selectLayer(int layer);
    void updateEnergy();
    void updateMeasurements();
    /// Tools > Calibrate: asks where to save (the user's calibration folder proposed), then calibrates.
    bool calibrateInteractive(QString* summary, QString* error);
    void restoreSettings(const GuiOptions& options);
    void saveSettings() const;
    void reloadDevices();
    std::vector<Device> checkedDevices() const;

    GuiOptions m_options;
    DeviceLibrary m_library;
    Config m_config;
    QStringList m_deviceIds;
    std::optional<Report> m_report;
    int m_selectedLayer = -1;

    ControlPanel* m_controls;
    DevicePicker* m_picker;
    class ChartRoom* m_room = nullptr;
    ChartArea* m_charts;
    LayerPane* m_pane;
    QDockWidget* m_deviceDock = nullptr;
    QAction* m_presentationAction = nullptr;
    QAction* m_overlayAction = nullptr;
    QLabel* m_status = nullptr;
    QLabel* m_notes = nullptr; ///< status bar: how many notes, a link that opens them in the Devices panel
    /// A status message given before the window was shown (showStatus), with its timeout.
    std::optional<std::pair<QString, int>> m_pendingStatus;
    EnergyView* m_energy = nullptr;
    QDockWidget* m_energyDock = nullptr;
    SessionController* m_sessions;
    ExportController* m_export;
    MeasurementsView* m_measured;
    CalibrationView* m_calibration;
    Teaching* m_teaching;
    ModelOpener* m_opener;
};

} // namespace rfx
