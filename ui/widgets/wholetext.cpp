#include "widgets/wholetext.h"

#include <QComboBox>
#include <QEvent>
#include <QStyle>
#include <QStyleOptionComboBox>

namespace rfx {

WholeText::WholeText(QComboBox* box)
    : QObject(box)
    , m_box(box)
{
    box->installEventFilter(this);
    connect(box, &QComboBox::currentIndexChanged, this, &WholeText::update);
    update();
}

void WholeText::keep(QComboBox* box)
{
    if (box && !box->findChild<WholeText*>(QString(), Qt::FindDirectChildrenOnly))
        new WholeText(box);
}

int WholeText::needed(const QComboBox* box)
{
    QStyleOptionComboBox option;
    option.initFrom(box);
    option.editable = box->isEditable();
    option.currentText = box->currentText();
    const QSize text(box->fontMetrics().horizontalAdvance(box->currentText()), box->fontMetrics().height());
    // The style's own size for a box holding that text (frame, margins, the arrow), plus the icon's
    // room when the item has one.
    int width = box->style()->sizeFromContents(QStyle::CT_ComboBox, &option, text, box).width();
    if (!box->itemIcon(box->currentIndex()).isNull())
        width += box->iconSize().width() + 4;
    return width;
}

void WholeText::update()
{
    const int width = needed(m_box);
    if (m_box->minimumWidth() != width)
        m_box->setMinimumWidth(width);
}

bool WholeText::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_box && (event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange))
        update();
    return QObject::eventFilter(watched, event);
}

} // namespace rfx
