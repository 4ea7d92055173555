// A monkey at the controls: 400 random changes to every slider, spin box, combo box and check box,
// the device list, overlay and filters, with the energy view open for 40 of them. No crash, no Qt warning, no NaN, and
// the window always shows either a valid analysis or an explanation of the problem; after every step each chart draws
// exactly what a chart built fresh from its state draws (tests/chartoracle.h).
#include "chart/chartarea.h"
#include "chart/rooflinechart.h"
#include "chartoracle.h"
#include "panels/controlpanel.h"
#include "panels/devicepicker.h"
#include "panels/energyview.h"
#include "testutils.h"
#include "window/mainwindow.h"

#include <QAbstractSlider>

#include <QCheckBox>
#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QListView>
#include <QSpinBox>
#include <algorithm>

#include <cmath>
#include <random>

using namespace rfx;

namespace {
QStringList g_warnings;

void collectWarnings(QtMsgType type, const QMessageLogContext&, const QString& message)
{
    // The offscreen platform's own notes are not the application's warnings.
    if (message.contains(QLatin1String("propagateSizeHints"))
        || message.contains(QLatin1String("does not support raise"))
        || message.startsWith(QLatin1String("QStandardPaths:")))
        return;
    if (type == QtWarningMsg || type == QtCriticalMsg || type == QtFatalMsg)
        g_warnings.append(message);
}
} // namespace

class TestMonkey : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { qputenv("ROOFLINE_DEVICES_DIR", ROOFLINE_TEST_DEVICES_DIR); }

    void randomControlChanges()
    {
        GuiOptions o;
        o.noRestore = true;
        MainWindow w(o);
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const auto previous = qInstallMessageHandler(collectWarnings);

        // ROOFLINE_MONKEY_SEED runs another monkey (CI keeps 7, so a failure can be replayed).
        std::mt19937 rng(qEnvironmentVariableIsSet("ROOFLINE_MONKEY_SEED")
                ? unsigned(qEnvironmentVariableIntValue("ROOFLINE_MONKEY_SEED"))
                : 7u);
        auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
        const auto sliders = w.controls()->findChildren<QAbstractSlider*>();
        const auto spins = w.controls()->findChildren<QSpinBox*>();
        // The energy view's own choices (objective, ...) too: it sweeps live while it is open.
        const auto combos = w.controls()->findChildren<QComboBox*>() + w.energyView()->findChildren<QComboBox*>();
        const auto checks = w.controls()->findChildren<QCheckBox*>();
        auto* devices = w.findChild<DevicePicker*>()->findChild<QListView*>();
        QVERIFY(!sliders.isEmpty() && !spins.isEmpty() && !combos.isEmpty() && !checks.isEmpty());

        // ROOFLINE_MONKEY_STEPS sets the length (400 by default; CI's sanitizer stage runs fewer, the
        // release build in the fresh root all 400).
        const int steps = std::clamp(qEnvironmentVariableIntValue("ROOFLINE_MONKEY_STEPS"), 0, 100000);
        const int total = steps > 0 ? steps : 400;
        int problems = 0;
        for (int step = 0; step < total; ++step) {
            // The energy view sweeps live on every change while open: open for a tenth of the steps
            // from the middle on (each sweep tunes three ranges and redraws three charts; every step
            // with it open would triple the test's time).
            if (step == total / 2 || step == total / 2 + std::max(1, total / 10))
                w.energyDock()->setVisible(step == total / 2);
            switch (pick(0, 6)) {
            case 0:
            case 1: {
                QAbstractSlider* s = sliders[pick(0, int(sliders.size()) - 1)];
                s->setValue(pick(s->minimum(), s->maximum()));
                break;
            }
            case 2: {
                QSpinBox* s = spins[pick(0, int(spins.size()) - 1)];
                // Mostly small values (large ones make huge networks that take long to analyse, not a bug).
                s->setValue(pick(s->minimum(), std::min(s->maximum(), s->minimum() + 300)));
                break;
            }
            case 3: {
                QComboBox* c = combos[pick(0, int(combos.size()) - 1)];
                c->setCurrentIndex(pick(0, c->count() - 1));
                break;
            }
            case 4: {
                QCheckBox* c = checks[pick(0, int(checks.size()) - 1)];
                c->setChecked(!c->isChecked());
                break;
            }
            case 5: {
                const QModelIndex i = devices->model()->index(pick(0, devices->model()->rowCount() - 1), 0);
                const bool on = i.data(Qt::CheckStateRole).toInt() == Qt::Checked;
                devices->model()->setData(i, on ? Qt::Unchecked : Qt::Checked, Qt::CheckStateRole);
                break;
            }
            case 6:
                w.chartArea()->setOverlay(pick(0, 1));
                break;
            }
            QCoreApplication::processEvents();
            if (!w.controls()->problemText().isEmpty()) {
                ++problems;
                // Like a user: usually take the offered fix, else go back to the default network.
                if (pick(0, 3) > 0) {
                    QLabel* label = nullptr;
                    for (QLabel* l : w.controls()->findChildren<QLabel*>())
                        if (l->accessibleName() == QLatin1String("Configuration problem"))
                            label = l;
                    const QString text = label ? label->text() : QString();
                    const int at = int(text.indexOf(QLatin1String("href=\"")));
                    if (at >= 0)
                        emit label->linkActivated(text.mid(at + 6, text.indexOf(QLatin1Char('"'), at + 6) - at - 6));
                    if (!w.controls()->problemText().isEmpty())
                        w.loadPreset(0);
                }
            }
            if (w.workspace().report()) {
                for (const DeviceResult& d : w.workspace().report()->results) {
                    QVERIFY(std::isfinite(d.totals.time) && d.totals.time > 0);
                    for (const LayerResult& l : d.layers)
                        QVERIFY(std::isfinite(l.intensity) && std::isfinite(l.time));
                }
            }
            int chart = 0;
            for (RooflineChart* c : w.chartArea()->charts()) {
                for (const QPointF& p : c->layerPoints())
                    QVERIFY(std::isfinite(p.x()) && std::isfinite(p.y()) && p.x() > 0 && p.y() > 0);
                const QString stale = rfx::test::chartDiffersFromFresh(
                    c, QStringLiteral("monkey-step%1-chart%2").arg(step).arg(chart++));
                QVERIFY2(stale.isEmpty(), qPrintable(stale));
            }
        }
        w.grab(); // paint whatever the monkey left
        qInstallMessageHandler(previous);
        qInfo("%d random steps, %d of them showed a configuration problem", total, problems);
        QVERIFY2(g_warnings.isEmpty(), qPrintable(g_warnings.join(QLatin1Char('\n'))));
    }
};

QTEST_MAIN(TestMonkey)
#include "tst_monkey.moc"
