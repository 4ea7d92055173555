#include "panels/energycharts.h"
#include "panels/energychartfit.h"
#include "style/chartpointlabels.h"
#include "style/style.h"
#include "style/text.h"

#include "base/format.h"

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

QString shortName(const Device& d) { return shortDeviceName(d.name); }

// What a hovered point of any of the three charts stands for, in full.
QString tunePointText(const QString& device, const TunePoint& p)
{
    QString text = EnergyCharts::tr("<b>%1</b><br>batch %2 per GPU \u00d7 %3 GPU(s) at %4 % clock<br>"
                                    "step %5, %6 J<br>per image %7, %8<br>average power %9 W per GPU")
                       .arg(device.toHtmlEscaped())
                       .arg(p.batch)
                       .arg(p.gpus)
                       .arg(p.clockPercent)
                       .arg(QString::fromStdString(formatTime(p.e.stepTime, true)),
                           QString::fromStdString(formatNumber3(p.e.stepEnergy)),
                           QString::fromStdString(formatTime(p.e.timePerImage, true)),
                           QString::fromStdString(formatSI(p.e.energyPerImage, "J")),
                           QString::fromStdString(formatNumber3(p.e.averagePower)));
    if (!p.fits)
        text += EnergyCharts::tr("<br><b>does not fit</b>: %1 per GPU")
                    .arg(QString::fromStdString(formatBytes(p.memory)));
    return text;
}

// Log axis over [lo, hi] padded to whole decades' halves, so points are never on the frame.
QLogValueAxis* logAxis(const QStringList& title, double lo, double hi, int base = 10)
{
    auto* a = new QLogValueAxis;
    a->setBase(base);
    EnergyChartFit::setTitles(a, title);
    a->setLabelFormat(QStringLiteral("%g"));
    a->setMinorTickCount(base == 10 ? 8 : 0);
    if (lo > 0 && hi > 0)
        a->setRange(lo / (base == 10 ? 1.6 : 1.4), hi * (base == 10 ? 1.6 : 1.4));
    return a;
}

QValueAxis* valueAxis(const QStringList& title, double lo, double hi)
{
    auto* a = new QValueAxis;
    EnergyChartFit::setTitles(a, title);
    a->setRange(lo, hi > lo ? hi : lo + 1);
    a->applyNiceNumbers();
    a->setLabelFormat(a->max() >= 100 ? QStringLiteral("%.0f") : QStringLiteral("%.3g"));
    return a;
}

/// Records that `series` stands for `p` of `device` (its text is written when hovered).
void note(EnergyCharts::PointTexts& texts, const QXYSeries* series, const Device& device, const TunePoint& p,
    const QString& suffix = QString())
{
    EnergyCharts::PointSource& source = texts[series];
    if (source.points.empty()) {
        source.device = QString::fromStdString(device.name);
        source.suffix = suffix;
    }
    source.points.push_back(p);
}

} // namespace

QString EnergyCharts::PointSource::text(int index) const
{
    if (index < 0 || size_t(index) >= points.size())
        return {};
    return tunePointText(device, points[size_t(index)]) + suffix;
}

void EnergyCharts::attach(QChart* chart, QAbstractSeries* s, QAbstractAxis* x, QAbstractAxis* y)
{
    chart->addSeries(s);
    s->attachAxis(x);
    s->attachAxis(y);
}

void EnergyCharts::clear(QChart* chart)
{
    chart->setProperty("rfxLayout", QVariant());
    if (auto* labels = chart->findChild<ChartPointLabels*>())
        labels->setLabels({}); // before their series go
    chart->removeAllSeries();
    for (QAbstractAxis* a : chart->axes()) {
        chart->removeAxis(a);
        delete a;
    }
}

QString EnergyCharts::legendEntry(const QString& mark, const QColor& color, const QString& text)
{
    // (Qt's rich text keeps no span together: the spaces inside an entry are non-breaking.)
    const QString nb = QStringLiteral("&nbsp;");
    return QStringLiteral("<span style=\"color:%1\">%2</span>%3%4")
        .arg(color.name(), mark.toHtmlEscaped().replace(QLatin1Char(' '), nb), nb,
            text.toHtmlEscaped().replace(QLatin1Char(' '), nb));
}

QString EnergyCharts::legendHtml(const TuneOutcome& byBatch)
{
    // Each entry kept whole (no break inside a name); the label wraps between entries.
    auto entry = &EnergyCharts::legendEntry;
    QStringList entries;
    bool anyOut = false;
    for (size_t i = 0; i < byBatch.results.size(); ++i) {
        entries.append(entry(QStringLiteral("\u25a0"), deviceColor(i), shortName(byBatch.results[i].device)));
        for (const TunePoint& p : byBatch.results[i].points)
            anyOut = anyOut || !p.fits;
    }
    const QColor ink = QApplication::palette().color(QPalette::WindowText);
    if (anyOut)
        entries.append(entry(QStringLiteral("\u25cb"), ink, tr("does not fit in memory")));
    entries.append(entry(QStringLiteral("\u2605"), ink, tr("recommended")));
    entries.append(entry(QStringLiteral("\u2014"), ink, tr("step time")));
    entries.append(entry(QStringLiteral("- -"), ink, tr("step energy")));
    return entries.join(QStringLiteral("&nbsp; "));
}

void EnergyCharts::fillEnergy(QChart* chart, const TuneOutcome& o, PointTexts& texts)
{
    clear(chart);
    double xlo = INFINITY, xhi = 0, yhi = 0;
    std::vector<QXYSeries*> series;
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
            note(texts, to, o.results[i].device, p);
            xlo = std::min(xlo, double(p.batch));
            xhi = std::max(xhi, double(p.batch));
            yhi = std::max(yhi, p.e.energyPerImage * 1e3);
        }
        series.push_back(s);
        series.push_back(out);
    }
    auto* x = logAxis({ tr("Batch per GPU"), tr("batch/GPU") }, std::isfinite(xlo) ? xlo : 1, xhi > 0 ? xhi : 2, 2);
    EnergyChartFit::setBatchAxis(x);
    auto* y = valueAxis({ tr("mJ per image"), tr("mJ/image"), tr("mJ") }, 0, yhi * 1.1);
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    for (QXYSeries* s : series)
        attach(chart, s, x, y);
    applyFontScale(chart);
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
            note(texts, time, o.results[i].device, p);
            note(texts, energy, o.results[i].device, p);
            tmax = std::max(tmax, p.e.stepTime * 1e3);
            emax = std::max(emax, p.e.stepEnergy);
            gmax = std::max(gmax, p.gpus);
        }
        series.emplace_back(time, energy);
    }
    auto* x = new QValueAxis;
    EnergyChartFit::setTitles(x, { tr("GPUs (batch %1 each)").arg(batch), tr("GPUs") });
    x->setRange(1, gmax);
    x->setTickCount(std::min(gmax, 8));
    x->setLabelFormat(QStringLiteral("%d"));
    auto* yt = valueAxis({ tr("step, ms (solid)"), tr("ms (solid)"), tr("ms") }, 0, tmax * 1.1);
    auto* ye = valueAxis({ tr("step, J (dashed)"), tr("J (dashed)"), tr("J") }, 0, emax * 1.1);
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(yt, Qt::AlignLeft);
    chart->addAxis(ye, Qt::AlignRight);
    for (auto& [t, e] : series) {
        attach(chart, t, x, yt);
        attach(chart, e, x, ye);
    }
    applyFontScale(chart);
}

void EnergyCharts::fillPareto(
    QChart* chart, const TuneOutcome& tune, Objective objective, const QString& objectiveText, PointTexts& texts)
{
    // What to draw, per series in the order they are added: each device's cloud of configurations,
    // its Pareto front and its recommended point. A clear and fresh series cost a third of the
    // view's update (Qt Charts makes every scatter point's item anew), so when the layout is the same
    // as last time (same devices, same kinds of series and axes) the series take new points in place.
    ChartPointLabels::of(chart); // made before the type is scaled (applyFontScale finds it)
    enum Kind { Cloud, Front, Mark };
    struct Spec {
        Kind kind;
        size_t device;
        QList<QPointF> points;
        QString label; ///< the recommended point's label
    };
    std::vector<Spec> specs, marks;
    double xlo = INFINITY, xhi = 0, ylo = INFINITY, yhi = 0;
    for (size_t i = 0; i < tune.results.size(); ++i) {
        const TuneResult& t = tune.results[i];
        Spec cloud { Cloud, i, {}, {} };
        for (const TunePoint& p : t.points) {
            if (!p.fits)
                continue;
            const double x = p.e.timePerImage * 1e3, y = p.e.energyPerImage * 1e3;
            cloud.points.append(QPointF(x, y));
            xlo = std::min(xlo, x), xhi = std::max(xhi, x), ylo = std::min(ylo, y), yhi = std::max(yhi, y);
        }
        Spec front { Front, i, {}, {} };
        for (std::size_t k : t.front)
            front.points.append(QPointF(t.points[k].e.timePerImage * 1e3, t.points[k].e.energyPerImage * 1e3));
        specs.push_back(std::move(cloud));
        specs.push_back(std::move(front));
        if (const auto best = t.best(objective)) {
            const TunePoint& p = t.points[*best];
            marks.push_back({ Mark, i, { QPointF(p.e.timePerImage * 1e3, p.e.energyPerImage * 1e3) },
                QStringLiteral("%1\u00d7%2 @%3%").arg(p.batch).arg(p.gpus).arg(p.clockPercent) });
        }
    }
    // The recommended stars last, over every device's cloud: added with its own device's series, a
    // star sat under the next device's points. Their labels are placed clear of every point, the
    // axes and each other (ChartPointLabels), in the order of the devices.
    specs.insert(specs.end(), marks.begin(), marks.end());
    auto labelMarks = [](QChart* c, const std::vector<Spec>& all) {
        std::vector<ChartPointLabels::Label> labels;
        const QList<QAbstractSeries*> series = c->series();
        for (size_t k = 0; k < all.size() && k < size_t(series.size()); ++k)
            if (all[k].kind == Mark && !all[k].points.isEmpty())
                labels.push_back({ series[qsizetype(k)], all[k].points.front(), all[k].label,
                    deviceColor(all[k].device).darker(150) });
        ChartPointLabels::of(c)->setLabels(std::move(labels));
    };
    // Log axes when the sweep spans a decade or more (batch 1 against 256); plain ones otherwise, where a
    // log axis would show a single tick label.
    auto span = [](double& lo, double& hi) {
        if (!(lo > 0) || !std::isfinite(lo))
            lo = 1, hi = 10;
        return hi / lo >= 8;
    };
    const bool xLog = span(xlo, xhi), yLog = span(ylo, yhi);
    QString layout = QStringLiteral("%1%2|%3").arg(int(xLog)).arg(int(yLog)).arg(objectiveText);
    for (const Spec& s : specs)
        layout += QStringLiteral("|%1:%2:%3").arg(int(s.kind)).arg(s.device).arg(qs(tune.results[s.device].device.id));

    // Every series' tooltips, by the series they end up in.
    auto noteSeries = [&](const QXYSeries* series, const Spec& spec) {
        const TuneResult& t = tune.results[spec.device];
        if (spec.kind == Cloud) {
            for (const TunePoint& p : t.points)
                if (p.fits)
                    note(texts, series, t.device, p);
        } else if (spec.kind == Front) {
            for (std::size_t k : t.front)
                note(texts, series, t.device, t.points[k], tr("<br>on the Pareto front"));
        } else {
            note(
                texts, series, t.device, t.points[*t.best(objective)], tr("<br>recommended for %1").arg(objectiveText));
        }
    };
    auto range = [](QAbstractAxis* a, bool log, double lo, double hi) {
        if (log) {
            a->setRange(lo / 1.6, hi * 1.6);
            return;
        }
        // More room below and left than above and right: the front is the cloud's lower-left edge,
        // and the recommended point's label goes there (with 8 % it found no room beside the star).
        const double pad = (hi - lo) * 0.08 + hi * 0.01;
        auto* v = static_cast<QValueAxis*>(a);
        v->setRange(std::max(0.0, lo - 3 * pad), hi + pad);
        v->applyNiceNumbers();
        v->setLabelFormat(v->max() >= 100 ? QStringLiteral("%.0f") : QStringLiteral("%.3g"));
    };

    const QList<QAbstractSeries*> existing = chart->series();
    if (chart->property("rfxLayout").toString() == layout && existing.size() == qsizetype(specs.size())) {
        for (size_t k = 0; k < specs.size(); ++k) {
            auto* series = static_cast<QXYSeries*>(existing[qsizetype(k)]);
            series->replace(specs[k].points);
            noteSeries(series, specs[k]);
        }
        range(chart->axes(Qt::Horizontal).first(), xLog, xlo, xhi);
        range(chart->axes(Qt::Vertical).first(), yLog, ylo, yhi);
        labelMarks(chart, specs);
        return;
    }

    clear(chart);
    std::vector<QXYSeries*> all;
    for (const Spec& spec : specs) {
        const TuneResult& t = tune.results[spec.device];
        const QColor color = deviceColor(spec.device);
        QXYSeries* series = nullptr;
        if (spec.kind == Cloud) {
            auto* cloud = new QScatterSeries;
            cloud->setName(tr("%1: every configuration").arg(shortName(t.device)));
            cloud->setMarkerSize(5);
            QColor light = color;
            light.setAlpha(70);
            cloud->setColor(light);
            cloud->setBorderColor(light);
            series = cloud;
        } else if (spec.kind == Front) {
            auto* front = new QLineSeries;
            front->setName(shortName(t.device));
            front->setPen(QPen(color, 2));
            front->setPointsVisible(true);
            series = front;
        } else {
            auto* mark = new QScatterSeries;
            mark->setName(tr("%1: recommended (%2)").arg(shortName(t.device), objectiveText));
            mark->setMarkerShape(QScatterSeries::MarkerShapeStar);
            mark->setMarkerSize(16);
            mark->setColor(color);
            mark->setBorderColor(color.darker(150));
            series = mark;
        }
        series->append(spec.points);
        noteSeries(series, spec);
        all.push_back(series);
    }
    const QStringList xTitle { tr("ms per image"), tr("ms/image"), tr("ms") },
        yTitle { tr("mJ per image"), tr("mJ/image"), tr("mJ") };
    QAbstractAxis* x = xLog ? static_cast<QAbstractAxis*>(logAxis(xTitle, xlo, xhi)) : valueAxis(xTitle, 0, 1);
    QAbstractAxis* y = yLog ? static_cast<QAbstractAxis*>(logAxis(yTitle, ylo, yhi)) : valueAxis(yTitle, 0, 1);
    range(x, xLog, xlo, xhi);
    range(y, yLog, ylo, yhi);
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    for (QXYSeries* s : all) {
        attach(chart, s, x, y);
    }
    chart->setProperty("rfxLayout", layout);
    applyFontScale(chart);
    labelMarks(chart, specs);
}

} // namespace rfx
