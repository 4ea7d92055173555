#include "figurerenderer.h"

#include "report_writer.h"
#include "rooflinechart.h"
#include "version.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QImageWriter>
#include <QPageSize>
#include <QFontMetricsF>
#include <QPainter>
#include <QPdfWriter>
#include <QSaveFile>
#include <QSvgGenerator>
#include <QTextDocument>

#include <cmath>
#include <memory>

namespace rfx {

namespace {

constexpr double kLogicalPerInch = 96; // the charts are laid out at 96 logical pixels per inch

QString qs(const std::string& s) { return QString::fromStdString(s); }

// The charts of a figure, laid out offscreen at the figure's physical size.
class FigureLayout {
public:
    FigureLayout(const Report& report, const FigureSpec& spec)
        : m_spec(spec)
    {
        const int devices = int(report.results.size());
        const int charts = spec.overlay ? std::min(devices, 1) : devices;
        m_size = resolveSize(spec, std::max(charts, 1));
        m_width = m_size.widthIn * kLogicalPerInch;
        m_height = m_size.heightIn * kLogicalPerInch;
        // Fonts follow the width: 10.5 px (7.9 pt printed) for a 7-inch page, 8.5 px for a 3.5-inch column.
        m_fontPx = std::clamp(m_width / 64, 8.5, 14.0);
        m_title = qs(reportTitle(report));
        m_caption = spec.caption ? qs(figureCaption(spec, reportTitle(report))) : QString();
        if (!m_caption.isEmpty()) {
            QTextDocument doc;
            doc.setDefaultFont(captionFont());
            doc.setPlainText(m_caption);
            doc.setTextWidth(m_width);
            m_captionHeight = doc.size().height() + 2;
        }
        const int columns = gridColumns(std::max(charts, 1));
        const int rows = (std::max(charts, 1) + columns - 1) / columns;
        m_cellW = m_width / columns;
        m_cellH = std::max(40.0, (m_height - m_captionHeight) / rows);
        for (int i = 0; i < charts; ++i) {
            auto chart = std::make_unique<RooflineChart>();
            chart->setAttribute(Qt::WA_DontShowOnScreen);
            chart->setPrintStyle(m_fontPx, spec.transparent);
            chart->setMinorGrid(charts <= 2);
            chart->setFilter(spec.filter);
            std::vector<int> shown;
            if (spec.overlay)
                for (int d = 0; d < devices; ++d)
                    shown.push_back(d);
            else
                shown.push_back(i);
            chart->resize(int(std::lround(m_cellW)), int(std::lround(m_cellH)));
            chart->setReport(report, shown);
            chart->show(); // a chart that was never shown renders blank (DESIGN.md, known pitfalls)
            m_charts.push_back(std::move(chart));
            m_cells.emplace_back((i % columns) * m_cellW, (i / columns) * m_cellH, m_cellW, m_cellH);
        }
        QCoreApplication::processEvents();
        QCoreApplication::processEvents();
        if (spec.overlay) {
            for (auto& c : m_charts)
                c->placeLegendInPlot();
            QCoreApplication::processEvents();
        }
    }

    const FigureSize& size() const { return m_size; }
    double logicalWidth() const { return m_width; }
    double logicalHeight() const { return m_height; }
    const QString& title() const { return m_title; }
    const QString& caption() const { return m_caption; }

    // Paints the whole figure into `target` (device coordinates), scaling the logical layout.
    void paint(QPainter& p, const QRectF& target) const
    {
        const double sx = target.width() / m_width, sy = target.height() / m_height;
        if (!m_spec.transparent)
            p.fillRect(target, Qt::white);
        p.setRenderHint(QPainter::Antialiasing);
        p.setRenderHint(QPainter::TextAntialiasing);
        for (size_t i = 0; i < m_charts.size(); ++i) {
            const QRectF& c = m_cells[i];
            const QRectF dest(target.x() + c.x() * sx, target.y() + c.y() * sy, c.width() * sx, c.height() * sy);
            m_charts[i]->render(&p, dest, m_charts[i]->rect(), Qt::IgnoreAspectRatio);
            if (m_spec.overlay)
                paintLegend(p, *m_charts[i], target.topLeft() + QPointF(c.x() * sx, c.y() * sy), sx, sy);
        }
        if (!m_caption.isEmpty()) {
            p.save();
            p.translate(target.topLeft());
            p.scale(sx, sy);
            p.setFont(captionFont());
            p.setPen(QColor(0x33, 0x33, 0x33));
            p.drawText(QRectF(4, m_height - m_captionHeight, m_width - 8, m_captionHeight),
                Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, m_caption);
            p.restore();
        }
    }

private:
    // A boxed list in the plot's upper-left corner, in logical coordinates scaled to the target.
    void paintLegend(QPainter& p, const RooflineChart& chart, QPointF origin, double sx, double sy) const
    {
        const auto entries = chart.legendEntries();
        if (entries.size() < 2)
            return;
        p.save();
        p.translate(origin);
        p.scale(sx, sy);
        QFont f;
        f.setPixelSize(std::max(6, int(std::lround(m_fontPx * 0.85))));
        p.setFont(f);
        const QFontMetricsF fm(f);
        const double line = fm.height() * 1.25, swatch = m_fontPx * 1.4, pad = 4;
        double textWidth = 0;
        for (const auto& [color, name] : entries)
            textWidth = std::max(textWidth, fm.horizontalAdvance(name));
        const QRectF plot = chart.plotArea();
        const QRectF box(plot.left() + 6, plot.top() + 6, pad * 3 + swatch + textWidth, pad * 2 + line * double(entries.size()));
        p.setPen(QPen(QColor(0xbb, 0xbb, 0xbb), 0.8));
        p.setBrush(QColor(255, 255, 255, 235));
        p.drawRect(box);
        for (size_t i = 0; i < entries.size(); ++i) {
            const double y = box.top() + pad + line * (double(i) + 0.5);
            p.setPen(QPen(entries[i].first, 2.2));
            p.drawLine(QPointF(box.left() + pad, y), QPointF(box.left() + pad + swatch, y));
            p.setPen(QColor(0x11, 0x11, 0x11));
            p.drawText(QRectF(box.left() + pad * 2 + swatch, y - line / 2, textWidth + 2, line), Qt::AlignLeft | Qt::AlignVCenter,
                entries[i].second);
        }
        p.restore();
    }

    QFont captionFont() const
    {
        QFont f;
        f.setPixelSize(std::max(6, int(std::lround(m_fontPx * 0.8))));
        return f;
    }

    FigureSpec m_spec;
    FigureSize m_size {};
    double m_width = 0, m_height = 0, m_fontPx = 10, m_cellW = 0, m_cellH = 0, m_captionHeight = 0;
    QString m_title, m_caption;
    std::vector<std::unique_ptr<RooflineChart>> m_charts;
    std::vector<QRectF> m_cells;
};

QByteArray xmpPacket(const QString& title, const QString& description)
{
    // A minimal XMP packet with Dublin Core title and description (the sidecar JSON).
    const QString xml = QStringLiteral(
        "<?xpacket begin=\"\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>"
        "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">"
        "<rdf:Description rdf:about=\"\" xmlns:dc=\"http://purl.org/dc/elements/1.1/\">"
        "<dc:title><rdf:Alt><rdf:li xml:lang=\"x-default\">%1</rdf:li></rdf:Alt></dc:title>"
        "<dc:description><rdf:Alt><rdf:li xml:lang=\"x-default\">%2</rdf:li></rdf:Alt></dc:description>"
        "</rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end=\"w\"?>")
                            .arg(title.toHtmlEscaped(), description.toHtmlEscaped());
    return xml.toUtf8();
}

QString failure(const QString& file, const QString& why) { return QStringLiteral("%1: %2").arg(file, why); }

} // namespace

QImage renderFigureImage(const Report& report, const FigureSpec& spec)
{
    FigureLayout layout(report, spec);
    QImage image(layout.size().widthPx, layout.size().heightPx, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    {
        QPainter p(&image);
        layout.paint(p, QRectF(0, 0, image.width(), image.height()));
    }
    const double dpm = spec.dpi / 0.0254;
    image.setDotsPerMeterX(int(std::lround(dpm)));
    image.setDotsPerMeterY(int(std::lround(dpm)));
    return image;
}

RenderResult renderFigure(const Report& report, const FigureSpec& spec)
{
    RenderResult r;
    const QString file = qs(spec.file);
    if (report.results.empty()) {
        r.error = failure(file, QStringLiteral("no device to draw"));
        return r;
    }
    const QString json = qs(figureToJson(spec));
    QSaveFile out(file); // atomic: a temporary file renamed over the target on commit
    if (!out.open(QIODevice::WriteOnly)) {
        r.error = failure(file, out.errorString());
        return r;
    }
    QString description;
    switch (spec.format) {
    case FigureSpec::Format::Png: {
        QImage image = renderFigureImage(report, spec);
        image.setText(QStringLiteral("Title"), qs(reportTitle(report)));
        image.setText(QStringLiteral("Description"), qs(figureCaption(spec, reportTitle(report))));
        image.setText(QStringLiteral("Software"), QStringLiteral("Roofline Explorer %1").arg(QString::fromLatin1(kVersion)));
        image.setText(QStringLiteral("roofline-explorer"), json);
        QImageWriter writer(&out, "png");
        if (!writer.write(image)) {
            r.error = failure(file, writer.errorString());
            out.cancelWriting();
            return r;
        }
        r.pixelSize = image.size();
        break;
    }
    case FigureSpec::Format::Svg: {
        FigureLayout layout(report, spec);
        QSvgGenerator svg;
        svg.setOutputDevice(&out);
        svg.setResolution(int(kLogicalPerInch));
        svg.setSize(QSize(int(std::lround(layout.logicalWidth())), int(std::lround(layout.logicalHeight()))));
        svg.setViewBox(QRectF(0, 0, layout.logicalWidth(), layout.logicalHeight()));
        svg.setTitle(layout.title());
        svg.setDescription(qs(figureCaption(spec, reportTitle(report))) + QStringLiteral("\n") + json);
        QPainter p;
        if (!p.begin(&svg)) {
            r.error = failure(file, QStringLiteral("cannot start the SVG writer"));
            out.cancelWriting();
            return r;
        }
        layout.paint(p, QRectF(0, 0, layout.logicalWidth(), layout.logicalHeight()));
        p.end();
        r.pixelSize = svg.size();
        break;
    }
    case FigureSpec::Format::Pdf: {
        FigureLayout layout(report, spec);
        QPdfWriter pdf(&out);
        pdf.setPageSize(QPageSize(QSizeF(layout.size().widthIn, layout.size().heightIn), QPageSize::Inch));
        pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
        pdf.setResolution(1200);
        pdf.setTitle(layout.title());
        pdf.setCreator(QStringLiteral("Roofline Explorer %1").arg(QString::fromLatin1(kVersion)));
        pdf.setDocumentXmpMetadata(xmpPacket(layout.title(), json));
        QPainter p;
        if (!p.begin(&pdf)) {
            r.error = failure(file, QStringLiteral("cannot start the PDF writer"));
            out.cancelWriting();
            return r;
        }
        layout.paint(p, QRectF(0, 0, pdf.width(), pdf.height()));
        p.end();
        r.pixelSize = QSize(int(std::lround(layout.logicalWidth())), int(std::lround(layout.logicalHeight())));
        break;
    }
    }
    if (!out.commit()) {
        r.error = failure(file, out.errorString());
        return r;
    }
    if (spec.sidecar) {
        QSaveFile side(file + QStringLiteral(".json"));
        if (!side.open(QIODevice::WriteOnly) || side.write(json.toUtf8()) < 0 || !side.commit()) {
            r.error = failure(side.fileName(), side.errorString());
            return r;
        }
    }
    r.ok = true;
    return r;
}

} // namespace rfx
