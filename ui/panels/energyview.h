#pragma once

#include "engine/energy.h"
#include "engine/tuning.h"
#include "panels/energycharts.h"

#include <QStringList>

#include <QWidget>
#include <map>

class QChart;
class QChartView;
class QComboBox;
class QLabel;
class QSpinBox;
class QTextBrowser;
class QXYSeries;

namespace rfx {

class EnergyStudyRunner;
class Workspace;

/// Energy, clocks and multi-GPU tuning, live: energy per image against batch; step time and energy
/// against GPU count; the Pareto chart of time against energy per image over the swept batches, GPU
/// counts and clocks, with the least time, least energy and least energy-delay configurations marked
/// and their reasons in words. The study is its EnergyStudyRunner's (ui/workspace), which takes the
/// workspace's inputs while the view is shown (or setInputs); the sweep ranges and the objective are
/// this view's own: another objective picks from the same study.
class EnergyView : public QWidget {
    Q_OBJECT
public:
    explicit EnergyView(QWidget* parent = nullptr);
    /// Takes `workspace`'s configuration and checked devices whenever an analysis works, while shown
    /// (the sweep costs milliseconds) and when shown again; "Use it" sends the clock to it.
    void follow(Workspace* workspace);

    void setInputs(const Config& config, const std::vector<Device>& devices);
    TuneRanges ranges() const;
    void setRanges(const TuneRanges& ranges);
    Objective objective() const;
    void setObjective(Objective objective);

    /// Runs a pending update now (tests, exports).
    void flush();
    const TuneOutcome& outcome() const;
    QString recommendationsHtml() const;
    QString errorText() const;
    /// The energy-optimal clock of the current configuration on the first device, percent (0 = none).
    int optimalClockPercent() const;

    /// Writes the three charts and the recommendation as PNG, SVG or PDF (by suffix), atomically.
    bool exportCharts(const QString& path, QString* error);

    /// The charts' type at `scale` times their theme's (presentation mode: 1.5, as the roofline's).
    void setFontScale(double scale);

    QChart* energyChart() const;
    QChart* scalingChart() const;
    QChart* paretoChart() const;

signals:
    /// The user asked for the energy-optimal clock ("Use it").
    void clockRequested(int percent);

protected:
    void resizeEvent(QResizeEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void hideEvent(QHideEvent* event) override;

private:
    /// Works out the study: the view shows it, and says when it is shown.
    EnergyStudyRunner* m_runner;
    /// The wrapped labels (legend, caption) as tall as their lines at their width: a layout asks a
    /// label only its one-line least height, and the scroll area around the view knows no other, so
    /// a legend of two lines was drawn over the charts' axes (1024 x 640, presentation type).
    void fitLabelHeights();

    /// The runner's study in the charts, the caption and the recommendation, by the objective chosen.
    void showStudy();
    /// The study's three charts, in these (the view's own, or an export's).
    void fillCharts(QChart* energy, QChart* scaling, QChart* pareto);

    QString m_error;
    /// The tooltip of each point of the three charts, by series (PointHover).
    EnergyCharts::PointTexts m_pointText;

    QSpinBox* m_batchMin;
    QSpinBox* m_batchMax;
    QSpinBox* m_gpusMax;
    QSpinBox* m_clockMin;
    QComboBox* m_objective;
    QChartView* m_energyView;
    QChartView* m_scalingView;
    QChartView* m_paretoView;
    QWidget* m_charts;
    QTextBrowser* m_text;
    QLabel* m_caption;
    QLabel* m_legend; ///< the three charts' one legend
    double m_fontScale = 1.0; ///< the window's type over the desk's (presentation mode: 1.5)
};

} // namespace rfx
