#include "sweep/sweepcharts.h"

#include "panels/energychartfit.h"
#include "panels/energycharts.h"
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

QStringList SweepCharts::titles(LlmSweepAxis axis)
{
    return axis == LlmSweepAxis::Context
        ? QStringList { tr("Tokens/s per sequence against the context"), tr("Tokens/s against context"),
              tr("Context sweep") }
        : QStringList { tr("Per sequence against the whole batch"), tr("Per sequence vs batch"), tr("Batch sweep") };
}

QString SweepCharts::pointText(
    const LlmSweep& sweep, const LlmSweepLine& line, const LlmSweepPoint& p, const QString& device)
{
    const bool byContext = sweep.axis == LlmSweepAxis::Context;
    const qint64 b = byContext ? sweep.batch : p.x;
    const qint64 c = byContext ? p.x : sweep.context;
    QString text
        = tr("<b>%1</b><br>context %2 tokens, batch %3<br>TPOT %4: %5 tokens/s per sequence, %6 for the batch<br>"
             "memory %7 of %8")
              .arg(device.toHtmlEscaped(), qs(formatCount(c)), qs(formatCount(b)), qs(formatTime(p.tpot)),
                  qs(formatNumber3(p.tokensPerSecond)), qs(formatNumber3(p.batchTokensPerSecond)),
                  qs(formatMemory(p.memoryBytes)), qs(formatMemory(line.capacity)));
    if (p.x == sweep.current)
        text += tr("<br>the settings' own %1").arg(byContext ? tr("context") : tr("batch"));
    if (p.x == line.limit)
        text += line.limitedByModel
            ? tr("<br>the model's longest context (max_position_embeddings)")
            : tr("<br><b>the last that fits</b>: one more %1 does not").arg(byContext ? tr("token") : tr("sequence"));
    return text;
}

void SweepCharts::fill(
    QChart* chart, const LlmSweep& sweep, const QStringList& devices, PointTexts& texts, double fontPx)
{
    EnergyCharts::clear(chart);
    texts.clear();
    EnergyChartFit::setTitles(chart, titles(sweep.axis));
    const bool byContext = sweep.axis == LlmSweepAxis::Context;
    double xlo = INFINITY, xhi = 0, ylo = INFINITY, yhi = 0;
    auto xOf = [&](const LlmSweepPoint& p) { return byContext ? double(p.x) : p.batchTokensPerSecond; };
    std::vector<QXYSeries*> series;
    for (size_t i = 0; i < sweep.lines.size(); ++i) {
        const LlmSweepLine& line = sweep.lines[i];
        if (line.points.empty())
            continue;
        const QColor colour = deviceColor(i);
        const QString name = i < size_t(devices.size()) ? devices[int(i)] : qs(line.device);
        auto* s = new QLineSeries;
        s->setName(name);
        s->setPen(QPen(colour, fontPx > 0 ? fontPx / 6 : 2));
        s->setPointsVisible(true);
        s->setMarkerSize(fontPx > 0 ? fontPx / 3 : 6);
        auto* ring = new QScatterSeries;
        ring->setName(tr("the settings' value"));
        ring->setMarkerSize(fontPx > 0 ? fontPx * 0.9 : 14);
        ring->setColor(Qt::transparent);
        ring->setBorderColor(colour);
        ring->setPen(QPen(colour, fontPx > 0 ? fontPx / 7 : 2));
        auto* end = new QScatterSeries;
        end->setName(tr("memory runs out"));
        end->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
        end->setMarkerSize(fontPx > 0 ? fontPx * 0.6 : 10);
        end->setColor(colour);
        end->setBorderColor(colour);
        for (size_t k = 0; k < line.points.size(); ++k) {
            const LlmSweepPoint& p = line.points[k];
            const QPointF at(xOf(p), p.tokensPerSecond);
            const PointRef text { i, k };
            s->append(at);
            texts[s].push_back(text);
            if (p.x == sweep.current) {
                ring->append(at);
                texts[ring].push_back(text);
            }
            if (p.x == line.limit && !line.limitedByModel) {
                end->append(at);
                texts[end].push_back(text);
            }
            xlo = std::min(xlo, at.x());
            xhi = std::max(xhi, at.x());
            ylo = std::min(ylo, at.y());
            yhi = std::max(yhi, at.y());
        }
        series.insert(series.end(), { s, ring, end });
    }
    auto* x = EnergyChartFit::decadeAxis(byContext
            ? QStringList { tr("Context (tokens per sequence)"), tr("Context (tokens)"), tr("Context") }
            : QStringList { tr("Tokens/s, whole batch"), tr("Batch tokens/s") },
        xlo, xhi);
    auto* y = EnergyChartFit::decadeAxis({ tr("Tokens/s per sequence"), tr("Tokens/s") }, ylo, yhi);
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    if (byContext && sweep.current > 0) { // the settings' context across the plot
        auto* mark = new QLineSeries;
        mark->setName(tr("the settings' context"));
        QPen pen(QApplication::palette().color(QPalette::Mid), fontPx > 0 ? fontPx / 10 : 1, Qt::DashLine);
        mark->setPen(pen);
        mark->append(double(sweep.current), y->min());
        mark->append(double(sweep.current), y->max());
        EnergyCharts::attach(chart, mark, x, y);
    }
    for (QXYSeries* s : series)
        EnergyCharts::attach(chart, s, x, y);
    if (fontPx > 0)
        EnergyChartFit::applyPrintFont(chart, fontPx);
    else
        EnergyCharts::applyFontScale(chart);
}

QString SweepCharts::legendHtml(const LlmSweep& sweep, const QStringList& devices, const QString& ringText)
{
    QStringList entries;
    const QColor ink = QApplication::palette().color(QPalette::WindowText);
    bool anyEnd = false;
    for (size_t i = 0; i < sweep.lines.size(); ++i) {
        const QString name = i < size_t(devices.size()) ? devices[int(i)] : qs(sweep.lines[i].device);
        const LlmSweepLine& line = sweep.lines[i];
        entries.append(EnergyCharts::legendEntry(
            QStringLiteral("\u2014"), deviceColor(i), line.points.empty() ? tr("%1: does not fit").arg(name) : name));
        anyEnd = anyEnd || (!line.points.empty() && !line.limitedByModel);
    }
    entries.append(EnergyCharts::legendEntry(QStringLiteral("\u25cb"), ink,
        !ringText.isEmpty()                       ? ringText
            : sweep.axis == LlmSweepAxis::Context ? tr("the settings' context")
                                                  : tr("the settings' batch")));
    if (anyEnd)
        entries.append(EnergyCharts::legendEntry(QStringLiteral("\u25a0"), ink, tr("memory runs out")));
    return entries.join(QStringLiteral("&nbsp; "));
}

} // namespace rfx
