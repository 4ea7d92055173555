#include "chart/summaryview.h"

#include "base/format.h"
#include "io/report_writer.h"
#include "style/text.h"
#include "style/unbroken.h"

#include <QAbstractTextDocumentLayout>
#include <QAction>
#include <QClipboard>
#include <QGuiApplication>
#include <QPaintEngine>
#include <QPainter>
#include <QResizeEvent>

#include <algorithm>
#include <cmath>

namespace rfx {

namespace {
// Into rich text: "<0.1 %" would open a tag and swallow the rest of the sentence.
}

QString summaryHtml(const DeviceResult& d, const Config& config)
{
    const Totals& t = d.totals;
    QString memory;
    if (t.fits) {
        memory = QStringLiteral("memory %1 of %2 (fits; up to batch\u00a0%3)")
                     .arg(unbroken(qsEscaped(formatMemory(t.memory.total()))),
                         unbroken(qsEscaped(formatMemory(t.capacity))), qsEscaped(formatCount(t.largestBatch)));
    } else {
        memory = QStringLiteral("<span style=\"color:#d00000\"><b>\u26a0 does not fit:</b></span> memory %1 of %2; "
                                "%3")
                     .arg(unbroken(qsEscaped(formatMemory(t.memory.total()))),
                         unbroken(qsEscaped(formatMemory(t.capacity))),
                         t.largestBatch > 0
                             ? QStringLiteral("largest batch that fits: %1").arg(qsEscaped(formatCount(t.largestBatch)))
                             : QStringLiteral("not even batch 1 fits"));
    }
    // The energy of the step on one GPU, beside the memory it needs (core/engine/energy.h has the power model).
    memory += QStringLiteral(" \u00b7 ") + unbroken(qsEscaped(energyLine(d, config)));
    // Integer ceilings (INT8) count operations, not floating-point ones.
    const char* unit = rateUnit(d.ceiling.key);
    // A ceiling the device lacked, and what was used instead, where the eye is (not only the notes).
    const QString fallback = d.ceiling.note.empty()
        ? QString()
        : QStringLiteral("<br><span style=\"color:#b35900\">\u26a0 %1</span>").arg(qsEscaped(d.ceiling.note));
    // Calibrated times say so, with the bound they replace, where the figure is read.
    // Rows beyond the sizes the fit saw are counted (issue 51; the table marks each with \u26a0).
    int extrapolated = 0;
    for (const LayerResult& l : d.layers)
        extrapolated += l.calibrationExtrapolated;
    const QString calibrated = d.timesCalibrated
        ? QStringLiteral("<br><span style=\"color:#6a3d9a\">calibrated with %1; roofline bound %2%3</span>")
              .arg(qsEscaped(d.calibration), unbroken(qsEscaped(formatTime(boundTimeOf(t), true))),
                  extrapolated ? QStringLiteral("; \u26a0 %1 of %2 rows extrapolated (beyond the sizes fitted on)")
                                     .arg(extrapolated)
                                     .arg(d.layers.size())
                               : QString())
        : QString();
    // The share of peak in the table's and the reports' words (peakShareText, core/engine/roofline.h).
    return QStringLiteral(
        "<b>%1</b> per batch of\u00a0%2 \u00b7 %3\u00a0images/\u2060s \u00b7 attained %4 = %5<br>%6<br><i>%7</i>%8")
        .arg(unbroken(qsEscaped(formatTime(t.time, true))))
        .arg(qsEscaped(formatCount(config.batch)))
        .arg(unbroken(qsEscaped(formatNumber3(t.throughput))), unbroken(qsEscaped(formatSI(t.attained, unit))),
            unbroken(qsEscaped(peakShareText(d))), memory, unbroken(qsEscaped(d.verdict)), fallback + calibrated);
}

QString summaryHeadline(const DeviceResult& d, const Config& config)
{
    const Totals& t = d.totals;
    const QString fits = t.fits
        ? QString()
        : QStringLiteral(" \u00b7 <span style=\"color:#d00000\"><b>\u26a0 does not fit</b></span>");
    // One line where the window is short of room: the share alone ("62.0 % of peak"); the tooltip holds
    // the whole summary, with the share in peakShareText's words.
    // Calibrated, it says so: the time is the calibrated one, as on the chart (the bound is in the
    // tooltip's whole summary).
    return QStringLiteral("%5<b>%1</b> per batch of\u00a0%2 \u00b7 %3 of peak%4")
        .arg(unbroken(qsEscaped(formatTime(t.time, true))))
        .arg(config.batch)
        .arg(unbroken(qsEscaped(formatPercent(t.peakShare))), fits,
            d.timesCalibrated ? QStringLiteral("calibrated ") : QString());
}

} // namespace rfx

namespace rfx {

namespace {
constexpr int kMarginH = 6;
constexpr int kMarginBottom = 4;
}

SummaryText::SummaryText(QWidget* parent)
    : QWidget(parent)
{
    m_doc.setDocumentMargin(0);
    m_doc.setDefaultFont(documentFont());
    m_doc.setUndoRedoEnabled(false);
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    setFixedHeight(fontMetrics().lineSpacing() * 3 + kMarginBottom + 2);
    setContextMenuPolicy(Qt::ActionsContextMenu);
    auto* copy = new QAction(tr("Copy summary"), this);
    connect(copy, &QAction::triggered, this, [this] { QGuiApplication::clipboard()->setText(plainText()); });
    addAction(copy);
}

QFont SummaryText::documentFont() const
{
    // Rewritten on every slider step: no OpenType shaping (kerning, ligatures) for this Latin text,
    // HarfBuzz being most of its layout's cost. Set on the document, not the widget, whose font
    // then keeps following the application's (presentation mode).
    QFont f = font();
    f.setStyleStrategy(QFont::PreferNoShaping);
    return f;
}

const QTextDocument* SummaryText::document() const
{
    // Laid out by SummaryLayout, the text reaches the document only when asked for (a copy, a
    // painter that is not the screen's): on a slider step it is not parsed at all.
    if (m_docHtml != m_html) {
        m_doc.setHtml(m_html);
        m_docHtml = m_html;
    }
    const int textWidth = std::max(40, width() - 2 * kMarginH);
    if (m_doc.textWidth() != textWidth)
        m_doc.setTextWidth(textWidth);
    return &m_doc;
}

void SummaryText::setHtml(const QString& html, bool mayShrink)
{
    if (html == m_html)
        return;
    m_html = html;
    m_laidOut = m_layout.setHtml(html, documentFont(), m_stamp);
    m_wrappedAt = -1;
    m_image = QImage();
    m_stampRefused = false;
    fit(mayShrink);
    update();
}

int SummaryText::contentHeight() const
{
    if (m_laidOut)
        return m_layout.height();
    return int(std::ceil(document()->size().height()));
}

int SummaryText::heightFor(const QString& html) const
{
    if (html == m_html && width() >= 100)
        return contentHeight() + kMarginBottom + 2;
    const int textWidth = std::max(40, width() - 2 * kMarginH);
    SummaryLayout layout;
    if (layout.setHtml(html, documentFont(), m_stamp)) {
        layout.wrap(textWidth);
        return layout.height() + kMarginBottom + 2;
    }
    QTextDocument doc;
    doc.setDocumentMargin(0);
    doc.setDefaultFont(documentFont());
    doc.setTextWidth(textWidth);
    doc.setHtml(html);
    return int(std::ceil(doc.size().height())) + kMarginBottom + 2;
}

void SummaryText::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    const QColor text = palette().color(QPalette::WindowText);
    if (paintStamped(painter, text))
        return;
    painter.translate(kMarginH, 0);
    QAbstractTextDocumentLayout::PaintContext context;
    context.palette = palette();
    context.palette.setColor(QPalette::Text, text);
    document()->documentLayout()->draw(&painter, context);
}

bool SummaryText::paintStamped(QPainter& painter, const QColor& text)
{
    // Rewritten on every slider step: its glyphs through the raster engine's per-pixel path were a
    // fifth of the step (callgrind, bench_ui); composed from cached glyph images, the same pixels.
    // Summaries SummaryLayout reads are drawn from it; anything else from the document's layout.
    if (m_stampRefused || painter.device()->devicePixelRatio() != 1.0
        || painter.paintEngine()->type() != QPaintEngine::Raster
        || painter.transform().type() > QTransform::TxTranslate)
        return false;
    if (m_image.size() != size() || m_imageColor != text.rgba()) {
        QImage image(size(), QImage::Format_ARGB32_Premultiplied);
        image.fill(0);
        if (m_laidOut) {
            m_layout.compose(image, QPointF(kMarginH, 0), text, m_stamp);
        } else if (!m_stamp.compose(image, *document(), QPointF(kMarginH, 0), text)) {
            m_stampRefused = true;
            return false;
        }
        m_image = std::move(image);
        m_imageColor = text.rgba();
    }
    painter.drawImage(QPoint(0, 0), m_image);
    return true;
}

void SummaryText::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    if (event->oldSize().width() != event->size().width())
        fit(true);
}

void SummaryText::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange) {
        m_doc.setDefaultFont(documentFont());
        m_laidOut = !m_html.isEmpty() && m_layout.setHtml(m_html, documentFont(), m_stamp);
        m_wrappedAt = -1;
        m_image = QImage();
        fit(true);
    }
}

void SummaryText::fit(bool mayShrink)
{
    const int textWidth = std::max(40, width() - 2 * kMarginH);
    if (m_laidOut && m_wrappedAt != textWidth) {
        m_layout.wrap(textWidth);
        m_wrappedAt = textWidth;
        m_image = QImage();
    } else if (!m_laidOut && m_doc.textWidth() != textWidth) {
        m_image = QImage();
    }
    if (width() < 100)
        return; // not laid out yet: the height is fitted when the width arrives
    const int need = contentHeight() + kMarginBottom + 2;
    if (need > height() || (mayShrink && need < height()))
        setFixedHeight(need);
}

} // namespace rfx
