#include "widgets/elidingstatusbar.h"

#include <QHelpEvent>
#include <QPainter>
#include <QSizeGrip>
#include <QStyleOption>
#include <QToolTip>

#include <algorithm>

namespace rfx {

ElidingStatusBar::ElidingStatusBar(QWidget* parent)
    : QStatusBar(parent)
{
    connect(this, &QStatusBar::messageChanged, this, [this] { update(); });
}

QRect ElidingStatusBar::messageRect() const
{
    // As QStatusBar places its message (qstatusbar.cpp), but right of it every visible child: while a
    // message shows, QStatusBar hides its normal widgets, so those left are the permanent ones.
    const bool rtl = layoutDirection() == Qt::RightToLeft;
    int left = 6, right = width() - 12;
    for (const QWidget* w : findChildren<QWidget*>(Qt::FindDirectChildrenOnly)) {
        if (!w->isVisible())
            continue;
        if (rtl)
            left = std::max(left, w->geometry().right() + 3);
        else
            right = std::min(right, w->x() - 2);
    }
    return QRect(left, 0, std::max(0, right - left), height());
}

QString ElidingStatusBar::shownMessage() const
{
    const QString message = currentMessage();
    if (message.isEmpty())
        return message;
    return fontMetrics().elidedText(message, Qt::ElideRight, messageRect().width());
}

void ElidingStatusBar::paintEvent(QPaintEvent* event)
{
    const QString message = currentMessage();
    if (message.isEmpty()) {
        QStatusBar::paintEvent(event);
        return;
    }
    // QStatusBar's own painting with the message elided: the panel, the permanent widgets' frames, the text.
    QPainter p(this);
    QStyleOption opt;
    opt.initFrom(this);
    style()->drawPrimitive(QStyle::PE_PanelStatusBar, &opt, &p, this);
    for (QWidget* w : findChildren<QWidget*>(Qt::FindDirectChildrenOnly)) {
        if (!w->isVisible() || qobject_cast<QSizeGrip*>(w))
            continue;
        QStyleOption item(0);
        item.rect = w->geometry().adjusted(-2, -1, 2, 1);
        item.palette = palette();
        item.state = QStyle::State_None;
        style()->drawPrimitive(QStyle::PE_FrameStatusBarItem, &item, &p, w);
    }
    p.setPen(palette().windowText().color());
    p.drawText(messageRect(), Qt::AlignLeading | Qt::AlignVCenter | Qt::TextSingleLine, shownMessage());
}

bool ElidingStatusBar::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QString message = currentMessage();
        if (!message.isEmpty() && shownMessage() != message && messageRect().contains(help->pos())) {
            QToolTip::showText(help->globalPos(), message, this, messageRect());
            return true;
        }
    }
    return QStatusBar::event(event);
}

} // namespace rfx
