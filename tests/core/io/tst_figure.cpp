// FigureSpec: sizes, the export command line, and the sidecar JSON round trip; the report's title.
#include "io/figure.h"
#include "io/options.h"
#include "io/report_writer.h"
#include "llm/llm_analysis.h"

#include "testutils.h"
#include <algorithm>

#include <QtTest>

using namespace rfx;

namespace {
std::vector<std::string> split(const QString& s)
{
    std::vector<std::string> out;
    for (const QString& a : s.split(QLatin1Char(' '), Qt::SkipEmptyParts))
        out.push_back(a.toStdString());
    return out;
}
} // namespace

class TestFigure : public QObject {
    Q_OBJECT
private slots:
    // Where a caption that does not fit its figure goes: beside it, the figure's name with .caption.txt.
    void captionFiles()
    {
        QCOMPARE(captionFileFor("fig.png"), std::string("fig.caption.txt"));
        QCOMPARE(captionFileFor("out/roofline.v2.svg"), std::string("out/roofline.v2.caption.txt"));
        QCOMPARE(captionFileFor("F.PDF"), std::string("F.caption.txt"));
        QCOMPARE(captionFileFor("noext"), std::string("noext.caption.txt"));
        QCOMPARE(kMaxFigureHeightIn, 11.0 - 2 * 1.0); // US Letter, 1-inch margins
    }

    void sizes()
    {
        FigureSpec s;
        s.file = "f.png";
        // 7 in at 300 dpi: 2100 px; height 0.62 x 7 + 0.25 in caption = 4.59 in = 1377 px.
        FigureSize z = resolveSize(s, 1);
        QCOMPARE(z.widthPx, 2100);
        QCOMPARE(z.heightPx, 1377);
        // Four charts: 2 columns, 2 rows of 3.5-inch cells, each 0.8 as high as wide (a cell under 5 in
        // keeps room for its plot under the title): 2 x 2.8 + 0.25 = 5.85 in.
        // Cell heights written out (figure.cpp's 0.62 for a 5-inch cell or wider, 0.8 below): a 7-inch
        // cell is 4.34 in high, a 3.5-inch one 2.8 in, a 5-inch one 3.1 in, a 4.9-inch one 3.92 in.
        QCOMPARE(cellHeightIn(7.0), 4.34);
        QCOMPARE(cellHeightIn(3.5), 2.8);
        QCOMPARE(cellHeightIn(5.0), 3.1);
        QCOMPARE(cellHeightIn(4.9), 3.92);
        z = resolveSize(s, 4);
        QCOMPARE(z.heightPx, 1755);
        // Nine charts: never a cell under 3.2 in, so 2 columns (not the screen's 3) and 5 rows:
        // 5 x 2.8 + 0.25 = 14.25 in: the page grows with the grid.
        QCOMPARE(figureColumns(9, 7.0), 2);
        QCOMPARE(resolveSize(s, 9).heightPx, 4275);
        // A 3.5-inch column stacks four charts: 4 x 2.8 + 0.25 = 11.45 in; with 0.8 in measured
        // for the legend and caption, 12.0 in.
        FigureSpec column = s;
        column.widthIn = 3.5;
        QCOMPARE(figureColumns(4, 3.5), 1);
        QCOMPARE(resolveSize(column, 4).heightPx, 3435);
        QCOMPARE(resolveSize(column, 4, 0.8).heightPx, 3600);
        QCOMPARE(figureColumns(4, 5.0), 1);
        QCOMPARE(figureColumns(4, 6.4), 2);
        s.caption = false;
        QCOMPARE(resolveSize(s, 1).heightPx, 1302); // 4.34 in
        s.widthPx = 1200;
        s.heightPx = 800;
        s.dpi = 150;
        z = resolveSize(s, 1);
        QCOMPARE(z.widthPx, 1200);
        QCOMPARE(z.widthIn, 8.0);
        QCOMPARE(gridColumns(1), 1);
        QCOMPARE(gridColumns(4), 2);
        QCOMPARE(gridColumns(5), 3);
    }

    void parseGood()
    {
        FigureSpec s;
        std::string error;
        QVERIFY2(parseExportArgs(split(QStringLiteral("--pdf out.pdf --width-in 3.5 --dpi 600 --overlay --top 10 "
                                                      "--image 128 --padding same --device t4 --device l4")),
                     s, error),
            error.c_str());
        QCOMPARE(s.format, FigureSpec::Format::Pdf);
        QCOMPARE(s.file, std::string("out.pdf"));
        QCOMPARE(s.widthIn, 3.5);
        QCOMPARE(s.dpi, 600.0);
        QVERIFY(s.overlay);
        QCOMPARE(s.filter.topN, 10);
        QCOMPARE(s.config.unet.height, 128);
        QCOMPARE(s.devices, (std::vector<std::string> { "t4", "l4" }));
        // defaults
        FigureSpec d;
        QVERIFY(parseExportArgs({ "--png", "a.png" }, d, error));
        QCOMPARE(d.devices, std::vector<std::string> { "rtx-2060-super" });
        QCOMPARE(d.widthIn, 7.0);
        QCOMPARE(d.dpi, 300.0);
    }

    void parseErrors_data()
    {
        QTest::addColumn<QString>("args");
        QTest::addColumn<QString>("error");
        QTest::newRow("no output") << "--width-in 7"
                                   << "export: give the output as --png FILE";
        QTest::newRow("two formats") << "--png a.png --svg a.svg"
                                     << "give one of --png, --svg or --pdf";
        QTest::newRow("missing file") << "--png"
                                      << "--png: missing value";
        QTest::newRow("bad dpi") << "--png a.png --dpi 5"
                                 << "dpi must be between 50 and 2400, got 5";
        QTest::newRow("dpi text") << "--png a.png --dpi high"
                                  << "--dpi: expected a number, got 'high'";
        QTest::newRow("too many pixels") << "--png a.png --width-in 40 --dpi 2400"
                                         << "width x dpi gives 96000 pixels";
        QTest::newRow("half a pixel size") << "--png a.png --width-px 800"
                                           << "give both --width-px and --height-px";
        QTest::newRow("tiny") << "--png a.png --width-px 10 --height-px 10"
                              << "pixel sizes must be between 64 and 20000";
        QTest::newRow("narrow") << "--png a.png --width-in 0.2"
                                << "width must be between 1 and 40 inches";
        QTest::newRow("unknown") << "--png a.png --colour red"
                                 << "export: unknown option '--colour'";
        QTest::newRow("bad config") << "--png a.png --bits 12"
                                    << "bits must be 8, 16, 32 or 64, got 12";
        QTest::newRow("flag value") << "--png a.png --overlay=yes"
                                    << "--overlay takes no value";
    }
    void parseErrors()
    {
        QFETCH(QString, args);
        QFETCH(QString, error);
        FigureSpec s;
        std::string why;
        QVERIFY(!parseExportArgs(split(args), s, why));
        QVERIFY2(QString::fromStdString(why).startsWith(error), why.c_str());
    }

    void sidecarRoundTrip()
    {
        FigureSpec s;
        std::string error;
        QVERIFY(parseExportArgs(split(QStringLiteral("--svg fig.svg --width-in 3.5 --height-in 3 --no-caption "
                                                     "--transparent --only-convolutions --batch 16 --bits 16 "
                                                     "--tensor-cores --mode training --device h100-sxm")),
            s, error));
        auto back = figureFromJson(figureToJson(s), error);
        QVERIFY2(back, error.c_str());
        QVERIFY(*back == s);
        // and the command line in the sidecar reproduces the same spec
        std::vector<std::string> cmd = figureToArgs(s);
        cmd.erase(cmd.begin()); // "export"
        FigureSpec again;
        QVERIFY2(parseExportArgs(cmd, again, error), error.c_str());
        QVERIFY(again == s);
    }

    void sharedAxesRoundTrip()
    {
        FigureSpec s;
        std::string error;
        QVERIFY2(parseExportArgs(split(QStringLiteral("--png g.png --shared-axes --device t4 --device l4 "
                                                      "--measurements m.csv --measured-device l4 --tick-style power")),
                     s, error),
            error.c_str());
        QVERIFY(s.sharedAxes);
        QCOMPARE(s.measurements, std::string("m.csv"));
        QCOMPARE(s.measuredDevice, std::string("l4"));
        QVERIFY(s.powerTicks);
        FigureSpec wrongStyle;
        QVERIFY(!parseExportArgs(split(QStringLiteral("--png g.png --tick-style fancy")), wrongStyle, error));
        QCOMPARE(QString::fromStdString(error), QStringLiteral("--tick-style: expected plain or power, got 'fancy'"));
        FigureSpec orphan;
        QVERIFY(!parseExportArgs(split(QStringLiteral("--png g.png --measured-device l4")), orphan, error));
        QCOMPARE(QString::fromStdString(error), QStringLiteral("--measured-device needs --measurements FILE"));
        auto back = figureFromJson(figureToJson(s), error);
        QVERIFY2(back, error.c_str());
        QVERIFY(back->sharedAxes);
        QVERIFY(*back == s);
        std::vector<std::string> cmd = figureToArgs(s);
        QVERIFY(std::find(cmd.begin(), cmd.end(), "--shared-axes") != cmd.end());
        // A sidecar written before shared axes existed still reads, without them; a wrong type is named.
        std::string old = figureToJson(s);
        const auto at = old.find("\"shared_axes\": true,");
        QVERIFY(at != std::string::npos);
        std::string without = old;
        without.erase(at, std::string("\"shared_axes\": true,").size());
        back = figureFromJson(without, error);
        QVERIFY2(back, error.c_str());
        QVERIFY(!back->sharedAxes);
        std::string wrong = old;
        wrong.replace(at, std::string("\"shared_axes\": true").size(), "\"shared_axes\": 1");
        QVERIFY(!figureFromJson(wrong, error));
        QCOMPARE(QString::fromStdString(error), QStringLiteral("view.shared_axes: wrong type"));
    }

    // A serving plan's figure: its targets through the sidecar and the command line and back; its
    // caption names the traffic, the targets and the load; bad targets are named.
    void servingRoundTrip()
    {
        FigureSpec s;
        s.file = "plan.png";
        s.devices = { "h100-sxm", "mi300x" };
        s.llm = LlmWork {};
        s.llm->model = "llama-3.1-70b";
        s.llm->settings.prompt = 2000;
        s.llm->settings.generate = 300;
        s.serving = ServingFigure { 0.5, 0.02, 200 };
        std::string error;
        const auto back = figureFromJson(figureToJson(s), error);
        QVERIFY2(back, error.c_str());
        QVERIFY(back->serving && *back->serving == *s.serving);
        std::vector<std::string> args = figureToArgs(s);
        args.erase(args.begin()); // "export"
        FigureSpec parsed;
        QVERIFY2(parseExportArgs(args, parsed, error), error.c_str());
        QVERIFY(parsed.serving && *parsed.serving == *s.serving);
        QCOMPARE(parsed.llm->settings.prompt, 2000);
        s.serving->tpot = 0; // no target: "none" on the command line
        args = figureToArgs(s);
        QVERIFY(std::find(args.begin(), args.end(), "none") != args.end());
        args.erase(args.begin());
        QVERIFY2(parseExportArgs(args, parsed, error), error.c_str());
        QCOMPARE(parsed.serving->tpot, 0.0);
        const std::string caption = servingCaption(back.value(), "Llama-3.1 70B (Meta, 2024)");
        QVERIFY2(
            caption.find("2,000 tokens in and 300 out a request; targets TTFT <= 500 ms, TPOT <= 20.0 ms; 200 users "
                         "at once. Devices: h100-sxm, mi300x.")
                != std::string::npos,
            caption.c_str());
        FigureSpec bad;
        QVERIFY(!parseExportArgs({ "--png", "x.png", "--serving" }, bad, error));
        QVERIFY2(error.find("--serving: only with --language-model") == 0, error.c_str());
        QVERIFY(!parseExportArgs({ "--png", "x.png", "--language-model", "gpt2", "--tpot", "20ms" }, bad, error));
        QVERIFY2(error.find("add --serving") != std::string::npos, error.c_str());
        QVERIFY(!parseExportArgs(
            { "--png", "x.png", "--language-model", "gpt2", "--serving", "--ttft", "soon" }, bad, error));
        QVERIFY2(error.find("--ttft soon: give a time above 0") == 0, error.c_str());
        std::string json = figureToJson(s);
        json.replace(json.find("\"users\": 200"), 12, "\"users\": -1");
        QVERIFY(!figureFromJson(json, error));
        QVERIFY2(error.find("serving: ttft_s from 0") == 0, error.c_str());
    }

    void sidecarErrors_data()
    {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("error");
        QTest::newRow("not json") << "{"
                                  << "not a JSON object";
        QTest::newRow("schema") << "{\"schema\": 2}"
                                << "schema: expected 1";
        QTest::newRow("schema too large for an int") << "{\"schema\": 1444444444444444444444444}"
                                                     << "schema: expected 1"; // fuzz_figure: UB before
        QTest::newRow("missing") << "{\"schema\": 1, \"config_args\": [], \"devices\": [\"t4\"], \"view\": {}}"
                                 << "export: missing";
        QTest::newRow("wrong type") << "{\"schema\": 1, \"config_args\": \"--batch 2\"}"
                                    << "config_args: wrong type";
        QTest::newRow("bad arg")
            << "{\"schema\": 1, \"config_args\": [\"--bits\", \"x\"], \"devices\": [], \"view\": {}, "
               "\"export\": {}}"
            << "config_args: --bits: expected a whole number";
    }
    void sidecarErrors()
    {
        QFETCH(QString, json);
        QFETCH(QString, error);
        std::string why;
        QVERIFY(!figureFromJson(json.toStdString(), why));
        QVERIFY2(QString::fromStdString(why).startsWith(error), why.c_str());
    }

    void sidecarBadFormat()
    {
        FigureSpec s;
        s.file = "x.png";
        s.devices = { "t4" };
        std::string text = figureToJson(s);
        text.replace(text.find("\"png\""), 5, "\"gif\"");
        std::string why;
        QVERIFY(!figureFromJson(text, why));
        QCOMPARE(why, std::string("export.format: expected one of png, svg, pdf, got 'gif'"));
    }

    void caption()
    {
        FigureSpec s;
        s.devices = { "rtx-2060-super", "t4" };
        const std::string c = figureCaption(s, "U-Net 572x572x1 -> 388x388x2, batch 1, 32-bit, inference");
        QVERIFY(c.find("Devices: rtx-2060-super, t4") != std::string::npos);
        QVERIFY(c.find("a multiply-add counts 2") != std::string::npos);
        QVERIFY(c.find("Roofline Explorer 0.") != std::string::npos);
    }

    void formatFromExtension()
    {
        QCOMPARE(formatFromPath("a/b.PNG"), std::optional(FigureSpec::Format::Png));
        QCOMPARE(formatFromPath("b.svg"), std::optional(FigureSpec::Format::Svg));
        QCOMPARE(formatFromPath("b.pdf"), std::optional(FigureSpec::Format::Pdf));
        QVERIFY(!formatFromPath("b.jpg"));
    }

    // The title says "tensor cores" where a device runs rows on them: a language model asks every
    // device for them, and a CPU has none (its chart's title said so all the same).
    void titleSaysTensorCoresWhereTheyRun()
    {
        LlmModel m;
        m.arch = *findLanguageModel("llama-3.2-1b");
        const Device& gpu = test::shippedDevice("h100-sxm");
        const Device& cpu = test::shippedDevice("ryzen-9-5950x");
        for (const auto& [devices, says] :
            { std::pair { std::vector<Device> { cpu }, false }, std::pair { std::vector<Device> { gpu }, true },
                std::pair { std::vector<Device> { cpu, gpu }, true } }) {
            const LlmOutcome o = analyzeLlm(m, LlmSettings {}, devices, false);
            QVERIFY2(o.analysis, o.error.c_str());
            QVERIFY(o.analysis->decode.config.tensorCores);
            const std::string title = reportTitle(o.analysis->decode);
            QVERIFY2((title.find(", tensor cores") != std::string::npos) == says, title.c_str());
        }
    }
};

QTEST_GUILESS_MAIN(TestFigure)
#include "tst_figure.moc"
