#include "figure/chartpage.h"

#include "figure/figurelayout.h"

#include <QChart>
#include <QChartView>
#include <QCoreApplication>
#include <QPainter>
#include <QTextDocument>

#include <algorithm>
#include <cmath>

namespace rfx {

namespace {

QFont smallFont(double fontPx)
{
    QFont f;
    f.setPixelSize(std::max(10, int(std::lround(fontPx * 0.9))));
    return f;
}

// The legend (rich text) or the caption (plain) laid out at `width` in the figure's small type.
void layOut(QTextDocument& doc, const QString& text, bool html, double fontPx, double width)
{
    doc.setDefaultFont(smallFont(fontPx));
    if (html)
        doc.setHtml(text);
    else
        doc.setPlainText(text);
    doc.setTextWidth(width - 8);
}

double textHeight(const QString& text, bool html, double fontPx, double width)
{
    if (text.isEmpty())
        return 0;
    QTextDocument doc;
    layOut(doc, text, html, fontPx, width);
    return doc.size().height() + 2;
}

void drawText(QPainter& p, const QString& text, bool html, double fontPx, const QRectF& at)
{
    QTextDocument doc;
    layOut(doc, text, html, fontPx, at.width());
    p.save();
    p.translate(at.topLeft() + QPointF(4, 0));
    doc.drawContents(&p);
    p.restore();
}
} // namespace

ChartPage::ChartPage(std::unique_ptr<QChartView> view, const Fill& fill, const QString& legendHtml,
    const FigureSpec& spec, const QString& title, const QString& caption)
    : m_view(std::move(view))
    , m_title(title)
    , m_legend(legendHtml)
    // A word joiner after each hyphen: device ids stay whole where the caption wraps.
    , m_caption(spec.caption ? QString(caption).replace(QStringLiteral("-"), QStringLiteral("-\u2060")) : QString())
    , m_transparent(spec.transparent)
{
    const FigureSize planned = resolveSize(spec, 1, 0);
    m_width = planned.widthIn * kLogicalPerInch;
    m_fontPx = std::clamp(m_width / 50, 11.5, 14.0);
    const double below
        = 6 + textHeight(m_legend, true, m_fontPx, m_width) + textHeight(m_caption, false, m_fontPx, m_width);
    m_legendHeight = textHeight(m_legend, true, m_fontPx, m_width);
    m_size = resolveSize(spec, 1, below / kLogicalPerInch);
    m_width = m_size.widthIn * kLogicalPerInch;
    m_height = m_size.heightIn * kLogicalPerInch;
    m_chartHeight = std::max(m_height - below, m_height * 0.4);
    m_view->setAttribute(Qt::WA_DontShowOnScreen);
    QChart* chart = m_view->chart();
    chart->setTheme(QChart::ChartThemeLight); // before the series: a theme recolours them
    chart->setBackgroundVisible(!m_transparent);
    m_view->resize(int(std::lround(m_width)), int(std::lround(m_chartHeight)));
    chart->resize(m_width, m_chartHeight);
    fill(chart, m_fontPx);
    m_view->show(); // a chart that was never shown renders blank (DESIGN.md, known pitfalls)
    QCoreApplication::processEvents(); // its layout: axes, ticks, the title's form that fits
    QCoreApplication::processEvents();
}

ChartPage::~ChartPage() = default;

void ChartPage::paint(QPainter& p, const QRectF& target) const
{
    p.save();
    p.translate(target.topLeft());
    const double s = target.width() / m_width;
    p.scale(s, s);
    p.setRenderHint(QPainter::Antialiasing);
    p.setRenderHint(QPainter::TextAntialiasing);
    if (!m_transparent)
        p.fillRect(QRectF(0, 0, m_width, m_height), Qt::white);
    const QRectF chartRect(0, 0, m_width, m_chartHeight);
    m_view->scene()->render(&p, chartRect, chartRect);
    drawText(p, m_legend, true, m_fontPx, QRectF(0, m_chartHeight + 4, m_width, m_legendHeight));
    drawText(p, m_caption, false, m_fontPx, QRectF(0, m_chartHeight + 6 + m_legendHeight, m_width, m_height));
    p.restore();
}

} // namespace rfx
