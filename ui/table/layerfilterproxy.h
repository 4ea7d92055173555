#pragma once

#include "engine/layerfilter.h"

#include <QSortFilterProxyModel>

namespace rfx {

/// Sorts the layer table by LayerTableModel::SortRole and hides rows that fail the LayerFilter.
class LayerFilterProxy : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit LayerFilterProxy(QObject* parent = nullptr);
    void setLayerFilter(const LayerFilter& filter);
    /// Recomputes which rows pass (call after the source model's report changes).
    void refresh();

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    LayerFilter m_filter;
    std::vector<bool> m_visible;
};

} // namespace rfx
