#pragma once

#include "engine/layerfilter.h"

#include <QSortFilterProxyModel>

namespace rfx {

class LayerTableModel;

/// Sorts the layer table by LayerTableModel::SortRole and hides rows that fail the LayerFilter. A
/// language model's block keeps its rows under its line in every order: lines are sorted by their
/// own figures (a block's by its sums), a block's rows among themselves below it; folded rows are
/// hidden, and a block's line shows while any of its rows passes the filter.
class LayerFilterProxy : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit LayerFilterProxy(QObject* parent = nullptr);
    void setLayerFilter(const LayerFilter& filter);
    /// Recomputes which rows pass (call after the source model's report changes).
    void refresh();
    void setSourceModel(QAbstractItemModel* model) override;

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;

private:
    LayerFilter m_filter;
    std::vector<bool> m_visible; ///< per source row
    /// The source as the layer table's model (cast once: lessThan runs on every comparison of a sort)
    const LayerTableModel* m_table = nullptr;
};

} // namespace rfx
