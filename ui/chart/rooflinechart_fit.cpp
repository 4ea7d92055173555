// Legibility at every size: the tick labels the axes have room for, axis titles in the form that
// fits, the legend flowed below the plot, the ridge label clear of points and lines, the chart's
// minimum useful size. What the chart draws is read back in rooflinechart_readback.cpp.
#include "chart/rooflinechart_p.h"

#include <QTimer>

#include "chart/legendflow.h"
#include "style/chartfit.h"
#include "style/labelplacer.h"

#include <QChart>
#include <QFontMetricsF>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QTextDocument>

#include <array>
#include <cmath>

namespace rfx {

using namespace chartdetail;

void RooflineChart::setPowerTicks(bool on)
{
    if (on == m_powerTicks)
        return;
    m_powerTicks = on;
    placeTickLabels();
}

namespace {
QString powerOfTen(int e)
{
    static const char16_t digits[] = u"\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079";
    QString s = QStringLiteral("10");
    if (e < 0)
        s += QChar(0x207b);
    const QString n = QString::number(std::abs(e));
    for (QChar c : n)
        s += QChar(digits[c.digitValue()]);
    return s;
}
} // namespace

void RooflineChart::placeTickLabels()
{
    // The chart's own tick labels, over Qt's transparent ones: Qt elides a label that does not fit
    // between its neighbours ("..."), and lets two run together ("10100"). Here every label is whole:
    // when the ticks are too close for them, only every n-th tick is labelled (labelStride), n the
    // smallest that leaves a gap, counted from 10^0 so that 1 keeps its label.
    const QRectF plot = m_chart->plotArea();
    size_t used = 0;
    auto take = [&]() {
        if (used == m_tickLabels.size()) {
            auto* item = new TextItem(m_chart);
            item->setZValue(17);
            m_tickLabels.push_back(item);
        }
        return m_tickLabels[used++];
    };
    // A plot too small for two labels on each axis (a figure squeezed below any readable size) gets
    // none rather than a heap of them.
    const QFontMetricsF metrics(m_x->labelsFont());
    if (plot.width() >= 3 * metrics.height() && plot.height() >= 2.5 * metrics.height() && !m_series.empty()) {
        const QFont font = m_x->labelsFont();
        const QFontMetricsF fm(font);
        const QRectF bounds(QPointF(0, 0), m_chart->size());
        for (QLogValueAxis* a : { m_x, m_y }) {
            const bool vertical = a == m_y;
            if (!(a->min() > 0) || !(a->max() > a->min()) || !(a->base() > 1))
                continue; // no range yet: nothing to label (and log10(0) is no integer)
            const double step = std::log10(a->base());
            const int first = int(std::ceil(std::log10(a->min()) / step - 1e-9)),
                      last = int(std::floor(std::log10(a->max()) / step + 1e-9));
            std::vector<double> centres, extents;
            std::vector<int> index;
            QStringList texts;
            std::vector<double> values;
            for (int k = first; k <= last; ++k) {
                const double v = std::pow(10.0, k * step);
                QString text;
                if (m_powerTicks) {
                    const int e = int(std::lround(k * step));
                    if (std::abs(k * step - e) > 1e-9)
                        continue; // base 2 when zoomed: only the powers of ten get a label
                    text = powerOfTen(e);
                } else {
                    text = tickText(v);
                }
                const QPointF at = m_chart->mapToPosition(
                    vertical ? QPointF(m_x->min(), v) : QPointF(v, m_y->min()), m_series.front()->roof);
                centres.push_back(vertical ? at.y() : at.x());
                extents.push_back(vertical ? fm.height() : fm.horizontalAdvance(text));
                index.push_back(k);
                texts << text;
                values.push_back(v);
            }
            // Labels at indices that are multiples of the stride; 10^0 is index 0 on a base-10 axis.
            std::vector<int> shifted(index.size());
            for (size_t i = 0; i < index.size(); ++i)
                shifted[i] = ((index[i] % 1000) + 1000) % 1000; // non-negative, multiples preserved below 1000
            const int stride = labelStride(
                centres, extents, shifted, vertical ? fm.height() * 0.3 : fm.horizontalAdvance(QStringLiteral("00")));
            for (size_t i = 0; i < centres.size(); ++i) {
                if (shifted[i] % stride != 0)
                    continue;
                QGraphicsSimpleTextItem* item = take();
                if (item->text() != texts[int(i)])
                    item->setText(texts[int(i)]);
                if (item->font() != font)
                    item->setFont(font);
                if (item->brush().color() != m_labelsColor)
                    item->setBrush(m_labelsColor);
                const QSizeF size = item->boundingRect().size();
                // x labels start half a line below the plot, where the lowest y label (centred on the
                // plot's bottom edge) ends: the two never meet in the corner.
                QPointF pos = vertical ? QPointF(plot.left() - size.width() - 6, centres[i] - size.height() / 2)
                                       : QPointF(centres[i] - size.width() / 2, plot.bottom() + size.height() / 2 + 2);
                // Whole inside the chart: the last x label moves left of its tick rather than off the edge.
                pos.setX(std::clamp(pos.x(), bounds.left() + 1, bounds.right() - size.width() - 1));
                if (item->pos() != pos)
                    item->setPos(pos);
                setVisibleIf(item, true);
            }
        }
    }
    for (size_t i = used; i < m_tickLabels.size(); ++i)
        setVisibleIf(m_tickLabels[i], false);
}

QStringList RooflineChart::powerTickLabels() const
{
    QStringList out;
    if (!m_powerTicks)
        return out;
    for (const QGraphicsSimpleTextItem* item : m_tickLabels)
        if (item->isVisible())
            out << item->text();
    return out;
}

void RooflineChart::fitAxisTitles()
{
    // The chart's own axis titles, in the longest form that fits the plot's side (Qt elided a title
    // longer than its axis: "TF..."), placed outside the tick labels that updateFrame() made room for.
    const QRectF plot = m_chart->plotArea();
    const QString unit = axisUnit();
    // Called on every step (the unit may change with the bits): nothing to do unless the plot, the
    // unit, the type or the colour changed.
    const QString key
        = QStringLiteral("%1 %2 %3 %4 %5 ").arg(plot.x()).arg(plot.y()).arg(plot.width()).arg(plot.height()).arg(unit)
        + QString::number(m_fontGeneration) + QLatin1Char(' ') + QString::number(m_x->titleBrush().color().rgba())
        + QString::number(yLabelWidth()) + (axisTitlesShown() ? QLatin1Char('1') : QLatin1Char('0'));
    if (key == m_axisTitlesKey)
        return;
    m_axisTitlesKey = key;
    const QString x = firstThatFits(
        { tr("Arithmetic intensity (FLOP/byte)"), tr("Intensity (FLOP/byte)"), tr("FLOP/byte"), tr("FLOP/B") },
        QFontMetricsF(m_x->titleFont()), plot.width() - 12);
    const QString y = firstThatFits(
        { tr("Performance (%1)").arg(unit), unit }, QFontMetricsF(m_y->titleFont()), plot.height() - 12);
    if (m_x->titleText() != x)
        m_x->setTitleText(x); // kept on the axis too (invisible there), for whoever asks it
    if (m_y->titleText() != y)
        m_y->setTitleText(y);
    const QColor color = m_x->titleBrush().color();
    for (auto [item, text] : { std::pair { m_xTitle, x }, std::pair { m_yTitle, y } }) {
        if (item->text() != text)
            item->setText(text);
        if (item->font() != m_x->titleFont())
            item->setFont(m_x->titleFont());
        if (item->brush().color() != color)
            item->setBrush(color);
        setVisibleIf(item, axisTitlesShown() && plot.width() >= 40 && plot.height() >= 30 && !text.isEmpty());
    }
    if (plot.width() < 40 || plot.height() < 30)
        return;
    const QFontMetricsF ticks(m_x->labelsFont());
    const QSizeF xs = m_xTitle->boundingRect().size(), ys = m_yTitle->boundingRect().size();
    const QPointF xAt(plot.center().x() - xs.width() / 2, plot.bottom() + ticks.height() * 1.5 + 4);
    if (m_xTitle->pos() != xAt)
        m_xTitle->setPos(xAt);
    // Rotated a quarter turn: its box's height runs along x, its width up the plot's side.
    const QPointF yAt(plot.left() - 6 - yLabelWidth() - 6 - ys.height(), plot.center().y() + ys.width() / 2);
    if (m_yTitle->pos() != yAt)
        m_yTitle->setPos(yAt);
}

double RooflineChart::yLabelWidth() const
{
    // The widest y tick label the axis range can show (plain or as a power of ten). Asked several
    // times a step: measured again only when the range, base, type or style changed.
    const std::array<double, 4> key { m_y->min(), m_y->max(), m_y->base(), m_powerTicks ? 1.0 : 0.0 };
    if (key == m_yLabelKey && m_x->labelsFont() == m_yLabelFont)
        return m_yLabelWidth;
    m_yLabelKey = key;
    m_yLabelFont = m_x->labelsFont();
    const QFontMetricsF fm(m_x->labelsFont());
    double widest = 0;
    // The decades around the axis' ends too (its ends are a hair beyond them), so that the frame does
    // not move when a zoom labels other ticks; the one past the last drawn is counted as "%g" wrote
    // it ("1e+06"), as it always was, so the plot keeps its place.
    const int lo = int(std::floor(std::log10(std::max(m_y->min(), 1e-30)) - 1e-9)),
              hi = int(std::ceil(std::log10(std::max(m_y->max(), 1e-30)) + 1e-9));
    const int lastDrawn = int(std::floor(std::log10(std::max(m_y->max(), 1e-30)) + 1e-4));
    for (int e = lo; e <= hi && hi - lo < 60; ++e) {
        const double v = std::pow(10.0, e);
        widest = std::max(widest, fm.horizontalAdvance(e <= lastDrawn ? tickText(v) : QString::asprintf("%g", v)));
        if (m_powerTicks)
            widest = std::max(widest, fm.horizontalAdvance(powerOfTen(e)));
    }
    if (m_y->base() != 10 && m_y->base() != 100) // zoomed: powers of two, as "%g"
        widest = std::max(widest, fm.horizontalAdvance(tickText(m_y->max())));
    m_yLabelWidth = std::ceil(widest);
    return m_yLabelWidth;
}

QMargins RooflineChart::frameMargins() const
{
    // The room around the plot, set as the chart's margins so that Qt's layout depends on nothing
    // it measures itself (its own labels and titles are off): left, the y title and the widest y
    // label; below, the x labels, the x title and the legend; right and top, half a label's overhang.
    const QFontMetricsF ticks(m_x->labelsFont());
    const double legend = m_legend->isVisible() && !m_legend->entries().empty() ? m_legend->height() : 0;
    const double titles = axisTitlesShown() ? QFontMetricsF(m_x->titleFont()).height() + 6 : 0;
    const int left = int(std::ceil(4 + titles + yLabelWidth() + 6));
    const int bottom = int(std::ceil(4 + ticks.height() * 1.5 + 4 + titles + legend));
    const int right = int(std::ceil(4 + ticks.horizontalAdvance(QStringLiteral("10000")) / 2));
    const int top = int(std::ceil(4 + ticks.height() / 2));
    return QMargins(left, top, right, bottom);
}

bool RooflineChart::axisTitlesShown() const
{
    // A chart given less than its minimum (a figure cell squeezed below any readable size) keeps its
    // plot and tick labels and drops the axis titles first; the caption still says the units.
    if (!m_print)
        return true; // on screen the chart has its minimum size
    const QSizeF size = m_chart->size();
    const QFontMetricsF ticks(m_x->labelsFont()), titles(m_x->titleFont());
    const double spareH = size.height() - 2 * titles.height() - 2 * ticks.height() - 5 * ticks.height() - 24;
    const double spareW = size.width() - titles.height() - yLabelWidth() - 14 * ticks.height() - 24;
    return spareH >= 0 && spareW >= 0;
}

void RooflineChart::updateFrame()
{
    const QMargins margins = frameMargins();
    if (m_chart->margins() != margins) {
        dropLineCaches();
        m_chart->setMargins(margins);
    }
}

void RooflineChart::layoutLegend()
{
    if (m_print) { // a figure lays out one legend for all its charts (FigureLayout)
        setVisibleIf(m_legend, false);
        updateFrame();
        return;
    }
    const std::vector<LegendEntry> entries = legendItems();
    const QColor text = dark() ? QColor(0xee, 0xee, 0xee) : QColor(0x22, 0x22, 0x22);
    const double width = std::max(60.0, m_chart->size().width() - 8);
    m_legend->set(entries, m_chart->legend()->font(), text, width);
    setVisibleIf(m_legend, !entries.empty());
    updateFrame();
    applyMinimum();
    const QPointF at(4, m_chart->size().height() - m_legend->height() - 2);
    if (m_legend->pos() != at)
        m_legend->setPos(at);
}

void RooflineChart::applyMinimum()
{
    // Set, not only hinted: a layout then cannot squeeze the chart below it (the scroll area scrolls
    // instead, and ChartRoom makes room). A size fixed from outside (a test's setFixedSize, a figure's
    // cell) is left alone.
    if (m_print || maximumSize() != QSize(QWIDGETSIZE_MAX, QWIDGETSIZE_MAX))
        return;
    if (m_inResize) {
        QTimer::singleShot(0, this, [this] { applyMinimum(); });
        return;
    }
    const QSize hint = minimumSizeHint();
    if (minimumSize() != hint)
        setMinimumSize(hint);
}

QSize RooflineChart::minimumSizeHint() const
{
    if (m_print)
        return QSize(1, 1); // a figure's cell decides the size
    // A plot of 14 x 8 lines of tick type, and around it: the title (two lines), the x labels and
    // title, the y labels ("0.001") and title, the legend (at the width this gives), margins.
    // Asked on every slider step (applyMinimum): measured again only when what it depends on changed.
    const std::vector<LegendEntry> entries = legendItems();
    const double yLabels = yLabelRoom();
    // Fonts by their generation (setFontScale, setPrintStyle): QFont::toString built four strings a step.
    QString key = QString::number(m_fontGeneration) + QLatin1Char('|') + QString::number(yLabels);
    for (const QStringList& forms : m_titleLines)
        key += QLatin1Char('|') + forms.join(QLatin1Char('|'));
    for (const LegendEntry& e : entries)
        key += QLatin1Char('|') + e.text;
    if (key == m_minimumKey)
        return m_minimum;
    const QFontMetricsF ticks(m_x->labelsFont()), titles(m_x->titleFont()), title(m_chart->titleFont());
    const double line = ticks.height();
    const double plotW = 14 * line, plotH = 5 * line;
    const double left = 4 + titles.height() + 6 + yLabels + 6;
    const double w = plotW + left + 4 + ticks.horizontalAdvance(QStringLiteral("10000")) / 2;
    const double legend = legendHeight(
        entries, m_chart->legend()->font(), std::round(QFontMetricsF(m_chart->legend()->font()).height() * 0.7), w - 8);
    // The title's lines as fitTitle() would fit them at this width (a name over its figures, a note
    // in small type), not as now shown: fitted to the width now, the minimum followed the grid's
    // cells, and the grid's choice of columns followed the minimum (sixteen devices at 1920 x 1080
    // went from four columns to six and back for ever).
    QTextDocument doc;
    doc.setDocumentMargin(0);
    doc.setDefaultFont(m_chart->titleFont());
    doc.setTextWidth(w);
    doc.setHtml(fitHtmlLines(m_titleLines, m_chart->titleFont(), plotW - 24)); // fitTitle's width less both margins
    const double titleHeight = std::max(title.height(), doc.size().height());
    const double h = plotH + titleHeight + 8 + ticks.height() * 2 + 4 + 4 + titles.height() + 2 + legend + 12;
    m_minimumKey = key;
    m_minimum = QSize(int(std::ceil(w)), int(std::ceil(h)));
    return m_minimum;
}

void RooflineChart::placeRidgeLabels(std::vector<QRectF>& obstacles, const std::vector<QLineF>& lines)
{
    const QRectF plot = m_chart->plotArea();
    const QFont font = m_x->labelsFont();
    const QColor color
        = m_print ? QColor(0x11, 0x11, 0x11) : (dark() ? QColor(0xee, 0xee, 0xee) : QColor(0x11, 0x11, 0x11));
    for (size_t slot = 0; slot < m_series.size(); ++slot) {
        DeviceSeries* s = m_series[slot];
        QGraphicsSimpleTextItem* label = s->ridgeLabel;
        if (slot >= m_devices.size() || label->text().isEmpty() || !s->ridge->isVisible() || s->ridge->count() == 0
            || plot.width() <= 0) {
            setVisibleIf(label, false);
            continue;
        }
        if (label->font() != font)
            label->setFont(font);
        if (label->brush().color() != color)
            label->setBrush(color);
        const QPointF at = m_chart->mapToPosition(s->ridge->at(0), s->roof);
        // Above the ring first (where the eye looks for it), then the other seven places; never over
        // a point, a roof or the slope, and 4 px clear of the ring (2 px read as touching it). The ring
        // itself is not an obstacle of its own label; a point beside it is (the 940MX's ridge label
        // was drawn over the layer just left of its ring).
        std::vector<QRectF> others;
        const double r = s->ridge->markerSize() / 2;
        const QRectF ring(at.x() - r, at.y() - r, 2 * r, 2 * r);
        for (const QRectF& o : obstacles)
            if (std::abs(o.center().x() - ring.center().x()) > 0.5 || std::abs(o.center().y() - ring.center().y()) > 0.5
                || std::abs(o.width() - ring.width()) > 0.5)
                others.push_back(o);
        // "ridge 16.3 FLOP/B" on one line; in a narrow plot (a figure's grid cell) on two.
        const QString full = QString(label->text()).replace(QLatin1Char('\n'), QLatin1Char(' '));
        const QString stacked = QString(full).replace(full.indexOf(QLatin1Char(' ')), 1, QLatin1Char('\n'));
        std::optional<QPointF> spot;
        QSizeF size;
        for (const QString& text : { full, stacked }) {
            if (label->text() != text)
                label->setText(text);
            size = label->boundingRect().size();
            const double gap = 4;
            const QPointF top(at.x() - size.width() / 2, at.y() - r - gap - size.height());
            const QRectF topBox(top, size);
            if (plot.contains(topBox)
                && std::none_of(others.begin(), others.end(),
                    [&](const QRectF& o) { return o.intersects(topBox.adjusted(-2, -2, 2, 2)); })
                && std::none_of(lines.begin(), lines.end(), [&](const QLineF& l) { return crosses(l, topBox); }))
                spot = top;
            else
                spot = placeLabels({ LabelRequest { at, size, gap, r } }, others, plot, lines).front();
            if (spot)
                break;
        }
        if (label->text() != full && !spot)
            label->setText(full);
        setVisibleIf(label, spot.has_value());
        if (spot) {
            if (label->pos() != *spot)
                label->setPos(*spot);
            obstacles.emplace_back(*spot, size);
        }
    }
}

} // namespace rfx
