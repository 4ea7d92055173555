#pragma once

#include "figure/figurepage.h"

#include "chart/legendflow.h"
#include "chart/rooflinechart.h"
#include "engine/roofline.h"
#include "io/figure.h"
#include "io/measurements.h"

#include <QColor>
#include <QFont>
#include <QLineF>
#include <QRectF>
#include <QString>

#include <array>
#include <memory>
#include <optional>
#include <vector>

class QPainter;

namespace rfx {

/// FigureLayout's unit: the charts are laid out at 96 logical pixels per inch.
inline constexpr double kLogicalPerInch = 96;

/// What a journal's figure check looks at, measured on the laid-out figure (not guessed): all in
/// printed points (1/72 in) on the page.
struct FigureGeometry {
    double widthPt = 0, heightPt = 0;
    double smallestTextPt = 0; ///< the smallest text anywhere: ticks, titles, legends, labels, caption
    int textItems = 0; ///< the charts' text items measured (ticks, titles, axis titles)
    std::vector<QRectF> legends; ///< every legend's box
    std::vector<QRectF> markers; ///< every plotted marker's box
    std::vector<QRectF> charts; ///< each chart's cell
    std::vector<QRectF> plots; ///< each chart's plot area (inside its axes)
    QRectF caption; ///< the caption's box (empty without one)
    int measuredPoints = 0; ///< measured diamonds drawn
    /// Each chart's axes: x decades (FLOP/byte) and y decades (FLOP/s), and its y unit (FLOP/s).
    std::vector<std::array<double, 5>> axes;
    /// Per chart, in its own logical pixels, for the legibility checks: every text drawn and its box,
    /// the chart's bounds, its layer labels, and its roof and slope lines.
    std::vector<std::vector<std::pair<QString, QRectF>>> chartTexts;
    std::vector<QRectF> chartBounds;
    std::vector<std::vector<std::pair<QString, QRectF>>> chartLayerLabels;
    std::vector<std::vector<QLineF>> chartLines;
    std::vector<std::vector<QLineF>> chartLeaders; ///< each chart's leader lines, point to label
};

/// The charts of a figure laid out at the figure's physical size, 96 logical pixels per inch, and
/// painted with one uniform scale into any target (PNG pixels, SVG, PDF points). Text is never under
/// 7 pt at print size; a grid that would make charts too small to read stacks them and the page
/// grows (figureColumns); one legend for the whole figure sits below the charts, never over data.
class FigureLayout : public FigurePage {
public:
    /// Measured timings for one device, drawn on its chart (the overlay's, or that device's).
    struct Measured {
        int device = -1; ///< index into report.results
        Comparison comparison;
    };
    FigureLayout(const Report& report, const FigureSpec& spec, const std::optional<Measured>& measured = std::nullopt);
    ~FigureLayout() override;

    FigureSize size() const override { return m_size; }
    double logicalWidth() const override { return m_width; }
    double logicalHeight() const override { return m_height; }
    QString title() const override { return m_title; }
    /// The caption as drawn (word joiners after hyphens), with the layers no chart had room to name.
    const QString& caption() const { return m_caption; }
    QString captionMovedOut() const override;

    /// Paints the whole figure into `target`, whose aspect ratio is the page's: one scale for x and y.
    void paint(QPainter& p, const QRectF& target) const override;
    FigureGeometry geometry() const;

private:
    /// Sizes the page, the cells, the legend and the caption for the caption as it is, and lays the
    /// charts out in their cells.
    void arrange(int charts, double widthIn);
    /// The figure's charts on shared axes (spec.sharedAxes), else on one x range.
    void shareAxes();
    std::vector<LegendEntry> legendEntries() const;
    std::vector<QRectF> legendBoxes(QRectF area) const;
    double swatchUnit() const;
    QFont smallFont() const;
    QRectF legendArea() const;

    FigureSpec m_spec;
    FigureSize m_size {};
    double m_width = 0, m_height = 0; ///< logical pixels
    double m_fontPx = 12; ///< titles; other text is smallFont()
    double m_captionHeight = 0, m_legendHeight = 0; ///< below the charts; 0 where they sit in a cell
    QRectF m_legendRect, m_captionRect; ///< where they are drawn, logical pixels
    QString m_title, m_caption;
    bool m_captionOutside = false; ///< the caption did not fit the height cap: written to its own file
    std::vector<std::unique_ptr<RooflineChart>> m_charts;
    std::vector<QRectF> m_cells; ///< chart plus its legend, logical pixels
};

} // namespace rfx
