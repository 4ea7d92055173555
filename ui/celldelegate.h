#pragma once

#include <QFont>
#include <QHash>
#include <QStaticText>
#include <QStyledItemDelegate>

#include <utility>
#include <vector>

namespace rfx {

/// Paints the layer table's cells: single-line text and, in the share column, the share of time as a
/// bar behind the text (LayerTableModel::ShareRole).
///
/// Why not QStyledItemDelegate's own text drawing: it lays out every cell with a QTextLayout and line
/// breaking on each repaint, the largest cost of a live slider step (callgrind: 37 % of the step).
/// Cells here are one line: each distinct text is shaped once into a QStaticText (kept in a bounded
/// cache; names, shapes and parameter counts do not change while a slider moves) and elided only
/// when it does not fit. Background, selection and focus are still drawn by the style. The delegate
/// also draws the grid (one-pixel fills on each cell's right and bottom edge): its view turns its own
/// grid off (setShowGrid(false)), which strokes every line through the slow cosmetic-pen path.
class CellDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override;
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;
    /// The font a cell is drawn in: the view's, with the model's FontRole, without OpenType shaping.
    QFont cellFont(const QFont& viewFont, const QModelIndex& index) const;

private:
    const QStaticText& shaped(const QString& text, const QFont& font) const;
    /// `font` without OpenType shaping.
    const QFont& unshaped(const QFont& font) const;
    mutable std::vector<std::pair<QFont, QFont>> m_unshaped;
    /// Per font (the table uses two: regular and bold), text -> shaped text. Fonts are compared with
    /// ==: QFont::key() builds a string and cost 5 % of a slider step.
    mutable std::vector<std::pair<QFont, QHash<QString, QStaticText>>> m_cache;
    mutable qsizetype m_cached = 0;
};

} // namespace rfx
