// Figures at every size a paper uses: nothing cut or overlapping from 3.5 to 7 inches, titles plain,
// the layers over the share named or counted.
#include "chart/chartarea.h"
#include "figure/figurelayout.h"
#include "figure/figurerenderer.h"
#include "llm/llm_analysis.h"
#include "llm/llm_arch.h"
#include "llm/llm_both.h"
#include "open/analyses.h"
#include "window/mainwindow.h"
#include "window/teaching.h"

#include "chart/rooflinechart.h"
#include "chart/summaryview.h"
#include "guitestutils.h"
#include "style/chartfit.h"
#include "testutils.h"
#include "ui/chart/chartsizetests.h"

#include <QDockWidget>
#include <QGraphicsTextItem>
#include <QRegularExpression>
#include <QScrollArea>
#include <QScrollBar>
#include <QStatusBar>

using namespace rfx;
using namespace rfx::chartsizetest;

namespace {
// What is wrong with the texts and leaders of every chart of a laid-out figure (chartsizetests.h).
QStringList figureProblems(const FigureGeometry& g)
{
    QStringList out;
    for (size_t i = 0; i < g.chartTexts.size(); ++i)
        out << problems(g.chartTexts[i], g.chartBounds[i], g.chartLayerLabels[i], g.chartLines[i], g.chartLeaders[i]);
    return out;
}

// A figure's chart (the print style) of `width` x 320 px, laid out.
void showInPrint(RooflineChart& chart, const Report& report, int width)
{
    chart.setPrintStyle(13, false);
    chart.resize(width, 320);
    chart.setReport(report, { 0 });
    chart.show();
    settle();
}
} // namespace

class TestChartSizesFigures : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    QFont m_appFont; // the application's type before any window: a window closed in presentation mode leaves it 1.5 x

private slots:
    void initTestCase()
    {
        test::isolateGuiTest(m_dir, QStringLiteral("tst_chartsizes_figures"));
        m_appFont = QApplication::font();
    }

    void figureSweep_data()
    {
        QTest::addColumn<double>("widthIn");
        QTest::addColumn<bool>("overlay");
        for (double w : { 3.5, 5.0, 7.0 })
            for (bool overlay : { true, false })
                QTest::addRow("%s %.1f in", overlay ? "overlay" : "grid", w) << w << overlay;
    }

    void figureSweep()
    {
        QFETCH(double, widthIn);
        QFETCH(bool, overlay);
        qputenv("ROOFLINE_DEVICES_DIR", ROOFLINE_TEST_DEVICES_DIR);
        FigureSpec s;
        s.config.model = "unet";
        for (const QString& id : kThree)
            s.devices.push_back(id.toStdString());
        s.overlay = overlay;
        s.widthIn = widthIn;
        std::vector<Device> devices;
        for (const auto& id : s.devices)
            devices.push_back(test::shippedDevice(id.c_str()));
        const Report report = *analyzeConfig(s.config, devices).report;
        const FigureGeometry g = figureGeometry(report, s);
        QVERIFY(!g.chartTexts.empty());
        QStringList failures = figureProblems(g);
        QVERIFY2(failures.isEmpty(), qPrintable(failures.mid(0, 12).join(QLatin1Char('\n'))));
    }

    // A language model's decode step on three devices (issue 73 item 8): the leader of a layer label
    // ran through "ridge 34.0 FLOP/B" and the ridge ring in a 3.5-inch figure, one ended on another
    // label. At every width, grid and overlay: no leader crosses a text but its own label, nor another
    // leader; and an automatic height stays within a page's text, the caption moved out where it must.
    void languageModelFigureSweep_data() { figureSweep_data(); }
    void languageModelFigureSweep()
    {
        QFETCH(double, widthIn);
        QFETCH(bool, overlay);
        qputenv("ROOFLINE_DEVICES_DIR", ROOFLINE_TEST_DEVICES_DIR);
        LlmModel llama;
        llama.arch = *findLanguageModel("llama-3.1-8b");
        std::vector<Device> devices;
        FigureSpec s;
        for (const char* id : { "h100-sxm", "rtx-4090", "ryzen-9-5950x" }) {
            devices.push_back(test::shippedDevice(id));
            s.devices.emplace_back(id);
        }
        const LlmOutcome o = analyzeLlm(llama, LlmSettings {}, devices, false);
        QVERIFY(o.analysis);
        s.llm = LlmWork {};
        s.llm->model = "llama-3.1-8b";
        s.config = o.analysis->decode.config;
        s.overlay = overlay;
        s.widthIn = widthIn;
        const FigureGeometry g = figureGeometry(o.analysis->decode, s);
        QVERIFY(!g.chartTexts.empty());
        QStringList failures = figureProblems(g);
        QVERIFY2(failures.isEmpty(), qPrintable(failures.mid(0, 12).join(QLatin1Char('\n'))));
        const double heightIn = g.heightPt / 72;
        QVERIFY2(heightIn <= kMaxFigureHeightIn + 0.01, qPrintable(QStringLiteral("%1 in tall").arg(heightIn)));
        const FigureSize size = figureSize(o.analysis->decode, s);
        QCOMPARE(size.captionOutside, g.caption.isEmpty());
        // Both phases on one chart: names such as "decode.blk0-31.gate_proj 25 %" fit nowhere on one or
        // two lines, and a 7-inch grid named none; broken after each dot, each chart names some.
        if (widthIn == 7.0 && !overlay) {
            s.llm->phase = LlmPhase::Both;
            const FigureGeometry both = figureGeometry(bothPhases(*o.analysis), s);
            for (size_t i = 0; i < both.chartLayerLabels.size(); ++i)
                QVERIFY2(
                    !both.chartLayerLabels[i].empty(), qPrintable(QStringLiteral("chart %1 names no layer").arg(i)));
            failures += figureProblems(both);
            QVERIFY2(failures.isEmpty(), qPrintable(failures.mid(0, 12).join(QLatin1Char('\n'))));
        }
    }

    // Issue 52 item 6: a figure's title font is bold; one chart of a 7-inch grid took a form that left
    // its ceilings in it (bold figures beside its neighbours' plain). At every width each form that
    // shows the ceilings sets them in plain weight.
    void figureTitlesKeepTheFiguresPlain()
    {
        Config c;
        c.model = "unet";
        const Report report = *analyzeConfig(c, { test::shippedDevice("h100-sxm") }).report;
        int forms = 0;
        QStringList seen;
        for (int width : { 1400, 900, 520, 420, 340, 260 }) {
            RooflineChart chart;
            showInPrint(chart, report, width);
            const QString title = chart.chart()->title();
            if (!title.contains(QStringLiteral("TFLOP/s")))
                continue;
            ++forms;
            if (!seen.contains(title))
                seen << title;
            const qsizetype figures = title.indexOf(QStringLiteral("FP32"));
            const qsizetype plain = title.lastIndexOf(QStringLiteral("font-weight:normal"), figures);
            QVERIFY2(plain >= 0 && title.indexOf(QStringLiteral("</span>"), plain) > figures, qPrintable(title));
        }
        QVERIFY2(seen.size() >= 2, qPrintable(seen.join(QLatin1Char('\n')))); // more than one form was tried
        QVERIFY(forms >= 3);
    }

    // A device's name too long for a narrow chart (a 3.5-inch figure's "EPYC Zen 4 VM (LLM set,
    // 2026-12-06)") goes on two lines: Qt elided it to "EPYC Zen 4 VM (LLM set, 2026-1...", the
    // ceilings' line gone. At every width the title as drawn is whole, the name's words all there.
    void longDeviceNamesWrapNotCut()
    {
        Device d = test::shippedDevice("h100-sxm");
        d.name = "EPYC Zen 4 VM (LLM set, 2026-12-06)";
        Config c;
        c.model = "unet";
        const Report report = *analyzeConfig(c, { d }).report;
        int wrapped = 0;
        for (int width : { 1400, 900, 520, 420, 340 }) {
            RooflineChart chart;
            showInPrint(chart, report, width);
            QString drawn;
            for (QGraphicsItem* item : chart.chart()->childItems())
                if (auto* text = dynamic_cast<QGraphicsTextItem*>(item);
                    text && text->toPlainText().contains(QStringLiteral("EPYC")))
                    drawn = text->toPlainText();
            QVERIFY2(!drawn.contains(QStringLiteral("...")) && !drawn.contains(QChar(0x2026)),
                qPrintable(QString::number(width) + QStringLiteral(" px: ") + drawn));
            QVERIFY2(drawn.contains(QStringLiteral("2026-12-06)")) && drawn.contains(QStringLiteral("TFLOP/s")),
                qPrintable(QString::number(width) + QStringLiteral(" px: ") + drawn));
            wrapped += drawn.contains(QStringLiteral("EPYC Zen 4 VM\n(LLM set"))
                || drawn.contains(QStringLiteral("EPYC Zen 4 VM\u2029(LLM set"));
        }
        QVERIFY(wrapped > 0); // the narrow ones took the two-line name
    }

    // Issue 52 item 5: layers taking 5 % or more of the time are named; where a chart had no room
    // for some (3 of 8 named on the single chart, 1 of 8 in a grid cell) they went without a word.
    // At every size each such layer is named on the plot or counted in "+N more over 5 %", whose
    // tooltip lists them, clear of the labels; a figure's caption lists the ones left out.
    void layersOverTheShareAreNamedOrCounted_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::newRow("desk") << QSize(1100, 620);
        QTest::newRow("grid cell") << QSize(420, 300);
        QTest::newRow("small") << QSize(300, 220);
    }
    void layersOverTheShareAreNamedOrCounted()
    {
        QFETCH(QSize, size);
        Config c;
        c.model = "unet";
        const Report report = *analyzeConfig(c, { test::shippedDevice("rtx-2060-super") }).report;
        QStringList over;
        for (const LayerResult& l : report.results[0].layers)
            if (l.share >= 0.05 && l.intensity > 0)
                over << QString::fromStdString(l.name);
        QVERIFY2(over.size() >= 4, qPrintable(over.join(QLatin1Char(' '))));
        RooflineChart chart;
        chart.resize(size);
        chart.setReport(report, { 0 });
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        settle();
        const auto named = chart.layerLabels();
        const QStringList unnamed = chart.unnamedLayers();
        QCOMPARE(int(named.size()) + int(unnamed.size()), int(over.size()));
        for (const QString& layer : over) {
            const QString prefix = layer + QLatin1Char(' ');
            const bool onPlot = std::any_of(named.begin(), named.end(), [&](const auto& l) {
                return QString(l.first).replace(QLatin1Char('\n'), QLatin1Char(' ')).startsWith(prefix);
            });
            const bool counted
                = std::any_of(unnamed.begin(), unnamed.end(), [&](const QString& u) { return u.startsWith(prefix); });
            QVERIFY2(onPlot != counted, qPrintable(layer));
        }
        const QRectF more = chart.moreLabelBox();
        QCOMPARE(more.isEmpty(), unnamed.isEmpty());
        if (size.width() < 500)
            QVERIFY2(!unnamed.isEmpty(), "a small chart names every layer: the test would not see the note");
        if (!unnamed.isEmpty()) {
            const auto texts = chart.textBoxes();
            const QString note = QStringLiteral("+%1 more over 5 %").arg(unnamed.size());
            QVERIFY2(std::any_of(texts.begin(), texts.end(), [&](const auto& t) { return t.first == note; }),
                qPrintable(note));
            QVERIFY(chart.chart()->plotArea().contains(more));
            for (const auto& [text, box] : named)
                QVERIFY2(!box.intersects(more), qPrintable(text));
        }

        // The figure of three devices at 3.5 inches: its caption names what its charts could not.
        qputenv("ROOFLINE_DEVICES_DIR", ROOFLINE_TEST_DEVICES_DIR);
        FigureSpec s;
        s.config = c;
        std::vector<Device> devices;
        for (const QString& id : kThree) {
            s.devices.push_back(id.toStdString());
            devices.push_back(test::shippedDevice(id.toStdString().c_str()));
        }
        s.widthIn = 3.5;
        const Report three = *analyzeConfig(c, devices).report;
        const FigureLayout figure(three, s);
        const QString caption = QString(figure.caption()).remove(QChar(0x2060));
        QVERIFY2(caption.contains(QStringLiteral("not named on the plots for lack of room: RTX 2060 Super: ")),
            qPrintable(caption));
        QVERIFY2(
            caption.contains(QStringLiteral(" %; H100 SXM5 80 GB: ")), qPrintable(caption)); // one group per device
        QVERIFY2(caption.contains(QRegularExpression(QStringLiteral("\\. Roofline Explorer [0-9.]+$"))),
            qPrintable(caption)); // the stamp last
    }
};

QTEST_MAIN(TestChartSizesFigures)
#include "tst_chartsizes_figures.moc"
