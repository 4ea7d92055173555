#pragma once

#include <QFont>
#include <QHash>
#include <QImage>
#include <QStaticText>
#include <QStyledItemDelegate>

#include "widgets/glyphstamp.h"

#include <optional>
#include <utility>
#include <vector>

namespace rfx {

/// Paints the layer table's cells: single-line text and, in the share column, the share of time as a
/// bar behind the text (LayerTableModel::ShareRole).
///
/// Why not QStyledItemDelegate's own text drawing: it lays out every cell with a QTextLayout and line
/// breaking on each repaint, the largest cost of a live slider step (callgrind: 37 % of the step).
/// Cells here are one line: each distinct text is laid out once (kept in a bounded cache; names, shapes
/// and parameter counts do not change while a slider moves), rendered once in its colour into a small
/// image that each repaint blends in (composed from glyph images by GlyphStamp, or drawn by Qt where
/// the text needs its text engine), and elided only when it does not fit. Background, selection and focus are still
/// drawn by the style. The delegate also draws the grid (one-pixel fills on each cell's right and bottom edge): its
/// view turns its own grid off (setShowGrid(false)), which strokes every line through the slow cosmetic-pen path.
class CellDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override;
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;
    /// The font a cell is drawn in: the view's, with the model's FontRole, without OpenType shaping.
    QFont cellFont(const QFont& viewFont, const QModelIndex& index) const;
    /// The one column whose text may be elided (layer names); any other cell that does not fit
    /// emits columnTooNarrow, once until the view has dealt with it (widened()).
    void setElidableColumn(int column) { m_elidable = column; }
    void widened(int column) const;

signals:
    void columnTooNarrow(int column) const;

private:
    /// A distinct cell text in one font: laid out once, and rendered once per colour (the last one
    /// kept): by GlyphStamp where it can, else shaped by Qt into a QStaticText.
    struct Entry {
        std::optional<GlyphStamp::Line> line;
        QStaticText text;
        QSizeF size;
        QImage image;
        QRgb color = 0;
    };
    static constexpr int kImageMargin = 2;
    static QPointF alignedOrigin(const QRect& r, const QSizeF& size, Qt::Alignment alignment);
    Entry& entry(const QString& text, const QFont& font) const;
    const QImage& rendered(Entry& e, const QString& text, const QFont& font, const QColor& color, qreal dpr) const;
    mutable GlyphStamp m_stamp;
    /// `font` without OpenType shaping.
    const QFont& unshaped(const QFont& font) const;
    mutable std::vector<std::pair<QFont, QFont>> m_unshaped;
    /// Per font (the table uses two: regular and bold), text -> shaped text. Fonts are compared with
    /// ==: QFont::key() builds a string and cost 5 % of a slider step.
    mutable std::vector<std::pair<QFont, QHash<QString, Entry>>> m_cache;
    mutable qsizetype m_cached = 0;
    int m_elidable = -1;
    mutable quint64 m_tooNarrow = 0; ///< columns reported and not yet widened (bit per column)
};

} // namespace rfx
