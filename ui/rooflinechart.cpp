#include "rooflinechart.h"

#include "format.h"
#include "chartnavigator.h"
#include "labelplacer.h"
#include "pointhover.h"

#include <QApplication>
#include <QChart>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPen>
#include <QFontMetricsF>
#include <QGraphicsLineItem>
#include <QGraphicsRectItem>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QMouseEvent>
#include <QResizeEvent>
#include <QPainter>
#include <QScatterSeries>
#include <QTextDocument>
#include <QToolTip>

#include <cmath>
#include <cstring>

namespace rfx {

namespace {

constexpr int kBuckets = 4;
// Marker diameter by share of the network's time: < 1 %, < 5 %, < 15 %, >= 15 %.
constexpr std::array<double, kBuckets> kMarkerSize { 7, 10, 14, 19 };

int bucketOf(double share)
{
    if (share < 0.01)
        return 0;
    if (share < 0.05)
        return 1;
    if (share < 0.15)
        return 2;
    return 3;
}

bool darkPalette() { return QApplication::palette().color(QPalette::Window).lightness() < 128; }

// Distinct, colour-blind-safe hues (Okabe-Ito) for overlaid devices.
QColor deviceColor(size_t i)
{
    static const QColor colors[] = { QColor(0x00, 0x72, 0xb2), QColor(0xd5, 0x5e, 0x00), QColor(0x00, 0x9e, 0x73),
        QColor(0xcc, 0x79, 0xa7), QColor(0xe6, 0x9f, 0x00), QColor(0x56, 0xb4, 0xe9), QColor(0x99, 0x99, 0x99),
        QColor(0xf0, 0xe4, 0x42) };
    return colors[i % std::size(colors)];
}

QColor boundColor(Bound b, bool dark)
{
    if (b == Bound::Memory)
        return dark ? QColor(0xff, 0x8a, 0x3d) : QColor(0xd5, 0x5e, 0x00);
    return dark ? QColor(0x5c, 0xa8, 0xff) : QColor(0x00, 0x5a, 0xb5);
}

// "NVIDIA GeForce RTX 2060 Super" -> "RTX 2060 Super": legends are narrow, the title has the full name.
QString shortDeviceName(const std::string& name)
{
    QString n = QString::fromStdString(name);
    for (const char* prefix : { "NVIDIA ", "GeForce ", "AMD ", "Intel ", "Apple " })
        if (n.startsWith(QLatin1String(prefix)))
            n = n.mid(int(std::strlen(prefix)));
    return n;
}

double decadeFloor(double v) { return std::pow(10.0, std::floor(std::log10(v))); }
double decadeCeil(double v) { return std::pow(10.0, std::ceil(std::log10(v))); }

QString qs(const std::string& s) { return QString::fromStdString(s); }

// Series properties are set only when they change, so that a live update does not ask the chart
// to lay out again what did not move. (Legend markers are always set: their isVisible() reports
// the drawn item, not the requested state.)
template <typename T>
void setVisibleIf(T* item, bool visible)
{
    if (item->isVisible() != visible)
        item->setVisible(visible);
}

void setNameIf(QAbstractSeries* series, const QString& name)
{
    if (series->name() != name)
        series->setName(name);
}

// A marker drawn once into an image. On screen, a scatter series with such a "light marker" paints
// its points as image blits instead of one antialiased QGraphicsEllipseItem per point: the largest
// single cost of a live repaint (callgrind). Clicks and hovers still work (Qt hit-tests the image).
// Figures keep vector markers: an image would be blurred in a 300-dpi PNG and raster in SVG/PDF.
QImage markerImage(QScatterSeries::MarkerShape shape, double size, const QColor& fill, const QColor& border)
{
    const qreal dpr = qApp->devicePixelRatio();
    const int px = std::max(2, int(std::ceil(size * dpr)));
    QImage image(px, px, QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(dpr);
    image.fill(Qt::transparent);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setPen(QPen(border, 1.0));
    painter.setBrush(fill);
    const QRectF r(0.5, 0.5, size - 1.0, size - 1.0);
    if (shape == QScatterSeries::MarkerShapeCircle)
        painter.drawEllipse(r);
    else
        painter.drawRect(r);
    return image;
}

void setColorsIf(QScatterSeries* series, const QColor& fill, const QColor& border)
{
    if (series->color() != fill)
        series->setColor(fill);
    if (series->borderColor() != border)
        series->setBorderColor(border);
}

} // namespace

struct RooflineChart::DeviceSeries {
    QLineSeries* roof = nullptr;
    QLineSeries* vectorRoof = nullptr;
    QScatterSeries* ridge = nullptr; ///< a ring at the ridge point, labelled with its intensity
    QGraphicsSimpleTextItem* roofLabel = nullptr; ///< the roof's value at its right end (placeRoofLabels)
    std::array<std::array<QScatterSeries*, kBuckets>, 2> points {}; // [bound][bucket]
    std::array<std::array<std::vector<int>, kBuckets>, 2> layers; // layer index per point
    // Hierarchical roofline (tiled traffic model, where the device gives L2 / L1 bandwidths): one ceiling
    // and one point per matrix-product row at each inner level, at the row's own performance.
    std::array<QLineSeries*, 2> levelRoofs {}; // [0] L2, [1] L1
    std::array<QScatterSeries*, 2> levelPoints {};
    std::array<std::vector<int>, 2> levelLayers;
};

RooflineChart::RooflineChart(QWidget* parent)
    // Hand our chart to the base constructor: QChartView(parent) would create a default chart that
    // setChart() releases without deleting (LeakSanitizer found it).
    : QChartView(new QChart, parent)
    , m_chart(chart())
    , m_x(new QLogValueAxis)
    , m_y(new QLogValueAxis)
{
    m_chart->setTheme(darkPalette() ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    m_chart->setAnimationOptions(QChart::NoAnimation); // live updates must not lag behind the slider
    m_chart->legend()->setAlignment(Qt::AlignBottom);
    m_chart->legend()->setMarkerShape(QLegend::MarkerShapeFromSeries); // circles and squares, as plotted
    m_chart->setMargins(QMargins(4, 4, 4, 4));
    for (QLogValueAxis* a : { m_x, m_y }) {
        a->setBase(10);
        a->setLabelFormat(QStringLiteral("%g"));
        a->setMinorTickCount(-1);
    }
    m_x->setTitleText(tr("Arithmetic intensity (FLOP/byte)"));
    m_y->setTitleText(tr("Performance (GFLOP/s)"));
    m_chart->addAxis(m_x, Qt::AlignBottom);
    m_chart->addAxis(m_y, Qt::AlignLeft);

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
    m_measuredAbove->setName(tr("measured above the roof (check units)"));
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

    setRenderHint(QPainter::Antialiasing);
    setMinimumSize(320, 260);
    // Roof labels are placed in plot coordinates: follow the plot when the chart lays itself out.
    connect(m_chart, &QChart::plotAreaChanged, this, [this] { placeRoofLabels(); });
    m_readoutBack = new QGraphicsRectItem(m_chart);
    m_readoutBack->setPen(Qt::NoPen);
    m_readoutBack->setBrush(darkPalette() ? QColor(0x20, 0x20, 0x20, 225) : QColor(255, 255, 255, 225));
    m_readoutBack->setZValue(30);
    m_readoutBack->setVisible(false);
    m_readout = new QGraphicsSimpleTextItem(m_readoutBack);
    m_readout->setBrush(darkPalette() ? QColor(0xee, 0xee, 0xee) : QColor(0x11, 0x11, 0x11));
    m_navigator = new ChartNavigator(
        this, [this] { return viewRange(); }, [this](const ChartNavigator::Range& r) { setView(r); }, [this] { resetView(); });
    m_hover = new PointHover(this, [this] { return hoverableSeries(); }, [this](const PointHover::Hit& hit) { return tooltipFor(hit); });
    ensureSeries(1);
    m_chart->legend()->markers(m_selection).first()->setVisible(false);
    m_baseFonts = { m_chart->titleFont(), m_chart->legend()->font(), m_x->labelsFont(), m_x->titleFont() };
}

void RooflineChart::setFontScale(double scale)
{
    m_fontScale = scale;
    auto scaled = [scale](QFont f) {
        if (f.pointSizeF() > 0)
            f.setPointSizeF(f.pointSizeF() * scale);
        else
            f.setPixelSize(int(std::lround(f.pixelSize() * scale)));
        return f;
    };
    m_chart->setTitleFont(scaled(m_baseFonts.title));
    m_chart->legend()->setFont(scaled(m_baseFonts.legend));
    for (QLogValueAxis* a : { m_x, m_y }) {
        a->setLabelsFont(scaled(m_baseFonts.axisLabels));
        a->setTitleFont(scaled(m_baseFonts.axisTitle));
    }
    for (DeviceSeries* s : m_series)
        s->ridge->setPointLabelsFont(scaled(m_baseFonts.axisLabels));
    placeRoofLabels();
}

RooflineChart::~RooflineChart()
{
    for (DeviceSeries* s : m_series)
        delete s;
}

void RooflineChart::ensureSeries(size_t count)
{
    while (m_series.size() < count) {
        const int slot = int(m_series.size());
        auto* s = new DeviceSeries;
        s->roof = new QLineSeries;
        s->vectorRoof = new QLineSeries;
        s->ridge = new QScatterSeries;
        // A ring, not a layer's shape: layers are solid circles and squares.
        s->ridge->setMarkerShape(QScatterSeries::MarkerShapeCircle);
        s->ridge->setMarkerSize(11 * m_markerScale);
        s->ridge->setPointLabelsVisible(true);
        s->ridge->setPointLabelsClipping(false);
        s->ridge->setPointLabelsColor(dark() ? Qt::white : Qt::black);
        if (m_print) {
            QFont f;
            f.setPixelSize(std::max(10, int(std::lround(m_printFontPx * 0.9))));
            s->ridge->setPointLabelsFont(f);
            s->ridge->setPointLabelsColor(QColor(0x11, 0x11, 0x11));
        }
        s->roofLabel = new QGraphicsSimpleTextItem(m_chart);
        s->roofLabel->setZValue(20);
        s->roofLabel->setVisible(false);
        s->ridge->setName(tr("ridge point I* = peak / bandwidth"));
        QList<QAbstractSeries*> all { s->roof, s->vectorRoof, s->ridge };
        for (int v = 0; v < 2; ++v) {
            s->levelRoofs[size_t(v)] = new QLineSeries;
            auto* p = new QScatterSeries;
            p->setMarkerShape(v == 0 ? QScatterSeries::MarkerShapeTriangle : QScatterSeries::MarkerShapeStar);
            p->setMarkerSize(9 * m_markerScale);
            s->levelPoints[size_t(v)] = p;
            all.append(s->levelRoofs[size_t(v)]);
            all.append(p);
        }
        for (int b = 0; b < 2; ++b) {
            for (int k = 0; k < kBuckets; ++k) {
                auto* p = new QScatterSeries;
                p->setMarkerShape(b == int(Bound::Memory) ? QScatterSeries::MarkerShapeCircle
                                                          : QScatterSeries::MarkerShapeRectangle);
                p->setMarkerSize(kMarkerSize[size_t(k)] * m_markerScale);
                s->points[size_t(b)][size_t(k)] = p;
                all.append(p);
                connect(p, &QScatterSeries::clicked, this,
                    [this, slot, b, k](const QPointF& pt) { onClicked(pt, slot, b * kBuckets + k); });
            }
        }
        for (QAbstractSeries* a : all) {
            m_chart->addSeries(a);
            a->attachAxis(m_x);
            a->attachAxis(m_y);
        }
        // Keep the selection ring on top.
        m_chart->removeSeries(m_selection);
        m_chart->addSeries(m_selection);
        m_selection->attachAxis(m_x);
        m_selection->attachAxis(m_y);
        m_chart->legend()->markers(m_selection).first()->setVisible(false);
        m_series.push_back(s);
    }
}

void RooflineChart::setReport(const Report& report, const std::vector<int>& devices)
{
    if (devices != m_devices)
        m_sticky = false; // a different device set gets fresh axes
    m_report = report;
    m_devices = devices;
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
        const DeviceResult& d = m_report.results[size_t(m_devices.front())];
        if (layer < int(d.layers.size()) && d.layers[size_t(layer)].intensity > 0)
            pts.append(QPointF(d.layers[size_t(layer)].intensity, d.layers[size_t(layer)].attainable / m_scale));
    }
    if (!m_print)
        m_selection->replace(pts);
}

bool RooflineChart::dark() const { return !m_print && darkPalette(); }

void RooflineChart::setPrintStyle(double fontPx, bool transparent)
{
    m_print = true;
    setMinimumSize(1, 1); // a figure's cell decides the size; the screen's minimum would distort it
    m_chart->setTheme(QChart::ChartThemeLight);
    m_chart->setMargins(QMargins(2, 2, 2, 2));
    m_chart->setBackgroundRoundness(0);
    if (transparent) {
        m_chart->setBackgroundVisible(false);
        m_chart->setPlotAreaBackgroundVisible(false);
    } else {
        m_chart->setBackgroundBrush(Qt::white);
        m_chart->setBackgroundPen(Qt::NoPen);
    }
    auto font = [](double px, bool bold = false) {
        QFont f;
        f.setPixelSize(std::max(6, int(std::lround(px))));
        f.setBold(bold);
        return f;
    };
    m_chart->setTitleFont(font(fontPx, true));
    m_chart->setTitleBrush(QColor(0x11, 0x11, 0x11));
    m_chart->legend()->setFont(font(fontPx * 0.9));
    m_chart->legend()->setLabelColor(QColor(0x11, 0x11, 0x11));
    for (QLogValueAxis* a : { m_x, m_y }) {
        a->setLabelsFont(font(fontPx * 0.9));
        a->setTitleFont(font(fontPx));
        a->setLabelsColor(QColor(0x11, 0x11, 0x11));
        a->setTitleBrush(QColor(0x11, 0x11, 0x11));
        a->setGridLineColor(QColor(0xcc, 0xcc, 0xcc));
        a->setMinorGridLineColor(QColor(0xea, 0xea, 0xea));
        a->setLinePenColor(QColor(0x44, 0x44, 0x44));
    }
    for (DeviceSeries* s : m_series) {
        s->ridge->setPointLabelsFont(font(fontPx * 0.9));
        s->ridge->setPointLabelsColor(QColor(0x11, 0x11, 0x11));
    }
    m_selection->setVisible(false); // a figure shows the analysis, not the window's selection
    m_printFontPx = fontPx;
    // Markers follow the type size: a 3.5-inch column figure needs smaller points than the screen.
    m_markerScale = std::clamp((fontPx - 6) / 8, 0.6, 1.0);
    for (DeviceSeries* s : m_series) {
        s->ridge->setMarkerSize(11 * m_markerScale);
        for (size_t b = 0; b < 2; ++b)
            for (size_t k = 0; k < size_t(kBuckets); ++k)
                s->points[b][k]->setMarkerSize(kMarkerSize[k] * m_markerScale);
    }
}

bool RooflineChart::fitTickLabels()
{
    const QRectF plot = m_chart->plotArea();
    if (!m_print || plot.width() <= 0 || plot.height() <= 0)
        return false;
    bool changed = false;
    for (QLogValueAxis* a : { m_x, m_y }) {
        const bool vertical = a == m_y;
        double& lo = vertical ? m_ylo : m_xlo;
        double& hi = vertical ? m_yhi : m_xhi;
        const QFontMetricsF fm(a->labelsFont());
        // The widest of this axis's decade labels on x, one line of text on y, plus the text item's
        // margins (Qt Charts truncates a label that does not fit between its neighbours).
        double widest = 0;
        for (int e = int(std::lround(std::log10(lo))); e <= int(std::lround(std::log10(hi))); ++e)
            widest = std::max(widest, fm.horizontalAdvance(QString::asprintf("%g", std::pow(10.0, e))));
        const double need = vertical ? fm.height() + 10 : widest + 6;
        const double per = (vertical ? plot.height() : plot.width()) / std::max(std::log10(hi / lo), 1.0);
        if (per >= need || a->base() == 100)
            continue;
        // Every other decade, from an even one to an even one, so that both ends keep their labels.
        a->setBase(100);
        a->setMinorTickCount(0);
        lo = std::pow(100.0, std::floor(std::log10(lo) / 2 + 1e-9));
        hi = std::pow(100.0, std::ceil(std::log10(hi) / 2 - 1e-9));
        changed = true;
    }
    if (changed)
        rebuild(); // the roofs span the new range
    return changed;
}

void RooflineChart::setLightMarkerIf(QScatterSeries* series, const QColor& fill, const QColor& border)
{
    if (m_print) {
        if (!series->lightMarker().isNull())
            series->setLightMarker(QImage());
        return;
    }
    const QString key = QStringLiteral("%1 %2 %3 %4")
                            .arg(int(series->markerShape()))
                            .arg(series->markerSize())
                            .arg(fill.rgba())
                            .arg(border.rgba());
    if (series->property("rfxMarkerKey").toString() == key)
        return;
    series->setProperty("rfxMarkerKey", key);
    series->setLightMarker(markerImage(series->markerShape(), series->markerSize(), fill, border));
}

void RooflineChart::setMinorGrid(bool on)
{
    m_minorGrid = on;
    const int count = on ? -1 : 0;
    for (QLogValueAxis* a : { m_x, m_y })
        if (a->minorTickCount() != count)
            a->setMinorTickCount(count);
}

bool RooflineChart::minorGrid() const { return m_minorGrid; }

void RooflineChart::setAxisRange(QPointF x, QPointF y)
{
    m_xlo = x.x(), m_xhi = x.y(), m_ylo = y.x(), m_yhi = y.y();
    m_sticky = true;
    rebuild();
}

void RooflineChart::shareAxes(const std::vector<RooflineChart*>& charts)
{
    if (charts.size() < 2)
        return;
    double scale = 0, xlo = INFINITY, xhi = 0, ylo = INFINITY, yhi = 0; // y in FLOP/s
    for (const RooflineChart* c : charts) {
        scale = std::max(scale, c->m_scale);
        xlo = std::min(xlo, c->m_xlo), xhi = std::max(xhi, c->m_xhi);
        ylo = std::min(ylo, c->m_ylo * c->m_scale), yhi = std::max(yhi, c->m_yhi * c->m_scale);
    }
    for (RooflineChart* c : charts) {
        c->setYUnit(scale);
        c->setAxisRange({ xlo, xhi }, { ylo / scale, yhi / scale });
    }
}

void RooflineChart::setYUnit(double flopsPerUnit)
{
    m_forcedScale = flopsPerUnit;
    if (flopsPerUnit > 0 && m_scale != flopsPerUnit) {
        // Set here rather than in rebuild(), which would take a new unit as a reason to refit.
        m_scale = flopsPerUnit;
        const QString unit = m_scale == 1e12 ? tr("TFLOP/s") : tr("GFLOP/s");
        m_y->setTitleText(m_small ? unit : tr("Performance (%1)").arg(unit));
    }
}

void RooflineChart::unshareAxes()
{
    if (m_forcedScale == 0)
        return;
    m_forcedScale = 0;
    fitAxes();
}

void RooflineChart::fitAxes()
{
    m_sticky = false;
    m_zoomed = false;
    rebuild();
}

void RooflineChart::rebuild()
{
    const size_t n = m_devices.size();
    ensureSeries(std::max<size_t>(n, 1));
    const bool overlay = n > 1;
    // GFLOP/s up to 100 TFLOP/s roofs, TFLOP/s above, so that tick labels stay plain numbers.
    double maxPeak = 0;
    for (int idx : m_devices)
        maxPeak = std::max(maxPeak, m_report.results[size_t(idx)].ceiling.flops);
    const double scale = m_forcedScale > 0 ? m_forcedScale : (maxPeak > 50e12 ? 1e12 : 1e9);
    if (scale != m_scale) {
        m_scale = scale;
        m_sticky = false;
        const QString unit = scale == 1e12 ? tr("TFLOP/s") : tr("GFLOP/s");
        m_y->setTitleText(m_small ? unit : tr("Performance (%1)").arg(unit));
    }
    const QColor roofColor = dark() ? QColor(0xe0, 0xe0, 0xe0) : QColor(0x22, 0x22, 0x22);

    // First pass: the data range, to place the roof lines across the whole axis.
    double xmin = INFINITY, xmax = 0, ymin = INFINITY, ymax = 0;
    for (int idx : m_devices) {
        const DeviceResult& d = m_report.results[size_t(idx)];
        xmin = std::min(xmin, d.ridge / 10);
        xmax = std::max(xmax, d.ridge * 10);
        for (double b : { d.l2Bandwidth, d.l1Bandwidth })
            if (b > 0)
                xmin = std::min(xmin, d.ceiling.flops / b / 10);
        ymax = std::max(ymax, d.ceiling.flops / m_scale);
        ymin = std::min(ymin, std::min(d.ceiling.flops, d.vectorCeiling.flops) / m_scale / 100);
        const auto visible = visibleLayers(d, m_filter);
        for (size_t i = 0; i < d.layers.size(); ++i) {
            const LayerResult& l = d.layers[i];
            if (!visible[i] || l.intensity <= 0 || l.attainable <= 0)
                continue;
            xmin = std::min(xmin, l.intensity);
            xmax = std::max(xmax, l.intensity);
            ymin = std::min(ymin, l.attainable / m_scale);
            for (double q : { l.l2Bytes, l.l1Bytes })
                if (q > 0)
                    xmax = std::max(xmax, l.flops / q);
        }
    }
    for (int idx : m_devices) {
        if (idx != m_measuredDevice)
            continue;
        const DeviceResult& d = m_report.results[size_t(idx)];
        for (const LayerComparison& lc : m_measured.layers) {
            if (lc.layer >= d.layers.size() || lc.measured <= 0)
                continue;
            const LayerResult& l = d.layers[lc.layer];
            const double f = lc.measuredFlops >= 0 ? lc.measuredFlops : l.flops;
            const double q = lc.measuredBytes > 0 ? lc.measuredBytes : l.bytes;
            if (f > 0 && q > 0) {
                xmin = std::min(xmin, f / q), xmax = std::max(xmax, f / q);
                ymin = std::min(ymin, f / lc.measured / m_scale), ymax = std::max(ymax, f / lc.measured / m_scale);
            }
        }
    }
    if (n == 0 || !(xmin > 0) || !(ymin > 0)) {
        xmin = 0.01, xmax = 1e4, ymin = 1, ymax = 1e5;
    }
    updateAxes(xmin, xmax, ymin, ymax);

    int hidden = 0;
    for (size_t slot = 0; slot < m_series.size(); ++slot) {
        DeviceSeries* s = m_series[slot];
        const bool used = slot < n;
        setVisibleIf(s->roof, used);
        setVisibleIf(s->ridge, used);
        for (int v = 0; v < 2; ++v) {
            const double bw = used ? (v == 0 ? m_report.results[size_t(m_devices[slot])].l2Bandwidth
                                             : m_report.results[size_t(m_devices[slot])].l1Bandwidth)
                                   : 0;
            setVisibleIf(s->levelRoofs[size_t(v)], bw > 0);
            setVisibleIf(s->levelPoints[size_t(v)], bw > 0);
        }
        for (auto& row : s->points)
            for (QScatterSeries* p : row)
                setVisibleIf(p, used);
        if (!used) {
            setVisibleIf(s->vectorRoof, false);
            for (QLegendMarker* m : m_chart->legend()->markers())
                if (m->series() == s->roof || m->series() == s->ridge || m->series() == s->vectorRoof
                    || m->series() == s->levelRoofs[0] || m->series() == s->levelRoofs[1]
                    || m->series() == s->levelPoints[0] || m->series() == s->levelPoints[1])
                    m->setVisible(false);
            continue;
        }
        const DeviceResult& d = m_report.results[size_t(m_devices[slot])];
        const double B = d.bandwidth / m_scale; // GFLOP/s (or TFLOP/s) per FLOP/byte
        const double P = d.ceiling.flops / m_scale;
        const double Pv = d.vectorCeiling.flops / m_scale;
        const QColor color = overlay ? deviceColor(slot) : roofColor;

        const double left = spanLeft(), right = spanRight();
        s->roof->replace({ QPointF(left, left * B), QPointF(d.ridge, P), QPointF(right, P) });
        if (s->roof->pen() != QPen(color, 2.2))
            s->roof->setPen(QPen(color, 2.2));
        setNameIf(s->roof, QStringLiteral("%1: %2, ridge %3").arg(shortDeviceName(d.device.name),
                               qs(formatSI(d.ceiling.flops, "FLOP/s")), qs(formatNumber3(d.ridge))));
        const bool showVector = Pv > 0 && std::abs(Pv - P) > 1e-9 * P;
        setVisibleIf(s->vectorRoof, showVector);
        if (showVector) {
            s->vectorRoof->replace({ QPointF(Pv / B, Pv), QPointF(spanRight(), Pv) });
            QPen dashed(color, 1.5, Qt::DashLine);
            if (s->vectorRoof->pen() != dashed)
                s->vectorRoof->setPen(dashed);
            setNameIf(s->vectorRoof, tr("%1 (elementwise)").arg(qs(precisionLabel(d.vectorCeiling.key))));
        }
        s->ridge->replace({ QPointF(d.ridge, P) });
        setColorsIf(s->ridge, Qt::transparent, color);
        if (s->ridge->pen() != QPen(color, 2.0))
            s->ridge->setPen(QPen(color, 2.0));
        // Overlaid ridge labels collide with each other and the points: the legend gives each
        // device's ridge ("H100 (ridge 295)") and the ring marks where it is.
        if (s->ridge->pointLabelsVisible() == overlay)
            s->ridge->setPointLabelsVisible(!overlay);
        const QString ridgeLabel = QStringLiteral("ridge %1 FLOP/B").arg(qs(formatNumber3(d.ridge)));
        if (s->ridge->pointLabelsFormat() != ridgeLabel)
            s->ridge->setPointLabelsFormat(ridgeLabel);
        for (size_t v = 0; v < 2; ++v) {
            const double bw = v == 0 ? d.l2Bandwidth : d.l1Bandwidth;
            s->levelLayers[v].clear();
            if (bw <= 0) {
                if (!s->levelPoints[v]->points().isEmpty())
                    s->levelPoints[v]->clear();
                continue;
            }
            const QString level = v == 0 ? QStringLiteral("L2") : QStringLiteral("L1");
            QLineSeries* roof = s->levelRoofs[v];
            roof->replace({ QPointF(spanLeft(), spanLeft() * bw / m_scale), QPointF(d.ceiling.flops / bw, P) });
            const QPen pen(color, 1.4, v == 0 ? Qt::DashDotLine : Qt::DotLine);
            if (roof->pen() != pen)
                roof->setPen(pen);
            setNameIf(roof, tr("%1 ceiling %2").arg(level, qs(formatSI(bw, "B/s"))));
            QList<QPointF> lp;
            const auto visibleRows = visibleLayers(d, m_filter);
            for (size_t i = 0; i < d.layers.size(); ++i) {
                const LayerResult& l = d.layers[i];
                const double q = v == 0 ? l.l2Bytes : l.l1Bytes;
                // Streaming rows move the same bytes at every level: their points would sit on the DRAM one.
                if (!visibleRows[i] || q <= 0 || l.flops <= 0 || l.attainable <= 0 || q == l.bytes)
                    continue;
                lp.append(QPointF(l.flops / q, l.attainable / m_scale));
                s->levelLayers[v].push_back(int(i));
            }
            QScatterSeries* p = s->levelPoints[v];
            p->replace(lp);
            const QColor c = overlay ? deviceColor(slot) : (v == 0 ? QColor(0x8e, 0x44, 0xad) : QColor(0x16, 0xa0, 0x85));
            setColorsIf(p, c.lighter(dark() ? 100 : 130), c.darker(140));
            setNameIf(p, tr("%1 intensity").arg(level));
        }

        std::array<std::array<QList<QPointF>, kBuckets>, 2> pts;
        for (auto& row : s->layers)
            for (auto& v : row)
                v.clear();
        const auto visible = visibleLayers(d, m_filter);
        for (size_t i = 0; i < d.layers.size(); ++i) {
            const LayerResult& l = d.layers[i];
            if (!visible[i])
                continue;
            if (l.intensity <= 0 || l.attainable <= 0) {
                ++hidden; // a log axis cannot show zero; the table lists these rows
                continue;
            }
            const size_t b = size_t(l.bound), k = size_t(bucketOf(l.share));
            pts[b][k].append(QPointF(l.intensity, l.attainable / m_scale));
            s->layers[b][k].push_back(int(i));
        }
        for (size_t b = 0; b < 2; ++b) {
            for (size_t k = 0; k < size_t(kBuckets); ++k) {
                QScatterSeries* p = s->points[b][k];
                p->replace(pts[b][k]);
                const QColor c = overlay ? deviceColor(slot) : boundColor(Bound(b), dark());
                const QColor border = overlay ? c.darker(b == size_t(Bound::Memory) ? 160 : 130) : c.darker(130);
                setColorsIf(p, c, border);
                setLightMarkerIf(p, c, border);
                setNameIf(p, b == size_t(Bound::Memory) ? tr("memory-bound") : tr("compute-bound"));
            }
        }
        // Legend: the roof per device; one entry per bound for the points (not per size bucket).
        for (QLegendMarker* m : m_chart->legend()->markers()) {
            QAbstractSeries* ser = m->series();
            // One chart per device: its name and ceilings are in the title, the ridge carries a label,
            // so the legend keeps only short entries that fit a small chart.
            if (ser == s->roof)
                m->setVisible(overlay);
            else if (ser == s->vectorRoof)
                m->setVisible(showVector && (!overlay || slot == 0));
            else if (ser == s->ridge)
                m->setVisible(false);
            else if (ser == s->levelRoofs[0] || ser == s->levelPoints[0])
                m->setVisible(!overlay && d.l2Bandwidth > 0);
            else if (ser == s->levelRoofs[1] || ser == s->levelPoints[1])
                m->setVisible(!overlay && d.l1Bandwidth > 0);
            else {
                for (size_t b = 0; b < 2; ++b)
                    for (size_t k = 0; k < size_t(kBuckets); ++k)
                        if (ser == s->points[b][k])
                            m->setVisible(!overlay && slot == 0 && k == 1);
            }
        }
    }

    bool measuredShown = false;
    for (size_t slot = 0; slot < n; ++slot)
        if (m_devices[slot] == m_measuredDevice) {
            drawMeasured(slot, m_report.results[size_t(m_devices[slot])]);
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

    QString title;
    if (n == 1) {
        const DeviceResult& d = m_report.results[size_t(m_devices.front())];
        // Figures are narrow: a short name; the full name is in the caption's device ids and the legend.
        const QString name = m_print ? shortDeviceName(d.device.name) : qs(d.device.name);
        title = QStringLiteral("<b>%1</b> \u2014 %2 %3, %4%5")
                    .arg(name.toHtmlEscaped(), qs(precisionLabel(d.ceiling.key)), qs(formatSI(d.ceiling.flops, "FLOP/s")),
                        m_print && d.l2Bandwidth <= 0 && d.l1Bandwidth <= 0 ? QString() : QStringLiteral("DRAM "),
                        qs(formatSI(d.bandwidth, "B/s")));
        if (d.l2Bandwidth > 0)
            title += QStringLiteral(", L2 %1").arg(qs(formatSI(d.l2Bandwidth, "B/s")));
        if (d.l1Bandwidth > 0)
            title += QStringLiteral(", L1 %1").arg(qs(formatSI(d.l1Bandwidth, "B/s")));
        // A narrow figure breaks the title after the name rather than cutting it (Qt elides titles).
        if (m_print) {
            QTextDocument doc;
            doc.setDefaultFont(m_chart->titleFont());
            doc.setHtml(title);
            if (doc.idealWidth() > width() - 12)
                title.replace(QStringLiteral(" \u2014 "), QStringLiteral("<br>"));
        }
    } else if (n > 1) {
        // A figure's legend, below the plot, explains the shapes (FigureLayout).
        title = m_print ? tr("<b>%n devices</b>", "", int(n))
                        : tr("<b>%n devices overlaid</b> (\u25cf memory-bound, \u25a0 compute-bound)", "", int(n));
    }
    if (hidden > 0 && n > 0 && !m_print)
        title += tr("<br><small>%n zero-FLOP row(s) (concat) not plotted</small>", "",
            hidden / int(std::max<size_t>(n, 1)));
    if (m_chart->title() != title)
        m_chart->setTitle(title);
    setSelectedLayer(m_selected);
    placeRoofLabels();
}

void RooflineChart::placeRoofLabels()
{
    // Each device's roof value, right-aligned at the plot's right end just above its roof, in the
    // roof's colour. Close roofs (an overlay) push their labels apart rather than overprint.
    const QRectF plot = m_chart->plotArea();
    struct Placed {
        QGraphicsSimpleTextItem* item;
        double y;
    };
    std::vector<Placed> placed;
    const QFont font = m_x->labelsFont();
    for (size_t slot = 0; slot < m_series.size(); ++slot) {
        QGraphicsSimpleTextItem* label = m_series[slot]->roofLabel;
        if (slot >= m_devices.size() || plot.width() <= 0) {
            setVisibleIf(label, false);
            continue;
        }
        const DeviceResult& d = m_report.results[size_t(m_devices[slot])];
        const QString text = qs(formatSI(d.ceiling.flops, "FLOP/s"));
        if (label->text() != text)
            label->setText(text);
        if (label->font() != font)
            label->setFont(font);
        const QColor color = m_devices.size() > 1 ? deviceColor(slot).darker(115) : m_series[slot]->roof->pen().color();
        if (label->brush().color() != color)
            label->setBrush(color);
        const QPointF end = m_chart->mapToPosition(QPointF(m_zoomed ? m_view.xhi : m_xhi, d.ceiling.flops / m_scale), m_series[slot]->roof);
        placed.push_back({ label, end.y() - label->boundingRect().height() - 1 });
        setVisibleIf(label, end.y() > plot.top() && end.y() < plot.bottom());
    }
    std::sort(placed.begin(), placed.end(), [](const Placed& a, const Placed& b) { return a.y < b.y; });
    double floor = -INFINITY;
    std::vector<QRectF> markers;
    if (!placed.empty())
        for (const QRectF& r : markerRects()) // viewport -> chart coordinates
            markers.push_back(m_chart->mapFromScene(mapToScene(r.toAlignedRect())).boundingRect());
    for (Placed& p : placed) {
        p.y = std::max(p.y, floor);
        floor = p.y + p.item->boundingRect().height();
        const QPointF at(plot.right() - p.item->boundingRect().width() - 3, p.y);
        if (p.item->pos() != at)
            p.item->setPos(at);
        // A label over the points would hide them: then the legend alone gives the value.
        const QRectF box(at, p.item->boundingRect().size());
        if (std::any_of(markers.begin(), markers.end(), [&](const QRectF& m) { return m.intersects(box); }))
            setVisibleIf(p.item, false);
    }
    std::vector<QRectF> obstacles = markers;
    if (placed.empty() && !m_devices.empty())
        for (const QRectF& r : markerRects())
            obstacles.push_back(m_chart->mapFromScene(mapToScene(r.toAlignedRect())).boundingRect());
    for (const Placed& p : placed)
        if (p.item->isVisible())
            obstacles.emplace_back(p.item->pos(), p.item->boundingRect().size());
    placeLayerLabels(obstacles);
}

void RooflineChart::setLayerLabels(double share)
{
    if (share == m_labelShare)
        return;
    m_labelShare = share;
    placeRoofLabels();
}

void RooflineChart::placeLayerLabels(const std::vector<QRectF>& obstacles)
{
    struct Wanted {
        QString text;
        QPointF at;
        QColor color;
        double share;
    };
    std::vector<Wanted> wanted;
    const QRectF plot = m_chart->plotArea();
    if (m_labelShare > 0 && plot.width() > 0) {
        for (size_t slot = 0; slot < m_devices.size() && slot < m_series.size(); ++slot) {
            const DeviceResult& d = m_report.results[size_t(m_devices[slot])];
            const auto visible = visibleLayers(d, m_filter);
            std::vector<size_t> top;
            for (size_t i = 0; i < d.layers.size(); ++i)
                if (visible[i] && d.layers[i].share >= m_labelShare && d.layers[i].intensity > 0 && d.layers[i].attainable > 0)
                    top.push_back(i);
            std::sort(top.begin(), top.end(), [&](size_t a, size_t b) { return d.layers[a].share > d.layers[b].share; });
            top.resize(std::min<size_t>(top.size(), 6));
            const QColor color = m_devices.size() > 1 ? deviceColor(slot).darker(140) : (dark() ? QColor(0xee, 0xee, 0xee) : QColor(0x22, 0x22, 0x22));
            for (size_t i : top) {
                const LayerResult& l = d.layers[i];
                const QPointF at = m_chart->mapToPosition(QPointF(l.intensity, l.attainable / m_scale), m_series[slot]->roof);
                if (plot.contains(at))
                    wanted.push_back({ QStringLiteral("%1 %2").arg(qs(l.name), qs(formatPercent(l.share))), at, color, l.share });
            }
        }
    }
    std::stable_sort(wanted.begin(), wanted.end(), [](const Wanted& a, const Wanted& b) { return a.share > b.share; });
    while (m_layerLabels.size() < wanted.size()) {
        auto* item = new QGraphicsSimpleTextItem(m_chart);
        item->setZValue(19);
        m_layerLabels.push_back(item);
        auto* leader = new QGraphicsLineItem(m_chart);
        leader->setZValue(18);
        m_layerLeaders.push_back(leader);
    }
    std::vector<LabelRequest> requests;
    const QFont font = m_x->labelsFont();
    for (size_t i = 0; i < wanted.size(); ++i) {
        QGraphicsSimpleTextItem* item = m_layerLabels[i];
        if (item->text() != wanted[i].text)
            item->setText(wanted[i].text);
        if (item->font() != font)
            item->setFont(font);
        if (item->brush().color() != wanted[i].color)
            item->setBrush(wanted[i].color);
        requests.push_back({ wanted[i].at, item->boundingRect().size(), 3, kMarkerSize.back() * m_markerScale / 2 });
    }
    const auto spots = placeLabels(requests, obstacles, plot);
    for (size_t i = 0; i < m_layerLabels.size(); ++i) {
        QGraphicsSimpleTextItem* item = m_layerLabels[i];
        QGraphicsLineItem* leader = m_layerLeaders[i];
        const bool shown = i < spots.size() && spots[i].has_value();
        if (shown) {
            if (item->pos() != *spots[i])
                item->setPos(*spots[i]);
            // A hairline from the point to the nearest point of its label, so that a label among
            // many points says which one it names.
            const QRectF box(*spots[i], item->boundingRect().size());
            const QPointF a = wanted[i].at;
            const QPointF near(std::clamp(a.x(), box.left(), box.right()), std::clamp(a.y(), box.top(), box.bottom()));
            const QLineF line(a, near);
            if (leader->line() != line)
                leader->setLine(line);
            const QPen pen(wanted[i].color, 0.8);
            if (leader->pen() != pen)
                leader->setPen(pen);
        }
        setVisibleIf(item, shown);
        setVisibleIf(leader, shown);
    }
}

std::vector<std::pair<QString, QRectF>> RooflineChart::layerLabels() const
{
    std::vector<std::pair<QString, QRectF>> out;
    for (const QGraphicsSimpleTextItem* item : m_layerLabels)
        if (item->isVisible())
            out.emplace_back(item->text(), QRectF(item->pos(), item->boundingRect().size()));
    return out;
}

void RooflineChart::updateAxes(double xmin, double xmax, double ymin, double ymax)
{
    // Decade bounds, with room above the roof for the ridge label.
    const double xlo = decadeFloor(xmin), xhi = decadeCeil(xmax * 1.001);
    const double ylo = decadeFloor(ymin), yhi = decadeCeil(ymax * 2);
    if (!m_sticky) {
        m_xlo = xlo, m_xhi = xhi, m_ylo = ylo, m_yhi = yhi;
        m_sticky = true;
    } else {
        // Stable while the points stay inside; grow (never jitter) when they leave.
        m_xlo = std::min(m_xlo, xlo);
        m_xhi = std::max(m_xhi, xhi);
        m_ylo = std::min(m_ylo, ylo);
        m_yhi = std::max(m_yhi, yhi);
    }
    applyAxisRanges();
}

void RooflineChart::applyAxisRanges()
{
    // Zoomed: exactly the user's view. Else a hair beyond the decades, so that the end ticks (and
    // their labels) are not lost to rounding.
    const double pad = 1.0001;
    const double xlo = m_zoomed ? m_view.xlo : m_xlo / pad, xhi = m_zoomed ? m_view.xhi : m_xhi * pad;
    const double ylo = m_zoomed ? m_view.ylo : m_ylo / pad, yhi = m_zoomed ? m_view.yhi : m_yhi * pad;
    if (m_x->min() != xlo || m_x->max() != xhi)
        m_x->setRange(xlo, xhi);
    if (m_y->min() != ylo || m_y->max() != yhi)
        m_y->setRange(ylo, yhi);
    if (m_print)
        return; // figures choose their labelling in fitTickLabels()
    // Zoomed into less than two decades, a base-10 axis would show one label or none: label the
    // powers of two instead.
    for (QLogValueAxis* a : { m_x, m_y }) {
        const double base = std::log10(a->max() / a->min()) >= 2 ? 10 : 2;
        if (a->base() != base) {
            a->setBase(base);
            a->setMinorTickCount(base == 10 && m_minorGrid ? -1 : 0);
        }
    }
}

double RooflineChart::spanLeft() const { return m_zoomed ? std::min(m_xlo, m_view.xlo) : m_xlo; }
double RooflineChart::spanRight() const { return m_zoomed ? std::max(m_xhi, m_view.xhi) : m_xhi; }

void RooflineChart::setView(const ChartNavigator::Range& view)
{
    // Refuse a view no log axis can show (a zoom far past a float's range): keep the last one.
    for (double v : { view.xlo, view.xhi, view.ylo, view.yhi })
        if (!(v > 1e-30 && v < 1e30))
            return;
    // Never closer than a factor of 4 on an axis: the powers of two must still label it.
    if (!(view.xhi >= view.xlo * 3.99 && view.yhi >= view.ylo * 3.99))
        return;
    m_zoomed = true;
    m_view = view;
    setVisibleIf(m_readoutBack, false); // it described the old view; the next mouse move brings it back
    rebuild();
}

ChartNavigator::Range RooflineChart::viewRange() const
{
    return m_zoomed ? m_view : ChartNavigator::Range { m_x->min(), m_x->max(), m_y->min(), m_y->max() };
}

void RooflineChart::resetView()
{
    m_zoomed = false;
    setVisibleIf(m_readoutBack, false);
    fitAxes();
}

int RooflineChart::layerAt(const QPointF& point, int slot, int bucket) const
{
    const DeviceSeries* s = m_series[size_t(slot)];
    const size_t b = size_t(bucket / kBuckets), k = size_t(bucket % kBuckets);
    const auto pts = s->points[b][k]->points();
    for (int i = 0; i < pts.size(); ++i) {
        if (pts[i] == point)
            return s->layers[b][k][size_t(i)];
    }
    return -1;
}

std::vector<QXYSeries*> RooflineChart::hoverableSeries() const
{
    std::vector<QXYSeries*> out { m_measuredPoints, m_measuredAbove };
    for (size_t slot = 0; slot < m_devices.size() && slot < m_series.size(); ++slot) {
        const DeviceSeries* s = m_series[slot];
        for (const auto& row : s->points)
            out.insert(out.end(), row.begin(), row.end());
        out.insert(out.end(), s->levelPoints.begin(), s->levelPoints.end());
    }
    return out;
}

QString RooflineChart::tooltipFor(const PointHover::Hit& hit) const
{
    for (size_t m = 0; m < 2; ++m)
        if (hit.series == (m == 0 ? m_measuredPoints : m_measuredAbove) && size_t(hit.index) < m_measuredRows[m].size())
            return measuredTooltip(m_measuredRows[m][size_t(hit.index)]);
    for (size_t slot = 0; slot < m_devices.size() && slot < m_series.size(); ++slot) {
        const DeviceSeries* s = m_series[slot];
        for (size_t b = 0; b < 2; ++b)
            for (size_t k = 0; k < size_t(kBuckets); ++k)
                if (hit.series == s->points[b][k] && size_t(hit.index) < s->layers[b][k].size())
                    return layerTooltip(slot, s->layers[b][k][size_t(hit.index)]);
        for (size_t v = 0; v < 2; ++v)
            if (hit.series == s->levelPoints[v] && size_t(hit.index) < s->levelLayers[v].size())
                return levelTooltip(slot, s->levelLayers[v][size_t(hit.index)], int(v));
    }
    return {};
}

QString RooflineChart::layerTooltip(size_t slot, int layer) const
{
    const DeviceResult& d = m_report.results[size_t(m_devices[slot])];
    const LayerResult& l = d.layers[size_t(layer)];
    QString text = QStringLiteral("<b>%1</b> (%2) on %3<br>output %4<br>FLOPs %5<br>bytes %6<br>"
                                  "intensity %7 FLOP/B (ridge %8)<br>attainable %9<br>time %10 (%11), %12-bound")
                       .arg(qs(l.name).toHtmlEscaped(), qs(std::string(opName(l.op))), qs(d.device.name).toHtmlEscaped(),
                           qs(shapeString(l.out)), qs(formatSI(l.flops, "FLOP")), qs(formatBytes(l.bytes)),
                           qs(formatNumber3(l.intensity)), qs(formatNumber3(l.peak / d.bandwidth)),
                           qs(formatSI(l.attainable, "FLOP/s")), qs(formatTime(l.time, true)), qs(formatPercent(l.share)),
                           qs(boundLabel(l)));
    if (l.l2Bytes > 0 && l.flops > 0)
        text += QStringLiteral("<br>L2: %1, intensity %2 FLOP/B").arg(qs(formatBytes(l.l2Bytes)), qs(formatNumber3(l.flops / l.l2Bytes)));
    if (l.l1Bytes > 0 && l.flops > 0)
        text += QStringLiteral("<br>L1: %1, intensity %2 FLOP/B").arg(qs(formatBytes(l.l1Bytes)), qs(formatNumber3(l.flops / l.l1Bytes)));
    return text;
}

QString RooflineChart::levelTooltip(size_t slot, int layer, int level) const
{
    const DeviceResult& d = m_report.results[size_t(m_devices[slot])];
    const LayerResult& l = d.layers[size_t(layer)];
    const double q = level == 0 ? l.l2Bytes : l.l1Bytes;
    const double bw = level == 0 ? d.l2Bandwidth : d.l1Bandwidth;
    return tr("<b>%1</b> at %2 on %3<br>output %4<br>FLOPs %5<br>traffic %6, intensity %7 FLOP/B<br>"
              "this level alone would allow %8; %9-bound, time %10")
        .arg(qs(l.name).toHtmlEscaped(), level == 0 ? QStringLiteral("L2") : QStringLiteral("L1"),
            qs(d.device.name).toHtmlEscaped(), qs(shapeString(l.out)), qs(formatSI(l.flops, "FLOP")), qs(formatBytes(q)),
            qs(formatNumber3(l.flops / q)), qs(formatSI(std::min(l.peak, l.flops / q * bw), "FLOP/s")), qs(boundLabel(l)),
            qs(formatTime(l.time, true)));
}

QString RooflineChart::measuredTooltip(size_t comparisonRow) const
{
    if (m_measuredDevice < 0 || comparisonRow >= m_measured.layers.size())
        return {};
    const DeviceResult& d = m_report.results[size_t(m_measuredDevice)];
    const LayerComparison& lc = m_measured.layers[comparisonRow];
    const LayerResult& l = d.layers[lc.layer];
    const double f = lc.measuredFlops >= 0 ? lc.measuredFlops : l.flops;
    const double q = lc.measuredBytes > 0 ? lc.measuredBytes : l.bytes;
    QString text = tr("<b>%1</b> measured on %2<br>output %3<br>FLOPs %4%5<br>bytes %6%7<br>intensity %8 FLOP/B<br>"
                      "achieved %9<br>measured %10, bound %11 (%12 of the bound reached)")
                       .arg(qs(l.name).toHtmlEscaped(), qs(d.device.name).toHtmlEscaped(), qs(shapeString(l.out)),
                           qs(formatSI(f, "FLOP")), lc.measuredFlops >= 0 ? tr(" (measured)") : tr(" (model)"),
                           qs(formatBytes(q)), lc.measuredBytes > 0 ? tr(" (measured)") : tr(" (model)"),
                           qs(formatNumber3(f / q)), qs(formatSI(f / lc.measured, "FLOP/s")),
                           qs(formatTime(lc.measured, true)), qs(formatTime(lc.bound, true)), qs(formatPercent(lc.efficiency)));
    if (lc.aboveRoof)
        text += tr("<br><b>faster than the roofline allows</b>: check the file's units, the FLOP convention "
                   "(an FMA counted once) or the row mapping");
    return text;
}

void RooflineChart::onClicked(const QPointF& point, int slot, int bucket)
{
    const int layer = layerAt(point, slot, bucket);
    if (layer >= 0 && slot < int(m_devices.size()))
        emit layerClicked(layer, m_devices[size_t(slot)]);
}

std::vector<QPointF> RooflineChart::layerPoints() const
{
    std::vector<std::pair<int, QPointF>> found;
    if (m_devices.empty())
        return {};
    const DeviceSeries* s = m_series.front();
    for (size_t b = 0; b < 2; ++b)
        for (size_t k = 0; k < size_t(kBuckets); ++k) {
            const auto pts = s->points[b][k]->points();
            for (int i = 0; i < pts.size(); ++i)
                found.emplace_back(s->layers[b][k][size_t(i)], pts[i]);
        }
    std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<QPointF> out;
    for (auto& [i, p] : found)
        out.push_back(p);
    return out;
}

void RooflineChart::setMeasured(int device, const Comparison& comparison)
{
    m_measuredDevice = device;
    m_measured = comparison;
    rebuild();
}

void RooflineChart::clearMeasured()
{
    if (m_measuredDevice < 0)
        return;
    m_measuredDevice = -1;
    m_measured = {};
    rebuild();
}

void RooflineChart::drawMeasured(size_t slot, const DeviceResult& d)
{
    QList<QPointF> below, above;
    m_measuredRows[0].clear();
    m_measuredRows[1].clear();
    size_t used = 0;
    const QColor joinColor = m_devices.size() > 1 ? deviceColor(slot) : (dark() ? QColor(0xbb, 0xbb, 0xbb) : QColor(0x55, 0x55, 0x55));
    for (size_t row = 0; row < m_measured.layers.size(); ++row) {
        const LayerComparison& lc = m_measured.layers[row];
        if (lc.layer >= d.layers.size() || lc.measured <= 0)
            continue;
        const LayerResult& l = d.layers[lc.layer];
        const double f = lc.measuredFlops >= 0 ? lc.measuredFlops : l.flops;
        const double q = lc.measuredBytes > 0 ? lc.measuredBytes : l.bytes;
        if (!(f > 0 && q > 0) || l.intensity <= 0 || l.attainable <= 0)
            continue; // a log axis cannot place it (zero-FLOP rows such as concat)
        const QPointF measured(f / q, f / lc.measured / m_scale);
        (lc.aboveRoof ? above : below).append(measured);
        m_measuredRows[lc.aboveRoof ? 1 : 0].push_back(row);
        if (used == m_joins.size()) {
            auto* j = new QLineSeries;
            m_chart->addSeries(j);
            j->attachAxis(m_x);
            j->attachAxis(m_y);
            m_chart->legend()->markers(j).first()->setVisible(false);
            m_joins.push_back(j);
        }
        QLineSeries* j = m_joins[used++];
        j->replace({ QPointF(l.intensity, l.attainable / m_scale), measured });
        const QPen pen(joinColor, 1.0, Qt::DotLine);
        if (j->pen() != pen)
            j->setPen(pen);
        setVisibleIf(j, true);
    }
    for (size_t k = used; k < m_joins.size(); ++k)
        setVisibleIf(m_joins[k], false);
    // Shown before their points are replaced: Qt Charts 6.4 places the markers of a series made
    // visible after its points changed a fraction of a pixel off (the chart oracle saw it).
    setVisibleIf(m_measuredPoints, true);
    setVisibleIf(m_measuredAbove, !above.isEmpty());
    m_measuredPoints->replace(below);
    m_measuredAbove->replace(above);
    m_chart->legend()->markers(m_measuredPoints).first()->setVisible(true);
    m_chart->legend()->markers(m_measuredAbove).first()->setVisible(!above.isEmpty());
}

std::vector<QPointF> RooflineChart::measuredPoints() const
{
    std::vector<QPointF> out;
    if (m_measuredDevice < 0)
        return out;
    for (QScatterSeries* s : { m_measuredPoints, m_measuredAbove })
        for (const QPointF& p : s->points())
            out.push_back(p);
    std::sort(out.begin(), out.end(), [](const QPointF& a, const QPointF& b) { return a.x() < b.x(); });
    return out;
}

std::vector<QPointF> RooflineChart::levelPoints(int level) const
{
    if (m_devices.empty() || level < 0 || level > 1)
        return {};
    const auto pts = m_series.front()->levelPoints[size_t(level)]->points();
    return { pts.begin(), pts.end() };
}

void RooflineChart::resizeEvent(QResizeEvent* event)
{
    // Short axis titles in small charts, so that nothing is clipped.
    // Figures lay out at 96 per inch: a 3.5-inch cell (336 px) is small, a 7-inch chart is not.
    const bool small = m_print ? event->size().width() < 500
                               : (event->size().height() < 420 || event->size().width() < 560);
    m_x->setTitleText(small ? tr("FLOP/byte") : tr("Arithmetic intensity (FLOP/byte)"));
    const QString unit = m_scale == 1e12 ? tr("TFLOP/s") : tr("GFLOP/s");
    m_y->setTitleText(small ? unit : tr("Performance (%1)").arg(unit));
    const bool relayout = m_print && event->oldSize().width() != event->size().width();
    m_small = small;
    QChartView::resizeEvent(event);
    if (relayout)
        rebuild(); // a figure's title wraps to its width
}

void RooflineChart::hideLegendForFigure()
{
    // Figures lay out their legend themselves, below the charts (FigureLayout, legendItems()).
    m_chart->legend()->setVisible(false);
}

std::vector<RooflineChart::LegendItem> RooflineChart::legendItems() const
{
    std::vector<LegendItem> items;
    const bool overlay = m_devices.size() > 1;
    QString vector;
    QColor vectorColor;
    for (size_t slot = 0; slot < m_devices.size() && slot < m_series.size(); ++slot) {
        const DeviceSeries* s = m_series[slot];
        if (overlay)
            items.push_back({ s->roof->pen().color(), s->roof->name(), Swatch::Line });
        if (s->vectorRoof->isVisible() && vector.isEmpty()) {
            vector = s->vectorRoof->name();
            vectorColor = s->vectorRoof->pen().color();
        }
    }
    if (!vector.isEmpty())
        items.push_back({ overlay ? QColor(0x44, 0x44, 0x44) : vectorColor,
            overlay ? tr("dashed: %1 roof, in each device's colour").arg(vector) : tr("%1 roof").arg(vector), Swatch::Dashed });
    if (!overlay && !m_series.empty() && !m_devices.empty()) {
        const DeviceSeries* s = m_series.front();
        for (size_t v = 0; v < 2; ++v) {
            if (!s->levelRoofs[v]->isVisible())
                continue;
            items.push_back({ s->levelRoofs[v]->pen().color(), s->levelRoofs[v]->name(), v == 0 ? Swatch::DashDot : Swatch::Dotted });
            if (s->levelPoints[v]->count() > 0)
                items.push_back({ s->levelPoints[v]->color(), s->levelPoints[v]->name(), v == 0 ? Swatch::Triangle : Swatch::Star });
        }
    }
    const QColor grey(0x66, 0x66, 0x66);
    items.push_back({ overlay ? grey : boundColor(Bound::Memory, dark()), tr("memory-bound layer"), Swatch::Circle });
    items.push_back({ overlay ? grey : boundColor(Bound::Compute, dark()), tr("compute-bound layer"), Swatch::Square });
    if (m_measuredPoints->isVisible())
        items.push_back({ QColor(0x11, 0x11, 0x11), m_measuredPoints->name(), Swatch::Diamond });
    if (m_measuredAbove->isVisible())
        items.push_back({ m_measuredAbove->color(), m_measuredAbove->name(), Swatch::Diamond });
    return items;
}

std::vector<QRectF> RooflineChart::markerRects() const
{
    std::vector<QRectF> out;
    for (QAbstractSeries* a : m_chart->series()) {
        auto* s = qobject_cast<QScatterSeries*>(a);
        if (!s || !s->isVisible() || s == m_selection)
            continue;
        const double r = s->markerSize() / 2;
        for (const QPointF& v : s->points()) {
            const QPointF c = mapFromScene(m_chart->mapToScene(m_chart->mapToPosition(v, s)));
            out.emplace_back(c.x() - r, c.y() - r, 2 * r, 2 * r);
        }
    }
    return out;
}

bool RooflineChart::legendVisible() const
{
    if (!m_chart->legend()->isVisible())
        return false;
    for (QLegendMarker* m : m_chart->legend()->markers())
        if (m->isVisible())
            return true;
    return false;
}

QRectF RooflineChart::legendRect() const
{
    return mapFromScene(m_chart->mapToScene(m_chart->legend()->geometry())).boundingRect();
}

std::vector<double> RooflineChart::pointLabelPixelSizes() const
{
    std::vector<double> out;
    for (size_t slot = 0; slot < m_devices.size() && slot < m_series.size(); ++slot) {
        const QScatterSeries* r = m_series[slot]->ridge;
        if (r->isVisible() && r->pointLabelsVisible()) {
            const QFont f = r->pointLabelsFont();
            out.push_back(f.pixelSize() > 0 ? f.pixelSize() : f.pointSizeF() * 96 / 72);
        }
    }
    return out;
}

QRectF RooflineChart::plotArea() const { return m_chart->plotArea(); }

QString RooflineChart::readoutText(double intensity, double flops) const
{
    const QString where = tr("I %1 FLOP/B, P %2").arg(qs(formatNumber3(intensity)), qs(formatSI(flops, "FLOP/s")));
    if (m_devices.empty())
        return where;
    // The roof that bounds this point: the lowest attainable performance at this intensity that
    // is still above it.
    const DeviceResult* bounding = nullptr;
    double attainable = INFINITY;
    for (int idx : m_devices) {
        const DeviceResult& d = m_report.results[size_t(idx)];
        const double a = std::min(d.ceiling.flops, intensity * d.bandwidth);
        if (a >= flops && a < attainable)
            attainable = a, bounding = &d;
    }
    if (!bounding)
        return tr("%1: above %2 roof, not attainable").arg(where, m_devices.size() > 1 ? tr("every") : tr("the"));
    const QString roof = intensity < bounding->ridge ? tr("memory slope") : tr("compute roof");
    if (m_devices.size() > 1)
        return tr("%1: under %2's %3 (%4 there)")
            .arg(where, shortDeviceName(bounding->device.name), roof, qs(formatSI(attainable, "FLOP/s")));
    return tr("%1: under the %2 (%3 there)").arg(where, roof, qs(formatSI(attainable, "FLOP/s")));
}

QString RooflineChart::readoutShown() const { return m_readoutBack->isVisible() ? m_readout->text() : QString(); }

void RooflineChart::mouseMoveEvent(QMouseEvent* event)
{
    QChartView::mouseMoveEvent(event);
    const QPointF at = m_chart->mapFromScene(mapToScene(event->position().toPoint()));
    const QRectF plot = m_chart->plotArea();
    if (m_print || m_series.empty() || !plot.contains(at)) {
        setVisibleIf(m_readoutBack, false);
        return;
    }
    const QPointF v = m_chart->mapToValue(at, m_series.front()->roof);
    const QString text = readoutText(v.x(), v.y() * m_scale);
    if (m_readout->text() != text)
        m_readout->setText(text);
    if (m_readout->font() != m_x->labelsFont())
        m_readout->setFont(m_x->labelsFont());
    const QRectF box = m_readout->boundingRect().adjusted(-4, -2, 4, 2);
    m_readoutBack->setRect(QRectF(QPointF(0, 0), box.size()));
    m_readout->setPos(4, 2);
    // Top left of the plot: the unattainable corner above the memory slope, where no point lies.
    m_readoutBack->setPos(plot.left() + 4, plot.top() + 4);
    setVisibleIf(m_readoutBack, true);
}

void RooflineChart::leaveEvent(QEvent* event)
{
    setVisibleIf(m_readoutBack, false);
    QChartView::leaveEvent(event);
}

QPoint RooflineChart::viewportPosition(QPointF value) const
{
    const QAbstractSeries* any = m_series.empty() ? static_cast<QAbstractSeries*>(m_selection) : m_series.front()->roof;
    return mapFromScene(m_chart->mapToScene(m_chart->mapToPosition(value, const_cast<QAbstractSeries*>(any))));
}

QPointF RooflineChart::xRange() const { return { m_xlo, m_xhi }; }
QPointF RooflineChart::yRange() const { return { m_ylo, m_yhi }; }

} // namespace rfx
