// Exported figures: valid files of the asked size and resolution, not blank, carrying their
// provenance; a sidecar reproduces the PNG pixel for pixel (and byte for byte).
#include "cli_export.h"
#include "clirun.h"
#include "figure/figurerenderer.h"
#include "io/figure.h"
#include "open/analyses.h"
#include "testutils.h"

#include <QFile>
#include <QImage>
#include <QImageReader>
#include <QPainter>
#include <QSvgRenderer>
#include <QTemporaryDir>

using namespace rfx;

namespace {

using test::cli;
using test::Run;

int colours(const QImage& image)
{
    QSet<QRgb> set;
    for (int y = 0; y < image.height(); y += 7)
        for (int x = 0; x < image.width(); x += 7)
            set.insert(image.pixel(x, y));
    return int(set.size());
}

QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class TestExport : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

    QString path(const char* name) const { return m_dir.filePath(QString::fromLatin1(name)); }
    std::string pathArg(const char* name) const { return path(name).toStdString(); }
    /// The PNG's embedded description (its caption).
    QString description(const char* name) const { return QImageReader(path(name)).text(QStringLiteral("Description")); }

private slots:
    void initTestCase()
    {
        qputenv("ROOFLINE_DEVICES_DIR", ROOFLINE_TEST_DEVICES_DIR);
        qputenv("XDG_DATA_HOME", m_dir.filePath(QStringLiteral("data")).toUtf8());
        registerExportCommands();
    }

    void pngAtSevenInchesAnd300Dpi()
    {
        const Run r = cli({ "export", "--png", pathArg("fig.png"), "--sidecar" });
        QCOMPARE(r.code, 0);
        // 7 in = 2100 px wide; the chart 0.62 x 7 in = 1302 px high, then the legend and the caption
        // as tall as their text at 7.5 pt or more (the laid-out page: 1588 px; the legend's rows are
        // 1.25 lines, as on screen, since both flow one way: legendflow.h).
        // The caption's last lines name the layers over 5 % the chart had no room to name.
        QVERIFY2(r.out.find("2100x1588 px, 300 dpi, 7.00 x 5.29 in") != std::string::npos, r.out.c_str());
        const QImage image(path("fig.png"));
        QCOMPARE(image.size(), QSize(2100, 1588));
        QCOMPARE(std::lround(image.dotsPerMeterX() * 0.0254), 300L);
        QVERIFY(colours(image) > 20);
        QCOMPARE(image.pixelColor(2, 2), QColor(Qt::white)); // print theme: white background
        // Provenance in the PNG's text chunks, and the same document in the sidecar.
        QVERIFY(image.text(QStringLiteral("Title")).startsWith(QStringLiteral("U-Net 572x572x1")));
        QVERIFY(image.text(QStringLiteral("Description")).contains(QStringLiteral("a multiply-add counts 2")));
        const QString embedded = image.text(QStringLiteral("roofline-explorer"));
        std::string error;
        auto spec = figureFromJson(embedded.toStdString(), error);
        QVERIFY2(spec, error.c_str());
        QCOMPARE(spec->devices, std::vector<std::string> { "rtx-2060-super" });
        QCOMPARE(QString::fromUtf8(readAll(path("fig.png.json"))), embedded);
    }

    void sidecarReproducesThePixels()
    {
        QVERIFY(QFile::exists(path("fig.png.json")));
        const Run r = cli({ "reproduce", pathArg("fig.png.json"), "--output", pathArg("again.png") });
        QCOMPARE(r.code, 0);
        const QImage a(path("fig.png")), b(path("again.png"));
        QCOMPARE(a.size(), b.size());
        QVERIFY(a.convertToFormat(QImage::Format_ARGB32) == b.convertToFormat(QImage::Format_ARGB32));
        // In place (the metadata records the file name): byte for byte.
        const QByteArray original = readAll(path("fig.png"));
        QVERIFY(QFile::remove(path("fig.png")));
        QCOMPARE(cli({ "reproduce", pathArg("fig.png.json") }).code, 0);
        QCOMPARE(readAll(path("fig.png")), original);
    }

    void reproduceWithoutOutputWritesBesideTheSidecar()
    {
        QVERIFY(
            cli({ "export", "--png", "rel.png", "--sidecar", "--width-px", "640", "--height-px", "400" }).code == 0);
        QFile::rename(QStringLiteral("rel.png.json"), path("rel.png.json"));
        QFile::remove(QStringLiteral("rel.png"));
        const Run r = cli({ "reproduce", pathArg("rel.png.json") });
        QCOMPARE(r.code, 0);
        QCOMPARE(QImage(path("rel.png")).size(), QSize(640, 400));
    }

    void transparentPng()
    {
        QCOMPARE(
            cli({ "export", "--png", pathArg("t.png"), "--transparent", "--width-px", "1600", "--height-px", "1000" })
                .code,
            0);
        const QImage image(path("t.png"));
        QCOMPARE(image.size(), QSize(1600, 1000)); // 5.3 in at 300 dpi: a chart, not a squeezed sliver
        QVERIFY(image.hasAlphaChannel());
        QCOMPARE(qAlpha(image.pixel(1, 1)), 0);
    }

    void svgIsVectorAndCarriesMetadata()
    {
        const Run r = cli({ "export", "--svg", pathArg("fig.svg"), "--device", "geforce-mx230", "--device",
            "rtx-2060-super", "--overlay" });
        QCOMPARE(r.code, 0);
        QSvgRenderer svg(path("fig.svg"));
        QVERIFY(svg.isValid());
        const QByteArray text = readAll(path("fig.svg"));
        QVERIFY(text.contains("width=\"177.8mm\"")); // 7 inches
        QVERIFY(text.contains("<desc>"));
        QVERIFY(text.contains("roofline-explorer figure"));
        QVERIFY(text.contains("<title>U-Net 572x572x1"));
        QVERIFY(!text.contains("<image")); // vector: no embedded raster
        QImage raster(672, 441, QImage::Format_ARGB32);
        raster.fill(Qt::white);
        QPainter p(&raster);
        svg.render(&p);
        p.end();
        QVERIFY(colours(raster) > 10);
    }

    // Compacting the SVG (QSvgGenerator's empty groups out) changes no pixel and shrinks the file:
    // a 3.5-inch single-device figure was 275 KB, 189 KB of it empty groups.
    void svgIsCompactAndDrawsTheSame()
    {
        const Run r = cli({ "export", "--svg", pathArg("small.svg"), "--width-in", "3.5" });
        QCOMPARE(r.code, 0);
        const QByteArray written = readAll(path("small.svg"));
        QVERIFY2(written.size() < 120 * 1024, QByteArray::number(written.size()));
        QVERIFY(
            !QRegularExpression(QStringLiteral("<g\\b[^>]*>\\s*</g>")).match(QString::fromUtf8(written)).hasMatch());
        // Groups that enclose nothing, nested as QSvgGenerator writes them, go; what is drawn stays.
        const QByteArray nested
            = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"100\" height=\"100\" viewBox=\"0 0 100 100\">\n"
              "<g fill=\"none\" stroke=\"black\"><g stroke=\"red\" ></g>\n"
              "<g stroke=\"blue\"><g fill=\"red\">\n</g>\n</g>\n"
              "<rect x=\"10\" y=\"10\" width=\"50\" height=\"50\" stroke=\"green\" fill=\"yellow\"/>\n"
              "</g>\n</svg>\n";
        const QByteArray compact = compactSvg(nested);
        QVERIFY(!compact.contains("red") && !compact.contains("blue"));
        QVERIFY(compact.contains("<rect") && compact.contains("stroke=\"black\""));
        auto render = [](const QByteArray& data) {
            QSvgRenderer svg(data);
            QImage image(100, 100, QImage::Format_ARGB32);
            image.fill(Qt::white);
            QPainter p(&image);
            svg.render(&p);
            return image;
        };
        QCOMPARE(render(compact), render(nested));
        QVERIFY(colours(render(compact)) >= 2);
    }

    // export --help: export's usage and options, not the whole tool's (it printed all 106 lines).
    void exportHasItsOwnHelp()
    {
        const Run r = cli({ "export", "--help" });
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.starts_with("usage: roofline-cli export (--png|--svg|--pdf) FILE"), r.out.c_str());
        QVERIFY(r.out.find("--width-px W --height-px H") != std::string::npos);
        QVERIFY(r.out.find("--image N") != std::string::npos); // it draws a configuration: those options too
        QVERIFY(r.out.find("roofline-cli tune") == std::string::npos);
        QVERIFY(r.out.find("roofline-cli reproduce") == std::string::npos);
    }

    void pdfPageSizeAndMetadata()
    {
        const Run r = cli({ "export", "--pdf", pathArg("fig.pdf"), "--width-in", "3.5" });
        QCOMPARE(r.code, 0);
        const QByteArray pdf = readAll(path("fig.pdf"));
        QVERIFY(pdf.startsWith("%PDF-"));
        QVERIFY(pdf.contains("Roofline Explorer")); // /Creator
        QVERIFY(pdf.contains("roofline-explorer figure")); // XMP metadata: the sidecar document
        // MediaBox in points: 3.5 in = 252 pt wide.
        QVERIFY2(pdf.contains("/MediaBox [0 0 252"), pdf.left(0).constData());
        // The report says the page in inches and points, as a page is measured (it said "336x362 px
        // at 96 per inch").
        QVERIFY2(r.out.find("(pdf, 3.50 x ") != std::string::npos && r.out.find(" in, 252 x ") != std::string::npos
                && r.out.find(" pt)") != std::string::npos,
            r.out.c_str());
    }

    void gridOfFourIsNotOverlay()
    {
        FigureSpec grid;
        grid.devices = { "geforce-mx230", "geforce-940mx-ddr3", "rtx-2060-super", "h100-sxm" };
        grid.widthPx = 1000;
        grid.heightPx = 700;
        std::vector<Device> devices;
        for (const auto& id : grid.devices)
            devices.push_back(rfx::test::shippedDevice(id.c_str()));
        const Report report = *analyzeConfig(grid.config, devices).report;
        const QImage a = renderFigureImage(report, grid);
        FigureSpec overlay = grid;
        overlay.overlay = true;
        const QImage b = renderFigureImage(report, overlay);
        QCOMPARE(a.size(), QSize(1000, 700));
        QVERIFY(colours(a) > 20 && colours(b) > 20);
        QVERIFY(a != b);
    }

    // Issue 36 item 7: a language model's phase exported from the command line, its caption stating the
    // settings, its sidecar (the model, phase and llm options, no network configuration) reproducing it.
    void aLanguageModelsFigureReproduces()
    {
        const std::string file = pathArg("llama.png");
        Run r = cli({ "export", "--png", file, "--width-in", "3.5", "--sidecar", "--language-model", "llama-3.1-8b",
            "--phase", "prefill", "--prompt", "1024", "--batch", "4", "--kv-bits", "fp8", "--device", "h100-sxm" });
        QVERIFY2(r.code == 0, r.err.c_str());
        const QString caption = description("llama.png");
        // The model and its phase, then its settings: not the network's "1x1 -> 1x128256, precision as
        // in the file, inference" (issue 73 item 9), the settings say each tensor's precision.
        QVERIFY2(caption.startsWith(QStringLiteral("Llama-3.1 8B (Meta, 2024) prefill. Prompt 1,024"))
                && !caption.contains(QStringLiteral("precision as in the file"))
                && !caption.contains(QStringLiteral("->"))
                && caption.contains(QStringLiteral(
                    "Prompt 1,024, generate 128 (decode at context 1,088), batch 4; weights fp16, KV cache 8-bit"))
                && caption.contains(QStringLiteral("Devices: h100-sxm.")),
            qPrintable(caption));
        std::string error;
        const auto spec = figureFromJson(readAll(path("llama.png.json")).toStdString(), error);
        QVERIFY2(spec && spec->llm, error.c_str());
        QCOMPARE(spec->llm->model, std::string("llama-3.1-8b"));
        QVERIFY(spec->llm->phase == LlmPhase::Prefill);
        QCOMPARE(spec->llm->settings.prompt, 1024);
        QCOMPARE(spec->llm->settings.kvBits, 8);
        QVERIFY(!readAll(path("llama.png.json")).contains("config_args"));
        r = cli({ "reproduce", pathArg("llama.png.json"), "--output", pathArg("llama-again.png") });
        QVERIFY2(r.code == 0, r.err.c_str());
        QVERIFY(QImage(path("llama.png")).convertToFormat(QImage::Format_ARGB32)
            == QImage(path("llama-again.png")).convertToFormat(QImage::Format_ARGB32));
        // The decode step draws other rows: another picture.
        r = cli({ "export", "--png", pathArg("llama-decode.png"), "--width-in", "3.5", "--language-model",
            "llama-3.1-8b", "--prompt", "1024", "--batch", "4", "--kv-bits", "fp8", "--device", "h100-sxm" });
        QVERIFY2(r.code == 0, r.err.c_str());
        QVERIFY(description("llama-decode.png").startsWith(QStringLiteral("Llama-3.1 8B (Meta, 2024) decode")));
        // Both phases on one chart: the prefill's open marks and the decode step's filled; it reproduces too.
        r = cli({ "export", "--png", pathArg("llama-both.png"), "--width-in", "3.5", "--sidecar", "--language-model",
            "llama-3.1-8b", "--phase", "both", "--batch", "4", "--device", "h100-sxm" });
        QVERIFY2(r.code == 0, r.err.c_str());
        QVERIFY2(
            description("llama-both.png").startsWith(QStringLiteral("Llama-3.1 8B (Meta, 2024) prefill and decode")),
            qPrintable(description("llama-both.png")));
        QVERIFY(readAll(path("llama-both.png.json")).contains("\"phase\": \"both\""));
        r = cli({ "reproduce", pathArg("llama-both.png.json"), "--output", pathArg("llama-both-again.png") });
        QVERIFY2(r.code == 0, r.err.c_str());
        QVERIFY(QImage(path("llama-both.png")).convertToFormat(QImage::Format_ARGB32)
            == QImage(path("llama-both-again.png")).convertToFormat(QImage::Format_ARGB32));
        QVERIFY(QImage(path("llama-both.png")) != QImage(path("llama-decode.png")));
        // A network's option, a phase without a model, measurements, an unknown model: refused, named.
        for (const auto& [args, says] : std::vector<std::pair<std::vector<std::string>, std::string>> {
                 { { "--language-model", "llama-3.1-8b", "--bits", "8" }, "--bits: a network's option" },
                 { { "--phase", "decode" }, "--phase: only with --language-model" },
                 { { "--language-model", "llama-3.1-8b", "--phase", "all" },
                     "--phase: expected decode, prefill or both, got 'all'" },
                 { { "--language-model", "llama-3.1-8b", "--measurements", "m.csv" },
                     "--measurements: measured and calibrated rows are a network's" },
                 { { "--language-model", "llama-3.1-8b", "--batch", "0" },
                     "--batch: must be a whole number from 1 to 65536, got 0" },
                 { { "--language-model", "no-such-model" }, "cannot use the language model: no-such-model" } }) {
            std::vector<std::string> a { "export", "--png", pathArg("bad.png") };
            a.insert(a.end(), args.begin(), args.end());
            r = cli(a);
            QCOMPARE(r.code, 2);
            QVERIFY2(r.err.find(says) != std::string::npos, r.err.c_str());
            QVERIFY(!QFile::exists(path("bad.png")));
            if (r.err.find("usage:") != std::string::npos) // export's own usage, not every command's
                QVERIFY2(r.err.find("Try 'roofline-cli export --help'.") != std::string::npos
                        && r.err.find("roofline-cli tune [") == std::string::npos,
                    r.err.c_str());
        }
    }

    // Issue 36 item 5: the context sweep as a 3.5-inch figure from the command line; its sidecar redraws it.
    // A 3.5-inch column of three language-model charts with its caption was 11.6 in tall (issue 73
    // item 8): the figure stays within a page's text, 9 in, its caption written beside it and said.
    void aTallFiguresCaptionGoesBesideIt()
    {
        const std::string file = pathArg("tall.png");
        Run r = cli({ "export", "--png", file, "--width-in", "3.5", "--language-model", "llama-3.1-8b", "--device",
            "h100-sxm", "--device", "rtx-4090", "--device", "ryzen-9-5950x" });
        QVERIFY2(r.code == 0, r.err.c_str());
        const QImage image(path("tall.png"));
        QVERIFY(!image.isNull());
        const double heightIn = image.height() / 300.0;
        QVERIFY2(heightIn <= kMaxFigureHeightIn + 0.005, qPrintable(QString::number(heightIn)));
        const QString captionFile = path("tall.caption.txt");
        QVERIFY2(r.out.find("its caption is in " + captionFile.toStdString()) != std::string::npos, r.out.c_str());
        const QString caption = QString::fromUtf8(readAll(captionFile));
        QVERIFY2(caption.startsWith(QStringLiteral("Llama-3.1 8B (Meta, 2024) decode. Prompt 512"))
                && caption.contains(QStringLiteral("Devices: h100-sxm, rtx-4090, ryzen-9-5950x"))
                && caption.endsWith(QStringLiteral("\n")) && !caption.contains(QChar(0x2060)),
            qPrintable(caption));
        // The metadata keeps it too; one device fits with its caption, and writes no caption file.
        QVERIFY(description("tall.png").startsWith(QStringLiteral("Llama-3.1 8B")));
        r = cli({ "export", "--png", pathArg("short.png"), "--width-in", "3.5", "--language-model", "llama-3.1-8b",
            "--device", "h100-sxm" });
        QVERIFY2(r.code == 0 && r.out.find("caption is in") == std::string::npos, r.out.c_str());
        QVERIFY(!QFile::exists(path("short.caption.txt")));
        // A height given is kept, caption and all.
        r = cli({ "export", "--png", pathArg("given.png"), "--width-in", "3.5", "--height-in", "10", "--language-model",
            "llama-3.1-8b", "--device", "h100-sxm", "--device", "rtx-4090", "--device", "ryzen-9-5950x" });
        QVERIFY2(r.code == 0 && r.out.find("caption is in") == std::string::npos, r.out.c_str());
        QCOMPARE(QImage(path("given.png")).height(), 3000);
    }

    void aSweepsFigureReproduces()
    {
        Run r = cli({ "export", "--png", pathArg("sweep.png"), "--width-in", "3.5", "--sidecar", "--language-model",
            "llama-3.1-8b", "--sweep", "context", "--batch", "4", "--device", "h100-sxm", "--device", "rtx-4090" });
        QVERIFY2(r.code == 0, r.err.c_str());
        const QImage image(path("sweep.png"));
        QCOMPARE(image.width(), 1050);
        QVERIFY(colours(image) > 8);
        const QString caption = description("sweep.png");
        QVERIFY2(caption.contains(QStringLiteral("against the context")) && caption.contains(QStringLiteral("batch 4")),
            qPrintable(caption));
        QVERIFY(readAll(path("sweep.png.json")).contains("\"sweep\": \"context\""));
        r = cli({ "reproduce", pathArg("sweep.png.json"), "--output", pathArg("sweep-again.png") });
        QVERIFY2(r.code == 0, r.err.c_str());
        QVERIFY(image.convertToFormat(QImage::Format_ARGB32)
            == QImage(path("sweep-again.png")).convertToFormat(QImage::Format_ARGB32));
        r = cli({ "export", "--png", pathArg("bad.png"), "--sweep", "context" });
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.find("--sweep: only with --language-model") != std::string::npos, r.err.c_str());
        r = cli({ "export", "--png", pathArg("bad.png"), "--language-model", "gpt2", "--sweep", "prompt" });
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.find("--sweep: expected context or batch, got 'prompt'") != std::string::npos, r.err.c_str());
    }

    // Issue 74 step 6: the serving plan as a figure from the command line; its sidecar redraws it.
    void aServingPlansFigureReproduces()
    {
        Run r = cli({ "export", "--png", pathArg("plan.png"), "--width-in", "3.5", "--sidecar", "--language-model",
            "llama-3.1-8b", "--prompt", "2000", "--generate", "300", "--serving", "--ttft", "500ms", "--tpot", "20ms",
            "--users", "100", "--device", "h100-sxm", "--device", "mi300x" });
        QVERIFY2(r.code == 0, r.err.c_str());
        const QImage image(path("plan.png"));
        QCOMPARE(image.width(), 1050);
        QVERIFY(colours(image) > 8);
        const QString caption = description("plan.png");
        QVERIFY2(caption.contains(QStringLiteral("targets TTFT <= 500 ms, TPOT <= 20.0 ms; 100 users at once")),
            qPrintable(caption));
        QVERIFY(readAll(path("plan.png.json")).contains("\"serving\""));
        r = cli({ "reproduce", pathArg("plan.png.json"), "--output", pathArg("plan-again.png") });
        QVERIFY2(r.code == 0, r.err.c_str());
        QVERIFY(image.convertToFormat(QImage::Format_ARGB32)
            == QImage(path("plan-again.png")).convertToFormat(QImage::Format_ARGB32));
        r = cli({ "export", "--png", pathArg("bad.png"), "--serving" });
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.find("--serving: only with --language-model") != std::string::npos, r.err.c_str());
    }

    void errors()
    {
        Run r = cli({ "export", "--png", "/nonexistent-dir/x.png" });
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.find("/nonexistent-dir/x.png") != std::string::npos, r.err.c_str());
        r = cli({ "export", "--png", pathArg("x.png"), "--image", "580" });
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.find("572 and 588") != std::string::npos);
        r = cli({ "export", "--png", pathArg("x.png"), "--device", "nope" });
        QCOMPARE(r.code, 2);
        QVERIFY(!QFile::exists(path("x.png")));
        QFile broken(path("broken.json"));
        QVERIFY(broken.open(QIODevice::WriteOnly));
        broken.write("{\"schema\": 1, \"config_args\": 5}");
        broken.close();
        r = cli({ "reproduce", pathArg("broken.json") });
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.find("broken.json: config_args: wrong type") != std::string::npos, r.err.c_str());
        r = cli({ "reproduce", pathArg("missing.json") });
        QCOMPARE(r.code, 1);
    }
};

QTEST_MAIN(TestExport)
#include "tst_export.moc"
