#pragma once

#include "chart/chartnavigator.h"
#include "chart/legendflow.h"
#include "engine/layerfilter.h"
#include "engine/roofline.h"
#include "io/measurements.h"
#include "widgets/pointhover.h"

#include <QChartView>
#include <QLineF>
#include <QPointer>
#include <QStringList>

#include <array>
#include <cmath>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <vector>

class QLineSeries;
class QScatterSeries;
class QXYSeries;
class QLogValueAxis;
class QGraphicsTextItem;

namespace rfx {

/// A log-log roofline chart: per device the DRAM slope and compute roof (and the vector roof when
/// tensor cores raise the convolution roof), the ridge point, and every layer as a point at
/// (intensity, attainable FLOP/s). Memory-bound layers are circles, compute-bound layers squares;
/// a point's size grows with its share of the time. One device per chart, or several overlaid.
/// Under the tiled traffic model, a device with L2 / L1 bandwidths also gets those ceilings and, per
/// matrix-product row, a point at each level's intensity (hierarchical roofline: same height, one x per level).
class RooflineChart : public QChartView {
    Q_OBJECT
public:
    explicit RooflineChart(QWidget* parent = nullptr);
    ~RooflineChart() override;

    /// Shows the devices `devices` (indices into report.results). Replaces series points in place.
    void setReport(const Report& report, const std::vector<int>& devices);
    /// The same with measured timings for report.results[measuredDevice] (null: none): one rebuild.
    void setReport(
        const Report& report, const std::vector<int>& devices, const Comparison* measured, int measuredDevice);
    /// The same, holding the window's report itself (shared, not copied: a slider step copied it per chart).
    void setReport(std::shared_ptr<const Report> report, const std::vector<int>& devices, const Comparison* measured,
        int measuredDevice);
    void setFilter(const LayerFilter& filter);
    /// Marks one layer (index into the device's layer list) with a ring; -1 clears the mark.
    void setSelectedLayer(int layer);
    int selectedLayer() const { return m_selected; }
    /// Print style for exports: light theme whatever the desktop palette, fonts of `fontPx` pixels,
    /// optionally no background. Call before setReport.
    void setPrintStyle(double fontPx, bool transparent);

    /// Print style: labels every other decade on an axis whose decades are too close for their tick
    /// labels (Qt Charts would elide them to "..."); call once the chart has its size. True if it
    /// changed anything (the chart then lays itself out again).
    bool fitTickLabels();

    /// Tick labels as powers of ten (10⁻², 10³) instead of plain numbers (0.01, 1000).
    void setPowerTicks(bool on);
    bool powerTicks() const { return m_powerTicks; }
    /// For tests: the power-of-ten tick labels now drawn.
    QStringList powerTickLabels() const;

    /// Names the layers that take at least `share` of the network's time beside their points (at
    /// most six per device, never over another label or a point); 0 turns the labels off.
    void setLayerLabels(double share);
    double layerLabelShare() const { return m_labelShare; }
    /// For tests: the layer labels now drawn, and their boxes (chart coordinates).
    std::vector<std::pair<QString, QRectF>> layerLabels() const;
    /// The layers at or above the label share that no label names for lack of room ("name share",
    /// the device's short name first in an overlay). The plot says "+N more over 5 %" in a corner,
    /// with them in its tooltip; a figure's caption lists them.
    QStringList unnamedLayers() const;
    /// The "+N more" note's box in the chart's coordinates, empty when all are named.
    QRectF moreLabelBox() const;

    /// Multiplies the chart's text sizes (presentation mode); 1 restores them.
    void setFontScale(double scale);
    /// The chart took its type from the application's font when it was made; made while that font
    /// was `factor` times its usual size (presentation mode), its own scale would apply twice.
    void setCreatedAtFontFactor(double factor);

    /// The smallest size at which every text of the chart stays whole and apart: a plot of at least
    /// 14 x 8 lines of its tick type, with the title, axes and legend around it. Grows with the type.
    QSize minimumSizeHint() const override;
    /// For legibility checks: every text the chart now draws (titles, tick labels, roof, ridge and layer
    /// labels, legend entries), with its box in the viewport's pixels.
    std::vector<std::pair<QString, QRectF>> textBoxes() const;
    /// For legibility checks: the roofs, slopes and level ceilings as drawn, in the viewport's pixels.
    std::vector<QLineF> roofLines() const;
    /// For legibility checks: the hairlines from layer labels to their points, from the point to the
    /// label's edge, in the viewport's pixels.
    std::vector<QLineF> leaderLines() const;

    /// For figures: Qt's legend row elides long names in a narrow figure and takes more room than its
    /// entries; the figure lays legendItems() out below its charts instead (FigureLayout).
    void hideLegendForFigure();
    using Swatch = LegendSwatch;
    using LegendItem = LegendEntry;
    /// What a figure's legend must explain of what this chart draws: the devices' roofs (overlay),
    /// the dashed vector roofs, the L2/L1 ceilings and points, the two layer shapes, measurements.
    std::vector<LegendItem> legendItems() const;
    QRectF plotArea() const; ///< in the view's coordinates
    /// For figure checks, in the viewport's pixels: every visible marker's box, the legend's box
    /// (legendVisible()), and the pixel sizes of the point labels drawn (ridge labels).
    /// For tests: the selection ring's box in the viewport (empty when nothing is selected).
    QRectF selectionRect() const;
    std::vector<QRectF> markerRects() const;
    bool legendVisible() const;
    QRectF legendRect() const;
    std::vector<double> pointLabelPixelSizes() const;
    /// Where a point of value `value` (x FLOP/byte, y in yScale() units) is drawn, in the viewport's
    /// pixels; for tests that move the mouse onto a point.
    QPoint viewportPosition(QPointF value) const;
    /// The tooltip's hover logic; for tests.
    const PointHover* hover() const { return m_hover; }

    /// Forgets the sticky axis range and any zoom, and fits the current points to decade bounds.
    void fitAxes();
    /// Zoom and pan (ChartNavigator: wheel, rubber band, middle drag, arrows, Home): the exact view
    /// the user asked for, kept while the analysis changes, until resetView() or fitAxes().
    void setView(const ChartNavigator::Range& view);
    ChartNavigator::Range viewRange() const;
    bool zoomed() const { return m_zoomed; }
    void resetView();
    /// Minor (2..9) log gridlines: on for a large chart, off for small multiples where they are clutter
    /// (and cost most of a repaint).
    void setMinorGrid(bool on);

    /// For tests and exports: the plotted layer points of the first device, in layer order
    /// (x in FLOP/byte, y in units of yScale() FLOP/s).
    std::vector<QPointF> layerPoints() const;
    /// Measured timings of report.results[device] beside the model: a hollow diamond per measured layer
    /// at (F / Q, F / measured time), joined to its modelled point; red where it beats the roof. F and Q
    /// are the measured FLOPs and bytes where the file has them, else the model's. -1 clears.
    void setMeasured(int device, const Comparison& comparison);
    void clearMeasured();
    /// For tests: the measured points (x in FLOP/byte, y in units of yScale() FLOP/s), in layer order.
    std::vector<QPointF> measuredPoints() const;

    /// For tests: the first device's points at level 0 (L2) or 1 (L1), in layer order.
    std::vector<QPointF> levelPoints(int level) const;
    QPointF xRange() const;
    QPointF yRange() const;
    double yScale() const { return m_scale; }
    const std::vector<int>& devices() const { return m_devices; }

    /// What the guided tour points at on this chart (rooflinechart_highlight.cpp).
    enum class Highlight { None, Slope, Roof, Ridge, Layer };
    /// Marks the first device's memory slope, compute roof, ridge, or layer `layer`, and keeps the
    /// mark in place as the chart changes; None removes it.
    void setHighlight(Highlight what, int layer = -1);
    Highlight highlight() const { return m_highlightWhat; }
    /// The mark's extent in the chart's coordinates (empty when none): for tests.
    QRectF highlightRect() const;
    /// What of the mark is drawn: the part inside the plot area (a ring at the plot's edge covered
    /// the tick label "164", issue 73 item 8), in chart coordinates; empty when there is none.
    QRectF highlightDrawnRect() const;

    /// What the chart was given, so that a test can build a fresh chart from the same state and
    /// compare the two pixel for pixel (tests/chartoracle.h).
    const Report& report() const { return *m_report; }
    const LayerFilter& filter() const { return m_filter; }
    double fontScale() const { return m_fontScale; }
    bool minorGrid() const;
    int measuredDevice() const { return m_measuredDevice; }
    /// How many times the chart was rebuilt from its report (a slider step should cost one).
    int rebuilds() const { return m_rebuilds; }
    const Comparison& measured() const { return m_measured; }
    /// Holds the axes at these decade bounds (x in FLOP/byte, y in yScale() units) until the points
    /// leave them or fitAxes() is called.
    void setAxisRange(QPointF x, QPointF y);
    /// Shared axes for a grid: every chart gets the union of their decade ranges and one y unit
    /// (the largest any of them picked), so that devices compare by eye. Call after setReport;
    /// unshareAxes() returns each chart to its own fit.
    static void shareAxes(const std::vector<RooflineChart*>& charts);
    /// One x range for charts that keep their own y (a figure's charts, one per device): the union
    /// of their decades, so that intensities line up down a stacked figure.
    static void shareXAxis(const std::vector<RooflineChart*>& charts);
    void unshareAxes();
    /// The y unit in FLOP/s (1e9 GFLOP/s, 1e12 TFLOP/s) this chart must use; 0: its own choice.
    void setYUnit(double flopsPerUnit);
    double forcedYUnit() const { return m_forcedScale; }

    /// The cursor read-out for a point of the plot (x FLOP/byte, y FLOP/s): where it is and which
    /// roof bounds it there. Shown in the plot's corner while the mouse is over the plot.
    QString readoutText(double intensity, double flops) const;
    QString readoutShown() const;
    /// The read-out's box in the chart's coordinates (as layerLabels()), empty when it is hidden.
    QRectF readoutBox() const;

signals:
    /// A layer point was clicked: `layer` indexes the layer list of report.results[device].
    void layerClicked(int layer, int device);

protected:
    void resizeEvent(QResizeEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;

private:
    struct DeviceSeries;
    void setUpAxes();
    void addSelectionAndMeasured();
    void ensureSeries(size_t count);
    void rebuild(); ///< the whole chart from m_report, in the parts below
    void chooseUnit();
    void fitToData();
    bool drawRoofs(size_t slot, const DeviceResult& d);
    void drawLevels(size_t slot, const DeviceResult& d);
    int drawPoints(size_t slot, const DeviceResult& d);
    void updateTitle(int hidden);
    void updateAxes(double xmin, double xmax, double ymin, double ymax);
    /// The decades added to each side of the axes (x low, x high, y low, y high) where a marker
    /// (m_marks) would cross the frame of `plot`: a function of the data's bounds, the markers and
    /// the plot's size alone, so a live chart and a fresh one at the same size agree. True if they
    /// changed.
    bool growForMarkers(const QRectF& plot);
    /// growForMarkers for a new plot area (plotAreaChanged), rebuilding where it grew; true if it did.
    bool growForPlot();
    std::array<int, 4> m_grown {};
    double shownXlo() const { return m_xlo / std::pow(10.0, m_grown[0]); }
    double shownXhi() const { return m_xhi * std::pow(10.0, m_grown[1]); }
    double shownYlo() const { return m_ylo / std::pow(10.0, m_grown[2]); }
    double shownYhi() const { return m_yhi * std::pow(10.0, m_grown[3]); }
    struct Mark {
        double x, y, radius; ///< data coordinates (y in the axis unit) and the marker's half size, pixels
        double above = 0; ///< room wanted above it, pixels (the ridge's ring and its label)
    };
    std::vector<Mark> m_marks; ///< every plotted marker, for growForMarkers (fitToData)
    bool m_growing = false;
    /// The changes new plot areas made to m_grown (plotAreaChanged): each plot's size and the decades
    /// it found. A change can move the plot so that the rule undoes it there (a decade grown widened
    /// the y labels, the title took another line, and in the shorter plot the decade no longer
    /// helped: an A100 cell flipped between 10^5 and 10^6 for ever). Back at a plot and decades seen,
    /// the chart keeps the most of each side the cycle had: the markers' room wins, whichever state
    /// the cycle was entered in. Forgotten at a resize or a rebuild for new data.
    struct GrowStep {
        QSizeF plot;
        std::array<int, 4> grown;
    };
    std::vector<GrowStep> m_growSteps;
    bool m_inRebuild = false; ///< rebuild() places the labels once, at its end
    void placeRoofLabels();
    void cacheGridLines();
    static void setAxisLineWidth(QLogValueAxis* axis, qreal width);
    /// "OP/s" at 8 bits (integer operations), "FLOP/s" otherwise; with the axis' prefix, "TOP/s".
    const char* rateUnit() const { return m_report->config.bits == 8 ? "OP/s" : "FLOP/s"; }
    QString axisUnit() const;
    void updateYTitle(); ///< "Performance (GFLOP/s)", or the unit alone in a small chart
    void updateHighlight();
    Highlight m_highlightWhat = Highlight::None;
    int m_highlightLayer = -1;
    class QGraphicsPathItem* m_highlight = nullptr;
    QRectF m_highlightBounds; ///< the whole mark (slope, roof, ring), before it is clipped to the plot
    QString m_titleFitKey; ///< title forms, font and width the fit below was measured for
    QFont m_titleFitFont;
    QString m_titleFitted;
    QPointer<QGraphicsTextItem> m_titleItem; ///< Qt's title item, drawn on screen by a CachedMirror
    std::vector<QStringList> m_titleLines; ///< the title's lines, each in forms (updateTitle)
    void fitTitle(); ///< the title's lines in the forms that fit the width now
    void dropLineCaches();
    std::vector<QRectF> markerRectsInChart() const; ///< markerRects() in the chart item's coordinates
    /// The layers to name (m_labelShare) handed to m_layerLabels with the room around them.
    void placeLayerLabels(const std::vector<QRectF>& obstacles, const std::vector<QLineF>& lines);
    void drawRoofsOverPoints();
    void placeTickLabels();
    void placeRidgeLabels(std::vector<QRectF>& obstacles, const std::vector<QLineF>& lines);
    /// The on-screen legend below the plot (figures lay out their own): flowed, never elided.
    void layoutLegend();
    /// Axis titles in the longest form that fits the plot's sides.
    void fitAxisTitles();
    std::vector<QLineF> roofLinesInChart() const;
    /// The chart's margins: room for the tick labels, axis titles and legend, which the chart draws.
    void updateFrame();
    QMargins frameMargins() const;
    bool axisTitlesShown() const;
    double yLabelWidth() const;
    double yLabelRoom() const; ///< at least yLabelWidth(): what no decade grown changes (the minimum, the title)
    mutable double m_labelRoom = 0; ///< yLabelRoom's widest decade label, for the font of m_labelRoomGeneration
    mutable int m_labelRoomGeneration = -1;
    class ChartLegend* m_legend = nullptr;
    void applyMinimum();
    int m_fontGeneration = 0; ///< counts font changes (setFontScale, setPrintStyle), for the caches' keys
    mutable QString m_minimumKey; ///< what minimumSizeHint() was measured for
    bool m_inResize = false; ///< inside resizeEvent: a new minimum waits until it is over (applyMinimum)
    mutable std::array<double, 4> m_yLabelKey {}; ///< y range, base and style yLabelWidth() measured
    mutable QFont m_yLabelFont;
    mutable double m_yLabelWidth = 0;
    QString m_axisTitlesKey; ///< plot, unit and type fitAxisTitles() last placed the titles for
    mutable QSize m_minimum;
    class QGraphicsSimpleTextItem* m_xTitle = nullptr;
    class QGraphicsSimpleTextItem* m_yTitle = nullptr;
    void applyAxisRanges();
    double spanLeft() const; ///< where the roofs start: the decades and any zoomed view
    double spanRight() const;
    void setLightMarkerIf(QScatterSeries* series, const QColor& fill, const QColor& border);
    struct MarkerKey {
        int shape = 0;
        double size = 0;
        QRgb fill = 0, border = 0;
        bool operator==(const MarkerKey&) const = default;
    };
    std::map<const QScatterSeries*, MarkerKey> m_markerKeys; ///< what each series' light marker was drawn for
    std::vector<quint64> m_markerSignature; ///< the scatter series' counts and styles skipInvisibleMarkers() last saw
    void skipInvisibleMarkers();
    void onClicked(const QPointF& point, int slot, int bucket);
    std::vector<QXYSeries*> hoverableSeries() const;
    QString tooltipFor(const PointHover::Hit& hit) const;
    QString layerTooltip(size_t slot, int layer) const;
    QString levelTooltip(size_t slot, int layer, int level) const;
    QString measuredTooltip(size_t comparisonRow) const;
    int layerAt(const QPointF& point, int slot, int bucket) const;

    QChart* m_chart;
    QLogValueAxis* m_x;
    QLogValueAxis* m_y;
    std::vector<DeviceSeries*> m_series;
    QScatterSeries* m_selection;
    std::shared_ptr<const Report> m_report = std::make_shared<const Report>();
    std::vector<int> m_devices;
    LayerFilter m_filter;
    int m_selected = -1;
    bool m_sticky = false;
    bool m_print = false;
    double m_printFontPx = 10;
    double m_markerScale = 1.0;
    double m_fontScale = 1.0;
    int m_measuredDevice = -1;
    int m_rebuilds = 0;
    Comparison m_measured;
    QScatterSeries* m_measuredPoints = nullptr;
    QScatterSeries* m_measuredAbove = nullptr;
    std::array<std::vector<size_t>, 2> m_measuredRows; ///< comparison row of each measured point [below, above]
    PointHover* m_hover = nullptr;
    std::vector<class QLineSeries*> m_joins; ///< one per measured layer, reused
    void drawMeasured(size_t slot, const DeviceResult& d);
    struct BaseFonts {
        QFont title, legend, axisLabels, axisTitle;
    } m_baseFonts;
    bool dark() const;
    double m_scale = 1e9; ///< FLOP/s per unit of the y axis
    class QGraphicsSimpleTextItem* m_readout = nullptr;
    class QGraphicsRectItem* m_readoutBack = nullptr;
    bool m_powerTicks = false;
    QColor m_labelsColor; ///< the axes' own label colour, while power ticks hide their text
    std::vector<class QGraphicsSimpleTextItem*> m_tickLabels; ///< reused
    double m_labelShare = 0.05; ///< layers at or above this share of time are named (the table bolds them too)
    std::unique_ptr<class LayerLabels> m_layerLabels; ///< the names beside the points that take the most time
    class QGraphicsRectItem* m_roofClip = nullptr; ///< a figure's plot area, clipping m_printRoofs
    std::vector<class QGraphicsPathItem*> m_printRoofs; ///< each device's roof over its points (drawRoofsOverPoints)
    int m_cachedItemCount = -1; ///< scene items when cacheGridLines() last walked them
    bool m_linesMoving = true; ///< something that places grid lines changed since the last rebuild
    bool m_zoomed = false;
    bool m_minorGrid = true;
    ChartNavigator::Range m_view {};
    ChartNavigator* m_navigator = nullptr;
    double m_forcedScale = 0; ///< a shared y unit (shareAxes), 0 = the chart's own
    double m_xlo = 0, m_xhi = 0, m_ylo = 0, m_yhi = 0;
};

} // namespace rfx
