#pragma once

#include "sweep/sweepcharts.h"

#include <QWidget>

class QChart;
class QChartView;
class QLabel;
class QPushButton;

namespace rfx {

class LlmSweepRunner;
class Workspace;

/// The language-model mode's sweeps, live (issue 36 item 5): tokens per second per sequence against
/// the context, and against the whole batch's, one line per checked device, each ending where the
/// device's memory runs out, the settings' own value ringed; hover gives a point's figures. The sweeps
/// are its LlmSweepRunner's (ui/workspace), which follows the workspace while the view is shown; with a
/// network shown it says how to choose a language model.
class SweepView : public QWidget {
    Q_OBJECT
public:
    explicit SweepView(QWidget* parent = nullptr);
    void follow(Workspace* workspace);

    /// Runs a pending update now (tests, exports).
    void flush();
    const LlmSweep& sweep(LlmSweepAxis axis) const;
    QChart* chart(LlmSweepAxis axis) const;
    /// What the view says in place of the charts ("" while they are shown).
    QString message() const;
    /// The tooltip of a chart's point (hover), for tests.
    QString pointText(LlmSweepAxis axis, int line, int point) const;
    /// The charts' type at `scale` times their theme's (presentation mode: 1.5).
    void setFontScale(double scale);

signals:
    /// Export figure... was pressed under the sweep against `axis`.
    void exportRequested(LlmSweepAxis axis);

protected:
    void showEvent(QShowEvent* event) override;
    void hideEvent(QHideEvent* event) override;

private:
    /// The runner's sweeps in the charts, or what it says in their place.
    void showSweeps();
    LlmSweepRunner* m_runner; ///< works the sweeps out; the view shows them and says when it is shown
    QChartView* m_views[2] {};
    QPushButton* m_export[2] {};
    QWidget* m_charts = nullptr;
    QLabel* m_legend = nullptr;
    QLabel* m_message = nullptr;
    SweepCharts::PointTexts m_texts[2];
    QStringList m_names; ///< the lines' device names, as drawn
    double m_fontScale = 1;
};

} // namespace rfx
