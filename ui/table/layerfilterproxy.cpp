#include "table/layerfilterproxy.h"

#include "table/layertablemodel.h"

namespace rfx {

LayerFilterProxy::LayerFilterProxy(QObject* parent)
    : QSortFilterProxyModel(parent)
{
    setSortRole(LayerTableModel::SortRole);
    setDynamicSortFilter(true);
}

void LayerFilterProxy::setLayerFilter(const LayerFilter& filter)
{
    m_filter = filter;
    refresh();
}

void LayerFilterProxy::refresh()
{
    auto* model = qobject_cast<LayerTableModel*>(sourceModel());
    const DeviceResult* d = model ? model->deviceResult() : nullptr;
    m_visible = d ? visibleLayers(*d, m_filter) : std::vector<bool> {};
    invalidateFilter();
}

bool LayerFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex&) const
{
    return sourceRow < 0 || size_t(sourceRow) >= m_visible.size() || m_visible[size_t(sourceRow)];
}

} // namespace rfx
