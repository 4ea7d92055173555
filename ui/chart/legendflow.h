#pragma once
// A legend as entries that flow like words: each a swatch (a line style or a marker shape) and its
// text, left to right, wrapping to a new row where the width ends; an entry wider than the whole
// width wraps its own text. Nothing is ever cut or elided. Used by the on-screen chart (ChartLegend)
// and by figures (FigureLayout), so that both legends look and measure the same.

#include "style/paintcache.h"

#include <QColor>
#include <QFont>
#include <QGraphicsItem>
#include <QRectF>
#include <QString>

#include <vector>

class QPainter;

namespace rfx {

enum class LegendSwatch {
    Line,
    Dashed,
    DashDot,
    DashDotDot,
    Dotted,
    Circle,
    Square,
    Triangle,
    Star,
    Diamond,
    OpenCircle
};

struct LegendEntry {
    QColor color;
    QString text;
    LegendSwatch swatch = LegendSwatch::Line;
};

/// One laid-out entry: its whole box, and the part its text takes.
struct LegendBox {
    QRectF box;
    QRectF text;
};

/// Lays the entries out in `area` (its height is ignored: rows are added as needed) with `font`;
/// `unit` is the swatch size (a marker's side; a line is twice as long).
std::vector<LegendBox> flowLegend(
    const std::vector<LegendEntry>& entries, const QFont& font, double unit, const QRectF& area);
/// The height flowLegend needs at `width`, with a small margin below.
double legendHeight(const std::vector<LegendEntry>& entries, const QFont& font, double unit, double width);
void paintLegend(QPainter& p, const std::vector<LegendEntry>& entries, const std::vector<LegendBox>& boxes,
    const QFont& font, double unit, const QColor& textColor);

/// The chart's on-screen legend: one graphics item below the plot that paints the flowed entries.
class ChartLegend : public QGraphicsItem {
public:
    explicit ChartLegend(QGraphicsItem* parent);
    /// Sets what it shows and lays it out in `width`; returns true when anything changed.
    bool set(const std::vector<LegendEntry>& entries, const QFont& font, const QColor& textColor, double width);
    double height() const { return m_height; }
    /// The entries' text boxes, in the parent's coordinates (for the legibility checks).
    std::vector<QRectF> textRects() const;
    const std::vector<LegendEntry>& entries() const { return m_entries; }

    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    std::vector<LegendEntry> m_entries;
    std::vector<LegendBox> m_boxes;
    QFont m_font;
    QColor m_textColor;
    double m_width = 0, m_height = 0, m_unit = 10;
    PaintCache m_cache; ///< the same on most slider steps: one image blend
};

} // namespace rfx
