#pragma once

#include "engine/roofline.h"
#include "io/measurements.h"
#include "table/layerrows.h"

#include <QAbstractTableModel>
#include <QColor>
#include <QFont>

namespace rfx {

/// The per-layer table for one device of a Report. Display text in human units, SortRole the raw
/// SI number, ToolTipRole the formula behind the figure. A language model's identical blocks have a
/// line of their own above their rows ("blk0-31 \u00d7 32", their sums; LayerRows), which folds them
/// (FoldRole): table rows are lines, LayerIndexRole says which layer a line shows (-1: a block's).
class LayerTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        Name,
        Op,
        Algorithm,
        OutputShape,
        Params,
        Flops,
        Bytes,
        Extra,
        Workspace,
        Intensity,
        IntensityL2,
        IntensityL1, ///< per-level intensities; shown when the table's device models the level
        Bound,
        Time,
        Measured,
        OfBound,
        Error, ///< from imported measurements; shown only with them
        Energy,
        Share,
        ColumnCount
    };
    enum Role {
        SortRole = Qt::UserRole,
        ShareRole, ///< 0..1, for the in-cell bar
        LayerIndexRole, ///< row index in the report's layer list
        DominantRole, ///< true for the rows that dominate the time
        FoldRole, ///< a block's line: true while its rows are folded away (settable); invalid for rows
        CopyRole, ///< the text a copy takes where it is not the display's (a block's row: its whole name)
        BlockRole, ///< a block's line and rows: the block (an index into lines().blocks()); invalid elsewhere
    };

    explicit LayerTableModel(QObject* parent = nullptr);

    /// Shows `device` of `report` (an index into report.results); an out-of-range index empties the table.
    void setReport(const Report& report, int device);
    /// The same, holding the window's report itself (shared, not copied on a slider step).
    void setReport(std::shared_ptr<const Report> report, int device);
    /// Measured timings for the shown device (nothing: no measurement columns' content).
    void setComparison(const std::optional<Comparison>& comparison);
    const DeviceResult* deviceResult() const;
    /// The shown device's times are calibrated (View > Calibrated times): Time and Error say so.
    bool calibrated() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
    /// FoldRole on a block's line folds (true) or shows (false) its rows.
    bool setData(const QModelIndex& index, const QVariant& value, int role) override;

    /// The lines: which layer or block each table row shows.
    const LayerRows& lines() const { return m_rows; }
    /// The table row showing `layer` (an index into the report's layers), -1 for none.
    int rowOfLayer(int layer) const { return m_rows.rowOfLayer(layer); }
    /// Shows the rows of the block `layer` belongs to, if they are folded.
    void unfoldTo(int layer);

    /// Rows whose share of time is at least this are "dominant": bold, and marked in the bound column.
    static constexpr double kDominantShare = 0.05;

signals:
    /// A block's rows were folded away or shown.
    void foldChanged();

private:
    static QString shapeText(const Shape& s);
    std::shared_ptr<const Report> m_report = std::make_shared<const Report>();
    int m_device = -1;
    const LayerComparison* measured(int layer) const;
    /// A block's own line (layertablemodel_block.cpp).
    QVariant blockData(int block, int column, int role) const;
    QString blockRowNote(const LayerResult& row, int block) const;
    LayerRows m_rows;
    std::vector<int> m_measuredRow; ///< per layer: index into m_comparison->layers, or -1
    std::optional<Comparison> m_comparison;
    QFont m_bold;
    QColor m_memoryColor;
    QColor m_computeColor;
};

} // namespace rfx
