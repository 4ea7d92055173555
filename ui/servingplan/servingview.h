#pragma once

#include "io/figure.h"
#include "servingplan/servingcharts.h"

#include <QWidget>

class QChart;
class QChartView;
class QDoubleSpinBox;
class QLabel;
class QSpinBox;
class QTableWidget;

namespace rfx {

class ServingPlanner;
class Workspace;

/// The language-model mode's serving plan, live (issue 74 step 6): the targets (first token, each
/// token, users at once) above a chart of each checked device's Pareto front (ServingCharts) and a
/// table of each device's best configuration; hover gives a point's settings and memory. The plan is
/// its ServingPlanner's (computed off the window's thread while the view is shown); the view draws.
class ServingView : public QWidget {
    Q_OBJECT
public:
    explicit ServingView(QWidget* parent = nullptr);
    void follow(Workspace* workspace);
    ServingPlanner* planner() const { return m_planner; }

    QChart* chart() const;
    QTableWidget* table() const { return m_table; }
    /// What the view says in place of the plan ("" while it is shown).
    QString message() const;
    /// The tooltip of a drawn point (hover), for tests: series `series` of the chart, point `index`.
    QString pointText(const QXYSeries* series, int index) const;
    /// The chart's type at `scale` times its theme's (presentation mode: 1.5).
    void setFontScale(double scale);
    /// The targets' fields, for tests and sessions: TTFT and TPOT in milliseconds, users (0: no load).
    void setTargets(double ttftMs, double tpotMs, int users);
    /// The targets as a figure keeps them.
    ServingFigure targets() const;

signals:
    /// Export figure... was pressed.
    void exportRequested(const ServingFigure& targets);

protected:
    void showEvent(QShowEvent* event) override;
    void hideEvent(QHideEvent* event) override;

private:
    void redraw();
    void targetsEdited();
    ServingPlanner* m_planner = nullptr;
    QDoubleSpinBox* m_ttft = nullptr;
    QDoubleSpinBox* m_tpot = nullptr;
    QSpinBox* m_users = nullptr;
    QChartView* m_view = nullptr;
    QLabel* m_legend = nullptr;
    QLabel* m_message = nullptr;
    QTableWidget* m_table = nullptr;
    QWidget* m_body = nullptr;
    ServingCharts::PointTexts m_texts;
};

} // namespace rfx
