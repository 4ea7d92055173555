#include "energycharts.h"
#include "style.h"

#include "format.h"

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

QString qs(const std::string& s) { return QString::fromStdString(s); }

QString shortName(const Device& d) { return shortDeviceName(d.name); }

// What a hovered point of any of the three charts stands for, in full.
QString tunePointText(const Device& d, const TunePoint& p)
{
    QString text = EnergyCharts::tr("<b>%1</b><br>batch %2 per GPU \u00d7 %3 GPU(s) at %4 % clock<br>"
                                  "step %5, %6 J<br>per image %7, %8<br>average power %9 W per GPU")
                       .arg(QString::fromStdString(d.name).toHtmlEscaped())
                       .arg(p.batch)
                       .arg(p.gpus)
                       .arg(p.clockPercent)
                       .arg(QString::fromStdString(formatTime(p.e.stepTime, true)), QString::fromStdString(formatNumber3(p.e.stepEnergy)),
                           QString::fromStdString(formatTime(p.e.timePerImage, true)),
                           QString::fromStdString(formatSI(p.e.energyPerImage, "J")),
                           QString::fromStdString(formatNumber3(p.e.averagePower)));
    if (!p.fits)
        text += EnergyCharts::tr("<br><b>does not fit</b>: %1 per GPU").arg(QString::fromStdString(formatBytes(p.memory)));
    return text;
}


void attach(QChart* chart, QAbstractSeries* s, QAbstractAxis* x, QAbstractAxis* y)
{
    chart->addSeries(s);
    s->attachAxis(x);
    s->attachAxis(y);
}

// Log axis over [lo, hi] padded to whole decades' halves, so points are never on the frame.
QLogValueAxis* logAxis(const QString& title, double lo, double hi, int base = 10)
{
    auto* a = new QLogValueAxis;
    a->setBase(base);
    a->setTitleText(title);
    a->setLabelFormat(QStringLiteral("%g"));
    a->setMinorTickCount(base == 10 ? 8 : 0);
    if (lo > 0 && hi > 0)
        a->setRange(lo / (base == 10 ? 1.6 : 1.4), hi * (base == 10 ? 1.6 : 1.4));
    return a;
}

QValueAxis* valueAxis(const QString& title, double lo, double hi)
{
    auto* a = new QValueAxis;
    a->setTitleText(title);
    a->setRange(lo, hi > lo ? hi : lo + 1);
    a->applyNiceNumbers();
    a->setLabelFormat(a->max() >= 100 ? QStringLiteral("%.0f") : QStringLiteral("%.3g"));
    return a;
}

} // namespace

void EnergyCharts::clear(QChart* chart)
{
    chart->removeAllSeries();
    for (QAbstractAxis* a : chart->axes()) {
        chart->removeAxis(a);
        delete a;
    }
}

QChartView* EnergyCharts::makeView(const QString& title)
{
    auto* chart = new QChart;
    chart->setTitle(title);
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->setMargins(QMargins(2, 2, 2, 2));
    auto* view = new QChartView(chart);
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumSize(300, 240);
    return view;
}

void EnergyCharts::fillEnergy(QChart* chart, const TuneOutcome& o, PointTexts& texts)
{
    clear(chart);
    double xlo = INFINITY, xhi = 0, yhi = 0;
    std::vector<QXYSeries*> series;
    bool anyOut = false;
    for (size_t i = 0; i < o.results.size(); ++i) {
        auto* s = new QLineSeries;
        s->setName(shortName(o.results[i].device));
        s->setPen(QPen(deviceColor(i), 2));
        s->setPointsVisible(true);
        // Batches that do not fit in memory: hollow markers, so the trend stays visible with its limit.
        auto* out = new QScatterSeries;
        out->setName(tr("does not fit in memory"));
        out->setMarkerSize(9);
        out->setColor(Qt::transparent);
        out->setBorderColor(deviceColor(i));
        for (const TunePoint& p : o.results[i].points) {
            QXYSeries* to = p.fits ? static_cast<QXYSeries*>(s) : static_cast<QXYSeries*>(out);
            to->append(p.batch, p.e.energyPerImage * 1e3);
            texts[to].append(tunePointText(o.results[i].device, p));
            anyOut = anyOut || !p.fits;
            xlo = std::min(xlo, double(p.batch));
            xhi = std::max(xhi, double(p.batch));
            yhi = std::max(yhi, p.e.energyPerImage * 1e3);
        }
        series.push_back(s);
        series.push_back(out);
    }
    auto* x = logAxis(tr("Batch per GPU"), std::isfinite(xlo) ? xlo : 1, xhi > 0 ? xhi : 2, 2);
    auto* y = valueAxis(tr("mJ per image"), 0, yhi * 1.1);
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    for (size_t k = 0; k < series.size(); ++k) {
        attach(chart, series[k], x, y);
        // One "does not fit" entry is enough.
        if (k % 2 == 1)
            chart->legend()->markers(series[k]).first()->setVisible(anyOut && k == 1);
    }
}

void EnergyCharts::fillScaling(QChart* chart, const TuneOutcome& o, int batch, PointTexts& texts)
{
    clear(chart);
    double tmax = 0, emax = 0;
    int gmax = 1;
    std::vector<std::pair<QLineSeries*, QLineSeries*>> series;
    for (size_t i = 0; i < o.results.size(); ++i) {
        auto* time = new QLineSeries;
        auto* energy = new QLineSeries;
        time->setName(shortName(o.results[i].device));
        energy->setName(tr("%1 energy").arg(shortName(o.results[i].device)));
        time->setPen(QPen(deviceColor(i), 2));
        energy->setPen(QPen(deviceColor(i), 2, Qt::DashLine));
        time->setPointsVisible(true);
        energy->setPointsVisible(true);
        for (const TunePoint& p : o.results[i].points) {
            if (!p.fits)
                continue;
            time->append(p.gpus, p.e.stepTime * 1e3);
            energy->append(p.gpus, p.e.stepEnergy);
            texts[time].append(tunePointText(o.results[i].device, p));
            texts[energy].append(tunePointText(o.results[i].device, p));
            tmax = std::max(tmax, p.e.stepTime * 1e3);
            emax = std::max(emax, p.e.stepEnergy);
            gmax = std::max(gmax, p.gpus);
        }
        series.emplace_back(time, energy);
    }
    auto* x = new QValueAxis;
    x->setTitleText(tr("GPUs (batch %1 each)").arg(batch));
    x->setRange(1, gmax);
    x->setTickCount(std::min(gmax, 8));
    x->setLabelFormat(QStringLiteral("%d"));
    auto* yt = valueAxis(tr("step, ms (solid)"), 0, tmax * 1.1);
    auto* ye = valueAxis(tr("step, J (dashed)"), 0, emax * 1.1);
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(yt, Qt::AlignLeft);
    chart->addAxis(ye, Qt::AlignRight);
    for (auto& [t, e] : series) {
        attach(chart, t, x, yt);
        attach(chart, e, x, ye);
        chart->legend()->markers(e).first()->setVisible(false); // the colour names the device; dashes say energy
    }
}

void EnergyCharts::fillPareto(QChart* chart, const TuneOutcome& tune, Objective objective, const QString& objectiveText, PointTexts& texts)
{
    clear(chart);
    double xlo = INFINITY, xhi = 0, ylo = INFINITY, yhi = 0;
    std::vector<QAbstractSeries*> all;
    for (size_t i = 0; i < tune.results.size(); ++i) {
        const TuneResult& t = tune.results[i];
        const QColor color = deviceColor(i);
        auto* cloud = new QScatterSeries;
        cloud->setName(tr("%1: every configuration").arg(shortName(t.device)));
        cloud->setMarkerSize(5);
        QColor light = color;
        light.setAlpha(70);
        cloud->setColor(light);
        cloud->setBorderColor(light);
        for (const TunePoint& p : t.points) {
            if (!p.fits)
                continue;
            const double x = p.e.timePerImage * 1e3, y = p.e.energyPerImage * 1e3;
            cloud->append(x, y);
            texts[cloud].append(tunePointText(t.device, p));
            xlo = std::min(xlo, x), xhi = std::max(xhi, x), ylo = std::min(ylo, y), yhi = std::max(yhi, y);
        }
        auto* front = new QLineSeries;
        front->setName(shortName(t.device));
        front->setPen(QPen(color, 2));
        front->setPointsVisible(true);
        for (std::size_t k : t.front) {
            front->append(t.points[k].e.timePerImage * 1e3, t.points[k].e.energyPerImage * 1e3);
            texts[front].append(tunePointText(t.device, t.points[k]) + tr("<br>on the Pareto front"));
        }
        all.push_back(cloud);
        all.push_back(front);
        if (const auto best = t.best(objective)) {
            auto* mark = new QScatterSeries;
            mark->setName(tr("%1: recommended (%2)").arg(shortName(t.device), objectiveText));
            mark->setMarkerShape(QScatterSeries::MarkerShapeStar);
            mark->setMarkerSize(16);
            mark->setColor(color);
            mark->setBorderColor(color.darker(150));
            const TunePoint& p = t.points[*best];
            mark->append(p.e.timePerImage * 1e3, p.e.energyPerImage * 1e3);
            texts[mark].append(tunePointText(t.device, p) + tr("<br>recommended for %1").arg(objectiveText));
            mark->setPointLabelsVisible(true);
            mark->setPointLabelsClipping(false);
            mark->setPointLabelsFormat(QStringLiteral("%1\u00d7%2 @%3%").arg(p.batch).arg(p.gpus).arg(p.clockPercent));
            all.push_back(mark);
        }
    }
    // Log axes when the sweep spans a decade or more (batch 1 against 256); plain ones otherwise, where a
    // log axis would show a single tick label.
    auto axis = [](const QString& title, double lo, double hi) -> QAbstractAxis* {
        if (!(lo > 0) || !std::isfinite(lo))
            lo = 1, hi = 10;
        if (hi / lo >= 8)
            return logAxis(title, lo, hi);
        const double pad = (hi - lo) * 0.08 + hi * 0.01;
        return valueAxis(title, std::max(0.0, lo - pad), hi + pad);
    };
    QAbstractAxis* x = axis(tr("ms per image"), xlo, xhi);
    QAbstractAxis* y = axis(tr("mJ per image"), ylo, yhi);
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    for (QAbstractSeries* s : all) {
        attach(chart, s, x, y);
        // The legend names each device once (its front); the cloud and the star explain themselves.
        if (s->type() == QAbstractSeries::SeriesTypeScatter)
            chart->legend()->markers(s).first()->setVisible(false);
    }
}

} // namespace rfx
