// The layer table never cuts a number: for every built-in network, in normal and presentation
// mode, and after a slider step that widens the numbers, each cell's text fits its column as the
// delegate draws it. Copying gives tab-separated text with a header row and no glyphs; a sort shows
// the first rows.
#include "panels/controlpanel.h"
#include "table/celldelegate.h"
#include "table/layertable.h"
#include "table/layertablemodel.h"
#include "window/mainwindow.h"
#include "window/teaching.h"

#include "guitestutils.h"
#include "model/networks.h"
#include "testutils.h"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QHeaderView>
#include <QScrollBar>
#include <QSpinBox>

using namespace rfx;

namespace {
// Cells whose text the delegate would elide ("layer (column): text, needs N, has M"); with
// `inViewOnly`, of the rows the viewport shows.
QStringList cutCells(LayerTable* table, bool inViewOnly = false)
{
    QStringList cut;
    QStyleOptionViewItem opt;
    opt.font = table->font();
    opt.widget = table;
    opt.fontMetrics = QFontMetrics(opt.font);
    QAbstractItemModel* m = table->model();
    for (int c = 0; c < m->columnCount(); ++c) {
        if (table->isColumnHidden(c) || c == LayerTableModel::Name)
            continue;
        const int has = table->columnWidth(c);
        for (int r = 0; r < m->rowCount(); ++r) {
            const int y = table->rowViewportPosition(r);
            if (inViewOnly && (y < 0 || y >= table->viewport()->height()))
                continue;
            const QModelIndex index = m->index(r, c);
            const int needs = table->cellDelegate()->sizeHint(opt, index).width();
            if (needs > has)
                cut.append(QStringLiteral("%1 (%2): %3, needs %4 px, has %5")
                               .arg(m->index(r, 0).data().toString(), m->headerData(c, Qt::Horizontal).toString(),
                                   index.data().toString())
                               .arg(needs)
                               .arg(has));
        }
        // The header's text too.
        if (table->horizontalHeader()->sectionSizeHint(c) > has
            && c != table->horizontalHeader()->logicalIndex(m->columnCount() - 1))
            cut.append(QStringLiteral("header %1").arg(m->headerData(c, Qt::Horizontal).toString()));
    }
    return cut;
}

void chooseNetwork(MainWindow& w, const QString& id)
{
    QComboBox* combo = w.controls()->networkCombo();
    const int i = combo->findData(id);
    QVERIFY(i >= 0);
    combo->setCurrentIndex(i);
    emit combo->activated(i);
    QCoreApplication::processEvents();
}
} // namespace

class TestLayerTable : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

private slots:
    void initTestCase() { test::isolateGuiTest(m_dir, QStringLiteral("tst_layertable")); }

    void noNumberIsCut_data()
    {
        QTest::addColumn<bool>("presentation");
        QTest::newRow("normal") << false;
        QTest::newRow("presentation") << true;
    }
    void noNumberIsCut()
    {
        QFETCH(bool, presentation);
        MainWindow w(test::freshWindow({ QStringLiteral("rtx-2060-super"), QStringLiteral("h100-sxm") }));
        QVERIFY(test::showAtDesktopSize(w, presentation ? QSize(1920, 1080) : QSize(1600, 1000)));
        if (presentation) {
            w.teaching().setPresentationMode(true);
            QCoreApplication::processEvents();
        }
        for (const ModelInfo& m : builtinModels()) {
            const QString id = QString::fromUtf8(m.id.data(), qsizetype(m.id.size()));
            chooseNetwork(w, id);
            QVERIFY2(w.workspace().report() && w.workspace().report()->config.model == m.id, qPrintable(id));
            QStringList cut = cutCells(w.table());
            QVERIFY2(cut.isEmpty(), qPrintable(id + QStringLiteral(": ") + cut.join(QStringLiteral("; "))));
            // A batch step that lengthens numbers (shapes, times, energies): fitted at the next event.
            // Paint finds what no longer fits, in the rows it draws: every page of the table in turn, as
            // a user scrolling it sees them (a row out of view is widened for when it comes into view;
            // the probes' classifiers were below the fold at 1600 x 1000).
            w.controls()->batchSpin()->setValue(200);
            QCoreApplication::processEvents();
            QScrollBar* rows = w.table()->verticalScrollBar();
            for (int at = 0;; at += std::max(1, rows->pageStep())) {
                rows->setValue(std::min(at, rows->maximum()));
                w.table()->viewport()->repaint();
                QCoreApplication::processEvents();
                w.table()->viewport()->repaint();
                cut = cutCells(w.table(), true);
                QVERIFY2(cut.isEmpty(),
                    qPrintable(id + QStringLiteral(" at batch 200, rows from %1: ").arg(rows->value())
                        + cut.join(QStringLiteral("; "))));
                if (at >= rows->maximum())
                    break;
            }
            rows->setValue(0);
            w.controls()->batchSpin()->setValue(1);
            QCoreApplication::processEvents();
        }
        if (presentation)
            w.teaching().setPresentationMode(false);
    }

    // Ctrl+A then Ctrl+C: every row, tab-separated, a header row first, the bound glyphs out.
    void copiesTheSelectionAsTabSeparatedText()
    {
        MainWindow w(test::freshWindow());
        QVERIFY(test::showAtDesktopSize(w));
        LayerTable* table = w.table();
        table->setFocus();
        QTest::keyClick(table, Qt::Key_A, Qt::ControlModifier);
        QTest::keyClick(table, Qt::Key_C, Qt::ControlModifier);
        const QStringList lines = QApplication::clipboard()->text().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), table->model()->rowCount() + 1);
        const QStringList header = lines[0].split(QLatin1Char('\t'));
        QCOMPARE(header[0], QStringLiteral("Layer"));
        QVERIFY(header.contains(QStringLiteral("Bound")));
        const int bound = int(header.indexOf(QStringLiteral("Bound")));
        const QStringList first = lines[1].split(QLatin1Char('\t'));
        QCOMPARE(first.size(), header.size());
        QCOMPARE(first[0], QStringLiteral("enc1.conv1"));
        QVERIFY2(first[bound] == QStringLiteral("compute") || first[bound] == QStringLiteral("memory"),
            qPrintable(first[bound]));
        QVERIFY(!lines.join(QString()).contains(QChar(0x25e2)));
        QVERIFY(!lines.join(QString()).contains(QChar(0x25ac)));
    }

    // After sorting by another column, the table shows its first rows.
    void sortShowsTheTop()
    {
        MainWindow w(test::freshWindow());
        QVERIFY(test::showAtDesktopSize(w, QSize(1600, 800)));
        chooseNetwork(w, QStringLiteral("resnet50"));
        LayerTable* table = w.table();
        table->verticalScrollBar()->setValue(table->verticalScrollBar()->maximum() / 2);
        QVERIFY(table->verticalScrollBar()->value() > 0);
        table->horizontalHeader()->setSortIndicator(LayerTableModel::Time, Qt::DescendingOrder);
        QCoreApplication::processEvents();
        QCOMPARE(table->verticalScrollBar()->value(), 0);
    }

    // The first click on a cost column puts the heaviest rows on top (as a file manager sorts by
    // size); on the names, the network's order. At 1440 x 900 the share column is whole, and a
    // resize brings the names back into view after a sideways scroll.
    void firstClickSortsHeaviestFirst()
    {
        MainWindow w(test::freshWindow());
        QVERIFY(test::showAtDesktopSize(w, QSize(1440, 900)));
        chooseNetwork(w, QStringLiteral("resnet50"));
        LayerTable* table = w.table();
        QHeaderView* header = table->horizontalHeader();
        auto click = [&](int column) {
            table->scrollTo(table->model()->index(0, column));
            QCoreApplication::processEvents();
            QTest::mouseClick(header->viewport(), Qt::LeftButton, {},
                QPoint(
                    header->sectionViewportPosition(column) + header->sectionSize(column) / 2, header->height() / 2));
        };
        click(LayerTableModel::Time);
        QCOMPARE(header->sortIndicatorSection(), int(LayerTableModel::Time));
        QCOMPARE(header->sortIndicatorOrder(), Qt::DescendingOrder);
        QAbstractItemModel* m = table->model();
        const double first = m->index(0, LayerTableModel::Time).data(LayerTableModel::SortRole).toDouble();
        for (int r = 1; r < m->rowCount(); ++r)
            QVERIFY(m->index(r, LayerTableModel::Time).data(LayerTableModel::SortRole).toDouble() <= first);
        click(LayerTableModel::Name);
        QCOMPARE(header->sortIndicatorOrder(), Qt::AscendingOrder);
        // The share column: as wide as its bar and text need, stretched or not.
        const QStringList cut = cutCells(table);
        QVERIFY2(cut.isEmpty(), qPrintable(cut.mid(0, 5).join(QLatin1Char('\n'))));
        table->horizontalScrollBar()->setValue(table->horizontalScrollBar()->maximum());
        w.resize(1400, 880);
        QCoreApplication::processEvents();
        QCOMPARE(table->horizontalScrollBar()->value(), 0);
    }
};

QTEST_MAIN(TestLayerTable)
#include "tst_layertable.moc"
