#pragma once

#include <QTableView>

namespace rfx {

class CellDelegate;

/// The layer table's view: single-line cells drawn by CellDelegate, columns that always fit their
/// numbers, copy of the selection as tab-separated text, and the top shown after a sort.
///
/// Numbers are never cut. The columns fit their content whenever the rows change in kind (another
/// network, device, mode or type size: fitColumns()); between those, while a slider moves, a cell
/// whose text no longer fits (a time growing from "957 us" to "1.94 s") makes its column widen at
/// the next event, found while painting at no extra cost. Only layer names may be elided, in the
/// middle, with the full name in their tooltip.
///
/// A language model's block line (LayerTableModel::FoldRole) folds and shows its rows on a click on its
/// mark, a double-click, or left / right (minus / plus); left on one of its rows goes to the line.
class LayerTable : public QTableView {
    Q_OBJECT
public:
    explicit LayerTable(QWidget* parent = nullptr);

    /// Every column to its content (and its header): called when the rows change in kind.
    void fitColumns();
    /// The selected rows as tab-separated text, a header row first, the visible columns in their
    /// order, without the glyphs that mark bounds and warnings.
    QString selectionAsText() const;
    /// Copies selectionAsText() to the clipboard (Ctrl+C, Edit > Copy).
    void copySelection() const;
    CellDelegate* cellDelegate() const { return m_delegate; }

protected:
    void keyPressEvent(QKeyEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void paintEvent(QPaintEvent* event) override;

private:
    void widen(int column);
    /// The share column fills what the others leave, but never less than its bar and percentage need.
    void fitLastColumn();
    CellDelegate* m_delegate;
};

} // namespace rfx
