// The user's own model in the window: opened from the selector, the File menu, the recent files and
// a drop; read on a worker thread; controls the file fixes are off and say why; a file that cannot be
// used leaves the window on what it showed.
#include "guitestutils.h"
#include "panels/controlpanel.h"
#include "panels/modelinputs.h"
#include "table/layertablemodel.h"
#include "testutils.h"
#include "window/mainwindow.h"
#include "workspace/modelopener.h"
#include "workspace/sessioncontroller.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QMimeData>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStatusBar>
#include <QTableView>
#include <QUndoStack>
#include <QUrl>

using namespace rfx;

namespace {
QString fixture(const char* name) { return QStringLiteral(ROOFLINE_TEST_DATA_DIR "/onnx/") + QLatin1String(name); }

// Opens through the window's opener and waits for the worker.
bool openAndWait(MainWindow& w, const QString& path)
{
    ModelOpener* opener = w.findChild<ModelOpener*>();
    QSignalSpy opened(opener, &ModelOpener::opened), failed(&w.workspace(), &Workspace::networkFileRefused);
    opener->open(path);
    return QTest::qWaitFor([&] { return !opened.isEmpty() || !failed.isEmpty(); }, 20000) && !opened.isEmpty();
}
} // namespace

class TestModelOpen : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

private slots:
    void initTestCase() { test::isolateGuiTest(m_dir, QStringLiteral("tst_modelopen")); }

    // ResNet-50 with a free batch and image size: both controls work, and the table names the ONNX node.
    void openAnOnnxModel()
    {
        MainWindow w(test::freshWindow());
        QVERIFY(test::showAtDesktopSize(w));
        ControlPanel* c = w.controls();
        QCOMPARE(c->networkCombo()->itemText(c->networkCombo()->count() - 1), QStringLiteral("Open model file…"));
        QVERIFY(openAndWait(w, fixture("resnet50.onnx")));
        QCOMPARE(w.workspace().report()->network, std::string("resnet50"));
        QCOMPARE(c->imageSpin()->value(), 224); // the size it opens at
        QVERIFY(c->imageSpin()->isEnabled());
        QVERIFY(c->batchSpin()->isEnabled());
        c->batchSpin()->setValue(8);
        QCOMPARE(w.workspace().report()->input, (Shape { 8, 3, 224, 224 }));
        auto* table = w.findChild<QTableView*>();
        const QString tip = table->model()->index(0, LayerTableModel::Name).data(Qt::ToolTipRole).toString();
        QVERIFY2(tip.contains(QStringLiteral("conv, ONNX Conv")), qPrintable(tip));
        // It is a recent file now.
        const QStringList recent = QSettings().value(QStringLiteral("session/recentFiles")).toStringList();
        QVERIFY(recent.contains(fixture("resnet50.onnx")));
    }

    // An If on a flag input: the Model inputs box appears with the flag's field; typing 0 counts the else
    // branch (a ReLU), clearing it the heavier one again (the convolution). Hidden for other models.
    void bindAnInputValue()
    {
        MainWindow w(test::freshWindow());
        QVERIFY(test::showAtDesktopSize(w));
        ModelInputsBox* box = w.controls()->modelInputs();
        QVERIFY(box->isHidden());
        QVERIFY(openAndWait(w, fixture("wild/if_flag.onnx")));
        QVERIFY(box->isVisible());
        auto* flag = box->findChild<QLineEdit*>(QStringLiteral("flag"));
        QVERIFY(flag);
        QCOMPARE(w.workspace().report()->results.front().layers.front().op, Op::Conv);
        flag->setText(QStringLiteral("0"));
        emit flag->editingFinished();
        QCOMPARE(w.workspace().config().inputValues.at("flag"), 0.0);
        QCOMPARE(w.workspace().report()->results.front().layers.front().op, Op::ReLU);
        flag->setText(QStringLiteral("zero"));
        emit flag->editingFinished(); // not a number: refused in place, the value stays
        QCOMPARE(w.workspace().report()->results.front().layers.front().op, Op::ReLU);
        flag->clear();
        emit flag->editingFinished();
        QVERIFY(w.workspace().config().inputValues.empty());
        QCOMPARE(w.workspace().report()->results.front().layers.front().op, Op::Conv);
        QVERIFY(openAndWait(w, fixture("resnet50.onnx")));
        QVERIFY(box->isHidden());
    }

    // A value bound for one model stays with it (issue 37): typed for if_flag, it followed to every model
    // opened after ("--input-value flag: the model has no one-element input 'flag'" on ResNet-50); it comes
    // back when if_flag is opened again in this window.
    void boundValuesStayWithTheirModel()
    {
        MainWindow w(test::freshWindow());
        QVERIFY(test::showAtDesktopSize(w));
        QVERIFY(openAndWait(w, fixture("wild/if_flag.onnx")));
        auto* flag = w.controls()->modelInputs()->findChild<QLineEdit*>(QStringLiteral("flag"));
        QVERIFY(flag);
        flag->setText(QStringLiteral("0"));
        emit flag->editingFinished();
        QCOMPARE(w.workspace().report()->results.front().layers.front().op, Op::ReLU);
        QVERIFY(openAndWait(w, fixture("resnet50.onnx")));
        QVERIFY(w.workspace().config().inputValues.empty());
        for (const Diagnostic& d : w.workspace().report()->diagnostics)
            QVERIFY2(d.field.find("--input-value") == std::string::npos, d.message.c_str());
        QVERIFY(openAndWait(w, fixture("wild/if_flag.onnx")));
        QCOMPARE(w.workspace().config().inputValues.at("flag"), 0.0);
        QCOMPARE(w.workspace().report()->results.front().layers.front().op, Op::ReLU);
        QCOMPARE(
            w.controls()->modelInputs()->findChild<QLineEdit*>(QStringLiteral("flag"))->text(), QStringLiteral("0"));
    }

    // An If on the data (rnn_in_if: LSTM or GRU): the box offers the branch by node; Else counts the GRU
    // (576 parameters), the status line says both counts; Heavier branch counts the LSTM again.
    void chooseABranchOnTheData()
    {
        MainWindow w(test::freshWindow());
        QVERIFY(test::showAtDesktopSize(w));
        QVERIFY(openAndWait(w, fixture("wild/rnn_in_if.onnx")));
        ModelInputsBox* box = w.controls()->modelInputs();
        QVERIFY(box->isVisible());
        auto* choice = box->findChild<QComboBox*>(QStringLiteral("loud_or_quiet"));
        QVERIFY(choice);
        QCOMPARE(w.workspace().report()->results.front().totals.params, std::int64_t { 6'400 });
        choice->setCurrentIndex(2);
        QCOMPARE(w.workspace().config().branches.at("loud_or_quiet"), false);
        QCOMPARE(w.workspace().report()->results.front().totals.params, std::int64_t { 576 });
        QCOMPARE(w.workspace().report()->storedParameters, std::int64_t { 6'976 });
        QVERIFY(w.statusBar()->findChildren<QLabel*>().size() > 0);
        bool said = false;
        for (QLabel* l : w.statusBar()->findChildren<QLabel*>())
            said = said || l->text().contains(QStringLiteral("576 parameters counted of 6,976 stored"));
        QVERIFY(said);
        choice->setCurrentIndex(0);
        QVERIFY(w.workspace().config().branches.empty());
        QCOMPARE(w.workspace().report()->results.front().totals.params, std::int64_t { 6'400 });
    }

    // A file that fixes the batch at 1, opened after batch 16: the Batch box shows 1, and every figure is
    // for one image (images/s = 1 / time, as the CLI's).
    void aFixedBatchIsTheBatchShown()
    {
        MainWindow w(test::freshWindow());
        QVERIFY(test::showAtDesktopSize(w));
        w.controls()->batchSpin()->setValue(16);
        QVERIFY(openAndWait(w, fixture("wild/fixed_batch.onnx")));
        ControlPanel* c = w.controls();
        QVERIFY(!c->batchSpin()->isEnabled());
        QCOMPARE(c->batchSpin()->value(), 1);
        const Report& r = *w.workspace().report();
        QCOMPARE(r.config.batch, 1);
        QCOMPARE(r.results.front().totals.throughput, 1 / r.results.front().totals.time);
    }

    // AlexNet fixes 224 x 224: the image controls are off, and their tooltip says why.
    void fixedExtentsTurnTheControlOff()
    {
        MainWindow w(test::freshWindow());
        QVERIFY(test::showAtDesktopSize(w));
        w.controls()->imageSpin()->setValue(388); // the U-Net at another size first
        QVERIFY(openAndWait(w, fixture("alexnet.onnx")));
        ControlPanel* c = w.controls();
        QVERIFY(!c->imageSpin()->isEnabled());
        QCOMPARE(c->imageSpin()->value(), 224); // the size the file fixes, not the one shown before
        QVERIFY2(c->imageSpin()->toolTip().contains(
                     QStringLiteral("the model file fixes the image size (input 'input' is batchx3x224x224)")),
            qPrintable(c->imageSpin()->toolTip()));
        QVERIFY(c->batchSpin()->isEnabled());
        // Back on the U-Net, the controls work again and the reason is gone.
        c->networkCombo()->setCurrentIndex(c->networkCombo()->findData(QStringLiteral("unet")));
        emit c->networkCombo()->activated(c->networkCombo()->currentIndex());
        QVERIFY(c->imageSpin()->isEnabled());
        QVERIFY(!c->imageSpin()->toolTip().contains(QStringLiteral("fixes")));
    }

    // A file that fixes an oblong image (48 x 224, as OCR recognisers ship) after a square U-Net: the
    // controls show 48 and 224, Square off (they showed "224, Square" before).
    void anOblongFixedImageIsTheSizeShown()
    {
        MainWindow w(test::freshWindow());
        QVERIFY(test::showAtDesktopSize(w));
        w.controls()->imageSpin()->setValue(388);
        QVERIFY(openAndWait(w, fixture("wild/oblong.onnx")));
        ControlPanel* c = w.controls();
        QVERIFY(!c->imageSpin()->isEnabled());
        QCOMPARE(c->imageSpin()->value(), 48);
        QVERIFY(!c->squareCheck()->isChecked());
        QCOMPARE(c->widthSpin()->value(), 224);
        QCOMPARE(w.workspace().report()->results.front().layers.front().out.w, std::int64_t { 224 });
    }

    // A broken model: a dialog names the file and the reason; the window keeps what it showed.
    void brokenModelLeavesTheWork()
    {
        MainWindow w(test::freshWindow());
        QVERIFY(test::showAtDesktopSize(w));
        QVERIFY(openAndWait(w, fixture("alexnet.onnx")));
        QVERIFY(!openAndWait(w, fixture("bad/cycle.onnx")));
        auto* box = w.findChild<QMessageBox*>(QStringLiteral("networkFileError"));
        QVERIFY(box && box->isVisible());
        const QString said = box->text() + QLatin1Char('\n') + box->informativeText();
        QVERIFY2(said.contains(QStringLiteral("cycle.onnx"))
                && said.contains(QStringLiteral("a cycle, a node out of order")),
            qPrintable(said));
        QCOMPARE(w.workspace().report()->network, std::string("alexnet"));
        QVERIFY(w.controls()->config().model.ends_with("alexnet.onnx"));
        box->close();
    }

    // Dropping a model file on the window opens it.
    void dropAModel()
    {
        MainWindow w(test::freshWindow());
        QVERIFY(test::showAtDesktopSize(w));
        QMimeData mime;
        mime.setUrls({ QUrl::fromLocalFile(fixture("unet.onnx")) });
        QDragEnterEvent enter(QPoint(200, 200), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&w, &enter);
        QVERIFY(enter.isAccepted());
        ModelOpener* opener = w.findChild<ModelOpener*>();
        QSignalSpy opened(opener, &ModelOpener::opened);
        QDropEvent drop(QPointF(200, 200), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&w, &drop);
        QVERIFY(QTest::qWaitFor([&] { return !opened.isEmpty(); }, 20000));
        QCOMPARE(w.workspace().report()->network, std::string("unet"));
        // The nodes that became rows: 19 Conv, 4 ConvTranspose, 18 Relu, 4 MaxPool, 8 Slice, 4 Concat.
        QCOMPARE(w.workspace().report()->origins.size(), size_t(57));
    }

    // A malformed network file: a dialog says which file, where and why in words; the selector
    // stays on the network the charts show, and the broken file is not left in the list.
    void malformedNetworkFileLeavesTheWindowAsItWas()
    {
        MainWindow w(test::freshWindow());
        QVERIFY(test::showAtDesktopSize(w));
        ControlPanel* c = w.controls();
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("bad-syntax.json"));
        QVERIFY(test::writeFile(path, "{\"schema\": 1, \"name\": \"x\", \"layers\": [ {\"op\": \"conv\",, } ]}\n"));
        const int undoSteps = w.sessions().undoStack()->count();
        w.workspace().openModel(path);
        QCoreApplication::processEvents();
        auto* box = w.findChild<QMessageBox*>(QStringLiteral("networkFileError"));
        QVERIFY(box);
        QVERIFY(box->isVisible());
        const QString said = box->text() + QLatin1Char('\n') + box->informativeText();
        QVERIFY2(said.contains(QStringLiteral("bad-syntax.json")), qPrintable(said));
        QVERIFY2(said.contains(QStringLiteral("line 1, column")), qPrintable(said));
        QVERIFY2(said.contains(QStringLiteral("field name in double quotes")), qPrintable(said));
        QVERIFY2(!said.contains(QStringLiteral("json.exception")), qPrintable(said));
        QCOMPARE(c->networkCombo()->currentData().toString(), QStringLiteral("unet"));
        QCOMPARE(c->networkCombo()->findData(path), -1);
        QCOMPARE(c->config().model, std::string("unet"));
        QCOMPARE(w.workspace().report()->config.model, std::string("unet"));
        QVERIFY(c->imageSpin()->isEnabled()); // the U-Net's controls, not greyed as for a file
        QCOMPARE(w.sessions().undoStack()->count(), undoSteps); // nothing to undo: nothing changed
        box->close();
    }
};

QTEST_MAIN(TestModelOpen)
#include "tst_modelopen.moc"
