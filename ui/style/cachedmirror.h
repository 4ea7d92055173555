#pragma once
// Another item's rich text painted on screen through a PaintCache: for an item whose class is not
// ours (QChart's title, a QGraphicsTextItem that lays out and draws its rich text on every paint, a
// tenth of a slider step in callgrind). The mirror becomes the item's child and paints what the item
// would; the item itself is marked as having no contents, so the scene draws it once, from the image.
// The image is drawn again when the document, the colour or the box changes. Printing (figures)
// drops the mirror: remove() gives the item back its own painting.
#include "style/paintcache.h"

#include <QColor>
#include <QGraphicsItem>
#include <QMetaObject>
#include <QRectF>

class QGraphicsTextItem;

namespace rfx {

class CachedMirror : public QGraphicsItem {
public:
    explicit CachedMirror(QGraphicsTextItem* source);
    /// Gives `source` its own painting back, deleting its mirror (if it has one).
    static void remove(QGraphicsTextItem* source);

    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    QGraphicsTextItem* m_source;
    QMetaObject::Connection m_repaint; ///< the document's changes to this mirror's update()
    PaintCache m_cache;
    int m_revision = -1;
    QRectF m_box;
    QColor m_color;
};

} // namespace rfx
