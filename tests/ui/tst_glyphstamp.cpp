// Text rewritten on every slider step (the layer table's cells, the summaries under the charts, the
// analysis line) is composed from images of its glyphs (widgets/glyphstamp.h, issue 37 item 8) rather
// than laid out and drawn by Qt's text engine each time: these hold it to the pixels Qt gives, bit for
// bit where both draw onto nothing, and leave to Qt what only its engine draws.
#include "chart/summarylayout.h"
#include "chart/summaryview.h"
#include "open/analyses.h"
#include "widgets/elidedlabel.h"
#include "widgets/glyphstamp.h"

#include "guitestutils.h"
#include "testutils.h"

#include <QAbstractTextDocumentLayout>
#include <QPainter>
#include <QStaticText>
#include <QStyle>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextLayout>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <cstdlib>

using namespace rfx;

namespace {
// `font` without OpenType shaping, as the table's cells and the summaries are drawn.
QFont unshapedFont(QFont font = QGuiApplication::font())
{
    font.setStyleStrategy(QFont::PreferNoShaping);
    return font;
}

// The largest difference of any channel, alpha included, of two images of one size (-1: sizes differ).
int largestDifference(const QImage& a, const QImage& b)
{
    if (a.size() != b.size())
        return -1;
    int largest = 0;
    for (int y = 0; y < a.height(); ++y)
        for (int x = 0; x < a.width(); ++x) {
            const QRgb p = a.pixel(x, y), q = b.pixel(x, y);
            largest = std::max({ largest, std::abs(qRed(p) - qRed(q)), std::abs(qGreen(p) - qGreen(q)),
                std::abs(qBlue(p) - qBlue(q)), std::abs(qAlpha(p) - qAlpha(q)) });
        }
    return largest;
}

void settle()
{
    for (int i = 0; i < 4; ++i) {
        QCoreApplication::processEvents();
        QTest::qWait(10);
    }
}
} // namespace

class TestGlyphStamp : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

private slots:
    void initTestCase() { test::isolateGuiTest(m_dir, QStringLiteral("tst_glyphstamp")); }

    // A cell's text composed from glyph images is the image QPainter::drawStaticText gives, bit for
    // bit, and as wide: numbers, units, the bound and warning glyphs, shapes, names with descenders.
    void stampedTextIsQtsText()
    {
        GlyphStamp stamp;
        const QStringList texts { QStringLiteral("957 us"), QStringLiteral("12.3 GFLOP"),
            QStringLiteral("1\u00d764\u00d7128\u00d7128"), QStringLiteral("\u25e2 memory"),
            QStringLiteral("\u25ac compute"), QStringLiteral("\u26a0 uncounted"), QStringLiteral("\u2013"),
            QStringLiteral("up.block_4/conv3x3 jq"), QStringLiteral("AV To Wy"),
            QStringLiteral("0.0123 \u00b7 45.6\u00a0MB") };
        int inked = 0;
        for (const bool bold : { false, true }) {
            QFont font = unshapedFont();
            font.setBold(bold);
            for (const QString& text : texts) {
                const auto line = stamp.layout(text, font);
                QVERIFY2(line, qPrintable(text));
                QStaticText qt(text);
                qt.setTextFormat(Qt::PlainText);
                qt.prepare(QTransform(), font);
                QCOMPARE(line->width, qt.size().width());
                QCOMPARE(double(stamp.lineHeight(font)), qt.size().height());
                QImage expected(QSize(int(std::ceil(qt.size().width() + 4)), int(std::ceil(qt.size().height()))),
                    QImage::Format_ARGB32_Premultiplied);
                expected.fill(0);
                QPainter p(&expected);
                p.setFont(font);
                p.setPen(QColor(0x0b, 0x4f, 0x9c));
                p.drawStaticText(QPointF(2, 0), qt);
                p.end();
                const QImage mine = stamp.render(*line, font, QColor(0x0b, 0x4f, 0x9c), 2);
                QVERIFY2(largestDifference(mine, expected) == 0, qPrintable(text));
                for (int y = 0; y < mine.height(); ++y)
                    for (int x = 0; x < mine.width(); ++x)
                        inked += qAlpha(mine.pixel(x, y)) > 0;
            }
        }
        QVERIFY(inked > 1000);
        // What only Qt's text engine draws is left to it: a shaped font, a script that needs shaping,
        // a combining accent, a word joiner, a tab.
        QVERIFY(!stamp.layout(QStringLiteral("957 us"), QGuiApplication::font()));
        for (const QString& text : { QStringLiteral("\u0645\u0631\u062d\u0628\u0627"), QStringLiteral("e\u0301"),
                 QStringLiteral("images/\u2060s"), QStringLiteral("a\tb"), QString() })
            QVERIFY2(!stamp.layout(text, unshapedFont()), qPrintable(text));
    }

    // A summary's document composed from Qt's own layout is what the document layout draws: bold,
    // italic and coloured spans, no-break spaces and word joiners, lines wrapped to the width, a glyph
    // from a fallback font, and a second paragraph.
    void stampedDocumentIsQtsDocument()
    {
        QTextDocument doc;
        doc.setDocumentMargin(0);
        doc.setDefaultFont(unshapedFont());
        doc.setTextWidth(260);
        doc.setHtml(QStringLiteral(
            "<b>1.94\u00a0ms</b> per batch of\u00a08 \u00b7 4,120\u00a0images/\u2060s \u00b7 attained 61.2 TFLOP/s = "
            "43 %<br>"
            "<span style=\"color:#d00000\"><b>\u26a0 does not fit:</b></span> memory 12 GB of 8 GB \u2192 \u5c42<br>"
            "<i>memory-bound: 71 % of the time in rows left of the ridge</i>"
            "<p>\u26a0 calibrated with zen5.json</p>"));
        QCOMPARE(doc.blockCount(), 2); // a second block, lower in the document
        QVERIFY(doc.size().height() > 3 * QFontMetrics(unshapedFont()).height()); // it wrapped
        const QSize size(280, int(std::ceil(doc.size().height())) + 4);
        const QColor text(0x22, 0x22, 0x22);
        QImage expected(size, QImage::Format_ARGB32_Premultiplied);
        expected.fill(0);
        QPainter p(&expected);
        p.translate(6, 0);
        QAbstractTextDocumentLayout::PaintContext context;
        context.palette.setColor(QPalette::Text, text);
        doc.documentLayout()->draw(&p, context);
        p.end();
        QImage mine(size, QImage::Format_ARGB32_Premultiplied);
        mine.fill(0);
        GlyphStamp stamp;
        QVERIFY(stamp.compose(mine, doc, QPointF(6, 0), text));
        QCOMPARE(largestDifference(mine, expected), 0);
        // An underline (a link's) is Qt's to draw.
        doc.setHtml(QStringLiteral("see <u>the notes</u>"));
        QVERIFY(!stamp.compose(mine, doc, QPointF(6, 0), text));
    }

    // The summaries laid out without QTextDocument break where it breaks them and draw what it
    // draws: every device's summary at batches that fit and one that does not, 16-bit, calibrated
    // with a file, at widths from a narrow pane to a wide one; anything else goes to QTextDocument.
    void summariesLayOutAsQTextDocument()
    {
        std::vector<Device> devices;
        for (const char* id : { "geforce-mx230", "rtx-2060-super", "h100-sxm", "ryzen-9-5950x" })
            devices.push_back(test::shippedDevice(id));
        QStringList htmls;
        for (const int batch : { 1, 8, 512 })
            for (const int bits : { 32, 16 }) {
                Config c;
                c.batch = batch;
                c.bits = bits;
                const auto analysis = analyzeConfig(c, devices);
                QVERIFY(analysis.report);
                for (const DeviceResult& d : analysis.report->results)
                    htmls << summaryHtml(d, c) << summaryHeadline(d, c);
            }
        QVERIFY(std::any_of(
            htmls.begin(), htmls.end(), [](const QString& h) { return h.contains(QStringLiteral("does not fit")); }));
        const QFont font = unshapedFont();
        GlyphStamp stamp;
        int lines = 0;
        for (const QString& html : htmls) {
            SummaryLayout mine;
            QVERIFY2(mine.setHtml(html, font, stamp), qPrintable(html));
            QTextDocument doc;
            doc.setDocumentMargin(0);
            doc.setDefaultFont(font);
            doc.setHtml(html);
            QCOMPARE(doc.blockCount(), 1);
            for (int width = 90; width <= 720; width += 3) {
                doc.setTextWidth(width);
                const double height = doc.size().height(); // lays the document out
                mine.wrap(width);
                const QTextLayout* layout = doc.begin().layout();
                std::vector<int> starts;
                for (int i = 0; i < layout->lineCount(); ++i)
                    starts.push_back(layout->lineAt(i).textStart());
                QVERIFY2(mine.lineStarts() == starts, qPrintable(QStringLiteral("%1 at %2").arg(html).arg(width)));
                QCOMPARE(double(mine.height()), height);
                lines += int(starts.size());
            }
        }
        QVERIFY(lines > 6000);
        // The pixels, at two widths.
        for (const int width : { 260, 430 }) {
            const QString& html = htmls.front();
            SummaryLayout mine;
            QVERIFY(mine.setHtml(html, font, stamp));
            mine.wrap(width);
            QTextDocument doc;
            doc.setDocumentMargin(0);
            doc.setDefaultFont(font);
            doc.setHtml(html);
            doc.setTextWidth(width);
            const QSize size(width + 20, mine.height() + 4);
            QImage expected(size, QImage::Format_ARGB32_Premultiplied);
            expected.fill(0);
            QPainter p(&expected);
            p.translate(6, 0);
            QAbstractTextDocumentLayout::PaintContext context;
            context.palette.setColor(QPalette::Text, QColor(0x22, 0x22, 0x22));
            doc.documentLayout()->draw(&p, context);
            p.end();
            QImage drawn(size, QImage::Format_ARGB32_Premultiplied);
            drawn.fill(0);
            mine.compose(drawn, QPointF(6, 0), QColor(0x22, 0x22, 0x22), stamp);
            QCOMPARE(largestDifference(drawn, expected), 0);
        }
        // What it does not read.
        for (const QString& html : { QStringLiteral("a <a href=\"#x\">link</a>"), QStringLiteral("two  spaces"),
                 QStringLiteral("&nbsp;"), QStringLiteral("<b>open"), QStringLiteral("tab\there"),
                 QStringLiteral("\u0645\u0631\u062d\u0628\u0627") })
            QVERIFY2(!SummaryLayout().setHtml(html, font, stamp), qPrintable(html));
    }

    // The summary and the analysis line on screen look as Qt draws them (the image blended onto the
    // background rather than each glyph: a level or two), and follow a change of text.
    void summaryAndAnalysisLineLookAsQtDrawsThem()
    {
        QWidget window;
        window.resize(420, 120);
        auto* summary = new SummaryText(&window);
        summary->setGeometry(0, 0, 420, 60);
        auto* line = new ElidedLabel(&window);
        line->setGeometry(0, 70, 420, 24);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        for (const QString& value : { QStringLiteral("1.94"), QStringLiteral("2.07") }) {
            summary->setHtml(QStringLiteral("<b>%1\u00a0ms</b> per batch of\u00a08 \u00b7 <i>memory-bound</i> "
                                            "<span style=\"color:#d00000\">\u26a0 does not fit</span>")
                                 .arg(value));
            line->setText(QStringLiteral("U-Net 572x572x1, batch 8 \u00b7 %1 GFLOP").arg(value));
            settle();
            const QImage shown = window.grab().toImage().convertToFormat(QImage::Format_ARGB32_Premultiplied);
            QImage expected(shown.size(), QImage::Format_ARGB32_Premultiplied);
            expected.fill(window.palette().color(QPalette::Window));
            QPainter p(&expected);
            p.translate(6, 0);
            QAbstractTextDocumentLayout::PaintContext context;
            context.palette = summary->palette();
            context.palette.setColor(QPalette::Text, summary->palette().color(QPalette::WindowText));
            summary->document()->documentLayout()->draw(&p, context);
            p.resetTransform();
            p.setFont(unshapedFont(line->font()));
            line->style()->drawItemText(&p, line->contentsRect().translated(line->pos()), int(line->alignment()),
                line->palette(), true, line->text(), line->foregroundRole());
            p.end();
            const int largest = largestDifference(shown, expected);
            QVERIFY2(largest >= 0 && largest <= 8, qPrintable(QString::number(largest)));
        }
    }
};

QTEST_MAIN(TestGlyphStamp)
#include "tst_glyphstamp.moc"
