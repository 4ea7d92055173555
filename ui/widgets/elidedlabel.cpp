#include "widgets/elidedlabel.h"

#include <QPaintEngine>
#include <QPainter>
#include <QStyle>

#include <cmath>

namespace rfx {

namespace {
constexpr int kMargin = 2; ///< the stamp's room each side for glyphs that overhang their advance
}

QSize ElidedLabel::minimumSizeHint() const { return QSize(0, QLabel::minimumSizeHint().height()); }

void ElidedLabel::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    const QRect room = contentsRect();
    if (paintStamped(painter, room))
        return;
    const QString shown = fontMetrics().elidedText(text(), Qt::ElideRight, room.width());
    style()->drawItemText(&painter, room, int(alignment()), palette(), isEnabled(), shown, foregroundRole());
}

bool ElidedLabel::paintStamped(QPainter& painter, const QRect& room)
{
    // Left-aligned, enabled, on a raster device at a plain translation and pixel ratio 1: where the
    // image's pixels are those the style would draw (QCommonStyle::drawItemText: the palette's
    // foreground colour, the line centred vertically, its baseline on a whole pixel).
    const Qt::Alignment horizontal = QStyle::visualAlignment(layoutDirection(), alignment())
        & (Qt::AlignLeft | Qt::AlignRight | Qt::AlignHCenter | Qt::AlignJustify);
    if (!isEnabled() || horizontal != Qt::AlignLeft || !(alignment() & Qt::AlignVCenter) || text().isEmpty()
        || painter.device()->devicePixelRatio() != 1.0 || painter.paintEngine()->type() != QPaintEngine::Raster
        || painter.transform().type() > QTransform::TxTranslate)
        return false;
    QFont plain = font();
    plain.setStyleStrategy(QFont::PreferNoShaping);
    const QColor color = palette().color(foregroundRole());
    if (m_imageText != text() || m_imageFont != plain || m_imageColor != color.rgba()) {
        const auto line = m_stamp.layout(text(), plain);
        m_image = line ? m_stamp.render(*line, plain, color, kMargin) : QImage();
        m_imageWidth = line ? line->width : 0;
        m_imageText = text();
        m_imageFont = plain;
        m_imageColor = color.rgba();
    }
    if (m_image.isNull() || m_imageWidth > room.width())
        return false; // to be elided, or beyond the stamp: the style draws it
    const double ascent = QFontMetricsF(plain).ascent();
    const double top = room.top() + (room.height() - m_image.height()) / 2.0;
    const int y = int(std::lround(top + ascent)) - int(std::lround(ascent));
    painter.drawImage(QPoint(room.left() - kMargin, y), m_image);
    return true;
}

} // namespace rfx
