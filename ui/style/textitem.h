#pragma once
// A chart's plain-text item (tick labels, axis titles, roof, ridge and layer labels) that paints on
// screen from an image of its text, drawn again only when its text, font or colour changed
// (PaintCache says why). Elsewhere it paints as QGraphicsSimpleTextItem does.
#include "style/paintcache.h"

#include <QBrush>
#include <QFont>
#include <QGraphicsSimpleTextItem>
#include <QString>

namespace rfx {

class TextItem : public QGraphicsSimpleTextItem {
public:
    using QGraphicsSimpleTextItem::QGraphicsSimpleTextItem;

    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

    /// Whether the last paint came from the image (tests).
    bool paintedFromImage() const { return m_fromImage; }

private:
    PaintCache m_cache;
    QString m_text;
    QFont m_font;
    QBrush m_brush;
    bool m_fromImage = false;
};

} // namespace rfx
