#include "style/cachedmirror.h"

#include <QGraphicsTextItem>
#include <QStyleOptionGraphicsItem>
#include <QTextDocument>

namespace rfx {

CachedMirror::CachedMirror(QGraphicsTextItem* source)
    : QGraphicsItem(source)
    , m_source(source)
{
    m_source->setFlag(QGraphicsItem::ItemHasNoContents, true);
    // An item with no contents is not repainted when it changes: the mirror is, in its place.
    m_repaint = QObject::connect(m_source->document(), &QTextDocument::contentsChanged, m_source, [this] { update(); });
}

void CachedMirror::remove(QGraphicsTextItem* source)
{
    for (QGraphicsItem* child : source->childItems())
        if (auto* mirror = dynamic_cast<CachedMirror*>(child)) {
            QObject::disconnect(mirror->m_repaint); // its own connection only, none of Qt's
            delete mirror;
        }
    source->setFlag(QGraphicsItem::ItemHasNoContents, false);
}

QRectF CachedMirror::boundingRect() const { return m_source->boundingRect(); }

void CachedMirror::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget)
{
    const QRectF box = m_source->boundingRect();
    const int revision = m_source->document()->revision();
    const QColor color = m_source->defaultTextColor();
    if (revision != m_revision || box != m_box || color != m_color) {
        m_revision = revision;
        m_box = box;
        m_color = color;
        m_cache.invalidate();
    }
    m_cache.paint(painter, box, [&](QPainter* p) {
        QStyleOptionGraphicsItem whole = *option; // the image is kept: the whole item, whatever was exposed now
        whole.exposedRect = box;
        whole.state &= ~(QStyle::State_Selected | QStyle::State_HasFocus);
        m_source->paint(p, &whole, widget);
    });
}

} // namespace rfx
