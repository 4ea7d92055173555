// The energy view's Pareto chart takes new points in its series when the layout is the same (a
// fresh build of every scatter series was a third of the view's update): the chart after an update
// in place must be the chart a fresh build draws, tooltips included.
#include "open/analyses.h"
#include "panels/energycharts.h"
#include "panels/energyview.h"

#include "devices/device_loader.h"
#include "style/chartpointlabels.h"
#include "testpaths.h"

#include <QAbstractAxis>
#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QLabel>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QScrollArea>
#include <QValueAxis>
#include <QXYSeries>
#include <QtTest>

#include <memory>

using namespace rfx;

namespace {

std::vector<Device> devices(const std::vector<std::string>& ids)
{
    const DeviceLibrary library = loadDeviceLibrary({ std::filesystem::path(ROOFLINE_TEST_DEVICES_DIR) });
    std::vector<Device> out;
    for (const std::string& id : ids)
        if (const Device* d = library.find(id))
            out.push_back(*d);
    return out;
}

TuneOutcome outcome(int batch, const std::vector<Device>& d)
{
    Config c;
    c.mode = Mode::Training;
    c.batch = batch;
    TuneRanges r;
    r.batchMin = 1;
    r.batchMax = 64;
    r.gpusMax = 4;
    r.clockStep = 10;
    return tune(c, d, r);
}

QPair<double, double> rangeOf(QAbstractAxis* a)
{
    if (auto* log = qobject_cast<QLogValueAxis*>(a))
        return { log->min(), log->max() };
    auto* v = qobject_cast<QValueAxis*>(a);
    return v ? QPair<double, double> { v->min(), v->max() } : QPair<double, double> { -1, -1 };
}

} // namespace

class TestEnergyCharts : public QObject {
    Q_OBJECT

private slots:
    // First of the file, so that nothing filled a chart before: the energy view made at the desk and
    // first drawn in presentation mode (the window's type already 1.5 times larger) has the
    // projector's type, 1.5 times the desk's, not 1.5 times that (every tick label was "...").
    void firstDrawnInPresentation()
    {
        const QFont appFont = QApplication::font();
        const double deskLabels = QValueAxis().labelsFont().pointSizeF(), deskTitle = QChart().titleFont().pointSizeF();
        QVERIFY(deskLabels > 0 && deskTitle > 0);
        EnergyView view;
        QFont large = appFont;
        large.setPointSizeF(appFont.pointSizeF() * 1.5);
        QApplication::setFont(large); // as Teaching::setPresentationMode does
        QVERIFY(QValueAxis().labelsFont().pointSizeF() > deskLabels); // the theme follows the window's type
        view.setFontScale(1.5);
        Config c;
        view.setInputs(c, devices({ "rtx-2060-super" }));
        view.resize(1200, 400);
        view.show();
        view.flush();
        const double labels = view.energyChart()->axes(Qt::Horizontal).first()->labelsFont().pointSizeF();
        const double title = view.paretoChart()->titleFont().pointSizeF();
        QApplication::setFont(appFont);
        QCOMPARE(labels, deskLabels * 1.5);
        QCOMPARE(title, deskTitle * 1.5);
    }

    void updateInPlaceDrawsWhatAFreshBuildDraws()
    {
        const std::vector<Device> d = devices({ "rtx-2060-super", "h100-sxm" });
        QCOMPARE(d.size(), size_t(2));
        std::unique_ptr<QChartView> reused(EnergyCharts::makeView({ QStringLiteral("reused") }));
        std::unique_ptr<QChartView> fresh(EnergyCharts::makeView({ QStringLiteral("fresh") }));
        EnergyCharts::PointTexts reusedTexts, freshTexts;
        const QString objective = QStringLiteral("energy");

        EnergyCharts::fillPareto(reused->chart(), outcome(1, d), Objective::Energy, objective, reusedTexts);
        const QList<QAbstractSeries*> before = reused->chart()->series();
        reusedTexts.clear();
        // Another configuration: other points, the same layout (two devices, cloud, front, star each).
        const TuneOutcome second = outcome(32, d);
        EnergyCharts::fillPareto(reused->chart(), second, Objective::Energy, objective, reusedTexts);
        EnergyCharts::fillPareto(fresh->chart(), second, Objective::Energy, objective, freshTexts);

        QCOMPARE(reused->chart()->series(), before); // taken in place, not made anew
        const QList<QAbstractSeries*> a = reused->chart()->series(), b = fresh->chart()->series();
        QCOMPARE(a.size(), b.size());
        QCOMPARE(a.size(), 6);
        // The recommended stars are drawn last, over every device's cloud: added with their own
        // device's series, "256x8 @70%" sat under the next device's points.
        for (qsizetype k = 0; k < a.size(); ++k) {
            auto* x = qobject_cast<QScatterSeries*>(a[k]);
            QCOMPARE(x && x->markerShape() == QScatterSeries::MarkerShapeStar, k >= a.size() - 2);
        }
        for (qsizetype k = 0; k < a.size(); ++k) {
            auto* x = qobject_cast<QXYSeries*>(a[k]);
            auto* y = qobject_cast<QXYSeries*>(b[k]);
            QVERIFY(x && y);
            QCOMPARE(x->name(), y->name());
            QCOMPARE(x->points(), y->points());
            QVERIFY(!x->points().isEmpty());
            // Every point's tooltip, written on hover, as the fresh build's.
            for (int i = 0; i < int(x->points().size()); ++i)
                QCOMPARE(reusedTexts.at(x).text(i), freshTexts.at(y).text(i));
            QVERIFY(reusedTexts.at(x).text(int(x->points().size())).isEmpty()); // past the end: nothing
        }
        QCOMPARE(rangeOf(reused->chart()->axes(Qt::Horizontal).first()),
            rangeOf(fresh->chart()->axes(Qt::Horizontal).first()));
        QCOMPARE(
            rangeOf(reused->chart()->axes(Qt::Vertical).first()), rangeOf(fresh->chart()->axes(Qt::Vertical).first()));
        // The stars' labels, the same texts in the same order.
        auto texts = [](QChart* c) {
            QStringList out;
            for (const auto& [text, box] : ChartPointLabels::of(c)->shown())
                out << text;
            return out;
        };
        QCOMPARE(texts(reused->chart()).size() + ChartPointLabels::of(reused->chart())->leftOut(), 2);
        QCOMPARE(texts(reused->chart()), texts(fresh->chart()));

        // Another device set: a new layout, built anew.
        reusedTexts.clear();
        EnergyCharts::fillPareto(
            reused->chart(), outcome(32, devices({ "h100-sxm" })), Objective::Energy, objective, reusedTexts);
        QCOMPARE(reused->chart()->series().size(), 3);
        QVERIFY(qobject_cast<QXYSeries*>(reused->chart()->series().front())->name().contains(QStringLiteral("H100")));
    }

    // Issue 52 item 3: Qt's point labels sat centred above their star whatever was there: "256x8
    // @80%" ran over the y axis's "3000" and the frame, "32x8 @85%" and "8x8 @95%" under the
    // points. Each recommended point's label is now inside the plot, off every point drawn and off
    // the other labels, at the desk's size, a small dock and a projector's type.
    void recommendedLabelsKeepClear_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<double>("scale");
        QTest::addColumn<int>("batch");
        QTest::newRow("desk") << QSize(560, 360) << 1.0 << 8;
        QTest::newRow("small dock") << QSize(400, 280) << 1.0 << 32;
        QTest::newRow("presentation") << QSize(620, 420) << 1.5 << 8;
        QTest::newRow("presentation, batch 1") << QSize(620, 420) << 1.5 << 1;
    }
    void recommendedLabelsKeepClear()
    {
        QFETCH(QSize, size);
        QFETCH(double, scale);
        QFETCH(int, batch);
        const std::vector<Device> d = devices({ "rtx-2060-super", "a100-sxm-80gb", "h100-sxm" });
        QCOMPARE(d.size(), size_t(3));
        std::unique_ptr<QChartView> view(EnergyCharts::makeView({ QStringLiteral("Pareto") }));
        view->resize(size);
        view->show();
        QVERIFY(QTest::qWaitForWindowExposed(view.get()));
        QChart* chart = view->chart();
        EnergyCharts::setFontScale(chart, scale);
        EnergyCharts::PointTexts texts;
        EnergyCharts::fillPareto(chart, outcome(batch, d), Objective::Energy, QStringLiteral("energy"), texts);
        QCoreApplication::processEvents();
        const QRectF plot = chart->plotArea();
        QVERIFY(plot.width() > 100);

        // Every point's marker box, from the series as drawn.
        std::vector<QRectF> points;
        for (QAbstractSeries* s : chart->series()) {
            auto* xy = qobject_cast<QXYSeries*>(s);
            if (xy->type() != QAbstractSeries::SeriesTypeScatter && !xy->pointsVisible())
                continue;
            const double r = xy->markerSize() / 2;
            for (const QPointF& v : xy->points()) {
                const QPointF at = chart->mapToPosition(v, xy);
                points.emplace_back(at.x() - r, at.y() - r, 2 * r, 2 * r);
            }
        }
        QVERIFY(points.size() > 30);

        const ChartPointLabels* labels = ChartPointLabels::of(chart);
        const auto shown = labels->shown();
        QCOMPARE(int(shown.size()) + labels->leftOut(), 3);
        if (scale == 1.0 && size.width() >= 560)
            QCOMPARE(labels->leftOut(), 0); // the desk's size has room for all three
        QVERIFY(!shown.empty());
        for (size_t i = 0; i < shown.size(); ++i) {
            const auto& [text, box] = shown[i];
            QVERIFY2(text.contains(QStringLiteral(" @")), qPrintable(text));
            QVERIFY2(plot.contains(box), qPrintable(QStringLiteral("%1 leaves the plot (axes, frame)").arg(text)));
            for (const QRectF& p : points)
                QVERIFY2(!p.intersects(box), qPrintable(QStringLiteral("%1 over a point").arg(text)));
            for (size_t j = i + 1; j < shown.size(); ++j)
                QVERIFY2(
                    !shown[j].second.intersects(box), qPrintable(text + QStringLiteral(" over ") + shown[j].first));
        }
        // The projector's type reaches the labels.
        if (scale > 1) {
            const QFont desk = QLineSeries().pointLabelsFont();
            QVERIFY(desk.pointSizeF() > 0);
            int checked = 0;
            for (QGraphicsItem* item : chart->childItems())
                if (auto* t = dynamic_cast<QGraphicsSimpleTextItem*>(item);
                    t && t->isVisible() && t->text().contains(QStringLiteral(" @"))) {
                    QCOMPARE(t->font().pointSizeF(), desk.pointSizeF() * scale);
                    ++checked;
                }
            QCOMPARE(checked, int(shown.size()));
        }
    }
    // Issue 52 item 7: the energy view's charts are narrow, and presentation type is 1.5 times the
    // desk's: Qt Charts cut what ran out of room ("RTX 2060 S...", "does not fit i...", "mJ per ...",
    // the batch axis's "1..." and "2..." for 128 and 256, "(Pareto f..."). Whatever the size and
    // type, no text drawn is cut, and no two tick labels of an axis touch.
    void noTextIsCut_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<double>("scale");
        QTest::newRow("desk, 1280 wide") << QSize(1240, 240) << 1.0;
        QTest::newRow("desk, 1920 wide") << QSize(1880, 320) << 1.0;
        QTest::newRow("presentation, 1280 wide") << QSize(1240, 240) << 1.5;
        QTest::newRow("presentation, 1024 wide") << QSize(990, 260) << 1.5;
        QTest::newRow("desk, 1024 wide") << QSize(990, 220) << 1.0;
    }
    void noTextIsCut()
    {
        QFETCH(QSize, size);
        QFETCH(double, scale);
        // In a scroll area, as the window's dock holds it: what the view does not ask for, it does not get.
        QScrollArea area;
        area.setWidgetResizable(true);
        auto* view = new EnergyView;
        area.setWidget(view);
        Config c;
        c.batch = 1;
        view->setInputs(c, devices({ "rtx-2060-super", "l4", "h100-sxm" }));
        area.resize(size);
        area.show();
        QVERIFY(QTest::qWaitForWindowExposed(&area));
        view->setFontScale(scale);
        view->flush();
        QCoreApplication::processEvents();
        QCoreApplication::processEvents();
        QTest::qWait(20); // the labels' heights settle (a resize, then a layout request)
        int texts = 0;
        for (QChart* chart : { view->energyChart(), view->scalingChart(), view->paretoChart() }) {
            const QString title = chart->title();
            std::map<const QGraphicsItem*, std::vector<QRectF>> ticks; // tick labels by axis item
            for (QGraphicsItem* item : chart->scene()->items()) {
                if (!item->isVisible() || !chart->isAncestorOf(item))
                    continue;
                QString text;
                if (auto* t = dynamic_cast<QGraphicsTextItem*>(item))
                    text = t->toPlainText();
                else if (auto* simple = dynamic_cast<QGraphicsSimpleTextItem*>(item))
                    text = simple->text();
                else
                    continue;
                if (text.isEmpty())
                    continue;
                ++texts;
                QVERIFY2(!text.contains(QStringLiteral("...")) && !text.contains(QChar(0x2026)),
                    qPrintable(QStringLiteral("%1: \"%2\" is cut").arg(title, text)));
                bool number = false;
                text.toDouble(&number);
                if (number)
                    ticks[item->parentItem()].push_back(item->sceneBoundingRect());
            }
            for (const auto& [axis, boxes] : ticks)
                for (size_t i = 0; i < boxes.size(); ++i)
                    for (size_t j = i + 1; j < boxes.size(); ++j)
                        QVERIFY2(!boxes[i].adjusted(1, 1, -1, -1).intersects(boxes[j].adjusted(1, 1, -1, -1)),
                            qPrintable(title + QStringLiteral(": tick labels touch")));
        }
        QVERIFY2(texts > 20, qPrintable(QString::number(texts))); // titles, axes, point labels: the check saw them
        // The one legend under the charts: every device and mark named once, whole (each entry kept
        // on one line), its lines all shown, over no chart.
        QLabel* legend = nullptr;
        for (QLabel* l : view->findChildren<QLabel*>())
            if (l->text().contains(QStringLiteral("recommended")))
                legend = l;
        QVERIFY(legend);
        for (const char* name :
            { "RTX 2060 Super", "L4", "H100 SXM5 80 GB", "does not fit in memory", "step time", "step energy" })
            QVERIFY2(legend->text().contains(
                         QString::fromUtf8(name).toHtmlEscaped().replace(QLatin1Char(' '), QStringLiteral("&nbsp;"))),
                name);
        QVERIFY2(legend->height() >= legend->heightForWidth(legend->width()),
            qPrintable(QStringLiteral("the legend %1 px high shows %2 px of lines")
                           .arg(legend->height())
                           .arg(legend->heightForWidth(legend->width()))));
        for (QChartView* v : view->findChildren<QChartView*>()) {
            const QRect chart(v->mapTo(view, QPoint(0, 0)), v->size()),
                below(legend->mapTo(view, QPoint(0, 0)), legend->size());
            QVERIFY2(!chart.intersects(below),
                qPrintable(v->chart()->title()
                    + QStringLiteral(
                        " under the legend (chart %1,%2 %3x%4, legend at %5 %6 high; the view %7x%8, its least %9)")
                          .arg(chart.x())
                          .arg(chart.y())
                          .arg(chart.width())
                          .arg(chart.height())
                          .arg(below.y())
                          .arg(below.height())
                          .arg(view->width())
                          .arg(view->height())
                          .arg(view->minimumSizeHint().height())));
        }
        // The full forms where there is room: the desk at 1920 wide keeps every word.
        if (scale == 1.0 && size.width() > 1800) {
            QCOMPARE(view->energyChart()->title(), QStringLiteral("Energy per image against batch"));
            QCOMPARE(view->energyChart()->axes(Qt::Vertical).first()->titleText(), QStringLiteral("mJ per image"));
        }
    }
};

QTEST_MAIN(TestEnergyCharts)
#include "tst_energycharts.moc"
