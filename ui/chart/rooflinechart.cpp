// The chart itself: its series per device, and the rebuild that fills them from a Report.
#include "chart/rooflinechart_p.h"

#include "chart/layerlabels.h"

#include "base/format.h"
#include "chart/chartnavigator.h"
#include "chart/legendflow.h"
#include "style/chartfit.h"
#include "style/labelplacer.h"
#include "widgets/pointhover.h"

#include <QApplication>
#include <QChart>
#include <QFontMetricsF>
#include <QGradient>
#include <QGraphicsLineItem>
#include <QGraphicsRectItem>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QMouseEvent>
#include <QPainter>
#include <QPen>
#include <QResizeEvent>
#include <QScatterSeries>
#include <QScopedValueRollback>
#include <QTextDocument>
#include <QToolTip>

#include <cmath>
#include <cstring>

namespace rfx {

using namespace chartdetail;

namespace {
// The one colour a brush paints everywhere, if it does (a solid brush, or a gradient whose stops agree).
std::optional<QColor> uniformColor(const QBrush& brush)
{
    if (brush.style() == Qt::SolidPattern)
        return brush.color();
    const QGradient* gradient = brush.gradient();
    if (!gradient || gradient->stops().isEmpty())
        return std::nullopt;
    const QColor first = gradient->stops().front().second;
    for (const QGradientStop& stop : gradient->stops())
        if (stop.second != first)
            return std::nullopt;
    return first;
}
} // namespace

RooflineChart::RooflineChart(QWidget* parent)
    // Hand our chart to the base constructor: QChartView(parent) would create a default chart that
    // setChart() releases without deleting (LeakSanitizer found it).
    : QChartView(new QChart, parent)
    , m_chart(chart())
    , m_x(new QLogValueAxis)
    , m_y(new QLogValueAxis)
    , m_layerLabels(std::make_unique<LayerLabels>(m_chart))
{
    m_chart->setTheme(darkPalette() ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    // One pass over the background's pixels, the viewport's own fill in the chart's colour: the chart's
    // rounded rectangle drawn over it was a second, antialiased pass (a sixth of a slider step's
    // instructions, callgrind). Where the theme's background is one colour (the light theme's white
    // "gradient"); the dark theme's is a real gradient and stays the chart's. Figures draw the scene
    // without the viewport: setPrintStyle shows the chart's background again.
    if (const std::optional<QColor> solid = uniformColor(m_chart->backgroundBrush())) {
        QPalette palette = viewport()->palette();
        palette.setColor(QPalette::Base, *solid);
        viewport()->setPalette(palette);
        m_chart->setBackgroundVisible(false);
    }
    m_chart->setAnimationOptions(QChart::NoAnimation); // live updates must not lag behind the slider
    m_chart->legend()->setAlignment(Qt::AlignBottom);
    m_chart->legend()->setMarkerShape(QLegend::MarkerShapeFromSeries); // circles and squares, as plotted
    m_chart->setMargins(QMargins(4, 4, 4, 4));
    // QChartView raises its own minimum size to the chart's on every resize and never lowers it (a
    // legend laid out once at a narrow width kept the view 1125 px tall). The chart's minimum is held
    // at nothing, so that layouts ask minimumSizeHint(), the useful minimum, and a size set from
    // outside (setFixedSize) stays.
    m_chart->setMinimumSize(1, 1);
    setUpAxes();
    addSelectionAndMeasured();

    setRenderHint(QPainter::Antialiasing);
    // The legend is the chart's own (ChartLegend): Qt's elides its entries in a narrow chart.
    m_chart->legend()->setVisible(false);
    m_legend = new ChartLegend(m_chart);
    // Tick labels and axis titles too (placeTickLabels, fitAxisTitles): Qt's elide and overlap at
    // small sizes, and take room by a layout of their own; the chart's margins hold them instead.
    m_labelsColor = m_x->labelsColor();
    for (QLogValueAxis* a : { m_x, m_y }) {
        a->setLabelsVisible(false);
        a->setTitleVisible(false);
    }
    m_xTitle = new TextItem(m_chart);
    m_yTitle = new TextItem(m_chart);
    m_yTitle->setRotation(-90);
    for (QGraphicsSimpleTextItem* t : { m_xTitle, m_yTitle })
        t->setZValue(17);
    // Roof labels are placed in plot coordinates: follow the plot when the chart lays itself out;
    // cached grid lines were placed in it too.
    connect(m_chart, &QChart::plotAreaChanged, this, [this] {
        dropLineCaches();
        fitAxisTitles(); // the forms that fit the new sides: same height, so the plot does not move again
        // Laid out at last (a figure's cell, a narrower window): a marker the new plot would cut grows
        // its axis; once, not from inside the rebuild that grows it.
        if (growForPlot())
            return; // rebuilt, labels placed
        placeRoofLabels();
    });
    m_readoutBack = new QGraphicsRectItem(m_chart);
    m_readoutBack->setPen(Qt::NoPen);
    m_readoutBack->setBrush(darkPalette() ? QColor(0x20, 0x20, 0x20, 225) : QColor(255, 255, 255, 225));
    m_readoutBack->setZValue(30);
    m_readoutBack->setVisible(false);
    m_readout = new TextItem(m_readoutBack);
    m_readout->setBrush(darkPalette() ? QColor(0xee, 0xee, 0xee) : QColor(0x11, 0x11, 0x11));
    m_navigator = new ChartNavigator(
        this, [this] { return viewRange(); }, [this](const ChartNavigator::Range& r) { setView(r); },
        [this] { resetView(); });
    m_hover = new PointHover(
        this, [this] { return hoverableSeries(); }, [this](const PointHover::Hit& hit) { return tooltipFor(hit); });
    ensureSeries(1);
    m_chart->legend()->markers(m_selection).first()->setVisible(false);
    m_baseFonts = { m_chart->titleFont(), m_chart->legend()->font(), m_x->labelsFont(), m_x->titleFont() };
}

// Both axes logarithmic, base 10, their titles; added to the chart, then their lines thinned.
void RooflineChart::setUpAxes()
{
    for (QLogValueAxis* a : { m_x, m_y }) {
        a->setBase(10);
        a->setLabelFormat(QStringLiteral("%g"));
        a->setMinorTickCount(-1);
    }
    m_x->setTitleText(tr("Arithmetic intensity (FLOP/byte)"));
    m_y->setTitleText(tr("Performance (GFLOP/s)"));
    m_chart->addAxis(m_x, Qt::AlignBottom);
    m_chart->addAxis(m_y, Qt::AlignLeft);
    for (QLogValueAxis* a : { m_x, m_y })
        setAxisLineWidth(a, 0); // after addAxis(), which gives the axes the theme's pens
}

// The selection's ring and the measured points (hollow diamonds; red above the roof), hidden until used.
void RooflineChart::addSelectionAndMeasured()
{
    m_selection = new QScatterSeries;
    m_selection->setName(tr("selected layer"));
    m_selection->setMarkerShape(QScatterSeries::MarkerShapeCircle);
    m_selection->setMarkerSize(26);
    m_selection->setColor(Qt::transparent);
    m_selection->setBorderColor(darkPalette() ? Qt::white : Qt::black);
    m_selection->setPen(QPen(darkPalette() ? Qt::white : Qt::black, 2.5));
    m_chart->addSeries(m_selection);
    m_selection->attachAxis(m_x);
    m_selection->attachAxis(m_y);

    m_measuredPoints = new QScatterSeries;
    m_measuredPoints->setName(tr("measured"));
    m_measuredPoints->setMarkerShape(QScatterSeries::MarkerShapeRotatedRectangle);
    m_measuredPoints->setMarkerSize(11);
    m_measuredPoints->setColor(Qt::transparent);
    m_measuredPoints->setBorderColor(darkPalette() ? Qt::white : Qt::black);
    m_measuredPoints->setPen(QPen(darkPalette() ? Qt::white : Qt::black, 1.6));
    m_measuredAbove = new QScatterSeries;
    m_measuredAbove->setName(tr("measured above the roof (cache, or check units)"));
    m_measuredAbove->setMarkerShape(QScatterSeries::MarkerShapeRotatedRectangle);
    m_measuredAbove->setMarkerSize(12);
    m_measuredAbove->setColor(QColor(0xd0, 0x00, 0x00));
    m_measuredAbove->setBorderColor(QColor(0x80, 0x00, 0x00));
    for (QScatterSeries* m : { m_measuredPoints, m_measuredAbove }) {
        m_chart->addSeries(m);
        m->attachAxis(m_x);
        m->attachAxis(m_y);
        m->setVisible(false);
        m_chart->legend()->markers(m).first()->setVisible(false);
    }
}

RooflineChart::~RooflineChart()
{
    for (DeviceSeries* s : m_series)
        delete s;
}

void RooflineChart::setReport(const Report& report, const std::vector<int>& devices)
{
    setReport(report, devices, m_measuredDevice >= 0 ? &m_measured : nullptr, m_measuredDevice);
}

void RooflineChart::setReport(
    const Report& report, const std::vector<int>& devices, const Comparison* measured, int measuredDevice)
{
    setReport(std::make_shared<const Report>(report), devices, measured, measuredDevice);
}

void RooflineChart::setReport(std::shared_ptr<const Report> report, const std::vector<int>& devices,
    const Comparison* measured, int measuredDevice)
{
    if (devices != m_devices)
        m_sticky = false; // a different device set gets fresh axes
    m_report = std::move(report);
    m_devices = devices;
    if (measured && measuredDevice >= 0) {
        if (measured != &m_measured)
            m_measured = *measured;
        m_measuredDevice = measuredDevice;
    } else {
        m_measuredDevice = -1;
        m_measured = {};
    }
    rebuild();
}

void RooflineChart::setFilter(const LayerFilter& filter)
{
    if (filter == m_filter)
        return;
    m_filter = filter;
    rebuild();
}

void RooflineChart::setSelectedLayer(int layer)
{
    m_selected = layer;
    QList<QPointF> pts;
    if (!m_devices.empty() && layer >= 0) {
        const DeviceResult& d = m_report->results[size_t(m_devices.front())];
        if (layer < int(d.layers.size()) && d.layers[size_t(layer)].intensity > 0)
            pts.append(QPointF(d.layers[size_t(layer)].intensity, plottedRate(d.layers[size_t(layer)]) / m_scale));
    }
    if (!m_print && m_selection->points() != pts) {
        replaceIf(m_selection, pts);
        if (!m_inRebuild)
            placeRoofLabels(); // the labels make way for the ring
    }
}

bool RooflineChart::dark() const { return !m_print && darkPalette(); }

void RooflineChart::setMinorGrid(bool on)
{
    m_minorGrid = on;
    dropLineCaches();
    const int count = on ? -1 : 0;
    for (QLogValueAxis* a : { m_x, m_y })
        if (a->minorTickCount() != count)
            a->setMinorTickCount(count);
}

bool RooflineChart::minorGrid() const { return m_minorGrid; }

void RooflineChart::rebuild()
{
    const QScopedValueRollback<bool> rebuilding(m_inRebuild, true);
    if (!m_growing)
        m_growSteps.clear(); // new data or bounds: the rule starts again
    ++m_rebuilds;
    const size_t n = m_devices.size();
    ensureSeries(std::max<size_t>(n, 1));
    chooseUnit();
    fitToData();
    int hidden = 0;
    for (size_t slot = 0; slot < m_series.size(); ++slot) {
        DeviceSeries* s = m_series[slot];
        const bool used = slot < n;
        setVisibleIf(s->roof, used);
        setVisibleIf(s->ridge, used);
        for (size_t v = 0; v < size_t(kLevels); ++v) {
            const double bw = used ? levelBandwidth(m_report->results[size_t(m_devices[slot])], kLevelOf[v]) : 0;
            setVisibleIf(s->levelRoofs[v], bw > 0);
            setVisibleIf(s->levelPoints[v], bw > 0);
        }
        for (auto& row : s->points)
            for (QScatterSeries* p : row)
                setVisibleIf(p, used);
        if (!used) {
            setVisibleIf(s->vectorRoof, false);
            for (QLineSeries* p : s->precisionRoofs)
                setVisibleIf(p, false);
            for (QLegendMarker* m : m_chart->legend()->markers())
                if (m->series() == s->roof || m->series() == s->ridge || m->series() == s->vectorRoof
                    || std::find(s->precisionRoofs.begin(), s->precisionRoofs.end(), m->series())
                        != s->precisionRoofs.end()
                    || std::find(s->levelRoofs.begin(), s->levelRoofs.end(), m->series()) != s->levelRoofs.end()
                    || std::find(s->levelPoints.begin(), s->levelPoints.end(), m->series()) != s->levelPoints.end())
                    m->setVisible(false);
            continue;
        }
        const DeviceResult& d = m_report->results[size_t(m_devices[slot])];
        const bool showVector = drawRoofs(slot, d);
        drawLevels(slot, d);
        (void)showVector;
        hidden += drawPoints(slot, d);
    }
    bool measuredShown = false;
    for (size_t slot = 0; slot < n; ++slot)
        if (m_devices[slot] == m_measuredDevice) {
            drawMeasured(slot, m_report->results[size_t(m_devices[slot])]);
            measuredShown = true;
        }
    if (!measuredShown) {
        setVisibleIf(m_measuredPoints, false);
        setVisibleIf(m_measuredAbove, false);
        for (QLineSeries* j : m_joins)
            setVisibleIf(j, false);
        for (QScatterSeries* m : { m_measuredPoints, m_measuredAbove })
            m_chart->legend()->markers(m).first()->setVisible(false);
    }

    updateTitle(hidden);
    setSelectedLayer(m_selected);
    layoutLegend();
    placeRoofLabels();
    skipInvisibleMarkers();
    if (!m_print)
        cacheGridLines();
}

void RooflineChart::resizeEvent(QResizeEvent* event)
{
    const bool relayout = event->oldSize().width() != event->size().width() && !m_report->results.empty();
    // A new minimum set from inside this event lays the parent out again, nested: the chart was left at
    // the size in between (the monkey saw a 400-px chart in a 412-px view, its legend floating above
    // the frame). The minimum is set once the event is over.
    const QScopedValueRollback<bool> resizing(m_inResize, true);
    m_growSteps.clear();
    dropLineCaches(); // the chart lays itself out again
    if (event->oldSize() != event->size())
        setVisibleIf(m_readoutBack, false); // the plot moved under the cursor
    QChartView::resizeEvent(event);
    fitTitle();
    layoutLegend();
    fitAxisTitles();
    if (relayout)
        rebuild(); // the title fits the width
}

} // namespace rfx
