#include "chart/legendflow.h"

#include <QFontMetricsF>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace rfx {

namespace {

bool isMarker(LegendSwatch s)
{
    return s == LegendSwatch::Circle || s == LegendSwatch::Square || s == LegendSwatch::Triangle
        || s == LegendSwatch::Star || s == LegendSwatch::Diamond || s == LegendSwatch::OpenCircle;
}

// A dash-dot-dot period is 12 pen widths (2.4 units here): a 2-unit swatch showed it as dash-dot, the
// L3 like the L2. The dash-dotted swatches get 3 units.
double swatchWidth(LegendSwatch s, double unit)
{
    return isMarker(s) ? unit : s == LegendSwatch::DashDot || s == LegendSwatch::DashDotDot ? 3 * unit : 2 * unit;
}

constexpr int kTextFlags = Qt::AlignLeft | Qt::AlignVCenter | Qt::TextWordWrap;

} // namespace

std::vector<LegendBox> flowLegend(
    const std::vector<LegendEntry>& entries, const QFont& font, double unit, const QRectF& area)
{
    const QFontMetricsF fm(font);
    const double gap = fm.height() * 0.9, line = fm.height() * 1.25, pad = 4, spacing = 4;
    const double usable = std::max(1.0, area.width() - 2 * pad);
    std::vector<LegendBox> out;
    double x = area.left() + pad, y = area.top() + pad, rowHeight = 0;
    for (const LegendEntry& e : entries) {
        const double sw = swatchWidth(e.swatch, unit) + spacing;
        // The text's natural width; an entry wider than the whole row wraps its own words.
        const double natural = std::ceil(fm.horizontalAdvance(e.text)) + 1;
        const double textWidth = std::min(natural, std::max(8.0, usable - sw));
        const QRectF wrapped = fm.boundingRect(QRectF(0, 0, textWidth, 1e6), kTextFlags, e.text);
        const double w = sw + textWidth, h = std::max(line, wrapped.height() + (line - fm.height()));
        if (x > area.left() + pad && x + w > area.left() + pad + usable) {
            x = area.left() + pad;
            y += rowHeight;
            rowHeight = 0;
        }
        out.push_back({ QRectF(x, y, w, h), QRectF(x + sw, y, textWidth, h) });
        rowHeight = std::max(rowHeight, h);
        x += w + gap;
    }
    return out;
}

double legendHeight(const std::vector<LegendEntry>& entries, const QFont& font, double unit, double width)
{
    const auto boxes = flowLegend(entries, font, unit, QRectF(0, 0, width, 0));
    double bottom = 0;
    for (const LegendBox& b : boxes)
        bottom = std::max(bottom, b.box.bottom());
    return boxes.empty() ? 0 : bottom + 4;
}

void paintLegend(QPainter& p, const std::vector<LegendEntry>& entries, const std::vector<LegendBox>& boxes,
    const QFont& font, double unit, const QColor& textColor)
{
    using S = LegendSwatch;
    p.save();
    p.setRenderHint(QPainter::Antialiasing);
    p.setFont(font);
    const double firstLine = QFontMetricsF(font).height() * 1.25;
    for (size_t i = 0; i < entries.size() && i < boxes.size(); ++i) {
        const LegendEntry& e = entries[i];
        const QRectF& b = boxes[i].box;
        const double y = b.top() + firstLine / 2; // the swatch beside the first line of a wrapped text
        if (!isMarker(e.swatch)) {
            const Qt::PenStyle style = e.swatch == S::Dashed ? Qt::DashLine
                : e.swatch == S::DashDot                     ? Qt::DashDotLine
                : e.swatch == S::DashDotDot                  ? Qt::DashDotDotLine
                : e.swatch == S::Dotted                      ? Qt::DotLine
                                                             : Qt::SolidLine;
            p.setPen(QPen(e.color, std::max(1.5, unit * 0.2), style, Qt::FlatCap));
            p.drawLine(QPointF(b.left(), y), QPointF(b.left() + swatchWidth(e.swatch, unit), y));
        } else {
            const QRectF m(b.left(), y - unit / 2, unit, unit);
            p.setPen(QPen(e.color.darker(130), 1));
            p.setBrush(e.swatch == S::Diamond && e.color.lightness() < 60 ? QBrush(Qt::NoBrush) : QBrush(e.color));
            if (e.swatch == S::OpenCircle) { // a ring, as the chart's open marks
                const double pen = std::max(1.5, unit / 6);
                p.setPen(QPen(e.color, pen));
                p.setBrush(Qt::NoBrush);
                p.drawEllipse(m.adjusted(pen / 2, pen / 2, -pen / 2, -pen / 2));
            } else if (e.swatch == S::Circle)
                p.drawEllipse(m);
            else if (e.swatch == S::Square)
                p.drawRect(m);
            else if (e.swatch == S::Triangle)
                p.drawPolygon(QPolygonF({ QPointF(m.center().x(), m.top()), m.bottomRight(), m.bottomLeft() }));
            else if (e.swatch == S::Diamond)
                p.drawPolygon(QPolygonF({ QPointF(m.center().x(), m.top()), QPointF(m.right(), m.center().y()),
                    QPointF(m.center().x(), m.bottom()), QPointF(m.left(), m.center().y()) }));
            else { // star: a square and a diamond over it
                p.drawRect(m.adjusted(1, 1, -1, -1));
                p.drawPolygon(QPolygonF({ QPointF(m.center().x(), m.top()), QPointF(m.right(), m.center().y()),
                    QPointF(m.center().x(), m.bottom()), QPointF(m.left(), m.center().y()) }));
            }
            p.setBrush(Qt::NoBrush);
        }
        p.setPen(textColor);
        p.drawText(boxes[i].text, kTextFlags, e.text);
    }
    p.restore();
}

ChartLegend::ChartLegend(QGraphicsItem* parent)
    : QGraphicsItem(parent)
{
    setZValue(16);
}

bool ChartLegend::set(const std::vector<LegendEntry>& entries, const QFont& font, const QColor& textColor, double width)
{
    const bool same = width == m_width && font == m_font && textColor == m_textColor
        && entries.size() == m_entries.size()
        && std::equal(
            entries.begin(), entries.end(), m_entries.begin(), [](const LegendEntry& a, const LegendEntry& b) {
                return a.text == b.text && a.color == b.color && a.swatch == b.swatch;
            });
    if (same)
        return false;
    prepareGeometryChange();
    m_entries = entries;
    m_font = font;
    m_textColor = textColor;
    m_width = width;
    m_unit = std::round(QFontMetricsF(font).height() * 0.7);
    m_boxes = flowLegend(m_entries, m_font, m_unit, QRectF(0, 0, width, 0));
    m_height = legendHeight(m_entries, m_font, m_unit, width);
    m_cache.invalidate();
    update();
    return true;
}

std::vector<QRectF> ChartLegend::textRects() const
{
    std::vector<QRectF> out;
    if (!isVisible())
        return out;
    for (const LegendBox& b : m_boxes)
        out.push_back(b.text.translated(pos()));
    return out;
}

QRectF ChartLegend::boundingRect() const { return QRectF(0, 0, m_width, m_height); }

void ChartLegend::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*)
{
    m_cache.paint(painter, boundingRect(),
        [this](QPainter* p) { paintLegend(*p, m_entries, m_boxes, m_font, m_unit, m_textColor); });
}

} // namespace rfx
