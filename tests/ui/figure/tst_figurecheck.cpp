// A journal's figure check, on ResNet-50 training on four devices, overlaid and as a grid, at 3.5,
// 5 and 7 inches, in PNG, SVG and PDF: one scale for x and y (no squashed text or ellipses), no text
// under 7 pt at print size (measured on the laid-out charts, not guessed), and no legend over a
// marker. The page grows with the grid so that each chart keeps a readable size.
#include "features/exportdialog.h"
#include "figure/figurerenderer.h"
#include "open/analyses.h"
#include "testutils.h"

#include <QFile>
#include <QImage>
#include <QLabel>
#include <QRegularExpression>
#include <QTemporaryDir>

#include <algorithm>
#include <cmath>

using namespace rfx;

namespace {

FigureSpec resnetSpec(double widthIn, bool overlay)
{
    FigureSpec s;
    s.config.model = "resnet50";
    s.config.batch = 64;
    s.config.bits = 16;
    s.config.tensorCores = true;
    s.config.mode = Mode::Training;
    s.devices = { "h100-sxm", "a100-sxm-80gb", "rtx-4090", "geforce-mx230" };
    s.overlay = overlay;
    s.widthIn = widthIn;
    return s;
}

Report reportFor(const FigureSpec& s)
{
    std::vector<Device> devices;
    for (const auto& id : s.devices)
        devices.push_back(rfx::test::shippedDevice(id.c_str()));
    auto r = analyzeConfig(s.config, devices);
    return *r.report;
}

// Every transform matrix(a,b,c,d,e,f) in an SVG scales x and y alike: rotations and translations
// are fine, a squash is not.
QStringList nonUniformTransforms(const QByteArray& svg)
{
    QStringList bad;
    static const QRegularExpression re(QStringLiteral("matrix\\(([^)]*)\\)"));
    auto it = re.globalMatch(QString::fromUtf8(svg));
    while (it.hasNext()) {
        const QStringList v = it.next().captured(1).split(QLatin1Char(','));
        if (v.size() != 6)
            continue;
        const double a = v[0].toDouble(), b = v[1].toDouble(), c = v[2].toDouble(), d = v[3].toDouble();
        const double sx = std::hypot(a, b), sy = std::hypot(c, d);
        if (std::abs(sx - sy) > 1e-3 * std::max(sx, sy) || std::abs(a * c + b * d) > 1e-3 * sx * sy)
            bad.append(v.join(QLatin1Char(',')));
    }
    return bad;
}

QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class TestFigureCheck : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

private slots:
    void initTestCase() { qputenv("ROOFLINE_DEVICES_DIR", ROOFLINE_TEST_DEVICES_DIR); }

    void journalCheck_data()
    {
        QTest::addColumn<double>("widthIn");
        QTest::addColumn<bool>("overlay");
        for (double w : { 3.5, 5.0, 7.0 })
            for (bool overlay : { true, false })
                QTest::addRow("%s %.1f in", overlay ? "overlay" : "grid", w) << w << overlay;
    }

    void journalCheck()
    {
        QFETCH(double, widthIn);
        QFETCH(bool, overlay);
        FigureSpec spec = resnetSpec(widthIn, overlay);
        const Report report = reportFor(spec);
        const FigureGeometry g = figureGeometry(report, spec);
        qInfo("%.1f in %s: page %.0f x %.0f pt, smallest text %.2f pt (%d text items), %zu markers, %zu legend entries",
            widthIn, overlay ? "overlay" : "grid", g.widthPt, g.heightPt, g.smallestTextPt, g.textItems,
            g.markers.size(), g.legends.size());
        QCOMPARE(std::lround(g.widthPt), std::lround(widthIn * 72));
        QVERIFY2(g.smallestTextPt >= 7.0, qPrintable(QString::number(g.smallestTextPt)));
        QVERIFY2(g.textItems >= 8 * int(g.charts.size()),
            qPrintable(QString::number(g.textItems))); // ticks and titles were measured
        QVERIFY(g.markers.size() > 50);
        QVERIFY(!g.legends.empty());
        for (const QRectF& legend : g.legends)
            for (const QRectF& marker : g.markers)
                QVERIFY2(!legend.intersects(marker),
                    qPrintable(QStringLiteral("legend (%1, %2, %3 x %4) over a marker at (%5, %6)")
                                   .arg(legend.x())
                                   .arg(legend.y())
                                   .arg(legend.width())
                                   .arg(legend.height())
                                   .arg(marker.center().x())
                                   .arg(marker.center().y())));
        // Each chart keeps a readable size: at least 3.2 in wide and 1.9 in high (the grid stacks
        // and the page grows rather than shrinking charts).
        for (const QRectF& c : g.charts)
            QVERIFY2(c.width() >= 3.2 * 72 - 0.5 && c.height() >= 1.9 * 72,
                qPrintable(QStringLiteral("%1 x %2 pt").arg(c.width()).arg(c.height())));
        if (!overlay) {
            QCOMPARE(g.charts.size(), size_t(4));
            // Each chart labels its ridge: at 7 in the A100's and the RTX 4090's cells had 20 px above
            // their roofs and none (the axis now grows for the label as for a marker).
            for (size_t c = 0; c < g.chartTexts.size(); ++c)
                QVERIFY2(std::any_of(g.chartTexts[c].begin(), g.chartTexts[c].end(),
                             [](const auto& t) { return t.first.startsWith(QStringLiteral("ridge")); }),
                    qPrintable(QStringLiteral("chart %1 at %2 in has no ridge label").arg(c).arg(widthIn)));
        }

        const QString base = m_dir.filePath(QStringLiteral("f%1-%2").arg(widthIn).arg(overlay));
        // SVG: vector, one scale for x and y everywhere.
        spec.format = FigureSpec::Format::Svg;
        spec.file = (base + QStringLiteral(".svg")).toStdString();
        RenderResult r = renderFigure(report, spec);
        QVERIFY2(r.ok, qPrintable(r.error));
        const QStringList bad = nonUniformTransforms(readAll(base + QStringLiteral(".svg")));
        QVERIFY2(bad.isEmpty(), qPrintable(bad.mid(0, 5).join(QStringLiteral("; "))));
        // PNG: the page at 300 dpi, exactly the laid-out aspect ratio.
        spec.format = FigureSpec::Format::Png;
        spec.file = (base + QStringLiteral(".png")).toStdString();
        r = renderFigure(report, spec);
        QVERIFY2(r.ok, qPrintable(r.error));
        const QImage png(base + QStringLiteral(".png"));
        QCOMPARE(png.width(), int(std::lround(widthIn * 300)));
        QVERIFY(std::abs(png.height() - g.heightPt / 72 * 300) <= 1);
        // PDF: the page in points.
        spec.format = FigureSpec::Format::Pdf;
        spec.file = (base + QStringLiteral(".pdf")).toStdString();
        r = renderFigure(report, spec);
        QVERIFY2(r.ok, qPrintable(r.error));
        const QByteArray pdf = readAll(base + QStringLiteral(".pdf"));
        QVERIFY2(pdf.contains(QStringLiteral("/MediaBox [0 0 %1").arg(std::lround(widthIn * 72)).toLatin1()),
            qPrintable(QString::number(widthIn)));
    }

    // Issue 38: a 7-inch export of three devices (U-Net 128, batch 16) cut the largest squares at
    // 500-1000 FLOP/B with the frame at x = 1000, its charts had no peak or bandwidth, roof value or
    // layer label where the one-device figure has them, and the fourth cell of its 2 x 2 grid was
    // empty. Every size and layout now carries the same information: each chart's title gives the
    // device's ceilings, its ridge is labelled and its largest layer named; no marker crosses its
    // plot's frame (the axis grows a decade); a grid's empty cell holds the legend and the caption.
    void everyLayoutCarriesTheSameInformation_data()
    {
        QTest::addColumn<double>("widthIn");
        QTest::addColumn<int>("devices");
        QTest::addColumn<bool>("overlay");
        for (double w : { 3.5, 7.0 }) {
            QTest::addRow("grid of 3, %.1f in", w) << w << 3 << false;
            QTest::addRow("one device, %.1f in", w) << w << 1 << false;
            QTest::addRow("overlay of 3, %.1f in", w) << w << 3 << true;
        }
    }

    void everyLayoutCarriesTheSameInformation()
    {
        QFETCH(double, widthIn);
        QFETCH(int, devices);
        QFETCH(bool, overlay);
        FigureSpec spec;
        spec.config.model = "unet";
        spec.config.unet.height = spec.config.unet.width = 128;
        spec.config.unet.padding = Padding::Same;
        spec.config.batch = 16;
        spec.devices = { "rtx-2060-super", "geforce-mx230", "geforce-940mx-ddr3" };
        spec.devices.resize(size_t(devices));
        spec.overlay = overlay;
        spec.widthIn = widthIn;
        const FigureGeometry g = figureGeometry(reportFor(spec), spec);
        QCOMPARE(g.plots.size(), overlay ? size_t(1) : size_t(devices));
        // No marker cut by a frame: each lies whole inside a plot.
        for (const QRectF& m : g.markers)
            QVERIFY2(std::any_of(g.plots.begin(), g.plots.end(),
                         [&](const QRectF& p) { return p.adjusted(-0.01, -0.01, 0.01, 0.01).contains(m); }),
                qPrintable(QStringLiteral("a marker at (%1, %2) pt crosses its plot's frame")
                               .arg(m.center().x())
                               .arg(m.center().y())));
        for (size_t c = 0; c < g.chartTexts.size(); ++c) {
            QStringList texts;
            for (const auto& [text, box] : g.chartTexts[c])
                texts << text;
            const QString all = texts.join(QStringLiteral(" | "));
            QVERIFY2(!all.contains(QStringLiteral("e+")), qPrintable(all)); // ticks written out, never "1e+06"
            if (!overlay) { // an overlay's legend names each roof with its value
                QVERIFY2(
                    all.contains(QStringLiteral("GB/s")) && all.contains(QStringLiteral("FLOP/s, ")), qPrintable(all));
                QVERIFY2(all.contains(QStringLiteral("ridge")), qPrintable(all));
            }
            QVERIFY2(!g.chartLayerLabels[c].empty(), qPrintable(all));
        }
        if (!overlay && devices == 3 && widthIn == 7.0) {
            // Two columns, two rows: the legend and the caption in the fourth cell, nothing below.
            const QRectF third = g.charts[2];
            const QRectF fourth(third.right(), third.top(), third.width(), third.height());
            QVERIFY(g.caption.isValid());
            QVERIFY2(fourth.contains(g.caption), qPrintable(QStringLiteral("caption at y %1").arg(g.caption.y())));
            QVERIFY(!g.legends.empty()); // the loop below holds nothing up on an empty list
            for (const QRectF& legend : g.legends)
                QVERIFY(fourth.contains(legend));
            QVERIFY2(std::abs(g.heightPt - third.bottom()) < 1, qPrintable(QString::number(g.heightPt)));
        }
    }

    // Shared axes: every chart of the grid has the same decades and the same y unit; without, the
    // MX230 (12 GFLOP/s) gets its own.
    void sharedAxes()
    {
        FigureSpec spec = resnetSpec(7.0, false);
        const Report report = reportFor(spec);
        const FigureGeometry own = figureGeometry(report, spec);
        QCOMPARE(own.axes.size(), size_t(4));
        QVERIFY(own.axes[3] != own.axes[0]);
        spec.sharedAxes = true;
        const FigureGeometry shared = figureGeometry(report, spec);
        for (const auto& a : shared.axes)
            QCOMPARE(a, shared.axes.front());
        QCOMPARE(shared.axes.front()[4], 1e12); // TFLOP/s for all, as the fastest device needs
        QVERIFY(shared.axes.front()[2] <= own.axes[3][2] && shared.axes.front()[3] >= own.axes[0][3]);
    }

    // Issue 52 item 6: a 3.5-inch figure of three devices gave each chart its own x range
    // (0.1-10^4 over 0.01-10^4), one chart bold figures in its title beside plain ones, and the white
    // edges of the points cut each solid roof into dashes (the dashed-roof convention). Read from the
    // rendered pixels: along each chart's compute roof every pixel column is the roof's dark line.
    void figureChartsAgree_data()
    {
        QTest::addColumn<double>("widthIn");
        QTest::newRow("3.5 in, stacked") << 3.5;
        QTest::newRow("7 in, grid") << 7.0;
    }
    void figureChartsAgree()
    {
        QFETCH(double, widthIn);
        FigureSpec spec;
        spec.config.model = "unet";
        spec.devices = { "rtx-2060-super", "l4", "h100-sxm" };
        spec.widthIn = widthIn;
        spec.dpi = 300;
        const Report report = reportFor(spec);
        const FigureGeometry g = figureGeometry(report, spec);
        QCOMPARE(g.axes.size(), size_t(3));
        for (const auto& a : g.axes) { // the L4's ridge at 101 FLOP/B widens its own fit
            QCOMPARE(a[0], g.axes.front()[0]);
            QCOMPARE(a[1], g.axes.front()[1]);
        }
        QVERIFY(g.axes[0][2] != g.axes[2][2] || g.axes[0][4] != g.axes[2][4]); // y stays each device's own

        const QImage image = renderFigureImage(report, spec);
        const double s = spec.dpi / 96.0, k = 72.0 / 96.0; // image pixels and points per logical pixel
        for (size_t c = 0; c < g.charts.size(); ++c) {
            const QPointF origin = g.charts[c].topLeft() / k;
            QLineF roof;
            for (const QLineF& l : g.chartLines[c])
                if (std::abs(l.dy()) < 0.5 && std::abs(l.dx()) > std::abs(roof.dx()))
                    roof = l;
            QVERIFY(std::abs(roof.dx()) > 40);
            const int y = int(std::lround((origin.y() + roof.y1()) * s));
            const int x0 = int((origin.x() + std::min(roof.x1(), roof.x2())) * s) + 4,
                      x1 = int((origin.x() + std::max(roof.x1(), roof.x2())) * s) - 4;
            QStringList gaps;
            for (int x = x0; x < x1; ++x) {
                bool line = false;
                for (int dy = -1; dy <= 1; ++dy) {
                    const QColor px = image.pixelColor(x, y + dy);
                    line = line || (px.alpha() > 200 && std::max({ px.red(), px.green(), px.blue() }) < 110);
                }
                if (!line)
                    gaps << QString::number(x);
            }
            QVERIFY2(gaps.isEmpty(),
                qPrintable(QStringLiteral("%1: the roof at y %2 is broken at x %3 of %4-%5")
                               .arg(QString::fromStdString(spec.devices[c]))
                               .arg(y)
                               .arg(gaps.mid(0, 8).join(QLatin1Char(' ')))
                               .arg(x0)
                               .arg(x1)));
        }
    }

    // Measured points, when loaded, are in the figure too: the diamonds, their legend entries and
    // the caption naming the file; a bad file is an error naming file, line and reason.
    void measuredPointsInTheFigure()
    {
        FigureSpec spec;
        spec.devices = { "rtx-2060-super" };
        spec.measurements = ROOFLINE_TEST_DATA_DIR "/measurements/unet-plain.csv";
        const Report report = reportFor(spec);
        const FigureGeometry g = figureGeometry(report, spec);
        QCOMPARE(g.measuredPoints, 3);
        QVERIFY(QString::fromStdString(figureCaption(spec, "U-Net"))
                    .contains(QStringLiteral("Diamonds: measured (unet-plain.csv)")));
        QVERIFY(!g.legends.empty() && !g.markers.empty());
        for (const QRectF& legend : g.legends)
            for (const QRectF& marker : g.markers)
                QVERIFY(!legend.intersects(marker));
        spec.format = FigureSpec::Format::Png;
        spec.file = m_dir.filePath(QStringLiteral("measured.png")).toStdString();
        QVERIFY(renderFigure(report, spec).ok);
        QFile bad(m_dir.filePath(QStringLiteral("bad.csv")));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write("layer,time_s\nenc1.conv1,-2\n");
        bad.close();
        spec.measurements = bad.fileName().toStdString();
        spec.file = m_dir.filePath(QStringLiteral("not-written.png")).toStdString();
        const RenderResult r = renderFigure(report, spec);
        QVERIFY(!r.ok);
        QVERIFY2(r.error.contains(QStringLiteral("bad.csv: line 2: time_s: must be a positive number of seconds")),
            qPrintable(r.error));
        QVERIFY(!QFile::exists(QString::fromStdString(spec.file)));
    }

    // The old squash: a cell smaller than the screen chart's minimum size was drawn at that minimum
    // and scaled to the cell in y only. A given small height now lays the chart out at that height.
    void givenHeightIsLaidOutNotSquashed()
    {
        FigureSpec spec = resnetSpec(3.5, true);
        spec.heightIn = 2.2;
        spec.format = FigureSpec::Format::Svg;
        spec.file = m_dir.filePath(QStringLiteral("short.svg")).toStdString();
        const RenderResult r = renderFigure(reportFor(spec), spec);
        QVERIFY2(r.ok, qPrintable(r.error));
        const QStringList bad = nonUniformTransforms(readAll(m_dir.filePath(QStringLiteral("short.svg"))));
        QVERIFY2(bad.isEmpty(), qPrintable(bad.mid(0, 5).join(QStringLiteral("; "))));
    }

    // The export dialog's size note says where a caption too long for the figure goes, on a second
    // paragraph: shown, the dialog grows to show it whole (at 1280 x 720 it was cut after one line).
    void theExportDialogShowsItsWholeNote()
    {
        ExportDialog d(QStringLiteral("figure.png"));
        d.show();
        QVERIFY(QTest::qWaitForWindowExposed(&d));
        d.setMeasure([](const FigureSpec&) {
            FigureSize z { 3.5, 8.79, 1050, 2637 };
            z.captionOutside = true;
            return z;
        });
        QTest::qWait(50); // the dialog's new size laid out
        auto* note = d.findChild<QLabel*>(QStringLiteral("sizeNote"));
        QVERIFY(note && d.sizeText().contains(QStringLiteral(".caption.txt")));
        QVERIFY2(note->height() >= note->heightForWidth(note->width()),
            qPrintable(QStringLiteral("%1 px of a note %2 px high")
                           .arg(note->height())
                           .arg(note->heightForWidth(note->width()))));
    }
};

QTEST_MAIN(TestFigureCheck)
#include "tst_figurecheck.moc"
