#include "figure/figurerenderer.h"

#include "style/text.h"

#include "base/version.h"
#include "figure/figurelayout.h"
#include "io/report_writer.h"

#include <QBuffer>
#include <QFileInfo>
#include <QImageWriter>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QRegularExpression>
#include <QSaveFile>
#include <QSvgGenerator>

#include <cmath>

namespace rfx {

namespace {

} // namespace

/// QSvgGenerator opens a <g> with the full painter state at every state change, and most enclose
/// nothing (a pen set, then changed before drawing): 797 of the 1,041 groups of a 3.5-inch figure,
/// 189 KB of its 275 KB. Empty groups are removed (repeatedly: removing one may empty its parent)
/// and runs of blank lines squeezed; nothing drawn changes.
QByteArray compactSvg(const QByteArray& svg)
{
    QString text = QString::fromUtf8(svg);
    static const QRegularExpression emptyGroup(QStringLiteral("<g\\b[^>]*>\\s*</g>"));
    static const QRegularExpression blankLines(QStringLiteral("\\n\\s*\\n"));
    for (qsizetype before = -1; before != text.size();) {
        before = text.size();
        text.remove(emptyGroup);
    }
    text.replace(blankLines, QStringLiteral("\n"));
    return text.toUtf8();
}

namespace {

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

// The spec's measurement file, compared with its device's rows; an unusable file is an error that
// names the file, the line and the reason.
static std::optional<FigureLayout::Measured> measuredFor(const Report& report, const FigureSpec& spec, QString* error)
{
    if (spec.measurements.empty())
        return std::nullopt;
    const MeasurementSet set = loadMeasurements(spec.measurements);
    if (!set.ok()) {
        for (const Diagnostic& d : set.diagnostics)
            if (d.severity == Severity::Error) {
                *error = qs(toString(d));
                break;
            }
        return std::nullopt;
    }
    int device = 0;
    if (!spec.measuredDevice.empty()) {
        device = -1;
        for (size_t i = 0; i < report.results.size(); ++i)
            if (report.results[i].device.id == spec.measuredDevice)
                device = int(i);
        if (device < 0) {
            *error
                = QStringLiteral("--measured-device %1: not one of the figure's devices").arg(qs(spec.measuredDevice));
            return std::nullopt;
        }
    }
    if (device >= int(report.results.size()))
        return std::nullopt;
    return FigureLayout::Measured { device, compareMeasurements(set, report.results[size_t(device)]) };
}

FigureGeometry figureGeometry(const Report& report, const FigureSpec& spec)
{
    QString error;
    const auto measured = measuredFor(report, spec, &error);
    return FigureLayout(report, spec, measured).geometry();
}

QImage renderFigureImage(const Report& report, const FigureSpec& spec)
{
    QString error;
    FigureLayout layout(report, spec, measuredFor(report, spec, &error));
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

FigureSize figureSize(const Report& report, const FigureSpec& spec)
{
    if (report.results.empty())
        return {};
    return FigureLayout(report, spec).size();
}

RenderResult renderFigure(const Report& report, const FigureSpec& spec)
{
    RenderResult r;
    const QString file = qs(spec.file);
    if (report.results.empty()) {
        r.error = failure(file, QStringLiteral("no device to draw"));
        return r;
    }
    QString measuredError;
    const auto measured = measuredFor(report, spec, &measuredError);
    if (!measuredError.isEmpty()) {
        r.error = measuredError;
        return r;
    }
    const FigureLayout layout(report, spec, measured);
    return writeFigure(layout, spec, qs(figureCaption(spec, figureTitle(report, spec), anyCacheAware(report))),
        qs(figureToJson(spec, anyCacheAware(report))));
}

RenderResult writeFigure(const FigurePage& page, const FigureSpec& spec, const QString& caption, const QString& json)
{
    RenderResult r;
    const QString file = qs(spec.file);
    QSaveFile out(file); // atomic: a temporary file renamed over the target on commit
    if (!out.open(QIODevice::WriteOnly)) {
        r.error = failure(file, out.errorString());
        return r;
    }
    switch (spec.format) {
    case FigureSpec::Format::Png: {
        r.size = page.size();
        QImage image(r.size.widthPx, r.size.heightPx, QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::transparent);
        {
            QPainter p(&image);
            page.paint(p, QRectF(0, 0, image.width(), image.height()));
        }
        const double dpm = spec.dpi / 0.0254;
        image.setDotsPerMeterX(int(std::lround(dpm)));
        image.setDotsPerMeterY(int(std::lround(dpm)));
        image.setText(QStringLiteral("Title"), page.title());
        image.setText(QStringLiteral("Description"), caption);
        image.setText(
            QStringLiteral("Software"), QStringLiteral("Roofline Explorer %1").arg(QString::fromLatin1(kVersion)));
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
        QBuffer buffer; // written here, compacted, then saved (atomically, through `out`)
        buffer.open(QIODevice::WriteOnly);
        QSvgGenerator svg;
        svg.setOutputDevice(&buffer);
        svg.setResolution(int(kLogicalPerInch));
        svg.setSize(QSize(int(std::lround(page.logicalWidth())), int(std::lround(page.logicalHeight()))));
        svg.setViewBox(QRectF(0, 0, page.logicalWidth(), page.logicalHeight()));
        svg.setTitle(page.title());
        svg.setDescription(caption + QStringLiteral("\n") + json);
        QPainter p;
        if (!p.begin(&svg)) {
            r.error = failure(file, QStringLiteral("cannot start the SVG writer"));
            out.cancelWriting();
            return r;
        }
        page.paint(p, QRectF(0, 0, page.logicalWidth(), page.logicalHeight()));
        p.end();
        const QByteArray compact = compactSvg(buffer.data());
        if (out.write(compact) != compact.size()) {
            r.error = failure(file, out.errorString());
            out.cancelWriting();
            return r;
        }
        r.pixelSize = svg.size();
        r.size = page.size();
        break;
    }
    case FigureSpec::Format::Pdf: {
        QPdfWriter pdf(&out);
        pdf.setPageSize(QPageSize(QSizeF(page.size().widthIn, page.size().heightIn), QPageSize::Inch));
        pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
        pdf.setResolution(1200);
        pdf.setTitle(page.title());
        pdf.setCreator(QStringLiteral("Roofline Explorer %1").arg(QString::fromLatin1(kVersion)));
        pdf.setDocumentXmpMetadata(xmpPacket(page.title(), json));
        QPainter p;
        if (!p.begin(&pdf)) {
            r.error = failure(file, QStringLiteral("cannot start the PDF writer"));
            out.cancelWriting();
            return r;
        }
        // The page is the layout's size in inches: the painter's device has its aspect ratio.
        page.paint(p, QRectF(0, 0, pdf.width(), pdf.width() * page.logicalHeight() / page.logicalWidth()));
        p.end();
        r.pixelSize = QSize(int(std::lround(page.logicalWidth())), int(std::lround(page.logicalHeight())));
        r.size = page.size();
        break;
    }
    }
    if (!out.commit()) {
        r.error = failure(file, out.errorString());
        return r;
    }
    if (const QString moved = page.captionMovedOut(); !moved.isEmpty()) {
        QSaveFile text(qs(captionFileFor(spec.file)));
        if (!text.open(QIODevice::WriteOnly) || text.write(moved.toUtf8()) < 0 || !text.commit()) {
            r.error = failure(text.fileName(), text.errorString());
            return r;
        }
        r.captionFile = text.fileName();
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
