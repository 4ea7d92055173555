#include "table/layerfilterproxy.h"

#include "table/layertablemodel.h"

namespace rfx {

LayerFilterProxy::LayerFilterProxy(QObject* parent)
    : QSortFilterProxyModel(parent)
{
    setSortRole(LayerTableModel::SortRole);
    setDynamicSortFilter(true);
}

void LayerFilterProxy::setSourceModel(QAbstractItemModel* model)
{
    m_table = qobject_cast<const LayerTableModel*>(model);
    QSortFilterProxyModel::setSourceModel(model);
}

void LayerFilterProxy::setLayerFilter(const LayerFilter& filter)
{
    m_filter = filter;
    refresh();
}

void LayerFilterProxy::refresh()
{
    const LayerTableModel* model = m_table;
    const DeviceResult* d = model ? model->deviceResult() : nullptr;
    m_visible.clear();
    if (d) {
        const std::vector<bool> layers = visibleLayers(*d, m_filter);
        const LayerRows& rows = model->lines();
        m_visible.assign(size_t(rows.count()), false);
        for (int r = 0; r < rows.count(); ++r) {
            const LayerRows::Line& line = rows.line(r);
            if (line.layer < 0 || size_t(line.layer) >= layers.size() || !layers[size_t(line.layer)])
                continue;
            m_visible[size_t(r)] = !rows.hiddenByFold(r);
            if (line.block >= 0) // the block's line shows while any of its rows passes
                m_visible[size_t(rows.rowOfBlock(line.block))] = true;
        }
    }
    invalidateFilter();
}

bool LayerFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex&) const
{
    return sourceRow < 0 || size_t(sourceRow) >= m_visible.size() || m_visible[size_t(sourceRow)];
}

bool LayerFilterProxy::lessThan(const QModelIndex& left, const QModelIndex& right) const
{
    const LayerTableModel* model = m_table;
    if (!model || model->lines().blocks().empty() || left.row() >= model->lines().count()
        || right.row() >= model->lines().count())
        return QSortFilterProxyModel::lessThan(left, right); // a network: rows alone, sorted as they always were
    const LayerRows& rows = model->lines();
    const LayerRows::Line& l = rows.line(left.row());
    const LayerRows::Line& r = rows.line(right.row());
    // Descending orders compare (right, left): "a goes first" is lessThan(a, b) when ascending,
    // lessThan(b, a) when descending. Ties go in the network's order either way (a strict order).
    const bool ascending = sortOrder() == Qt::AscendingOrder;
    auto byValue = [&](const QModelIndex& a, const QModelIndex& b) {
        if (QSortFilterProxyModel::lessThan(a, b))
            return true;
        if (QSortFilterProxyModel::lessThan(b, a))
            return false;
        return ascending ? a.row() < b.row() : a.row() > b.row();
    };
    if (l.block >= 0 && l.block == r.block) {
        if ((l.layer < 0) != (r.layer < 0)) // the block's line above its rows
            return ascending == (l.layer < 0);
        return byValue(left, right);
    }
    // different lines at the top: a row of a block is placed by its block's line
    const QModelIndex topLeft = l.block >= 0 ? left.siblingAtRow(rows.rowOfBlock(l.block)) : left;
    const QModelIndex topRight = r.block >= 0 ? right.siblingAtRow(rows.rowOfBlock(r.block)) : right;
    return byValue(topLeft, topRight);
}

} // namespace rfx
