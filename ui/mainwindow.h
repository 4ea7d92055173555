#pragma once

#include "device_loader.h"
#include "figure.h"
#include "guioptions.h"
#include "layerfilter.h"
#include "layertable.h"
#include "measurements.h"
#include "microbench.h"
#include "roofline.h"
#include "session.h"

#include <QElapsedTimer>
#include <QMainWindow>

#include <optional>
#include <utility>

class QAction;
class QCheckBox;
class QComboBox;
class QLabel;
class QSpinBox;
class QTableView;
class QTextBrowser;
class QUndoStack;
class QDockWidget;
class QMenu;

namespace rfx {

class ModelOpener;

class ChartArea;
class ControlPanel;

class DevicePicker;
class LayerFilterProxy;
class LayerTableModel;

/// The main window: configuration and device docks, the charts, the layer table and summaries.
/// Every change recomputes the whole Report and hands it to each view.
class EnergyView;
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(const GuiOptions& options, QWidget* parent = nullptr);
    ~MainWindow() override;

    /// Applies a configuration (as from the controls) and recomputes.
    void setConfig(const Config& config);
    void setDevices(const QStringList& ids);
    /// 0: classic 2015 U-Net; 1: the 2022 study's balanced configuration; 2: the energy study (opens the energy view)
    void loadPreset(int preset);

    const std::optional<Report>& report() const { return m_report; }
    ControlPanel* controls() const { return m_controls; }
    EnergyView* energyView() const { return m_energy; }
    QDockWidget* energyDock() const { return m_energyDock; }
    ChartArea* chartArea() const { return m_charts; }
    LayerTable* table() const { return m_table; }
    /// Help > Guided tour: opens the tour beside the charts.
    void showTour();
    /// The guided tour's panel (null until Help > Guided tour was opened once).
    class TourPanel* tourPanel() const { return m_tour; }
    LayerTableModel* tableModel() const { return m_model; }
    /// Layer index (into the report's layer list) selected in the table and charts, or -1.
    int selectedLayer() const { return m_selectedLayer; }
    /// The table's context menu for a convolution row: its own algorithm, or the global one.
    /// Nothing for other rows. The caller owns the menu.
    QMenu* layerAlgorithmMenu(int layer);

    /// Sessions (.rfx.json). open leaves the current work untouched when the file is not a session;
    /// both return false with `error` naming the file, field and reason.
    bool saveSession(const QString& path, QString* error);
    bool openSession(const QString& path, QString* error);
    Session currentSession() const;
    QString sessionPath() const { return m_sessionPath; }
    bool isDirty() const { return m_dirty; }
    QUndoStack* undoStack() const { return m_undo; }

    /// The figure the window shows now (configuration, devices, overlay, filter), for export.
    FigureSpec currentFigure() const;
    /// Writes the layer tables in the format the file's extension names (.csv .json .md .tex).
    bool exportTable(const QString& path, QString* error);
    /// Loads measured timings (plain CSV, ncu --csv, PyTorch trace) and shows them beside the model for
    /// the table's device; false and `error` (file, line, reason) when the file is not usable, and then
    /// whatever was shown before stays.
    bool importMeasurements(const QString& path, QString* error);
    void clearMeasurements();
    /// Tools > Measure this machine: runs the CPU micro-benchmarks with a progress dialog that can cancel,
    /// writes the device file to the user device folder and checks the new device. `tdpWatts` <= 0 asks.
    /// Returns the device id written, or empty (cancelled or failed; `summary` then says why).
    QString measureThisMachine(const MicrobenchOptions& options, double tdpWatts, QString* summary = nullptr);
    /// "measurements: FILE (format), mapped by name onto DEVICE ..." or empty.
    QString measurementsStatus() const { return m_measurementsStatus; }
    QTextBrowser* explainView() const { return m_explain; }
    void setPresentationMode(bool on);

    struct State {
        Config config;
        QStringList devices;
        bool operator==(const State&) const = default;
    };
    void applyState(const State& state); ///< used by undo and redo

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;
    void showEvent(QShowEvent* event) override;

private:
    /// statusBar()->showMessage(), held back until the window is shown (see the definition).
    void showStatus(const QString& message, int timeoutMs);
    void buildMenus();
    void pushState();
    /// A network file just chosen cannot be used: says why in a dialog, back to what is shown.
    void refuseNetworkFile(const QString& error);
    void markDirty();
    void updateTitle();
    bool maybeSave();
    void addRecent(const QString& path);
    void rebuildRecentMenu();
    void updateExplain();
    void exportChartInteractive();
    void exportTableInteractive();
    void copyChart();
    void openInteractive();
    bool saveInteractive(bool saveAs);
    QWidget* buildTablePane();
    void recompute();
    void selectLayer(int layer);
    void updateLevelColumns();
    void updateEnergy();
    void updateMeasurements();
    void updateTableDevices();
    void restoreSettings(const GuiOptions& options);
    void saveSettings() const;
    void reloadDevices();
    void showConventions();
    void showAbout();

    GuiOptions m_options;
    DeviceLibrary m_library;
    Config m_config;
    QStringList m_deviceIds;
    std::optional<Report> m_report;
    LayerFilter m_filter;
    int m_selectedLayer = -1;

    ControlPanel* m_controls;
    DevicePicker* m_picker;
    ChartArea* m_charts;
    LayerTableModel* m_model;
    LayerFilterProxy* m_proxy;
    LayerTable* m_table = nullptr;
    QAction* m_presentationAction = nullptr;
    bool m_tableHiddenForPresentation = false;
    class TourPanel* m_tour = nullptr; ///< the guided tour, docked beside the charts (created on first use)
    QDockWidget* m_tourDock = nullptr;
    int tourDevice() const;
    void updateTourHighlight();
    QString m_rowsKind; ///< what the table's columns were last fitted to
    QComboBox* m_tableDevice = nullptr;
    QCheckBox* m_convOnly = nullptr;
    QSpinBox* m_topN = nullptr;
    QLabel* m_status = nullptr;
    QLabel* m_notes = nullptr; ///< status bar: how many notes, a link that opens them in the Devices panel
    QAction* m_overlayAction = nullptr;
    QUndoStack* m_undo = nullptr;
    State m_state; ///< what the undo stack last recorded
    bool m_applyingState = false;
    QString m_sessionPath;
    bool m_dirty = false;
    /// A status message given before the window was shown (showStatus), with its timeout.
    std::optional<std::pair<QString, int>> m_pendingStatus;
    QMenu* m_recentMenu = nullptr;
    ModelOpener* m_opener = nullptr; ///< the user's model files: dialog, recent files, drops
    QDockWidget* m_explainDock = nullptr;
    EnergyView* m_energy = nullptr;
    QDockWidget* m_energyDock = nullptr;
    std::optional<MeasurementSet> m_measurements;
    QString m_measurementsStatus;
    QLabel* m_measuredLabel = nullptr;
    QTextBrowser* m_explain = nullptr;
    QFont m_baseFont;
    bool m_presentation = false;
};

} // namespace rfx
