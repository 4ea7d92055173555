#include "figure/figurelayout.h"

#include "style/style.h"
#include "style/text.h"

#include "chart/rooflinechart.h"
#include "io/report_writer.h"

#include <QCoreApplication>
#include <QFontMetricsF>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QLegend>
#include <QPainter>
#include <QTextDocument>

#include <algorithm>

#include <cmath>

namespace rfx {

namespace {

constexpr double kPointsPerLogical = 72.0 / kLogicalPerInch;

double fontPixels(const QFont& f) { return f.pixelSize() > 0 ? f.pixelSize() : f.pointSizeF() / kPointsPerLogical; }

} // namespace

FigureLayout::FigureLayout(const Report& report, const FigureSpec& spec, const std::optional<Measured>& measured)
    : m_spec(spec)
{
    const int devices = int(report.results.size());
    const int charts = std::max(spec.overlay ? std::min(devices, 1) : devices, 1);
    const FigureSize planned = resolveSize(spec, charts, 0);
    m_width = planned.widthIn * kLogicalPerInch;
    // Titles 11.5 to 14 px, so that the smallest text (0.9 of it, rounded) is 10 px = 7.5 pt or more.
    m_fontPx = std::clamp(m_width / 50, 11.5, 14.0);
    m_title = qs(figureTitle(report, spec));
    // A word joiner after each hyphen, as the summaries keep units whole: the wrap broke a device id
    // ("geforce-" / "mx230"). Invisible; the metadata keeps the caption as written.
    m_caption = spec.caption ? qs(figureCaption(spec, figureTitle(report, spec), anyCacheAware(report)))
                                   .replace(QStringLiteral("-"), QStringLiteral("-\u2060"))
                             : QString();
    const int columns = figureColumns(charts, planned.widthIn);
    const double cellW = m_width / columns;
    for (int i = 0; i < charts; ++i) {
        auto chart = std::make_unique<RooflineChart>();
        chart->setAttribute(Qt::WA_DontShowOnScreen);
        chart->setPrintStyle(m_fontPx, spec.transparent);
        chart->setPowerTicks(spec.powerTicks);
        chart->setMinorGrid(charts <= 2);
        chart->setFilter(spec.filter);
        std::vector<int> shown;
        if (spec.overlay)
            for (int d = 0; d < devices; ++d)
                shown.push_back(d);
        else
            shown.push_back(i);
        // Laid out near its final size before it gets data: Qt Charts elides tick labels laid out
        // in a tiny default-sized view and does not always lay them out again.
        chart->resize(
            int(std::lround(cellW)), int(std::lround(cellHeightIn(cellW / kLogicalPerInch) * kLogicalPerInch)));
        if (measured && (spec.overlay || measured->device == i))
            chart->setMeasured(measured->device, measured->comparison);
        chart->setReport(report, shown);
        chart->hideLegendForFigure(); // one legend for the figure, below the charts
        m_charts.push_back(std::move(chart));
    }
    shareAxes();
    arrange(charts, planned.widthIn);
    // Layers over the label share that no chart could name for lack of room are listed in the
    // caption (issue 52 item 5: the 7-inch figure named 1 of 4 per chart without a word). The
    // longer caption takes room from the charts, which places their labels again: arranged until
    // the list holds (twice at most in practice).
    if (spec.caption) {
        const QString base = m_caption;
        for (int round = 0; round < 3; ++round) {
            // "RTX 2060 Super: dec4.conv1 8.0 %, dec3.conv1 7.2 %; H100 SXM5 80 GB: ...", before the
            // version stamp that ends the caption.
            QStringList groups;
            for (size_t i = 0; i < m_charts.size(); ++i) {
                const QStringList unnamed = m_charts[i]->unnamedLayers();
                if (unnamed.isEmpty())
                    continue;
                const QString list = unnamed.join(QStringLiteral(", "));
                groups << (spec.overlay || m_charts.size() == 1
                        ? list
                        : shortDeviceName(report.results[i].device.name) + QStringLiteral(": ") + list);
            }
            QString wanted = base;
            if (!groups.isEmpty()) {
                const QString note
                    = QStringLiteral(". Over %1 % of the time, not named on the plots for lack of room: %2")
                          .arg(QString::number(m_charts.front()->layerLabelShare() * 100, 'g', 3),
                              groups.join(QStringLiteral("; ")))
                          .replace(QStringLiteral("-"), QStringLiteral("-\u2060"));
                const qsizetype stamp = wanted.lastIndexOf(QStringLiteral(". Roofline Explorer"));
                wanted.insert(stamp >= 0 ? stamp : wanted.size(), note);
            }
            if (wanted == m_caption)
                break;
            m_caption = wanted;
            arrange(charts, planned.widthIn);
        }
    }
}

void FigureLayout::arrange(int charts, double widthIn)
{
    const FigureSpec& spec = m_spec;
    auto captionHeight = [&](double width) {
        if (m_caption.isEmpty())
            return 0.0;
        QTextDocument doc;
        doc.setDefaultFont(smallFont());
        doc.setPlainText(m_caption);
        doc.setTextWidth(width - 8);
        return doc.size().height() + 2;
    };
    m_captionHeight = captionHeight(m_width);
    const int columns = figureColumns(charts, widthIn);
    const int rows = (charts + columns - 1) / columns;
    const double cellW = m_width / columns;
    // A grid whose last row is short (three charts in two columns) has an empty cell: the legend and
    // the caption go there when they fit, rather than below a blank quarter of the page.
    const int emptyCells = rows * columns - charts;
    m_legendHeight = rfx::legendHeight(legendEntries(), smallFont(), swatchUnit(), m_width);
    bool inCell = false;
    m_legendRect = m_captionRect = QRectF();
    if (emptyCells > 0 && spec.widthPx <= 0) {
        const double freeW = emptyCells * cellW;
        const double legendH = rfx::legendHeight(legendEntries(), smallFont(), swatchUnit(), freeW - 8);
        const double captionH = captionHeight(freeW);
        const FigureSize gridOnly = resolveSize(spec, charts, 0);
        const double cellH = gridOnly.heightIn * kLogicalPerInch / rows;
        if (legendH + captionH + 12 <= cellH) {
            inCell = true;
            const QRectF free((columns - emptyCells) * cellW, (rows - 1) * cellH, freeW, cellH);
            // Level with the last row's plots: under the title, the legend then the caption.
            m_legendRect = QRectF(free.x() + 8, free.y() + 12, freeW - 8, legendH);
            m_captionRect = QRectF(free.x() + 8, m_legendRect.bottom() + 4, freeW - 12, captionH);
            m_legendHeight = m_captionHeight = 0;
        }
    }
    // Auto height: each chart cellHeightIn high, then the legend and the caption as tall as their
    // text. A given height is shared out the same way. An automatic height stays within a page's
    // text (kMaxFigureHeightIn): the caption goes to its own file where it does not fit, then the
    // cells shrink, to half their width at the least.
    FigureSpec sized = spec;
    m_captionOutside = false;
    if (spec.heightIn <= 0 && spec.widthPx <= 0 && !inCell) {
        const double chartsIn = resolveSize(spec, charts, 0).heightIn;
        auto total = [&] { return chartsIn + (m_captionHeight + m_legendHeight) / kLogicalPerInch; };
        if (total() > kMaxFigureHeightIn && m_captionHeight > 0) {
            m_captionOutside = true;
            m_captionHeight = 0;
        }
        if (total() > kMaxFigureHeightIn)
            sized.heightIn = std::max(kMaxFigureHeightIn, (rows * 0.5 * cellW + m_legendHeight) / kLogicalPerInch);
    }
    m_size = resolveSize(sized, charts, (m_captionHeight + m_legendHeight) / kLogicalPerInch);
    m_size.captionOutside = m_captionOutside;
    m_height = m_size.heightIn * kLogicalPerInch;
    const double cellH = std::max(40.0, (m_height - m_captionHeight - m_legendHeight) / rows);
    if (!inCell) {
        m_legendRect = QRectF(0, m_height - m_captionHeight - m_legendHeight, m_width, m_legendHeight);
        m_captionRect = QRectF(4, m_height - m_captionHeight, m_width - 8, m_captionHeight);
    }
    const int chartW = int(std::lround(cellW)), chartH = int(std::lround(cellH));
    m_cells.clear();
    for (int i = 0; i < charts; ++i) {
        RooflineChart* chart = m_charts[size_t(i)].get();
        chart->resize(chartW, chartH);
        chart->show(); // a chart that was never shown renders blank (DESIGN.md, known pitfalls)
        m_cells.emplace_back((i % columns) * cellW, (i / columns) * cellH, cellW, cellH);
    }
    QCoreApplication::processEvents();
    QCoreApplication::processEvents();
    bool relaid = false;
    for (auto& chart : m_charts)
        relaid = chart->fitTickLabels() || relaid;
    if (relaid && m_charts.size() > 1) {
        // One chart widened to even decades: the others follow, with the same labelling.
        shareAxes();
        for (auto& chart : m_charts)
            chart->fitTickLabels();
    }
    if (relaid) {
        QCoreApplication::processEvents();
        QCoreApplication::processEvents();
    }
}

void FigureLayout::shareAxes()
{
    if (m_spec.overlay || m_charts.size() < 2)
        return;
    std::vector<RooflineChart*> all;
    for (auto& c : m_charts)
        all.push_back(c.get());
    // Shared axes: the same decades and unit everywhere. Otherwise each chart keeps its own y (a
    // laptop GPU's GFLOP/s beside a data-centre one's TFLOP/s) but all take one x range: a stacked
    // 3.5-inch figure put 0.1-10^4 over 0.01-10^4, and the eye compares intensities down the page.
    if (m_spec.sharedAxes)
        RooflineChart::shareAxes(all);
    else
        RooflineChart::shareXAxis(all);
}

FigureLayout::~FigureLayout() = default;

QFont FigureLayout::smallFont() const
{
    QFont f;
    f.setPixelSize(std::max(10, int(std::lround(m_fontPx * 0.9))));
    return f;
}

// The union of the charts' legend items, in order, each text once.
std::vector<LegendEntry> FigureLayout::legendEntries() const
{
    std::vector<LegendEntry> out;
    for (const auto& chart : m_charts)
        for (const LegendEntry& item : chart->legendItems())
            if (std::none_of(out.begin(), out.end(), [&](const auto& o) { return o.text == item.text; }))
                out.push_back(item);
    return out;
}

double FigureLayout::swatchUnit() const { return m_fontPx * 0.8; }

QRectF FigureLayout::legendArea() const { return m_legendRect; }

std::vector<QRectF> FigureLayout::legendBoxes(QRectF area) const
{
    std::vector<QRectF> out;
    for (const LegendBox& b : flowLegend(legendEntries(), smallFont(), swatchUnit(), area))
        out.push_back(b.box);
    return out;
}

void FigureLayout::paint(QPainter& p, const QRectF& target) const
{
    // One scale for both axes: the target has the page's aspect ratio (to the rounding of a pixel).
    const double s = target.width() / m_width;
    if (!m_spec.transparent)
        p.fillRect(target, Qt::white);
    p.setRenderHint(QPainter::Antialiasing);
    p.setRenderHint(QPainter::TextAntialiasing);
    for (size_t i = 0; i < m_charts.size(); ++i) {
        const QRectF& c = m_cells[i];
        const RooflineChart& chart = *m_charts[i];
        const QRectF dest(target.x() + c.x() * s, target.y() + c.y() * s, chart.width() * s, chart.height() * s);
        m_charts[i]->render(&p, dest, chart.rect(), Qt::KeepAspectRatio);
    }
    if (m_legendRect.height() > 0) {
        p.save();
        p.translate(target.topLeft());
        p.scale(s, s);
        const auto entries = legendEntries();
        paintLegend(p, entries, flowLegend(entries, smallFont(), swatchUnit(), legendArea()), smallFont(), swatchUnit(),
            QColor(0x11, 0x11, 0x11));
        p.restore();
    }
    if (!m_caption.isEmpty() && !m_captionOutside) {
        p.save();
        p.translate(target.topLeft());
        p.scale(s, s);
        p.setFont(smallFont());
        p.setPen(QColor(0x33, 0x33, 0x33));
        p.drawText(m_captionRect, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, m_caption);
        p.restore();
    }
}

QString FigureLayout::captionMovedOut() const
{
    return m_captionOutside ? QString(m_caption).remove(QChar(0x2060)) + QStringLiteral("\n") : QString();
}

FigureGeometry FigureLayout::geometry() const
{
    FigureGeometry g;
    const double k = kPointsPerLogical;
    auto toPage = [k](QRectF r, QPointF origin) {
        return QRectF((r.x() + origin.x()) * k, (r.y() + origin.y()) * k, r.width() * k, r.height() * k);
    };
    g.widthPt = m_width * k;
    g.heightPt = m_height * k;
    double smallest = INFINITY;
    if (!m_caption.isEmpty() && !m_captionOutside)
        smallest = fontPixels(smallFont());
    for (size_t i = 0; i < m_charts.size(); ++i) {
        const RooflineChart& chart = *m_charts[i];
        const QPointF origin = m_cells[i].topLeft();
        g.charts.push_back(toPage(m_cells[i], QPointF()));
        g.plots.push_back(toPage(chart.plotArea(), origin));
        g.axes.push_back({ chart.xRange().x(), chart.xRange().y(), chart.yRange().x() * chart.yScale(),
            chart.yRange().y() * chart.yScale(), chart.yScale() });
        for (QGraphicsItem* item : chart.scene()->items()) {
            if (!item->isVisible() || (item->parentItem() && !item->parentItem()->isVisible()))
                continue;
            QFont f;
            if (auto* t = dynamic_cast<QGraphicsTextItem*>(item); t && !t->toPlainText().isEmpty())
                f = t->font();
            else if (auto* st = dynamic_cast<QGraphicsSimpleTextItem*>(item); st && !st->text().isEmpty())
                f = st->font();
            else
                continue;
            // The item's own scale (never set by Qt Charts, but measured rather than assumed).
            const QTransform m = item->sceneTransform();
            const double scale = std::sqrt(std::abs(m.determinant()));
            smallest = std::min(smallest, fontPixels(f) * scale);
            ++g.textItems;
        }
        for (double px : chart.pointLabelPixelSizes())
            smallest = std::min(smallest, px);
        for (const QRectF& r : chart.markerRects())
            g.markers.push_back(toPage(r, origin));
        g.measuredPoints += int(chart.measuredPoints().size());
        g.chartTexts.push_back(chart.textBoxes());
        g.chartBounds.emplace_back(chart.rect());
        auto labels = chart.layerLabels();
        const QPointF shift = chart.mapFromScene(chart.chart()->mapToScene(QPointF(0, 0)));
        for (auto& l : labels)
            l.second.translate(shift);
        g.chartLayerLabels.push_back(labels);
        g.chartLines.push_back(chart.roofLines());
        g.chartLeaders.push_back(chart.leaderLines());
        if (chart.legendVisible())
            g.legends.push_back(toPage(chart.legendRect(), origin));
    }
    if (m_legendRect.height() > 0) {
        smallest = std::min(smallest, fontPixels(smallFont()));
        for (const QRectF& b : legendBoxes(legendArea()))
            g.legends.push_back(toPage(b, QPointF()));
    }
    if (!m_caption.isEmpty() && !m_captionOutside)
        g.caption = toPage(m_captionRect, QPointF());
    g.smallestTextPt = std::isfinite(smallest) ? smallest * k : 0;
    return g;
}

} // namespace rfx
