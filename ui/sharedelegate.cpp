#include "sharedelegate.h"

#include "layertablemodel.h"

#include <QPainter>

namespace rfx {

void ShareDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const
{
    const double share = std::clamp(index.data(LayerTableModel::ShareRole).toDouble(), 0.0, 1.0);
    if (share > 0) {
        QRectF bar = QRectF(option.rect).adjusted(2, 3, -2, -3);
        bar.setWidth(bar.width() * share);
        QColor c = option.palette.color(QPalette::Highlight);
        c.setAlpha(90);
        painter->fillRect(bar, c);
    }
    QStyledItemDelegate::paint(painter, option, index);
}

} // namespace rfx
