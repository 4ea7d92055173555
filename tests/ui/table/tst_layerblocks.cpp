// A language model's identical blocks in the layer table: one line of their own over their rows
// ("blk0-31 × 32", their sums), kept above its rows in every sort order, folded and shown by mouse
// and keys, a row picked elsewhere unfolding its block. Figures: Llama-3.1 8B's config.json (hidden
// 4096, 32 heads, 8 KV heads of 128, MLP 14336, vocabulary 128,256), as tst_llm works them out.
#include "table/layerfilterproxy.h"
#include "table/layertable.h"
#include "table/layertablemodel.h"
#include "testutils.h"

#include "llm/llm_analysis.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QClipboard>

using namespace rfx;

namespace {

LlmAnalysis llama(LlmSettings s = {})
{
    LlmModel m;
    m.arch = *findLanguageModel("llama-3.1-8b");
    LlmOutcome o = analyzeLlm(m, s, { test::shippedDevice("h100-sxm") }, false);
    if (!o.analysis)
        qFatal("%s", o.error.c_str());
    return *o.analysis;
}

/// Llama-3.1 8B's decode rows on an H100 in the table's model, through its proxy as LayerPane wires them.
struct Rows {
    LayerTableModel model;
    LayerFilterProxy proxy;
    Rows()
    {
        model.setReport(llama().decode, 0);
        proxy.setSourceModel(&model);
        QObject::connect(&model, &LayerTableModel::foldChanged, &proxy, &LayerFilterProxy::refresh);
        proxy.refresh();
    }
};

QString name(const QAbstractItemModel& m, int row) { return m.index(row, LayerTableModel::Name).data().toString(); }
int layerOf(const QAbstractItemModel& m, int row)
{
    return m.index(row, 0).data(LayerTableModel::LayerIndexRole).toInt();
}

} // namespace

class TestLayerBlocks : public QObject {
    Q_OBJECT
private slots:
    // The lines in the network's order: the embedding, the block's line, its 15 rows (indented,
    // without "blk0-31."), the final norm, the head. The line's figures are its rows' sums:
    // 218,112,000 parameters a block, 6,979,584,000 for 32.
    void theBlockHasALineOfItsOwn()
    {
        const LlmAnalysis a = llama();
        LayerTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setReport(a.decode, 0);
        const auto& layers = a.decode.results[0].layers;
        QCOMPARE(model.rowCount(), int(layers.size()) + 1);
        QCOMPARE(name(model, 0), QStringLiteral("embedding"));
        QCOMPARE(name(model, 1), QStringLiteral("\u25be blk0-31 \u00d7 32"));
        QCOMPARE(layerOf(model, 1), -1);
        QCOMPARE(model.index(1, LayerTableModel::Params).data().toString(), QStringLiteral("6,979,584,000"));
        QCOMPARE(model.index(1, LayerTableModel::Op).data().toString(), QStringLiteral("blocks"));
        QCOMPARE(model.index(1, 0).data(LayerTableModel::FoldRole), QVariant(false));
        QCOMPARE(name(model, 2), QStringLiteral("\u2003\u2003attn_norm"));
        QCOMPARE(layerOf(model, 2), 1);
        QCOMPARE(model.index(2, 0).data(LayerTableModel::CopyRole).toString(), QStringLiteral("blk0-31.attn_norm"));
        QCOMPARE(model.index(2, 0).data(LayerTableModel::BlockRole), QVariant(0));
        QVERIFY(!model.index(0, 0).data(LayerTableModel::BlockRole).isValid());
        QCOMPARE(name(model, model.rowCount() - 1), QStringLiteral("lm_head"));
        // a language model's rows are sequences of tokens of features, not images
        QCOMPARE(model.headerData(LayerTableModel::OutputShape, Qt::Horizontal, Qt::DisplayRole).toString(),
            QStringLiteral("Output B\u00d7T\u00d7d"));
        QCOMPARE(model.rowOfLayer(int(layers.size()) - 1), model.rowCount() - 1);
        // the sums: time and share of the 15 rows; decode at batch 1 is on the slope, every row
        double time = 0, share = 0;
        for (int r = 2; r < 17; ++r) {
            time += layers[size_t(layerOf(model, r))].time;
            share += layers[size_t(layerOf(model, r))].share;
        }
        QCOMPARE(model.index(1, LayerTableModel::Time).data(LayerTableModel::SortRole).toDouble(), time);
        QCOMPARE(model.index(1, LayerTableModel::Share).data(LayerTableModel::ShareRole).toDouble(), share);
        QCOMPARE(model.index(1, LayerTableModel::Bound).data().toString(), QStringLiteral("\u25e2 memory"));
        const QString tip = model.index(1, 0).data(Qt::ToolTipRole).toString();
        QVERIFY2(tip.contains(QStringLiteral("32 identical blocks")) && tip.contains(QStringLiteral("One block")),
            qPrintable(tip));
        QVERIFY(model.index(5, 0)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("run once in each of its 32 blocks")));
        // prefill of 512 tokens: the matrix rows are compute-bound, the norms and adds not: mixed
        model.setReport(llama().prefill, 0);
        const QString bound = model.index(1, LayerTableModel::Bound).data().toString();
        QVERIFY2(
            bound.startsWith(QStringLiteral("\u25ac compute ")) && bound.endsWith(QLatin1Char('%')), qPrintable(bound));
    }

    // Sorted by time, either way, the block's line comes before its rows, which sort among themselves;
    // the other lines sort with the block's sum (in decode the block's 4 ms outweighs the head's 0.3 ms).
    void sortingKeepsTheBlockTogether()
    {
        const LlmAnalysis a = llama();
        LayerTableModel model;
        model.setReport(a.decode, 0);
        LayerFilterProxy proxy;
        QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxy.setSourceModel(&model);
        proxy.refresh();
        const auto& layers = a.decode.results[0].layers;
        for (Qt::SortOrder order : { Qt::DescendingOrder, Qt::AscendingOrder }) {
            proxy.sort(LayerTableModel::Time, order);
            QCOMPARE(proxy.rowCount(), model.rowCount());
            int line = -1;
            for (int r = 0; r < proxy.rowCount(); ++r)
                if (layerOf(proxy, r) < 0)
                    line = r;
            QVERIFY(line >= 0);
            for (int r = line + 1; r < line + 16; ++r) {
                QVERIFY(!layers[size_t(layerOf(proxy, r))].block.empty());
                if (r > line + 1) {
                    const double before = layers[size_t(layerOf(proxy, r - 1))].time,
                                 now = layers[size_t(layerOf(proxy, r))].time;
                    QVERIFY(order == Qt::DescendingOrder ? before >= now : before <= now);
                }
            }
            for (int r = line + 16; r < proxy.rowCount(); ++r)
                QVERIFY(layers[size_t(layerOf(proxy, r))].block.empty());
            if (order == Qt::DescendingOrder)
                QCOMPARE(line, 0); // the heaviest line
            else
                QCOMPARE(line, proxy.rowCount() - 16); // lightest first: embedding, final norm, head, then the block
        }
        proxy.sort(LayerTableModel::Name, Qt::AscendingOrder); // the network's order again
        QCOMPARE(name(proxy, 1).left(1), QStringLiteral("\u25be"));
        QCOMPARE(layerOf(proxy, 2), 1);
    }

    // Folded, the block is its line alone; it stays folded through a slider step; a row picked on a
    // chart unfolds it; the filter's top rows bring their block's line with them.
    void foldingHidesTheRows()
    {
        Rows rows;
        LayerTableModel& model = rows.model;
        LayerFilterProxy& proxy = rows.proxy;
        const int all = proxy.rowCount();
        QVERIFY(proxy.setData(proxy.index(1, 0), true, LayerTableModel::FoldRole));
        QCOMPARE(proxy.rowCount(), all - 15);
        QCOMPARE(name(proxy, 1), QStringLiteral("\u25b8 blk0-31 \u00d7 32"));
        QVERIFY(!proxy.setData(proxy.index(0, 0), true, LayerTableModel::FoldRole)); // a row of no block
        LlmSettings batch8;
        batch8.batch = 8;
        model.setReport(llama(batch8).decode, 0); // the same rows: a slider step
        proxy.refresh();
        QCOMPARE(proxy.rowCount(), all - 15);
        model.unfoldTo(5);
        QCOMPARE(proxy.rowCount(), all);
        proxy.setLayerFilter(LayerFilter { false, 3 });
        QCOMPARE(proxy.rowCount(), 4); // three rows and the line of the block they belong to
        QCOMPARE(layerOf(proxy, 0), -1);
    }

    // The table: left folds a block's line and right shows it; left on one of its rows goes to the
    // line; a double-click folds; a copy of a block's row names it whole.
    void keysAndMouse()
    {
        Rows rows;
        LayerFilterProxy& proxy = rows.proxy;
        LayerTable table;
        table.setModel(&proxy);
        table.resize(900, 600);
        table.show();
        QVERIFY(QTest::qWaitForWindowExposed(&table));
        const int all = proxy.rowCount();
        table.setCurrentIndex(proxy.index(6, 0));
        QTest::keyClick(&table, Qt::Key_Left);
        QCOMPARE(table.currentIndex().row(), 1);
        QTest::keyClick(&table, Qt::Key_Left);
        QCOMPARE(proxy.rowCount(), all - 15);
        QTest::keyClick(&table, Qt::Key_Right);
        QCOMPARE(proxy.rowCount(), all);
        QTest::mouseDClick(
            table.viewport(), Qt::LeftButton, {}, table.visualRect(proxy.index(1, LayerTableModel::Time)).center());
        QCOMPARE(proxy.rowCount(), all - 15);
        QTest::mouseClick(
            table.viewport(), Qt::LeftButton, {}, table.visualRect(proxy.index(1, 0)).topLeft() + QPoint(6, 4));
        QCOMPARE(proxy.rowCount(), all); // the mark
        table.selectionModel()->select(
            proxy.index(5, 0), QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        const QStringList copied = table.selectionAsText().split(QLatin1Char('\n'));
        QVERIFY2(copied.value(1).startsWith(QStringLiteral("blk0-31.") + name(proxy, 5).trimmed() + QLatin1Char('\t')),
            qPrintable(copied.value(1)));
    }
};

QTEST_MAIN(TestLayerBlocks)
#include "tst_layerblocks.moc"
