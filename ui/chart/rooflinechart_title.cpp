// The chart's title: the device and its ceilings (or the overlay's count), a calibration note, the
// rows not plotted; each line in forms from the longest to the shortest, fitted to the width.
#include "chart/rooflinechart_p.h"

#include "base/format.h"
#include "style/cachedmirror.h"
#include "style/chartfit.h"

#include <QChart>
#include <QFontMetricsF>
#include <QGraphicsTextItem>
#include <QLogValueAxis>

#include <algorithm>
#include <cmath>

namespace rfx {

using namespace chartdetail;

namespace {
// A device's name on two lines: before its parenthesis ("EPYC Zen 4 VM" over "(LLM set, 2026-12-06)"),
// else at the space nearest its middle; a name of one word stays whole.
QString twoLineName(const QString& name)
{
    const qsizetype paren = name.indexOf(QStringLiteral(" ("));
    if (paren > 0)
        return name.left(paren) + QStringLiteral("<br>") + name.mid(paren + 1);
    qsizetype best = -1;
    for (qsizetype i = name.indexOf(QLatin1Char(' ')); i > 0; i = name.indexOf(QLatin1Char(' '), i + 1))
        if (best < 0 || std::abs(i - name.size() / 2) < std::abs(best - name.size() / 2))
            best = i;
    return best > 0 ? name.left(best) + QStringLiteral("<br>") + name.mid(best + 1) : name;
}
} // namespace

void RooflineChart::updateTitle(int hidden)
{
    // The title as lines, each in forms from the longest to the shortest: each line takes the
    // longest that fits the chart's width (Qt would elide it: "FP32 7..." at 1280 x 720).
    const size_t n = m_devices.size();
    std::vector<QStringList> lines;
    if (n == 1) {
        const DeviceResult& d = m_report->results[size_t(m_devices.front())];
        const QString full = qs(d.device.name).toHtmlEscaped(), brief = shortDeviceName(d.device.name).toHtmlEscaped();
        const QString core = QStringLiteral("%1 %2, %3%4")
                                 .arg(qs(precisionLabel(d.ceiling.key)), qs(formatSI(d.ceiling.flops, rateUnit())),
                                     m_print && d.l2Bandwidth <= 0 && d.l1Bandwidth <= 0 && d.l3Bandwidth <= 0
                                         ? QString()
                                         : QStringLiteral("DRAM "),
                                     qs(formatSI(d.bandwidth, "B/s")));
        QString figures = core;
        if (d.l3Bandwidth > 0)
            figures += QStringLiteral(", L3 %1").arg(qs(formatSI(d.l3Bandwidth, "B/s")));
        if (d.l2Bandwidth > 0)
            figures += QStringLiteral(", L2 %1").arg(qs(formatSI(d.l2Bandwidth, "B/s")));
        if (d.l1Bandwidth > 0)
            figures += QStringLiteral(", L1 %1").arg(qs(formatSI(d.l1Bandwidth, "B/s")));
        // Figures are narrow: a short name; the full name is in the caption's device ids.
        const QString name = m_print ? brief : full;
        // The figures in plain weight in every form: the print style's title font is bold, and a form
        // that left them in it gave one chart of a figure bold figures beside its neighbours' plain.
        const QString plain = QStringLiteral("<span style=\"font-weight:normal\">%1</span>");
        const QString oneLine
            = QStringLiteral("<b>%1</b> %2").arg(name, plain.arg(QStringLiteral("\u2014 ") + figures));
        // One line; else the name over the figures (fitHtmlLines takes the first form that fits).
        // A narrow chart (a figure's grid cell, a small window) keeps the peak and DRAM figures, on two
        // lines if need be; the cache ceilings are in the legend with their figures (all five stacked
        // took seven lines of a 3.5-inch figure's chart). The name alone is the last resort (a
        // 3-device 7-inch grid showed only it). A name too long for the width goes on two lines ("EPYC
        // Zen 4 VM" over "(LLM set, 2026-12-06)") before anything is cut: Qt elided it to "EPYC Zen 4 VM
        // (LLM set, 2026-1..." in a 3.5-inch figure, its figures gone.
        const QString stacked = plain.arg(QString(core).replace(QStringLiteral(", "), QStringLiteral("<br>")));
        const QString wrapped = twoLineName(brief);
        QStringList forms { oneLine };
        for (const QString& figs : { plain.arg(figures), plain.arg(core), stacked })
            for (const QString& who : { name, brief, wrapped })
                if (!forms.contains(QStringLiteral("<b>%1</b><br>%2").arg(who, figs)))
                    forms << QStringLiteral("<b>%1</b><br>%2").arg(who, figs);
        forms << QStringLiteral("<b>%1</b>").arg(brief) << QStringLiteral("<b>%1</b>").arg(wrapped);
        lines.push_back(forms);
    } else if (n > 1) {
        // The legend below the plot explains the shapes and names each device's roof.
        lines.push_back({ tr("<b>%n devices overlaid</b>", "", int(n)), tr("<b>%n devices</b>", "", int(n)) });
    }
    // Calibrated points sit at the rate their calibrated time gives, not on the roof: the chart says so.
    for (size_t slot = 0; slot < n && !m_print; ++slot)
        if (const DeviceResult& d = m_report->results[size_t(m_devices[slot])]; d.timesCalibrated) {
            const QString cal = QString::fromStdString(d.calibration).toHtmlEscaped();
            lines.push_back({ tr("<small>points at calibrated times (%1)</small>").arg(cal),
                tr("<small>calibrated times</small>") });
            break;
        }
    if (hidden > 0 && n > 0 && !m_print) {
        const int rows = hidden / int(std::max<size_t>(n, 1));
        lines.push_back(
            { tr("<small>%n zero-FLOP row(s) (data movement: concat, copies; uncounted operators) not plotted</small>",
                  "", rows),
                tr("<small>%n zero-FLOP row(s) not plotted</small>", "", rows),
                tr("<small>%n row(s) not plotted</small>", "", rows) });
    }
    m_titleLines = std::move(lines);
    fitTitle();
}

double RooflineChart::yLabelRoom() const
{
    // The room the minimum and the title leave for the y labels: as wide as any of 10^-3 .. 10^7's
    // (wider where the range's are). Fitted to the labels of the range itself, a decade grown for a
    // marker ("1000000") widened the minimum or took the title another line, and in the plot that
    // gave the decade no longer helped, was given back, and so on for ever (an A100 cell of sixteen
    // at 1400 x 900 and at 1920 x 1080).
    // Measured once per font (asked on every slider step, by the minimum and the title).
    if (m_labelRoomGeneration != m_fontGeneration || m_labelRoom <= 0) {
        const QFontMetricsF fm(m_y->labelsFont());
        double widest = 0;
        for (int e = -3; e <= 7; ++e)
            widest = std::max(widest, fm.horizontalAdvance(tickText(std::pow(10.0, e))));
        m_labelRoom = std::ceil(widest);
        m_labelRoomGeneration = m_fontGeneration;
    }
    return std::max(m_labelRoom, yLabelWidth());
}

void RooflineChart::fitTitle()
{
    // Qt elides the title to the chart's width inside its margins (updateFrame's); fitted beside
    // the y labels' room, not their width, which a decade grown changes (yLabelRoom).
    const QMargins m = frameMargins();
    const double titles = axisTitlesShown() ? QFontMetricsF(m_x->titleFont()).height() + 6 : 0; // as frameMargins()
    const int left = std::max(m.left(), int(std::ceil(4 + titles + yLabelRoom() + 6)));
    // Measured once per set of forms, font and width, not on every slider step.
    QString key = QString::number(width()) + QLatin1Char('|') + QString::number(left);
    for (const QStringList& forms : m_titleLines)
        key += QLatin1Char('|') + forms.join(QLatin1Char('|'));
    if (key != m_titleFitKey || m_chart->titleFont() != m_titleFitFont) {
        m_titleFitFont = m_chart->titleFont();
        m_titleFitKey = key;
        m_titleFitted = fitHtmlLines(m_titleLines, m_chart->titleFont(), width() - left - m.right() - 24);
    }
    if (m_chart->title() != m_titleFitted) {
        dropLineCaches();
        m_chart->setTitle(m_titleFitted);
        // Qt's title item draws its rich text again on every paint; on screen a mirror draws it from
        // an image (the same on most slider steps). Figures draw it as text.
        if (!m_titleItem && !m_print)
            for (QGraphicsItem* item : m_chart->childItems())
                if (auto* text = dynamic_cast<QGraphicsTextItem*>(item)) {
                    m_titleItem = text;
                    new CachedMirror(text); // the title's child, deleted with it
                    break;
                }
    }
}

} // namespace rfx
