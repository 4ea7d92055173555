#include "widgets/problemnote.h"

#include <QFormLayout>
#include <QScrollArea>
#include <QTimer>

namespace rfx {

namespace {
// The form layout holding `w` (or the widget inside whose row `w` sits), with the row's field widget.
QFormLayout* formOf(QWidget* w, QWidget*& rowField, int& row)
{
    for (QWidget* child = w; child && child->parentWidget(); child = child->parentWidget()) {
        if (auto* form = qobject_cast<QFormLayout*>(child->parentWidget()->layout())) {
            QFormLayout::ItemRole role;
            form->getWidgetPosition(child, &row, &role);
            if (row >= 0) {
                rowField = child;
                return form;
            }
        }
    }
    return nullptr;
}
} // namespace

ProblemNote::ProblemNote(QWidget* parent)
    : QLabel(parent)
{
    setWordWrap(true);
    setTextFormat(Qt::RichText);
    setFrameShape(QFrame::StyledPanel);
    setMargin(6);
    setAccessibleName(tr("Configuration problem"));
    setVisible(false);
}

void ProblemNote::detach()
{
    if (parentWidget())
        if (auto* form = qobject_cast<QFormLayout*>(parentWidget()->layout())) {
            int row = -1;
            QFormLayout::ItemRole role;
            form->getWidgetPosition(this, &row, &role);
            if (row >= 0) {
                // The row goes; this label stays, for the next problem. takeRow() hands over the
                // layout's items (QWidgetItems wrapping the widget, not the widget): deleted here
                // (LeakSanitizer found 39 of them after the monkey test's 400 steps).
                const QFormLayout::TakeRowResult taken = form->takeRow(row);
                delete taken.labelItem;
                delete taken.fieldItem;
            }
        }
}

void ProblemNote::showUnder(QWidget* field, const QString& html)
{
    setText(html);
    QWidget* rowField = nullptr;
    int row = -1;
    QFormLayout* form = field ? formOf(field, rowField, row) : nullptr;
    if (form && rowField != this) {
        if (m_field != rowField) {
            detach();
            // takeRow() may have moved the field's row up by one, when this note's row was above it.
            QFormLayout::ItemRole role;
            form->getWidgetPosition(rowField, &row, &role);
            form->insertRow(row + 1, this);
            m_field = rowField;
        }
    }
    setVisible(true);
    // After the layout has placed the note: scroll the panel so that the field and the note show.
    QTimer::singleShot(0, this, [this] {
        for (QWidget* p = parentWidget(); p; p = p->parentWidget()) {
            if (p->layout())
                p->layout()->activate(); // the note's new row placed now, not at the next event
            if (auto* scroll = qobject_cast<QScrollArea*>(p)) {
                if (m_field)
                    scroll->ensureWidgetVisible(m_field, 0, 8);
                scroll->ensureWidgetVisible(this, 0, 8);
                break;
            }
        }
    });
}

void ProblemNote::dismiss()
{
    clear();
    setVisible(false);
}

} // namespace rfx
