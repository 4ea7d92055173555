#include "panels/energychartfit.h"

#include <QAbstractAxis>
#include <QAbstractSeries>
#include <QChart>
#include <QFontMetricsF>
#include <QLegend>
#include <QLogValueAxis>
#include <QVariant>

#include <algorithm>
#include <cmath>

namespace rfx::EnergyChartFit {

namespace {
const char* const kForms = "rfxTitleForms";
const char* const kBatchAxis = "rfxBatchAxis";

QStringList forms(const QObject* o) { return o->property(kForms).toStringList(); }
QString full(const QObject* o) { return forms(o).value(0); }

// The longest form of `o`'s title that takes at most `room` pixels in `font`; the shortest where none does.
QString longestThatFits(const QObject* o, const QFont& font, double room)
{
    const QStringList all = forms(o);
    for (const QString& form : all)
        if (QFontMetricsF(font).horizontalAdvance(form) <= room)
            return form;
    return all.value(all.size() - 1);
}

// A line of `font`, with the few pixels Qt Charts puts around it.
double line(const QFont& font) { return QFontMetricsF(font).height() + 6; }
double advance(const QFont& font, const QString& text) { return QFontMetricsF(font).horizontalAdvance(text); }

// The widest tick label an axis may show (its range's ends, as "%g" or the format writes them).
double labelsWidth(const QAbstractAxis* axis)
{
    const QFontMetricsF fm(axis->labelsFont());
    double widest = fm.horizontalAdvance(QStringLiteral("8000"));
    if (const auto* log = qobject_cast<const QLogValueAxis*>(axis))
        widest = std::max(fm.horizontalAdvance(QString::number(log->max(), 'g', 4)),
            fm.horizontalAdvance(QString::number(log->min(), 'g', 3)));
    return widest + 8;
}
} // namespace

void setTitles(QObject* titled, const QStringList& longestFirst)
{
    titled->setProperty(kForms, longestFirst);
    const QString fullText = longestFirst.value(0);
    if (auto* chart = qobject_cast<QChart*>(titled))
        chart->setTitle(fullText);
    else if (auto* axis = qobject_cast<QAbstractAxis*>(titled))
        axis->setTitleText(fullText);
}

QString fullTitle(const QChart* chart)
{
    const QString f = full(chart);
    return f.isEmpty() ? chart->title() : f;
}

void setBatchAxis(QObject* axis) { axis->setProperty(kBatchAxis, true); }

void fit(QChart* chart)
{
    const QSizeF size = chart->size();
    if (size.width() <= 0 || size.height() <= 0)
        return;
    const QList<QAbstractAxis*> axes = chart->axes();

    // The chart's title: the full form where it fits the width.
    if (!full(chart).isEmpty()) {
        const QString want = longestThatFits(chart, chart->titleFont(), size.width() - 16);
        if (chart->title() != want)
            chart->setTitle(want);
    }

    // The plot's room: where Qt has laid the chart out, its plot area (which none of the choices here
    // changes: each form of a text takes one line, both bases one line of labels); before that, the
    // chart less its title, legend, the bottom axis's labels and title, and the side axes'.
    QLegend* legend = chart->legend();
    double plotHeight = size.height() - 40 - (chart->title().isEmpty() ? 0 : line(chart->titleFont()) + 4)
        - (legend->isVisible() ? line(legend->font()) + 6 : 0);
    double plotWidth = size.width() - 40;
    for (QAbstractAxis* a : axes) {
        if (a->orientation() == Qt::Horizontal)
            plotHeight -= line(a->labelsFont()) + line(a->titleFont());
        else
            plotWidth -= labelsWidth(a) + line(a->titleFont());
    }
    const QRectF plot = chart->plotArea();
    if (plot.width() > 0 && plot.height() > 0)
        plotWidth = plot.width(), plotHeight = plot.height();
    for (QAbstractAxis* a : axes) {
        if (full(a).isEmpty())
            continue;
        const double room = a->orientation() == Qt::Horizontal ? plotWidth : plotHeight;
        const QString want = longestThatFits(a, a->titleFont(), room - 6);
        if (a->titleText() != want)
            a->setTitleText(want);
    }

    // The batch axis: a tick at every power of 2 where its labels have room, else every power of 4.
    for (QAbstractAxis* a : axes) {
        auto* log = qobject_cast<QLogValueAxis*>(a);
        if (!log || !log->property(kBatchAxis).toBool() || !(log->min() > 0) || !(log->max() > log->min()))
            continue;
        const double ticks = std::max(1.0, std::log2(log->max() / log->min()));
        const double label
            = advance(log->labelsFont(), QString::number(std::exp2(std::floor(std::log2(log->max()))), 'g', 4)) + 10;
        const int base = plotWidth / ticks >= label ? 2 : 4;
        if (int(log->base()) != base)
            log->setBase(base);
    }
}

QLogValueAxis* decadeAxis(const QStringList& title, double lo, double hi)
{
    auto* a = new QLogValueAxis;
    setTitles(a, title);
    a->setBase(10);
    a->setMinorTickCount(8);
    if (!(lo > 0 && hi > 0)) {
        lo = 1;
        hi = 10;
    }
    // From the decade under the lowest point (a labelled tick) to a little past the highest: a whole
    // decade more left a 131,072-token line in the left two thirds of a plot that ran to 1,000,000.
    a->setRange(std::pow(10, std::floor(std::log10(lo) + 1e-9)),
        std::min(std::pow(10, std::ceil(std::log10(hi) - 1e-9)), hi * 1.5));
    if (a->max() <= a->min())
        a->setMax(a->min() * 10);
    // Whole numbers written out ("1000000", not "1e+06"); fractions as they come.
    a->setLabelFormat(a->min() >= 1 ? QStringLiteral("%.0f") : QStringLiteral("%g"));
    return a;
}

void applyPrintFont(QChart* chart, double fontPx)
{
    QFont f = chart->titleFont();
    f.setPixelSize(int(std::lround(fontPx)));
    f.setBold(true);
    chart->setTitleFont(f);
    QFont small = f;
    small.setBold(false);
    small.setPixelSize(std::max(10, int(std::lround(fontPx * 0.9))));
    for (QAbstractAxis* a : chart->axes()) {
        a->setLabelsFont(small);
        a->setTitleFont(small);
    }
}

} // namespace rfx::EnergyChartFit
