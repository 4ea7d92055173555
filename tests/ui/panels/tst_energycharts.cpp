// The energy view's Pareto chart takes new points in its series when the layout is the same (a
// fresh build of every scatter series was a third of the view's update): the chart after an update
// in place must be the chart a fresh build draws, tooltips included.
#include "energycharts.h"

#include "device_loader.h"
#include "testpaths.h"

#include <QAbstractAxis>
#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QLogValueAxis>
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
    void updateInPlaceDrawsWhatAFreshBuildDraws()
    {
        const std::vector<Device> d = devices({ "rtx-2060-super", "h100-sxm" });
        QCOMPARE(d.size(), size_t(2));
        std::unique_ptr<QChartView> reused(EnergyCharts::makeView(QStringLiteral("reused")));
        std::unique_ptr<QChartView> fresh(EnergyCharts::makeView(QStringLiteral("fresh")));
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
        // The recommended stars, with their labels, are drawn last, over every device's cloud: added
        // with their own device's series, "256x8 @70%" sat under the next device's points.
        for (qsizetype k = 0; k < a.size(); ++k) {
            auto* x = qobject_cast<QXYSeries*>(a[k]);
            QCOMPARE(x->pointLabelsVisible(), k >= a.size() - 2);
        }
        for (qsizetype k = 0; k < a.size(); ++k) {
            auto* x = qobject_cast<QXYSeries*>(a[k]);
            auto* y = qobject_cast<QXYSeries*>(b[k]);
            QVERIFY(x && y);
            QCOMPARE(x->name(), y->name());
            QCOMPARE(x->points(), y->points());
            QCOMPARE(x->pointLabelsFormat(), y->pointLabelsFormat());
            QVERIFY(!x->points().isEmpty());
            // Every point's tooltip, written on hover, as the fresh build's.
            for (int i = 0; i < int(x->points().size()); ++i)
                QCOMPARE(reusedTexts.at(x).text(i), freshTexts.at(y).text(i));
            QVERIFY(reusedTexts.at(x).text(int(x->points().size())).isEmpty()); // past the end: nothing
        }
        QCOMPARE(rangeOf(reused->chart()->axes(Qt::Horizontal).first()), rangeOf(fresh->chart()->axes(Qt::Horizontal).first()));
        QCOMPARE(rangeOf(reused->chart()->axes(Qt::Vertical).first()), rangeOf(fresh->chart()->axes(Qt::Vertical).first()));

        // Another device set: a new layout, built anew.
        reusedTexts.clear();
        EnergyCharts::fillPareto(reused->chart(), outcome(32, devices({ "h100-sxm" })), Objective::Energy, objective, reusedTexts);
        QCOMPARE(reused->chart()->series().size(), 3);
        QVERIFY(qobject_cast<QXYSeries*>(reused->chart()->series().front())->name().contains(QStringLiteral("H100")));
    }
};

QTEST_MAIN(TestEnergyCharts)
#include "tst_energycharts.moc"
