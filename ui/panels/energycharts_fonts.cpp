// The energy charts' type: each chart keeps the fonts it was made with (base fonts) and takes the
// presentation scale from them, never from fonts already scaled; the views they sit in.
#include "base/format.h"
#include "panels/energychartfit.h"
#include "panels/energycharts.h"
#include "style/chartpointlabels.h"
#include "style/style.h"
#include "style/text.h"
#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPainter>
#include <QScatterSeries>
#include <QValueAxis>
#include <algorithm>
#include <cmath>
#include <cstring>

namespace rfx {

namespace {
QFont scaledFont(QFont f, double scale)
{
    if (f.pointSizeF() > 0)
        f.setPointSizeF(f.pointSizeF() * scale);
    else
        f.setPixelSize(int(std::lround(f.pixelSize() * scale)));
    return f;
}

/// The desk's type of a chart's parts: the theme's, taken when the chart was made (makeView) and
/// brought back to the desk's size where the window's type was then enlarged. Taken at the first
/// fill instead, once for all, the energy view first opened in presentation mode got the projector's
/// type as its desk size and then 1.5 times that: every tick label was "...".
struct BaseFonts {
    QFont title, legend, labels, axisTitle, points;
};

BaseFonts baseFonts(const QChart* chart)
{
    const QVariantList stored = chart->property("rfxBaseFonts").toList();
    if (stored.size() == 5)
        return { stored[0].value<QFont>(), stored[1].value<QFont>(), stored[2].value<QFont>(), stored[3].value<QFont>(),
            stored[4].value<QFont>() };
    QChart c;
    QValueAxis a;
    QLineSeries s;
    return { c.titleFont(), c.legend()->font(), a.labelsFont(), a.titleFont(), s.pointLabelsFont() };
}

void storeBaseFonts(QChart* chart, double createdAtFactor)
{
    BaseFonts b = baseFonts(chart);
    const double undo = createdAtFactor > 0 ? 1 / createdAtFactor : 1.0;
    QVariantList stored;
    for (QFont* f : { &b.title, &b.legend, &b.labels, &b.axisTitle, &b.points })
        stored.append(QVariant::fromValue(scaledFont(*f, undo)));
    chart->setProperty("rfxBaseFonts", stored);
}

} // namespace

void EnergyCharts::applyFontScale(QChart* chart)
{
    const double scale = chart->property("rfxFontScale").isValid() ? chart->property("rfxFontScale").toDouble() : 1.0;
    const BaseFonts base = baseFonts(chart);
    chart->setTitleFont(scaledFont(base.title, scale));
    chart->legend()->setFont(scaledFont(base.legend, 1 + (scale - 1) / 2));
    for (QAbstractAxis* a : chart->axes()) {
        a->setLabelsFont(scaledFont(base.labels, scale));
        a->setTitleFont(scaledFont(base.axisTitle, scale));
    }
    for (QAbstractSeries* s : chart->series())
        if (auto* xy = qobject_cast<QXYSeries*>(s))
            xy->setPointLabelsFont(scaledFont(base.points, scale));
    if (auto* labels = chart->findChild<ChartPointLabels*>())
        labels->setFont(scaledFont(base.points, scale));
    EnergyChartFit::fit(chart);
}

void EnergyCharts::setFontScale(QChart* chart, double scale)
{
    chart->setProperty("rfxFontScale", scale);
    applyFontScale(chart);
}

QChartView* EnergyCharts::makeView(const QStringList& title, double createdAtFactor)
{
    auto* chart = new QChart;
    storeBaseFonts(chart, createdAtFactor);
    EnergyChartFit::setTitles(chart, title);
    QObject::connect(chart, &QGraphicsWidget::geometryChanged, chart, [chart] { EnergyChartFit::fit(chart); });
    QObject::connect(chart, &QChart::plotAreaChanged, chart, [chart] { EnergyChartFit::fit(chart); });
    chart->setAnimationOptions(QChart::NoAnimation);
    // One legend for the three charts (legendHtml), under them, wrapping where the room is short: three
    // legends of one row each cut the devices' names at a third of a 1024-pixel window.
    chart->legend()->hide();
    chart->setMargins(QMargins(2, 2, 2, 2));
    auto* view = new QChartView(chart);
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumSize(300, 210); // no legend of its own (legendHtml)
    return view;
}

} // namespace rfx
