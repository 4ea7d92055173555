#pragma once
// What the tst_mainwindow* tests share: a fresh window's options, the combo boxes whose text is cut,
// a table cell's text.
#include "guitestutils.h"
#include "table/layertable.h"
#include "testutils.h"
#include "window/mainwindow.h"

#include <QComboBox>
#include <QStyle>
#include <QStyleOptionComboBox>

namespace rfx::mainwindowtest {

inline GuiOptions fresh(const QStringList& devices = { QStringLiteral("rtx-2060-super") })
{
    return rfx::test::freshWindow(devices);
}

// The visible combo boxes of `w` whose current text is cut (wider than the box's text field), as
// "text (shown in N of M px)".
inline QStringList cutComboTexts(const QWidget& w)
{
    QStringList cut;
    for (QComboBox* box : w.findChildren<QComboBox*>()) {
        if (!box->isVisibleTo(&w) || box->currentText().isEmpty())
            continue;
        QStyleOptionComboBox option;
        option.initFrom(box);
        option.editable = box->isEditable();
        const QRect field
            = box->style()->subControlRect(QStyle::CC_ComboBox, &option, QStyle::SC_ComboBoxEditField, box);
        const int need = box->fontMetrics().horizontalAdvance(box->currentText());
        if (need > field.width())
            cut.append(
                QStringLiteral("%1 (shown in %2 of %3 px)").arg(box->currentText()).arg(field.width()).arg(need));
    }
    return cut;
}

inline QString cell(const MainWindow& w, int row, int column)
{
    return w.table()->model()->index(row, column).data().toString();
}

} // namespace rfx::mainwindowtest
