#pragma once

#include <QStyledItemDelegate>

namespace rfx {

/// Draws the share of time as a bar behind the cell text (reads LayerTableModel::ShareRole).
class ShareDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override;
};

} // namespace rfx
