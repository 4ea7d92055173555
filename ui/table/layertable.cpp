#include "table/layertable.h"

#include "table/celldelegate.h"
#include "table/layertablemodel.h"

#include <QApplication>
#include <QClipboard>
#include <QHeaderView>
#include <QKeyEvent>
#include <QRegularExpression>
#include <QScrollBar>
#include <QTimer>

#include <algorithm>

namespace rfx {

namespace {
/// "◢ memory" -> "memory", "winograd4 ⚠" -> "winograd4": the bound and warning marks are for the eye.
QString withoutGlyphs(QString text)
{
    static const QRegularExpression glyphs(QStringLiteral("[\\x{25A0}-\\x{25FF}\\x{26A0}]\\s*|\\s*[\\x{26A0}]$"));
    return text.remove(glyphs).trimmed();
}
} // namespace

LayerTable::LayerTable(QWidget* parent)
    : QTableView(parent)
    , m_delegate(new CellDelegate(this))
{
    setSortingEnabled(true);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setSelectionMode(QAbstractItemView::ExtendedSelection); // Ctrl+A, Shift+click: rows to copy
    setAlternatingRowColors(true);
    setWordWrap(false); // single-line cells: no text layout per cell on every repaint
    verticalHeader()->setVisible(false);
    verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    horizontalHeader()->setStretchLastSection(true);
    setItemDelegate(m_delegate);
    m_delegate->setElidableColumn(LayerTableModel::Name);
    setTextElideMode(Qt::ElideMiddle); // names only: the delegate widens a column rather than cut a number
    setShowGrid(false); // CellDelegate draws the grid, at a fraction of the view's cost
    connect(m_delegate, &CellDelegate::columnTooNarrow, this, &LayerTable::widen, Qt::QueuedConnection);
    // After a sort, the first rows: the view kept its scroll position, mid-list in the new order.
    connect(horizontalHeader(), &QHeaderView::sortIndicatorChanged, this, [this] { scrollToTop(); });
}

void LayerTable::fitColumns()
{
    resizeColumnsToContents();
    setColumnWidth(LayerTableModel::Share, std::max(columnWidth(LayerTableModel::Share), 140));
    fitLastColumn();
}

void LayerTable::fitLastColumn()
{
    if (!model() || model()->columnCount() <= LayerTableModel::Share)
        return;
    // Stretched, the last section took whatever width was left, down to Qt's minimum: at 1440 x 900
    // the share's "%" was cut. It stretches while the others leave it its preferred 140 px (a bar
    // and "12.3 %"), takes what is left down to what its text needs, and only then scrolls.
    const int content = std::max(sizeHintForColumn(LayerTableModel::Share), horizontalHeader()->sectionSizeHint(LayerTableModel::Share));
    const int preferred = std::max(content, 140);
    // The width there will be: less the vertical scroll bar that the rows are about to bring (the
    // view lays out its columns before the bar appears, and no resize event follows it).
    int room = viewport()->width();
    if (!verticalScrollBar()->isVisible() && model()->rowCount() * verticalHeader()->defaultSectionSize() > viewport()->height())
        room -= style()->pixelMetric(QStyle::PM_ScrollBarExtent, nullptr, this);
    int others = 0;
    for (int c = 0; c < model()->columnCount(); ++c)
        if (c != LayerTableModel::Share && !isColumnHidden(c))
            others += columnWidth(c);
    const bool stretch = others + preferred <= room;
    if (horizontalHeader()->stretchLastSection() != stretch)
        horizontalHeader()->setStretchLastSection(stretch);
    if (!stretch) {
        const int width = std::max(content, room - others);
        if (columnWidth(LayerTableModel::Share) != width)
            setColumnWidth(LayerTableModel::Share, width);
    }
}

void LayerTable::resizeEvent(QResizeEvent* event)
{
    QTableView::resizeEvent(event);
    fitLastColumn();
    // A new width starts at the left, with the names: a table left scrolled sideways cut them.
    horizontalScrollBar()->setValue(0);
}

void LayerTable::widen(int column)
{
    if (column < 0 || !model() || column >= model()->columnCount() || isColumnHidden(column))
        return;
    const int needed = std::max(sizeHintForColumn(column), horizontalHeader()->sectionSizeHint(column));
    if (needed > columnWidth(column))
        setColumnWidth(column, needed);
    m_delegate->widened(column);
    fitLastColumn();
}

QString LayerTable::selectionAsText() const
{
    const QAbstractItemModel* m = model();
    if (!m || !selectionModel())
        return {};
    QList<int> columns;
    const QHeaderView* header = horizontalHeader();
    for (int visual = 0; visual < header->count(); ++visual) {
        const int logical = header->logicalIndex(visual);
        if (!isColumnHidden(logical))
            columns.append(logical);
    }
    QList<int> rows;
    for (const QModelIndex& index : selectionModel()->selectedRows())
        rows.append(index.row());
    std::sort(rows.begin(), rows.end());
    QStringList lines;
    QStringList cells;
    for (int c : columns)
        cells.append(m->headerData(c, Qt::Horizontal, Qt::DisplayRole).toString());
    lines.append(cells.join(QLatin1Char('\t')));
    for (int r : rows) {
        cells.clear();
        for (int c : columns)
            cells.append(withoutGlyphs(m->index(r, c).data(Qt::DisplayRole).toString()));
        lines.append(cells.join(QLatin1Char('\t')));
    }
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

void LayerTable::copySelection() const
{
    if (selectionModel() && selectionModel()->hasSelection())
        QApplication::clipboard()->setText(selectionAsText());
}

void LayerTable::changeEvent(QEvent* event)
{
    QTableView::changeEvent(event);
    if (event->type() == QEvent::FontChange) {
        // Presentation mode, or a new system font: rows and columns for the new type size, once the
        // header has its font too (it gets the change after the view).
        QTimer::singleShot(0, this, [this] {
            verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
            fitColumns();
        });
    }
}

void LayerTable::keyPressEvent(QKeyEvent* event)
{
    if (event == QKeySequence::Copy) {
        copySelection();
        event->accept();
        return;
    }
    QTableView::keyPressEvent(event);
}

} // namespace rfx
