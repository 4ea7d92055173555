// The live window's layer table, offscreen: drawn by the delegate, its columns fitted and in view,
// text shaped once yet following the type, the top-N filter, every cell as the engine says.
#include "base/format.h"
#include "chart/chartarea.h"
#include "features/measurementsview.h"
#include "open/analyses.h"
#include "panels/controlpanel.h"
#include "panels/devicepicker.h"
#include "panels/energyview.h"
#include "table/celldelegate.h"
#include "table/layertable.h"
#include "table/layertablemodel.h"
#include "window/mainwindow.h"
#include "window/teaching.h"
#include "workspace/sessioncontroller.h"

#include "chart/rooflinechart.h"
#include "chart/summaryview.h"
#include "guitestutils.h"
#include "testutils.h"
#include "ui/window/mainwindowtests.h"

#include <QAbstractAxis>
#include <QAction>
#include <QApplication>
#include <QChart>
#include <QClipboard>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QFileInfo>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineEdit>
#include <QLineSeries>
#include <QListView>
#include <QMenu>
#include <QMessageBox>
#include <QScatterSeries>
#include <QScrollBar>
#include <QSettings>
#include <QSlider>
#include <QSpinBox>
#include <QStatusBar>
#include <QStyle>
#include <QStyleOptionViewItem>
#include <QTableView>
#include <QTemporaryDir>
#include <QUndoStack>

#include <functional>
#include <utility>

using namespace rfx;

using namespace rfx::mainwindowtest;

class TestMainWindowTable : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

private slots:
    void initTestCase()
    {
        rfx::test::isolateGuiTest(m_dir, QStringLiteral("tst_mainwindow_table"));
        qputenv("XDG_DATA_HOME", m_dir.filePath(QStringLiteral("data")).toUtf8());
    }

    void tableGridIsDrawnByTheDelegate()
    {
        // The view's own grid is off (it was 13 % of a slider step); the delegate draws the same
        // one-pixel lines on each cell's right and bottom edge, also on a selected row.
        MainWindow w(fresh());
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QTableView* table = w.table();
        QVERIFY(!table->showGrid());
        QStyleOptionViewItem option;
        option.initFrom(table);
        const QColor grid
            = QColor::fromRgba(QRgb(table->style()->styleHint(QStyle::SH_Table_GridLineColor, &option, table)));
        auto check = [&](int row) {
            const QModelIndex cell = table->model()->index(row, LayerTableModel::Params);
            const QRect r = table->visualRect(cell);
            const QImage image = table->viewport()->grab().toImage();
            const qreal dpr = image.devicePixelRatio();
            auto at = [&](int x, int y) { return image.pixelColor(int(x * dpr), int(y * dpr)); };
            QCOMPARE(at(r.right(), r.center().y()), grid); // right edge
            QCOMPARE(at(r.left() + 2, r.bottom()), grid); // bottom edge
            QVERIFY(at(r.left() + 2, r.bottom() - 1) != grid); // one pixel, not a band
        };
        check(1);
        table->selectRow(1);
        check(1);
    }

    // Issue 38: at 1920 x 1080 the share-of-time values sat under the vertical scroll bar, behind a
    // horizontal one, 15 px short: the share's column gives way down to what its text needs.
    void shareOfTimeIsInViewAtDesktopSize()
    {
        MainWindow w(fresh());
        QVERIFY(rfx::test::showAtDesktopSize(w));
        QTableView* table = w.table();
        QCoreApplication::processEvents();
        const int share = LayerTableModel::Share;
        QVERIFY(table->verticalScrollBar()->isVisible());
        QCOMPARE(table->horizontalScrollBar()->maximum(), 0);
        QVERIFY2(table->columnViewportPosition(share) + table->columnWidth(share) <= table->viewport()->width(),
            qPrintable(QStringLiteral("share column ends at %1 of %2")
                           .arg(table->columnViewportPosition(share) + table->columnWidth(share))
                           .arg(table->viewport()->width())));
        // Its values whole: "6.9 %" needs its width.
        auto* delegate = qobject_cast<CellDelegate*>(table->itemDelegate());
        for (int row = 0; row < table->model()->rowCount(); ++row) {
            const QModelIndex index = table->model()->index(row, share);
            QVERIFY(QFontMetricsF(delegate->cellFont(table->font(), index)).horizontalAdvance(index.data().toString())
                < table->columnWidth(share));
        }
    }

    void tableCellsFitTheirColumnsAtStart()
    {
        // Columns are sized to their contents once, on the first report: no cell of that report is
        // elided (the bold dominant layers' FLOPs once lost a pixel to the delegate-drawn grid).
        MainWindow w(fresh());
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QTableView* table = w.table();
        auto* delegate = qobject_cast<CellDelegate*>(table->itemDelegate());
        QVERIFY(delegate);
        const int margin = table->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, table) + 1;
        const int last = table->model()->columnCount() - 1; // stretched
        int checked = 0;
        for (int row = 0; row < table->model()->rowCount(); ++row)
            for (int column = 0; column < last; ++column) {
                if (table->isColumnHidden(column))
                    continue;
                const QModelIndex index = table->model()->index(row, column);
                const QString text = index.data().toString();
                const QFontMetricsF metrics(delegate->cellFont(table->font(), index));
                const double room = table->columnWidth(column) - 2 * margin - 1; // margins, grid pixel
                QVERIFY2(metrics.horizontalAdvance(text) <= room + 0.5,
                    qPrintable(QStringLiteral("row %1, column %2: '%3' is elided").arg(row).arg(column).arg(text)));
                ++checked;
            }
        QVERIFY(checked > 500);
    }

    void tableAndSummariesSkipShapingYetFollowTheFontSize()
    {
        // Live text (cells, summaries) is drawn without OpenType shaping, a tenth of a slider step;
        // only that attribute is set, so presentation mode still makes it 1.5x larger.
        MainWindow w(fresh());
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QTableView* table = w.table();
        SummaryText* summary = w.chartArea()->summaries().front();
        auto* delegate = qobject_cast<CellDelegate*>(table->itemDelegate());
        QVERIFY(delegate);
        auto cellFont
            = [&] { return delegate->cellFont(table->font(), table->model()->index(0, LayerTableModel::Params)); };
        const QFont cell = cellFont();
        QVERIFY(cell.styleStrategy() & QFont::PreferNoShaping);
        QVERIFY(summary->document()->defaultFont().styleStrategy() & QFont::PreferNoShaping);
        const qreal size = QApplication::font().pointSizeF();
        QCOMPARE(cell.pointSizeF(), size);
        QCOMPARE(summary->document()->defaultFont().pointSizeF(), size);
        w.teaching().setPresentationMode(true);
        QCoreApplication::processEvents(); // the application font reaches widgets by posted events
        QCOMPARE(cellFont().pointSizeF(), size * 1.5);
        QVERIFY(cellFont().styleStrategy() & QFont::PreferNoShaping);
        QCOMPARE(summary->document()->defaultFont().pointSizeF(), size * 1.5);
        w.teaching().setPresentationMode(false);
        QCoreApplication::processEvents();
        QCOMPARE(cellFont().pointSizeF(), size);
    }

    void filterTopN()
    {
        MainWindow w(fresh());
        w.show();
        auto* topN = w.findChild<QSpinBox*>(QString(), Qt::FindChildrenRecursively);
        QVERIFY(topN);
        // Find the "Top N" spin box by its suffix.
        for (QSpinBox* s : w.findChildren<QSpinBox*>())
            if (s->suffix().contains(QStringLiteral("by time")))
                topN = s;
        topN->setValue(5);
        QCOMPARE(w.table()->model()->rowCount(), 5);
        QCOMPARE(w.chartArea()->charts()[0]->layerPoints().size(), size_t(5));
        topN->setValue(0);
        QCOMPARE(w.table()->model()->rowCount(), int(w.workspace().report()->results[0].layers.size()));
    }

    void tableAgreesWithTheEngine()
    {
        MainWindow w(fresh());
        w.show();
        Config c;
        c.batch = 4;
        c.mode = Mode::Training;
        w.workspace().setConfig(c);
        const AnalysisOutcome direct = analyzeConfig(c, { rfx::test::shippedDevice("rtx-2060-super") });
        QCOMPARE(w.workspace().report()->results[0].totals.time, direct.report->results[0].totals.time);
        const int rows = w.table()->model()->rowCount();
        QCOMPARE(rows, int(direct.report->results[0].layers.size()));
        QCOMPARE(
            w.table()->model()->index(rows - 1, LayerTableModel::Op).data().toString(), QStringLiteral("optimizer"));
    }
};

QTEST_MAIN(TestMainWindowTable)
#include "tst_mainwindow_table.moc"
