#include "table/celldelegate.h"

#include "table/layertablemodel.h"

#include <QApplication>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace rfx {

void CellDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const
{
    // Only the roles these cells use (initStyleOption() asks for ten, each formatted by the model),
    // and the selection drawn directly: the view has already painted the (alternating) row background.
    // The view's option is read, not copied (its font, palette and strings: a tenth of a cell's cost).
    const QFont font = cellFont(option.font, index);
    Qt::Alignment alignment = option.displayAlignment;
    if (const QVariant a = index.data(Qt::TextAlignmentRole); a.isValid())
        alignment = Qt::Alignment(a.toInt());
    const QVariant foreground = index.data(Qt::ForegroundRole);
    const QString text = index.data(Qt::DisplayRole).toString();
    const QWidget* widget = option.widget;
    const QStyle* style = widget ? widget->style() : QApplication::style();
    const QPalette::ColorGroup group = !(option.state & QStyle::State_Enabled) ? QPalette::Disabled
        : (option.state & QStyle::State_Active)                                ? QPalette::Normal
                                                                               : QPalette::Inactive;
    if (option.state & QStyle::State_Selected)
        painter->fillRect(option.rect, option.palette.brush(group, QPalette::Highlight));
    if (option.state & QStyle::State_HasFocus) {
        QStyleOptionFocusRect focus;
        focus.QStyleOption::operator=(option);
        focus.backgroundColor = option.palette.color(
            group, (option.state & QStyle::State_Selected) ? QPalette::Highlight : QPalette::Window);
        style->drawPrimitive(QStyle::PE_FrameFocusRect, &focus, painter, widget);
    }

    if (index.column() == LayerTableModel::Share) {
        const double share = std::clamp(index.data(LayerTableModel::ShareRole).toDouble(), 0.0, 1.0);
        if (share > 0) {
            QRectF bar = QRectF(option.rect).adjusted(2, 3, -2, -3);
            bar.setWidth(bar.width() * share);
            QColor c = option.palette.color(QPalette::Highlight);
            c.setAlpha(90);
            painter->fillRect(bar, c);
        }
    }
    if (text.isEmpty())
        return;

    const int margin = style->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, widget) + 1;
    const QRect r = option.rect.adjusted(margin, 0, -margin, 0);
    QColor color;
    if (option.state & QStyle::State_Selected)
        color = option.palette.color(group, QPalette::HighlightedText);
    else if (foreground.canConvert<QBrush>())
        color = qvariant_cast<QBrush>(foreground).color();
    else
        color = option.palette.color(group, QPalette::Text);
    Entry& e = entry(text, font);
    if (e.size.width() > r.width()) {
        // Rare (the view fits its columns to their content): elided text is drawn directly, not cached.
        // A number must not stay cut: its column is widened at the next event.
        const int column = index.column();
        if (column != m_elidable && column < 64 && !(m_tooNarrow & (quint64(1) << column))) {
            m_tooNarrow |= quint64(1) << column;
            emit columnTooNarrow(column);
        }
        QStaticText elided(QFontMetrics(font).elidedText(text, option.textElideMode, r.width()));
        elided.setTextFormat(Qt::PlainText);
        elided.prepare(QTransform(), font);
        const QPointF at = alignedOrigin(r, elided.size(), alignment);
        painter->save();
        painter->setFont(font);
        painter->setPen(color);
        painter->drawStaticText(at, elided);
        painter->restore();
        return;
    }
    const qreal dpr = painter->device() ? painter->device()->devicePixelRatio() : 1.0;
    const QImage& image = rendered(e, text, font, color, dpr);
    const QPointF at = alignedOrigin(r, e.size, alignment);
    painter->drawImage(QPointF(std::round(at.x()) - kImageMargin, std::round(at.y())), image);
}

QPointF CellDelegate::alignedOrigin(const QRect& r, const QSizeF& size, Qt::Alignment alignment)
{
    double x = r.left();
    if (alignment & Qt::AlignRight)
        x = r.right() + 1 - size.width();
    else if (alignment & Qt::AlignHCenter)
        x = r.left() + (r.width() - size.width()) / 2;
    return { x, r.top() + (r.height() - size.height()) / 2 };
}

void CellDelegate::widened(int column) const
{
    if (column >= 0 && column < 64)
        m_tooNarrow &= ~(quint64(1) << column);
}

QSize CellDelegate::sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const
{
    // Wide enough for the text as paint() draws it (the same shaped text and margins) plus the grid's
    // pixel, which the view no longer adds to the column (setShowGrid(false)): without it the widest
    // cell of a column, often a bold dominant layer, came out one pixel short and elided.
    QSize size = QStyledItemDelegate::sizeHint(option, index);
    const QString text = index.data(Qt::DisplayRole).toString();
    if (!text.isEmpty()) {
        const QWidget* widget = option.widget;
        const QStyle* style = widget ? widget->style() : QApplication::style();
        const int margin = style->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, widget) + 1;
        const double textWidth = entry(text, cellFont(option.font, index)).size.width();
        size.setWidth(std::max(size.width(), int(std::ceil(textWidth)) + 2 * margin));
    }
    size.rwidth() += 1;
    return size;
}

QFont CellDelegate::cellFont(const QFont& viewFont, const QModelIndex& index) const
{
    const QVariant font = index.data(Qt::FontRole);
    return unshaped(font.isValid() ? qvariant_cast<QFont>(font).resolve(viewFont) : viewFont);
}

const QFont& CellDelegate::unshaped(const QFont& font) const
{
    // Cells are Latin text and digits: no OpenType shaping (kerning, ligatures), which was a tenth of
    // a live slider step (HarfBuzz, callgrind). Applied here rather than with the view's setFont(), so
    // that the table keeps following the application font (presentation mode). Two fonts are in use
    // (regular and bold): the last few conversions are kept.
    for (const auto& [from, to] : m_unshaped)
        if (from == font)
            return to;
    if (m_unshaped.size() >= 4)
        m_unshaped.erase(m_unshaped.begin());
    QFont to = font;
    to.setStyleStrategy(QFont::PreferNoShaping);
    m_unshaped.emplace_back(font, to);
    return m_unshaped.back().second;
}

CellDelegate::Entry& CellDelegate::entry(const QString& text, const QFont& font) const
{
    constexpr qsizetype kMaxEntries = 4096; // a few screens of distinct cell texts
    if (m_cached >= kMaxEntries) {
        m_cache.clear();
        m_cached = 0;
    }
    auto fontIt = std::find_if(m_cache.begin(), m_cache.end(), [&](const auto& e) { return e.first == font; });
    if (fontIt == m_cache.end()) {
        m_cache.emplace_back(font, QHash<QString, Entry> {});
        fontIt = m_cache.end() - 1;
    }
    QHash<QString, Entry>& forFont = fontIt->second;
    auto it = forFont.find(text);
    if (it == forFont.end()) {
        Entry e;
        e.line = m_stamp.layout(text, font);
        if (e.line) {
            e.size = QSizeF(e.line->width, m_stamp.lineHeight(font));
        } else {
            e.text = QStaticText(text);
            e.text.setTextFormat(Qt::PlainText);
            e.text.prepare(QTransform(), font);
            e.size = e.text.size();
        }
        it = forFont.insert(text, e);
        ++m_cached;
    }
    return *it;
}

const QImage& CellDelegate::rendered(
    Entry& e, const QString& text, const QFont& font, const QColor& color, qreal dpr) const
{
    if (e.image.isNull() || e.color != color.rgba() || e.image.devicePixelRatio() != dpr) {
        if (e.line && dpr == 1.0) {
            e.image = m_stamp.render(*e.line, font, color, kImageMargin);
            e.color = color.rgba();
            return e.image;
        }
        if (e.text.text().isEmpty()) { // laid out by the stamp, drawn here at another pixel ratio
            e.text = QStaticText(text);
            e.text.setTextFormat(Qt::PlainText);
            e.text.prepare(QTransform(), font);
        }
        // The text in its colour on a transparent image, a margin each side for glyphs that overhang their
        // advance ('j', italics). Source-over of a premultiplied image onto the cell gives the same pixels
        // as drawing the glyphs there (dst * (1 - coverage) + colour * coverage), through the raster engine's
        // SIMD blend rather than its per-pixel glyph blit (qt_alphamapblit: 2,200 instructions a glyph).
        const QSizeF size = e.size;
        QImage image(
            QSize(int(std::ceil((size.width() + 2 * kImageMargin) * dpr)), int(std::ceil(size.height() * dpr))),
            QImage::Format_ARGB32_Premultiplied);
        image.setDevicePixelRatio(dpr);
        image.fill(Qt::transparent);
        QPainter p(&image);
        p.setFont(font);
        p.setPen(color);
        p.drawStaticText(QPointF(kImageMargin, 0), e.text);
        p.end();
        e.image = std::move(image);
        e.color = color.rgba();
    }
    return e.image;
}

} // namespace rfx
