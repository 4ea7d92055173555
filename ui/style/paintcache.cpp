#include "style/paintcache.h"

#include <QPaintEngine>
#include <QPainter>

#include <cmath>

namespace rfx {

bool PaintCache::paint(QPainter* painter, const QRectF& box, const std::function<void(QPainter*)>& draw)
{
    const QTransform world = painter->worldTransform();
    if (!painter->paintEngine() || painter->paintEngine()->type() != QPaintEngine::Raster
        || world.type() > QTransform::TxTranslate) {
        draw(painter);
        return false;
    }
    const qreal dpr = painter->device() ? painter->device()->devicePixelRatio() : 1.0;
    if (m_image.isNull() || m_image.devicePixelRatio() != dpr || m_box != box) {
        m_box = box;
        const QRectF area = box.adjusted(-kMargin, -kMargin, kMargin, kMargin);
        QImage image(QSize(int(std::ceil(area.width() * dpr)), int(std::ceil(area.height() * dpr))),
            QImage::Format_ARGB32_Premultiplied);
        image.setDevicePixelRatio(dpr);
        image.fill(Qt::transparent);
        QPainter p(&image);
        p.setRenderHints(painter->renderHints());
        p.translate(-area.topLeft());
        draw(&p);
        p.end();
        m_image = std::move(image);
    }
    // At whole device pixels, as glyphs would have been snapped: the image's pixels map one to one.
    const QPointF origin = world.map(m_box.topLeft() - QPointF(kMargin, kMargin));
    const QPointF at(std::round(origin.x() * dpr) / dpr, std::round(origin.y() * dpr) / dpr);
    painter->save();
    painter->resetTransform();
    painter->drawImage(at, m_image);
    painter->restore();
    return true;
}

} // namespace rfx
