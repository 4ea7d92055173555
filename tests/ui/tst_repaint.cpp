// What a slider step repaints, and how (issue 37, item 8): the chart's text drawn on screen from
// images (style/paintcache.h, textitem.h, cachedmirror.h) with the same pixels as Qt's own items,
// never stale after a change, and real text wherever the painter is not the screen's (a scaled
// 300-dpi figure, SVG); the point items Qt keeps for clicks not painted; and in the Configuration
// panel only the box that changed (setting a box to the value it shows, or its tooltip, or switching
// the width box on and off again, repainted it: ten boxes on every step of a drag). The text rewritten
// on every step, composed from glyph images: tst_glyphstamp.cpp.
#include "chart/rooflinechart.h"
#include "open/analyses.h"
#include "panels/controlpanel.h"
#include "style/cachedmirror.h"
#include "style/textitem.h"
#include "workspace/workspace.h"

#include "guitestutils.h"
#include "testutils.h"

#include <QAbstractGraphicsShapeItem>
#include <QBuffer>
#include <QChart>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QPainter>
#include <QSpinBox>
#include <QSvgGenerator>
#include <QtTest>

#include <algorithm>
#include <cstdlib>
#include <map>

using namespace rfx;

namespace {
// The scene's rectangle (0, 0, 120 x 40) drawn one to one onto a white image, as a view would.
QImage render(QGraphicsScene& scene, double scale = 1.0)
{
    QImage image(QSize(int(120 * scale), int(40 * scale)), QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    QPainter p(&image);
    scene.render(&p, QRectF(0, 0, 120 * scale, 40 * scale), QRectF(0, 0, 120, 40));
    return image;
}

// The largest difference of any channel of any pixel, and how many pixels are not white.
struct Difference {
    int largest = 0;
    int inked = 0;
};
Difference compare(const QImage& a, const QImage& b)
{
    Difference d;
    for (int y = 0; y < a.height(); ++y)
        for (int x = 0; x < a.width(); ++x) {
            const QRgb p = a.pixel(x, y), q = b.pixel(x, y);
            d.largest = std::max({ d.largest, std::abs(qRed(p) - qRed(q)), std::abs(qGreen(p) - qGreen(q)),
                std::abs(qBlue(p) - qBlue(q)) });
            d.inked += p != qRgb(255, 255, 255);
        }
    return d;
}

QImage plainText(const QString& text, const QColor& color)
{
    QGraphicsScene scene;
    auto* item = new QGraphicsSimpleTextItem(text);
    item->setBrush(color);
    item->setPos(10, 10);
    scene.addItem(item);
    return render(scene);
}
// Counts the paint events each watched widget receives.
class PaintCount : public QObject {
public:
    std::map<QObject*, int> count;
    void watch(QWidget* w)
    {
        w->installEventFilter(this);
        count[w] = 0;
    }
    bool eventFilter(QObject* o, QEvent* e) override
    {
        if (e->type() == QEvent::Paint)
            ++count[o];
        return false;
    }
};

void settle()
{
    for (int i = 0; i < 4; ++i) {
        QCoreApplication::processEvents();
        QTest::qWait(10);
    }
}
} // namespace

class TestRepaint : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

private slots:
    void initTestCase() { test::isolateGuiTest(m_dir, QStringLiteral("tst_repaint")); }

    void textLooksAsQtDrawsIt()
    {
        QGraphicsScene scene;
        auto* item = new TextItem(QStringLiteral("ridge 16.3 FLOP/B"));
        item->setBrush(QColor(0x22, 0x22, 0x22));
        item->setPos(10, 10);
        scene.addItem(item);
        const QImage mine = render(scene);
        QVERIFY(item->paintedFromImage());
        const Difference d = compare(mine, plainText(QStringLiteral("ridge 16.3 FLOP/B"), QColor(0x22, 0x22, 0x22)));
        QVERIFY2(d.inked > 100, "the text was drawn");
        // Glyph coverage blended from an image rather than onto the page: the same to a level or two.
        QVERIFY2(d.largest <= 8, qPrintable(QString::number(d.largest)));
    }

    void aChangedTextIsDrawnAgain()
    {
        QGraphicsScene scene;
        auto* item = new TextItem(QStringLiteral("10"));
        item->setPos(10, 10);
        scene.addItem(item);
        render(scene);
        item->setText(QStringLiteral("1000 GFLOP/s"));
        QVERIFY(compare(render(scene), plainText(QStringLiteral("1000 GFLOP/s"), Qt::black)).largest <= 8);
        item->setBrush(QColor(0xd0, 0, 0));
        const QImage red = render(scene);
        QVERIFY(compare(red, plainText(QStringLiteral("1000 GFLOP/s"), QColor(0xd0, 0, 0))).largest <= 8);
        QVERIFY(compare(red, plainText(QStringLiteral("1000 GFLOP/s"), Qt::black)).largest
            > 60); // not the black image kept
        QFont bigger = item->font();
        bigger.setPointSizeF(bigger.pointSizeF() * 1.5);
        item->setFont(bigger);
        QVERIFY(compare(render(scene), red).largest > 60);
    }

    void figuresGetText()
    {
        QGraphicsScene scene;
        auto* item = new TextItem(QStringLiteral("roof 7.18 TFLOP/s"));
        item->setPos(10, 10);
        scene.addItem(item);
        render(scene, 300.0 / 96); // a 300-dpi figure: drawn, not an image scaled up
        QVERIFY(!item->paintedFromImage());
        QBuffer svg;
        QSvgGenerator generator;
        generator.setOutputDevice(&svg);
        generator.setSize(QSize(120, 40));
        {
            QPainter p(&generator);
            scene.render(&p, QRectF(0, 0, 120, 40), QRectF(0, 0, 120, 40));
        }
        QVERIFY(!item->paintedFromImage());
        QVERIFY(!svg.data().contains("<image"));
        QVERIFY(svg.data().contains("roof 7.18 TFLOP/s"));
    }

    void theMirrorFollowsItsSource()
    {
        auto richText = [](const QString& html) {
            QGraphicsScene scene;
            auto* item = new QGraphicsTextItem;
            item->setHtml(html);
            item->setPos(4, 4);
            scene.addItem(item);
            return render(scene);
        };
        QGraphicsScene scene;
        auto* title = new QGraphicsTextItem;
        title->setHtml(QStringLiteral("<b>H100</b> FP32"));
        title->setPos(4, 4);
        scene.addItem(title);
        new CachedMirror(title);
        QVERIFY(title->flags().testFlag(QGraphicsItem::ItemHasNoContents));
        const QImage first = render(scene);
        QVERIFY(compare(first, richText(QStringLiteral("<b>H100</b> FP32"))).largest <= 8);
        QVERIFY(compare(first, richText(QString())).inked > 100);
        title->setHtml(QStringLiteral("<b>MX230</b> FP16"));
        QVERIFY(compare(render(scene), richText(QStringLiteral("<b>MX230</b> FP16"))).largest <= 8);
        title->setDefaultTextColor(QColor(0, 0, 0xd0));
        const QImage blue = render(scene);
        QVERIFY(compare(blue, richText(QStringLiteral("<b>MX230</b> FP16"))).largest > 60);
        CachedMirror::remove(title);
        QVERIFY(title->childItems().isEmpty());
        QVERIFY(!title->flags().testFlag(QGraphicsItem::ItemHasNoContents));
        QVERIFY(compare(render(scene), blue).largest <= 8); // the item paints itself again
    }

    // Qt keeps an item per plotted point under a light marker (for clicks), drawn with a transparent
    // pen and no brush: on screen the scene passes over them; in a figure (vector markers) they draw.
    void invisibleMarkersAreNotPainted()
    {
        Config c;
        const Report report = *analyzeConfig(c, { test::shippedDevice("rtx-2060-super") }).report;
        auto markers = [](RooflineChart& chart) {
            int skipped = 0, drawn = 0;
            for (QGraphicsItem* item : chart.chart()->childItems())
                for (QGraphicsItem* group : item->childItems())
                    for (QGraphicsItem* marker : group->childItems())
                        if (dynamic_cast<QAbstractGraphicsShapeItem*>(marker))
                            ++(marker->flags().testFlag(QGraphicsItem::ItemHasNoContents) ? skipped : drawn);
            return std::pair(skipped, drawn);
        };
        RooflineChart screen;
        screen.resize(640, 420);
        screen.setReport(report, { 0 });
        const auto [skipped, drawn] = markers(screen);
        QVERIFY2(skipped >= 40, qPrintable(QString::number(skipped))); // U-Net's layer points
        QVERIFY(drawn >= 1); // the ridge's ring is drawn as Qt draws it
        RooflineChart figure;
        figure.setPrintStyle(9, false);
        figure.resize(640, 420);
        figure.setReport(report, { 0 });
        QCOMPARE(markers(figure).first, 0);
        QVERIFY(markers(figure).second >= 40);
    }

    void aBatchStepRepaintsTheBatchOnly()
    {
        Workspace ws;
        ws.setLibrary(loadDeviceLibrary({ std::filesystem::path(ROOFLINE_TEST_DEVICES_DIR) }));
        ControlPanel panel;
        panel.follow(&ws);
        ws.setWork(Config {}, { QStringLiteral("rtx-2060-super") });
        panel.resize(420, 900);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        settle();
        QVERIFY(!panel.widthSpin()->isEnabled()); // square: the width box is off
        PaintCount paints;
        for (QSpinBox* box :
            { panel.batchSpin(), panel.imageSpin(), panel.widthSpin(), panel.onchipSpin(), panel.gpusSpin() })
            paints.watch(box);
        for (int batch : { 2, 3, 4 }) {
            panel.batchSpin()->setValue(batch);
            settle();
        }
        QCOMPARE(ws.config().batch, 4);
        QVERIFY(paints.count[panel.batchSpin()] >= 3); // the box that changed shows each value
        QCOMPARE(paints.count[panel.imageSpin()], 0);
        QCOMPARE(paints.count[panel.widthSpin()], 0);
        QCOMPARE(paints.count[panel.onchipSpin()], 0);
        QCOMPARE(paints.count[panel.gpusSpin()], 0);
        QVERIFY(!panel.widthSpin()->isEnabled());
        // The width box still follows the square: off while square, on when not.
        Config c = ws.config();
        c.unet.width = 508;
        ws.setConfig(c);
        settle();
        QVERIFY(panel.widthSpin()->isEnabled());
        QCOMPARE(panel.widthSpin()->value(), 508);
    }
};

QTEST_MAIN(TestRepaint)
#include "tst_repaint.moc"
