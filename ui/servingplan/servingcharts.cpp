#include "servingplan/servingcharts.h"

#include "panels/energychartfit.h"
#include "panels/energycharts.h"
#include "style/chartpointlabels.h"
#include "style/style.h"
#include "style/text.h"

#include "base/format.h"

#include <QApplication>
#include <QChart>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPen>
#include <QScatterSeries>

#include <algorithm>
#include <cmath>

namespace rfx {

namespace {

QScatterSeries* marks(const QString& name, const QColor& colour, bool filled, double size, double pen)
{
    auto* s = new QScatterSeries;
    s->setName(name);
    s->setMarkerSize(size);
    s->setColor(filled ? colour : QColor(Qt::transparent));
    s->setBorderColor(colour);
    s->setPen(QPen(colour, pen));
    return s;
}

} // namespace

QStringList ServingCharts::titles()
{
    return { tr("Serving bounds: tokens/s per GPU against tokens/s per user"),
        tr("Serving bounds: per GPU against per user"), tr("Serving bounds") };
}

QString ServingCharts::shortLabel(const PlanPoint& p)
{
    const QString widths = p.weightBits == 0
        ? tr("file's widths")
        : tr("%1-bit (%2), KV %3").arg(p.weightBits).arg(qs(std::string(numberWord(p.arithmetic)))).arg(p.kvBits);
    QString text = tr("TP %1, %2, N = %3").arg(p.tensorParallel).arg(widths, qs(formatCount(p.point.users)));
    if (p.lookahead > 0)
        text += tr(", draft K = %1").arg(p.lookahead);
    return text;
}

QString ServingCharts::pointText(const Plan& plan, size_t device, size_t point, const QString& name)
{
    if (device >= plan.devices.size() || point >= plan.devices[device].points.size())
        return {};
    const DevicePlan& d = plan.devices[device];
    const PlanPoint& p = d.points[point];
    const ServingPoint& v = p.point;
    QString text = tr("<b>%1</b><br>%2<br>TPOT %3 (%4 tokens/s per user), TTFT %5<br>%6 tokens/s per GPU, %7 per "
                      "replica<br>memory %8 of %9 per GPU; %10 J a token")
                       .arg(name.toHtmlEscaped(), qs(planPointLabel(p)).toHtmlEscaped(), qs(formatTime(v.tpot)),
                           qs(formatNumber3(v.userTokensPerSecond)), qs(formatTime(v.ttft)),
                           qs(formatNumber3(v.gpuTokensPerSecond)), qs(formatNumber3(v.replicaTokensPerSecond)),
                           qs(formatMemory(v.memoryBytes)), qs(formatMemory(v.usableBytes)),
                           qs(formatNumber3(v.energyPerToken)));
    if (p.gpus > 0)
        text += tr("<br>the load: %1 replicas x TP %2 = %3 GPUs").arg(p.replicas).arg(p.tensorParallel).arg(p.gpus);
    if (d.best && *d.best == point)
        text += tr("<br><b>the best within the targets</b>");
    else if (!p.meets)
        text += tr("<br>misses a target");
    return text;
}

void ServingCharts::fill(QChart* chart, const Plan& plan, const PlanSettings& settings, const QStringList& devices,
    PointTexts& texts, double fontPx)
{
    EnergyCharts::clear(chart);
    ChartPointLabels::of(chart); // made before the type is scaled (applyFontScale finds it)
    texts.clear();
    // The bests' settings and the target's name, placed clear of every point and of each other.
    std::vector<ChartPointLabels::Label> labels;
    EnergyChartFit::setTitles(chart, titles());
    double xlo = INFINITY, xhi = 0, ylo = INFINITY, yhi = 0;
    std::vector<QXYSeries*> series;
    const double markSize = fontPx > 0 ? fontPx / 2 : 7, pen = fontPx > 0 ? fontPx / 8 : 1.5;
    for (size_t i = 0; i < plan.devices.size(); ++i) {
        const DevicePlan& d = plan.devices[i];
        if (d.front.empty())
            continue;
        const QColor colour = deviceColor(i);
        const QString name = i < size_t(devices.size()) ? devices[int(i)] : qs(d.name);
        auto* line = new QLineSeries;
        line->setName(name);
        line->setPen(QPen(colour, fontPx > 0 ? fontPx / 6 : 2));
        QScatterSeries* meets = marks(tr("within the targets"), colour, true, markSize, pen);
        QScatterSeries* misses = marks(tr("misses a target"), colour, false, markSize, pen);
        for (size_t k : d.front) {
            const ServingPoint& v = d.points[k].point;
            const QPointF at(v.userTokensPerSecond, v.gpuTokensPerSecond);
            line->append(at);
            QScatterSeries* s = d.points[k].meets ? meets : misses;
            s->append(at);
            texts[s].push_back({ i, k });
            xlo = std::min(xlo, at.x());
            xhi = std::max(xhi, at.x());
            ylo = std::min(ylo, at.y());
            yhi = std::max(yhi, at.y());
        }
        series.insert(series.end(), { line, meets, misses });
        if (d.best) { // ringed, its settings beside it
            const PlanPoint& b = d.points[*d.best];
            QScatterSeries* ring = marks(tr("the best"), colour, false, fontPx > 0 ? fontPx * 1.1 : 16, pen * 1.4);
            const QPointF at(b.point.userTokensPerSecond, b.point.gpuTokensPerSecond);
            ring->append(at);
            labels.push_back({ ring, at, shortLabel(b), colour.darker(130) });
            texts[ring].push_back({ i, *d.best });
            series.push_back(ring);
            xlo = std::min(xlo, b.point.userTokensPerSecond);
            yhi = std::max(yhi, b.point.gpuTokensPerSecond);
        }
    }
    if (settings.tpot > 0)
        xlo = std::min(xlo, 1 / settings.tpot), xhi = std::max(xhi, 1 / settings.tpot);
    auto* x = EnergyChartFit::decadeAxis(
        { tr("Tokens/s per user (1 / TPOT)"), tr("Tokens/s per user"), tr("Per user") }, xlo, xhi);
    auto* y = EnergyChartFit::decadeAxis({ tr("Tokens/s per GPU"), tr("Per GPU") }, ylo, yhi * 1.3);
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    if (settings.tpot > 0) { // the TPOT target: every point right of it meets it
        auto* mark = new QLineSeries;
        mark->setName(tr("TPOT target"));
        mark->setPen(QPen(QApplication::palette().color(QPalette::Mid), 1.5, Qt::DashLine));
        mark->append(1 / settings.tpot, y->min());
        mark->append(1 / settings.tpot, y->max());
        EnergyCharts::attach(chart, mark, x, y);
        labels.push_back({ mark, QPointF(1 / settings.tpot, y->max() / 1.2),
            tr("TPOT %1").arg(qs(formatTime(settings.tpot))), QApplication::palette().color(QPalette::WindowText) });
    }
    for (QXYSeries* s : series)
        EnergyCharts::attach(chart, s, x, y);
    if (fontPx > 0) {
        EnergyChartFit::applyPrintFont(chart, fontPx);
        QFont small;
        small.setPixelSize(std::max(10, int(std::lround(fontPx * 0.85))));
        ChartPointLabels::of(chart)->setFont(small);
    } else
        EnergyCharts::applyFontScale(chart);
    ChartPointLabels::of(chart)->setLabels(std::move(labels));
}

QString ServingCharts::legendHtml(const Plan& plan, const PlanSettings& settings, const QStringList& devices)
{
    QStringList entries;
    const QColor ink = QApplication::palette().color(QPalette::WindowText);
    for (size_t i = 0; i < plan.devices.size(); ++i) {
        const DevicePlan& d = plan.devices[i];
        const QString name = i < size_t(devices.size()) ? devices[int(i)] : qs(d.name);
        entries.append(EnergyCharts::legendEntry(
            QStringLiteral("\u2014"), deviceColor(i), d.points.empty() ? tr("%1: does not fit").arg(name) : name));
    }
    entries.append(EnergyCharts::legendEntry(QStringLiteral("\u25cf"), ink, tr("within the targets")));
    entries.append(EnergyCharts::legendEntry(QStringLiteral("\u25cb"), ink, tr("misses one")));
    entries.append(EnergyCharts::legendEntry(QStringLiteral("\u25ef"), ink, tr("the best")));
    if (settings.tpot > 0)
        entries.append(EnergyCharts::legendEntry(QStringLiteral("\u2506"), ink, tr("TPOT target")));
    return entries.join(QStringLiteral("&nbsp; "));
}

} // namespace rfx
