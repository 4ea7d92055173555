#pragma once

#include "engine/layerfilter.h"
#include "engine/roofline.h"

#include <QWidget>

#include <memory>

class QCheckBox;
class QComboBox;
class QHBoxLayout;
class QLabel;
class QSpinBox;

namespace rfx {

class LayerFilterProxy;
class LayerTable;
class LayerTableModel;
class Workspace;
struct WorkspaceState;

/// The layer table with its bar: the device whose rows it shows, "Only convolutions", "Top N by
/// time". It shows what the window hands it and says what the user did; the window decides what
/// follows (charts, explanations, measurements).
class LayerPane : public QWidget {
    Q_OBJECT
public:
    explicit LayerPane(QWidget* parent = nullptr);
    /// Shows `workspace`'s analysis (the table's device's rows), measurements, selection and filter
    /// whenever they change; the device chosen, the row made current and the filter go to it. (The
    /// context menu of a row is the window's: layerMenuRequested.)
    void follow(Workspace* workspace);

    LayerTable* table() const { return m_table; }
    LayerTableModel* model() const { return m_model; }
    QCheckBox* convolutionsOnlyBox() const { return m_convOnly; }

    /// The device the table shows: an index into the report's results (-1 before the first
    /// report), and its id.
    int device() const;
    QString deviceId() const;
    /// Shows that device's rows when the report has it (sessions restore it); false otherwise.
    bool setDeviceId(const QString& id);

    const LayerFilter& filter() const { return m_filter; }
    /// Shows `filter` (without saying filterChanged: the value came from the workspace).
    void setFilter(const LayerFilter& filter);

    /// A new analysis: the device list, the rows, and the columns that say something for it (the
    /// algorithm columns once an algorithm is chosen; L2 / L1 intensities where the device has them).
    void setReport(const std::shared_ptr<const Report>& report);
    /// The rows of the table's device again (another device chosen).
    void showDevice(std::shared_ptr<const Report> report);
    /// The measured, of-bound and error columns, shown with measurements only.
    void setMeasuredColumnsShown(bool shown);
    /// Columns to their content when the rows changed in kind since the last fit (network, table
    /// device, mode, the columns shown); not on every slider step, which would cost more than the
    /// analysis: between those, the table widens a column whose number no longer fits.
    void fitColumnsIfRowsChanged();
    /// Refits now (another device's numbers).
    void refit();
    /// Selects the row of `layer` (index into the report's layers) and scrolls to it; -1 clears.
    void selectLayer(int layer);

    /// Whether "Only convolutions" and "Top" sit on a line below the device (a narrow pane).
    bool filtersOnTheirOwnLine() const;

signals:
    void deviceChanged(int device);
    void filterChanged(const LayerFilter& filter);
    /// The current row moved to `layer` (keyboard or mouse).
    void layerActivated(int layer);
    /// A right click on the row of `layer`, at `globalPos`.
    void layerMenuRequested(int layer, const QPoint& globalPos);

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    /// The workspace's value (follow()): what changed in it, in the table.
    void showWork(const WorkspaceState& state, int parts);
    int oneLineWidth() const;
    void arrangeBar();
    void updateDevices(const Report& report);
    void updateLevelColumns();
    void setColumnShown(int column, bool shown);

    QComboBox* m_device;
    QLabel* m_deviceLabel = nullptr;
    QHBoxLayout* m_bar = nullptr;
    QHBoxLayout* m_secondLine = nullptr;
    QWidget* m_filters = nullptr;
    QCheckBox* m_convOnly;
    QSpinBox* m_topN;
    LayerTable* m_table;
    LayerTableModel* m_model;
    LayerFilterProxy* m_proxy;
    LayerFilter m_filter;
    QString m_rowsKind; ///< what the columns were last fitted to
    QString m_reportKind; ///< the same for the report shown now
};

} // namespace rfx
