// The layer table model: passes QAbstractItemModelTester, shows what the engine computed,
// sorts by raw numbers and explains itself in tooltips.
#include "open/analyses.h"
#include "table/layerfilterproxy.h"
#include "table/layertablemodel.h"
#include "testutils.h"

#include <QAbstractItemModelTester>

using namespace rfx;

class TestLayerTableModel : public QObject {
    Q_OBJECT
    Report m_report;

private slots:
    void initTestCase()
    {
        AnalysisOutcome out = analyzeConfig(
            Config {}, { rfx::test::shippedDevice("rtx-2060-super"), rfx::test::shippedDevice("geforce-mx230") });
        QVERIFY(out.report);
        m_report = *out.report;
    }

    void modelTester()
    {
        LayerTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setReport(m_report, 0);
        QCOMPARE(model.rowCount(), int(m_report.results[0].layers.size()));
        model.setReport(m_report, 1);
        model.setReport(m_report, 7); // out of range: empty, not a crash
        QCOMPARE(model.rowCount(), 0);
        model.setReport(m_report, 0);
        LayerFilterProxy proxy;
        QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxy.setSourceModel(&model);
        proxy.sort(LayerTableModel::Time, Qt::DescendingOrder);
        proxy.setLayerFilter(LayerFilter { true, 0 });
        QCOMPARE(proxy.rowCount(), 23);
        proxy.setLayerFilter(LayerFilter { false, 5 });
        QCOMPARE(proxy.rowCount(), 5);
    }

    void showsTheEngineFigures()
    {
        LayerTableModel model;
        model.setReport(m_report, 0);
        const LayerResult& first = m_report.results[0].layers[0];
        QCOMPARE(model.index(0, LayerTableModel::Name).data().toString(), QStringLiteral("enc1.conv1"));
        QCOMPARE(model.index(0, LayerTableModel::Op).data().toString(), QStringLiteral("conv"));
        QCOMPARE(model.index(0, LayerTableModel::OutputShape).data().toString(),
            QStringLiteral("1\u00d764\u00d7570\u00d7570"));
        QCOMPARE(model.index(0, LayerTableModel::Params).data().toString(), QStringLiteral("576"));
        QCOMPARE(model.index(0, LayerTableModel::Flops).data().toString(), QStringLiteral("374 MFLOP"));
        QCOMPARE(model.index(0, LayerTableModel::Flops).data(LayerTableModel::SortRole).toDouble(), first.flops);
        QCOMPARE(model.index(0, LayerTableModel::Time).data(LayerTableModel::SortRole).toDouble(), first.time);
        QVERIFY(model.index(0, LayerTableModel::Bound).data().toString().contains(QStringLiteral("memory")));
        QVERIFY(
            model.index(0, LayerTableModel::Bound).data(Qt::ToolTipRole).toString().contains(QStringLiteral("ridge")));
        QVERIFY(!model.headerData(LayerTableModel::Intensity, Qt::Horizontal, Qt::ToolTipRole).toString().isEmpty());
    }

    void dominantRowsStandOut()
    {
        LayerTableModel model;
        model.setReport(m_report, 0);
        int dominant = 0;
        for (int r = 0; r < model.rowCount(); ++r) {
            const bool d = model.index(r, 0).data(LayerTableModel::DominantRole).toBool();
            QCOMPARE(d, m_report.results[0].layers[size_t(r)].share >= LayerTableModel::kDominantShare);
            if (d) {
                ++dominant;
                QVERIFY(model.index(r, 0).data(Qt::FontRole).value<QFont>().bold());
            }
        }
        QVERIFY(dominant > 0);
    }

    void sortsByRawNumbers()
    {
        LayerTableModel model;
        model.setReport(m_report, 0);
        LayerFilterProxy proxy;
        proxy.setSourceModel(&model);
        proxy.sort(LayerTableModel::Flops, Qt::DescendingOrder);
        double previous = INFINITY;
        for (int r = 0; r < proxy.rowCount(); ++r) {
            const double f = proxy.index(r, LayerTableModel::Flops).data(LayerTableModel::SortRole).toDouble();
            QVERIFY(f <= previous);
            previous = f;
        }
        // "23.8 GFLOP" must sort above "374 MFLOP" even though "3" > "2" as text.
        QCOMPARE(proxy.index(0, LayerTableModel::Op).data().toString(), QStringLiteral("conv"));
    }
};

QTEST_MAIN(TestLayerTableModel)
#include "tst_layertablemodel.moc"
