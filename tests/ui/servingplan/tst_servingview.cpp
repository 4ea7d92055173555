// The serving plan in the window (issue 74 step 6): the view draws what core's planner gives for the
// workspace's language model, lengths and devices at the targets typed into it (planned off the
// window's thread), rings each device's best with its settings beside it, marks the TPOT target,
// lists each best in its table, follows the language-model controls, and says how to get a language
// model when a network is shown.
#include "features/exportcontroller.h"
#include "servingplan/servingplanner.h"
#include "servingplan/servingview.h"
#include "workspace/workspace.h"

#include "guitestutils.h"
#include "testutils.h"

#include "style/chartpointlabels.h"

#include <QChart>
#include <QFile>
#include <QImageReader>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPushButton>
#include <QScatterSeries>
#include <QSignalSpy>
#include <QTableWidget>
#include <QThreadPool>
#include <QtTest>

using namespace rfx;

namespace {

void startWorkspace(Workspace& ws)
{
    ws.setLibrary(loadDeviceLibrary({ std::filesystem::path(ROOFLINE_TEST_DEVICES_DIR) }));
    ws.setWork(Config {}, { QStringLiteral("h100-sxm"), QStringLiteral("mi300x") });
    ws.startHistory();
}

/// Waits for the plan in flight (and any it left pending) to arrive.
bool settle(ServingView& view)
{
    for (int i = 0; i < 400; ++i) {
        QTest::qWait(25);
        if (!view.planner()->busy() && view.planner()->plan())
            return true;
    }
    return false;
}

std::vector<const QScatterSeries*> rings(QChart* chart)
{
    std::vector<const QScatterSeries*> out;
    for (QAbstractSeries* s : chart->series())
        if (auto* r = qobject_cast<QScatterSeries*>(s); r && r->name() == QStringLiteral("the best"))
            out.push_back(r);
    return out;
}

} // namespace

class TestServingView : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

private slots:
    void initTestCase() { test::isolateGuiTest(m_dir, QStringLiteral("tst_servingview")); }

    void theViewDrawsTheCorePlan()
    {
        Workspace ws;
        startWorkspace(ws);
        ServingView view;
        view.follow(&ws);
        view.resize(1300, 650);
        view.show();
        QTRY_VERIFY(view.message().contains(QStringLiteral("choose one in the Network selector")));
        ws.showModel("llama-3.1-8b");
        LlmWork w = ws.state().llm;
        w.settings.prompt = 2000;
        w.settings.generate = 300;
        ws.setLlm(w);
        view.setTargets(500, 20, 100);
        QVERIFY(settle(view));
        QVERIFY2(view.message().isEmpty(), qPrintable(view.message()));

        // What core plans for the same model, lengths, devices and targets.
        PlanSettings s;
        s.llm.prompt = 2000;
        s.llm.generate = 300;
        s.ttft = 0.5;
        s.tpot = 0.020;
        s.users = 100;
        const Plan plan = planServing(test::builtinModel("llama-3.1-8b"), s, ws.checkedDevices());
        const Plan& shown = *view.planner()->plan();
        QCOMPARE(shown.devices.size(), size_t(2));
        for (size_t d = 0; d < 2; ++d) {
            QVERIFY(plan.devices[d].best);
            QCOMPARE(shown.devices[d].best, plan.devices[d].best);
            QCOMPARE(shown.devices[d].points.size(), plan.devices[d].points.size());
        }

        // Each device's front a line of its own colour, its best ringed with its settings written beside it.
        int fronts = 0;
        for (QAbstractSeries* a : view.chart()->series())
            if (auto* line = qobject_cast<QLineSeries*>(a);
                line && !qobject_cast<QScatterSeries*>(a) && line->name() != QStringLiteral("TPOT target")) {
                ++fronts;
                const DevicePlan& d = plan.devices[size_t(fronts - 1)];
                QCOMPARE(line->count(), int(d.front.size()));
                QCOMPARE(line->at(0).x(), d.points[d.front[0]].point.userTokensPerSecond);
            }
        QCOMPARE(fronts, 2);
        const auto ringed = rings(view.chart());
        QCOMPARE(ringed.size(), size_t(2));
        const PlanPoint& best = plan.devices[0].points[*plan.devices[0].best];
        QCOMPARE(ringed[0]->at(0), QPointF(best.point.userTokensPerSecond, best.point.gpuTokensPerSecond));
        QStringList labels;
        for (const auto& [text, box] : ChartPointLabels::of(view.chart())->shown())
            labels.append(text);
        QVERIFY2(labels.contains(ServingCharts::shortLabel(best)), qPrintable(labels.join(QLatin1Char('|'))));
        QVERIFY2(labels.contains(QStringLiteral("TPOT 20.0 ms")), qPrintable(labels.join(QLatin1Char('|'))));
        // the TPOT target across the plot at 1 / 20 ms = 50 tokens/s per user
        bool target = false;
        for (QAbstractSeries* a : view.chart()->series())
            if (auto* line = qobject_cast<QLineSeries*>(a); line && line->name() == QStringLiteral("TPOT target"))
                target = line->at(0).x() == 50 && line->at(1).x() == 50;
        QVERIFY(target);
        // hover: the best's settings, memory and the GPUs for the load
        const QString hover = view.pointText(ringed[0], 0);
        QVERIFY2(hover.contains(QString::fromStdString(planPointLabel(best)).toHtmlEscaped())
                && hover.contains(QStringLiteral("the best within the targets"))
                && hover.contains(QStringLiteral("GPUs")),
            qPrintable(hover));

        // the table: a row a device, its best and the GPUs for the 100 users
        QTableWidget* t = view.table();
        QCOMPARE(t->rowCount(), 2);
        QCOMPARE(t->item(0, 1)->text(), QString::fromStdString(planPointLabel(best)));
        QCOMPARE(t->item(0, 7)->text(), QString::number(best.gpus));

        // A target nobody meets: the row says what to relax; the chart still draws the fronts.
        view.setTargets(500, 0.1, 0);
        QVERIFY(settle(view));
        QTRY_VERIFY(view.planner()->settings().tpot == 0.0001);
        QVERIFY2(t->item(0, 1)->text().contains(QStringLiteral("relax --tpot")), qPrintable(t->item(0, 1)->text()));
        QVERIFY(rings(view.chart()).empty());

        // The language-model controls' lengths are the plan's.
        w.settings.prompt = 8000;
        ws.setLlm(w);
        QTRY_VERIFY_WITH_TIMEOUT(view.planner()->settings().llm.prompt == 8000, 10000);

        // Export figure...: the targets as the fields hold them
        QSignalSpy asked(&view, &ServingView::exportRequested);
        QPushButton* button = nullptr;
        for (QPushButton* b : view.findChildren<QPushButton*>())
            if (b->text() == QStringLiteral("Export figure..."))
                button = b;
        QVERIFY(button);
        button->click();
        QCOMPARE(asked.count(), 1);
        QCOMPARE(asked.at(0).at(0).value<ServingFigure>(), (ServingFigure { 0.5, 0.0001, 0 }));
        // ... which the window's export writes as the plan's figure, its sidecar naming them
        ExportController exporter(
            &ws, [] { return FigureSpec {}; }, nullptr);
        FigureSpec spec;
        spec.file = m_dir.filePath(QStringLiteral("plan.png")).toStdString();
        spec.widthIn = 3.5;
        spec.sidecar = true;
        const RenderResult written = exporter.exportServing(ServingFigure { 0.5, 0.02, 100 }, spec);
        QVERIFY2(written.ok, qPrintable(written.error));
        QCOMPARE(written.size.widthPx, 1050);
        const QString caption = QImageReader(QString::fromStdString(spec.file)).text(QStringLiteral("Description"));
        QVERIFY2(caption.startsWith(QStringLiteral("Llama-3.1 8B"))
                && caption.contains(QStringLiteral("100 users at once"))
                && caption.contains(QStringLiteral("Devices: h100-sxm, mi300x")),
            qPrintable(caption));
        std::string why;
        QFile side(QString::fromStdString(spec.file) + QStringLiteral(".json"));
        QVERIFY(side.open(QIODevice::ReadOnly));
        const auto back = figureFromJson(side.readAll().toStdString(), why);
        QVERIFY2(back && back->serving && back->serving->users == 100, why.c_str());

        // A network shown: the view says how to get a language model.
        ws.showModel("resnet18");
        QTRY_VERIFY(view.message().contains(QStringLiteral("choose one in the Network selector")));
    }

    // Edits faster than plans: one plan at a time, the last settings' plan shown at the end; a view
    // closed while its plan is in flight leaves the job to finish alone (nothing of the view is touched).
    void editsOutrunThePlans()
    {
        Workspace ws;
        startWorkspace(ws);
        auto* view = new ServingView;
        view->follow(&ws);
        view->show();
        ws.showModel("llama-3.1-8b");
        QSignalSpy drawn(view->planner(), &ServingPlanner::planChanged);
        for (int users = 1; users <= 20; ++users)
            view->setTargets(1000, 50, users);
        QVERIFY(settle(*view));
        QTRY_VERIFY(!view->planner()->busy());
        QCOMPARE(view->planner()->settings().users, 20);
        QVERIFY2(drawn.count() < 20, qPrintable(QString::number(drawn.count())));
        view->setTargets(1000, 40, 5);
        QVERIFY(view->planner()->busy());
        delete view;
        QThreadPool::globalInstance()->waitForDone();
    }

    // Hidden, the view plans nothing: the work waits until it is shown.
    void hiddenPlansNothing()
    {
        Workspace ws;
        startWorkspace(ws);
        ServingView view;
        view.follow(&ws);
        ws.showModel("llama-3.1-8b");
        QTest::qWait(100);
        QVERIFY(!view.planner()->busy() && !view.planner()->plan());
        view.show();
        QVERIFY(settle(view));
    }
};

QTEST_MAIN(TestServingView)
#include "tst_servingview.moc"
