#include "style/textitem.h"

#include <QPen>
#include <QStyleOptionGraphicsItem>

namespace rfx {

void TextItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget)
{
    // An outline or the selection's frame is not part of the image: drawn as Qt draws it.
    if (pen().style() != Qt::NoPen || (option->state & (QStyle::State_Selected | QStyle::State_HasFocus))) {
        m_fromImage = false;
        QGraphicsSimpleTextItem::paint(painter, option, widget);
        return;
    }
    if (m_text != text() || m_font != font() || m_brush != brush()) {
        m_text = text();
        m_font = font();
        m_brush = brush();
        m_cache.invalidate();
    }
    const QRectF box = boundingRect();
    m_fromImage = m_cache.paint(painter, box, [&](QPainter* p) {
        QStyleOptionGraphicsItem whole;
        whole.exposedRect = box;
        QGraphicsSimpleTextItem::paint(p, &whole, widget);
    });
}

} // namespace rfx
