#pragma once
// Shared by the parts of RooflineChart (rooflinechart*.cpp): constants, colours, the per-device
// series, and the set-only-when-changed helpers. Not for use outside the chart.

#include "chart/rooflinechart.h"
#include "style/style.h"
#include "style/text.h"
#include "style/textitem.h"

#include <QApplication>
#include <QGraphicsSimpleTextItem>
#include <QImage>
#include <QLineSeries>
#include <QPainter>
#include <QPen>
#include <QScatterSeries>

#include <array>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

namespace rfx::chartdetail {

constexpr int kBuckets = 4;
/// Layer points' series per device: [bound + 2 x part] (a report in parts, Report::parts: the first
/// part's rows as open marks, the second's filled; else every row in part 1's filled marks).
constexpr int kMarks = 4;
// The inner memory levels a device may draw a ceiling for, in their series' slots: the tiled model's
// L2 and L1 (with their own traffic points), and the cache-aware model's L3 as well.
constexpr int kLevels = 3;
constexpr int kPrecisionRoofs
    = 3; ///< other precisions' roofs drawn per device (fp64, fp32, int8 beside fp16: three at most)
constexpr std::array<MemoryLevel, kLevels> kLevelOf { MemoryLevel::L2, MemoryLevel::L1, MemoryLevel::L3 };
inline QString levelName(size_t v) { return QString::fromLatin1(memoryLevelName(kLevelOf[v]).data()); }
// Line styles: L2 dash-dot, L1 dots, L3 dash-dot-dot.
constexpr std::array<Qt::PenStyle, kLevels> kLevelPen { Qt::DashDotLine, Qt::DotLine, Qt::DashDotDotLine };
// Marker diameter by share of the network's time: < 1 %, < 5 %, < 15 %, >= 15 %.
constexpr std::array<double, kBuckets> kMarkerSize { 7, 10, 14, 19 };
/// The ridge's ring, diameter at marker scale 1 (axes leave room for it and its label: growForMarkers).
constexpr double kRidgeRingSize = 11;

inline int bucketOf(double share)
{
    if (share < 0.01)
        return 0;
    if (share < 0.05)
        return 1;
    if (share < 0.15)
        return 2;
    return 3;
}

using rfx::boundColor;
using rfx::darkPalette;
using rfx::deviceColor;
using rfx::shortDeviceName;

inline double decadeFloor(double v) { return std::pow(10.0, std::floor(std::log10(v))); }
inline double decadeCeil(double v) { return std::pow(10.0, std::ceil(std::log10(v))); }

/// A tick's number as written out ("1000000", "0.001", "0.25"), never in exponent form: "%g" wrote
/// "1e+06" on a figure's y axis widened to even decades. Powers-of-ten ticks are powerOfTen's.
inline QString tickText(double v)
{
    if (v >= 1 && v < 1e15 && v == std::floor(v))
        return QString::number(v, 'f', 0);
    if (v > 0 && v < 1 && v >= 1e-12) {
        QString s = QString::number(v, 'f', int(std::ceil(-std::log10(v) - 1e-9)) + 3);
        while (s.endsWith(QLatin1Char('0')))
            s.chop(1);
        return s;
    }
    return QString::asprintf("%g", v);
}

/// Into rich text (tooltips): "<0.1 %" would open a tag and swallow the rest.
inline QString qh(const std::string& s) { return QString::fromStdString(s).toHtmlEscaped(); }

// Series properties are set only when they change, so that a live update does not ask the chart
// to lay out again what did not move. (Legend markers are always set: their isVisible() reports
// the drawn item, not the requested state.)
template <typename T> inline void setVisibleIf(T* item, bool visible)
{
    if (item->isVisible() != visible)
        item->setVisible(visible);
}

// Points replaced only when they differ: a replace makes Qt lay the series out again and repaint it,
// even from nothing to nothing (most of a chart's series are empty on most steps).
inline void replaceIf(QXYSeries* series, const QList<QPointF>& points)
{
    if (series->count() != points.size() || series->points() != points)
        series->replace(points);
}

inline void setNameIf(QAbstractSeries* series, const QString& name)
{
    if (series->name() != name)
        series->setName(name);
}

// A marker drawn once into an image. On screen, a scatter series with such a "light marker" paints
// its points as image blits instead of one antialiased QGraphicsEllipseItem per point: the largest
// single cost of a live repaint (callgrind). Clicks and hovers still work (Qt hit-tests the image).
// Figures keep vector markers: an image would be blurred in a 300-dpi PNG and raster in SVG/PDF.
inline QImage markerImage(QScatterSeries::MarkerShape shape, double size, const QColor& fill, const QColor& border)
{
    const qreal dpr = qApp->devicePixelRatio();
    const int px = std::max(2, int(std::ceil(size * dpr)));
    QImage image(px, px, QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(dpr);
    image.fill(Qt::transparent);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    // an open mark (a transparent fill): a ring or a frame as thick as a small mark reads at its size
    const double pen = fill.alpha() == 0 ? std::max(1.5, size / 6) : 1.0;
    painter.setPen(QPen(border, pen));
    painter.setBrush(fill);
    const QRectF r(pen / 2, pen / 2, size - pen, size - pen);
    if (shape == QScatterSeries::MarkerShapeCircle)
        painter.drawEllipse(r);
    else
        painter.drawRect(r);
    return image;
}

inline void setColorsIf(QScatterSeries* series, const QColor& fill, const QColor& border)
{
    if (series->color() != fill)
        series->setColor(fill);
    if (series->borderColor() != border)
        series->setBorderColor(border);
}

} // namespace rfx::chartdetail

namespace rfx {

struct RooflineChart::DeviceSeries {
    QLineSeries* roof = nullptr;
    QLineSeries* vectorRoof = nullptr;
    /// The rooflines of the other precisions rows run at (DeviceResult::rowCeilings), dotted.
    std::array<QLineSeries*, chartdetail::kPrecisionRoofs> precisionRoofs {};
    QScatterSeries* ridge = nullptr; ///< a ring at the ridge point, labelled with its intensity
    QGraphicsSimpleTextItem* roofLabel = nullptr; ///< the roof's value at its right end (placeRoofLabels)
    QGraphicsSimpleTextItem* ridgeLabel = nullptr; ///< "ridge 16 FLOP/B" beside the ring (placeRidgeLabels)
    std::array<std::array<QScatterSeries*, chartdetail::kBuckets>, chartdetail::kMarks> points {}; // [mark][bucket]
    std::array<std::array<std::vector<int>, chartdetail::kBuckets>, chartdetail::kMarks>
        layers; // layer index per point
    // Hierarchical roofline (tiled traffic model, where the device gives L2 / L1 bandwidths): one ceiling
    // and one point per matrix-product row at each inner level, at the row's own performance.
    std::array<QLineSeries*, chartdetail::kLevels> levelRoofs {}; // [0] L2, [1] L1, [2] L3 (kLevelOf)
    std::array<QScatterSeries*, chartdetail::kLevels> levelPoints {};
    std::array<std::vector<int>, chartdetail::kLevels> levelLayers;
};

} // namespace rfx
