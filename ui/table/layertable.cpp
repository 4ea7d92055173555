#include "table/layertable.h"

#include "table/celldelegate.h"
#include "table/layertablemodel.h"

#include <QApplication>
#include <QClipboard>
#include <QHeaderView>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPaintEvent>
#include <QPainter>
#include <QRegularExpression>
#include <QScrollBar>
#include <QStyle>
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
    setShowGrid(false); // paintEvent draws the grid, at a fraction of the view's cost
    connect(m_delegate, &CellDelegate::columnTooNarrow, this, &LayerTable::widen, Qt::QueuedConnection);
    // After a sort, the first rows: the view kept its scroll position, mid-list in the new order.
    connect(horizontalHeader(), &QHeaderView::sortIndicatorChanged, this, [this] { scrollToTop(); });
}

void LayerTable::paintEvent(QPaintEvent* event)
{
    QTableView::paintEvent(event);
    // The grid, one pixel on each cell's right and bottom edge where QTableView would draw it: the view
    // strokes its grid through the raster engine's cosmetic-pen path (13 % of a live slider step,
    // callgrind); here a span fill per visible column and row, after the cells (a selected cell's
    // fill covers its edge pixels, as the view's own grid comes after it too).
    if (!model() || model()->rowCount(rootIndex()) == 0)
        return;
    const QRect room = viewport()->rect();
    const int firstRow = std::max(0, rowAt(room.top())),
              lastRow = rowAt(room.bottom()) < 0 ? model()->rowCount(rootIndex()) - 1 : rowAt(room.bottom());
    const int top = rowViewportPosition(firstRow), bottom = rowViewportPosition(lastRow) + rowHeight(lastRow);
    int left = room.right() + 1, right = room.left() - 1;
    QStyleOptionViewItem option;
    initViewItemOption(&option);
    const QColor grid = QColor::fromRgba(QRgb(style()->styleHint(QStyle::SH_Table_GridLineColor, &option, this)));
    QPainter painter(viewport());
    painter.setClipRegion(event->region());
    const QHeaderView* header = horizontalHeader();
    for (int v = 0; v < header->count(); ++v) {
        const int column = header->logicalIndex(v);
        if (header->isSectionHidden(column))
            continue;
        const int x = columnViewportPosition(column), w = columnWidth(column);
        if (w <= 0 || x + w <= room.left() || x > room.right())
            continue;
        left = std::min(left, x);
        right = std::max(right, x + w - 1);
        painter.fillRect(QRect(x + w - 1, top, 1, bottom - top), grid);
    }
    for (int row = firstRow; row <= lastRow && left <= right; ++row) {
        if (isRowHidden(row))
            continue;
        painter.fillRect(QRect(left, rowViewportPosition(row) + rowHeight(row) - 1, right - left, 1), grid);
    }
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
    const int content = std::max(
        sizeHintForColumn(LayerTableModel::Share), horizontalHeader()->sectionSizeHint(LayerTableModel::Share));
    const int preferred = std::max(content, 140);
    // The width there will be: less the vertical scroll bar that the rows are about to bring (the
    // view lays out its columns before the bar appears, and no resize event follows it).
    int room = viewport()->width();
    if (!verticalScrollBar()->isVisible()
        && model()->rowCount() * verticalHeader()->defaultSectionSize() > viewport()->height())
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
        for (int c : columns) {
            const QModelIndex cell = m->index(r, c);
            const QVariant copy = cell.data(LayerTableModel::CopyRole); // a block's row: its whole name
            cells.append(withoutGlyphs(copy.isValid() ? copy.toString() : cell.data(Qt::DisplayRole).toString()));
        }
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

void LayerTable::mousePressEvent(QMouseEvent* event)
{
    // a click on a block's fold mark folds or shows its rows (and selects the line, as any click)
    const QModelIndex index = indexAt(event->position().toPoint());
    if (event->button() == Qt::LeftButton && index.isValid() && index.column() == LayerTableModel::Name
        && index.data(LayerTableModel::FoldRole).isValid()) {
        const int margin = style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, this) + 1;
        const int mark = margin + fontMetrics().horizontalAdvance(QStringLiteral("\u25be ")) + 2;
        if (event->position().x() - visualRect(index).left() <= mark && model())
            model()->setData(index, !index.data(LayerTableModel::FoldRole).toBool(), LayerTableModel::FoldRole);
    }
    QTableView::mousePressEvent(event);
}

void LayerTable::mouseDoubleClickEvent(QMouseEvent* event)
{
    const QModelIndex index = indexAt(event->position().toPoint());
    const QModelIndex name = index.isValid() ? index.siblingAtColumn(LayerTableModel::Name) : QModelIndex();
    if (event->button() == Qt::LeftButton && name.data(LayerTableModel::FoldRole).isValid() && model()) {
        model()->setData(name, !name.data(LayerTableModel::FoldRole).toBool(), LayerTableModel::FoldRole);
        event->accept();
        return;
    }
    QTableView::mouseDoubleClickEvent(event);
}

void LayerTable::keyPressEvent(QKeyEvent* event)
{
    if (event == QKeySequence::Copy) {
        copySelection();
        event->accept();
        return;
    }
    // a block's line folds (left, minus) and shows (right, plus) its rows, as a tree does; left on a
    // row of a block goes to the block's line
    const QModelIndex current = currentIndex();
    const int key = event->key();
    const bool fold = key == Qt::Key_Left || key == Qt::Key_Minus;
    if (current.isValid() && model() && (fold || key == Qt::Key_Right || key == Qt::Key_Plus)
        && !(event->modifiers() & (Qt::ControlModifier | Qt::AltModifier))) {
        const QModelIndex name = current.siblingAtColumn(LayerTableModel::Name);
        if (name.data(LayerTableModel::FoldRole).isValid()) {
            model()->setData(name, fold, LayerTableModel::FoldRole);
            event->accept();
            return;
        }
        const QVariant block = name.data(LayerTableModel::BlockRole);
        if (key == Qt::Key_Left && block.isValid())
            for (int r = current.row() - 1; r >= 0; --r) {
                const QModelIndex above = model()->index(r, LayerTableModel::Name);
                if (above.data(LayerTableModel::FoldRole).isValid()
                    && above.data(LayerTableModel::BlockRole) == block) {
                    selectionModel()->setCurrentIndex(
                        above, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
                    scrollTo(above);
                    event->accept();
                    return;
                }
            }
    }
    QTableView::keyPressEvent(event);
}

} // namespace rfx
