#pragma once

#include "engine/layerfilter.h"
#include "engine/roofline.h"
#include "io/measurements.h"

#include "llm/llm_analysis.h"

#include <QWidget>

#include <memory>
#include <vector>

class QGridLayout;
class QLabel;

namespace rfx {

class RooflineChart;
class SummaryText;
class Workspace;
struct WorkspaceState;

/// The charts: a grid with one roofline chart and summary per device, or one chart with every
/// device overlaid and the summaries beneath. Chart widgets are kept and reused across reports.
class ChartArea : public QWidget {
    Q_OBJECT
public:
    explicit ChartArea(QWidget* parent = nullptr);
    /// Shows `workspace`'s analysis, measurements, selection and view settings whenever they change,
    /// and sends it the layer clicked (and, in the grid, that chart's device as the table's).
    void follow(Workspace* workspace);

    /// A new analysis, with the measured timings for report.results[measuredDevice] (null: none)
    /// drawn on that device's chart: each chart is rebuilt once.
    void setReport(const Report& report, const Comparison* measured = nullptr, int measuredDevice = -1);
    /// The same, sharing the window's report with every chart (no copies on a slider step).
    void setReport(
        const std::shared_ptr<const Report>& report, const Comparison* measured = nullptr, int measuredDevice = -1);
    /// A language model's analysis (null: a network): the summaries give its figures (TTFT, TPOT,
    /// memory) for the report's devices, which are then `shown`'s rows. Set before setReport().
    void setLanguageModel(std::shared_ptr<const LlmAnalysis> analysis, LlmPhase shown);
    void setOverlay(bool overlay);
    bool overlay() const { return m_overlay; }
    /// One chart per device, all with the same ranges and unit (RooflineChart::shareAxes).
    void setSharedAxes(bool shared);
    bool sharedAxes() const { return m_sharedAxes; }
    void setFilter(const LayerFilter& filter);
    void setSelectedLayer(int layer);
    void fitAxes();
    void setFontScale(double scale);
    /// Names the layers at or above `share` of the time on every chart (0: none).
    void setLayerLabels(double share);
    /// Tick labels as powers of ten on every chart.
    void setPowerTicks(bool on);
    bool powerTicks() const { return m_powerTicks; }
    /// The configuration does not work: before any analysis has worked, the empty area says why;
    /// afterwards a banner over the charts says that they show the last configuration that worked
    /// (`shown` describes it, as "image 572 x 572, batch 1"). An empty message clears both.
    void setProblem(const QString& message, const QString& shown = QString());
    QString emptyText() const;
    /// The banner over stale charts (hidden while the charts are current).
    QLabel* staleBanner() const { return m_banner; }

    /// One line per device under the charts (the whole summary in the tooltip), for a window short
    /// of height (ChartRoom decides).
    void setCompactSummaries(bool compact);
    bool compactSummaries() const { return m_compact; }
    /// The smallest size at which the charts keep every text whole (RooflineChart::minimumSizeHint)
    /// with their summaries under them, full or compact.
    QSize usefulMinimum(bool compact) const;
    /// The least width the charts need in a viewport of `area`: in the arrangement the grid would take
    /// there (columnsFor), not the one it has now. Hidden panels made the viewport wide enough for three
    /// columns, and their return was measured against three though two fit beside them (issue 73
    /// item 5: the column did not come back after the energy view and presentation type).
    int usefulWidthIn(QSize area) const;

    /// The charts now shown (one per device, or one overlay chart).
    std::vector<RooflineChart*> charts() const;
    /// The summaries under them, in the same order.
    std::vector<SummaryText*> summaries() const;

    /// The grid's columns now (1 for one chart or the overlay).
    int columns() const { return m_columns; }
    /// The charts of the grid are short at this size (their plots under about five lines of type
    /// high even in the best arrangement): the window suggests the overlay.
    bool cramped() const { return m_cramped; }

signals:
    void layerClicked(int layer, int device);
    /// cramped() changed.
    void crampedChanged(bool cramped);
    /// setOverlay() changed the charts (the tour's words follow: "the flat line at the top" is one
    /// device's chart, not the overlay's).
    void overlayChanged(bool overlay);

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    /// The workspace's value (follow()): what changed in it, on the charts.
    void showWork(const WorkspaceState& state, int parts);
    struct Pane {
        QWidget* box;
        RooflineChart* chart;
        SummaryText* summary;
    };
    Pane makePane();
    /// Lays out the panes for `devices` in `columns` columns (-1: as columnsFor() decides).
    void relayout(size_t devices, int columns = -1);
    /// The arrangement of `charts` that gives each plot the most room in `area`, from one column to one
    /// row: two charts side by side and three or four in a 2 x 2 grid unless another arrangement gives
    /// the plots a quarter more (three devices at 1280 x 720 in presentation type: 2 x 2 left plots
    /// 90 px high beside an empty cell; one row of three gives them 300). `score`, if given, is the
    /// chosen arrangement's plot side in pixels.
    int columnsFor(size_t charts, QSize area, double* score = nullptr) const;
    /// The widest of the first `charts` panes' least widths (chart and summary): a grid cell's minimum.
    int widestPaneMinimum(size_t charts) const;
    /// The room the grid is laid out in: the scroll area's viewport (the area itself grows to its
    /// minimum, which an arrangement changes, so deciding by it could go round in circles).
    QSize room() const;
    void regrid();
    bool m_regridPending = false;
    bool m_cramped = false;
    /// Every used column of the grid at least as wide as the widest chart needs: equal stretch alone
    /// left cells as uneven as the charts' minimum widths (1377 and 1416 px).
    void evenCells();
    int m_columns = 1, m_rows = 1;

    QLabel* m_banner;
    QGridLayout* m_grid;
    QLabel* m_empty;
    std::vector<Pane> m_panes;
    std::shared_ptr<const Report> m_report = std::make_shared<const Report>();
    bool m_overlay = false;
    bool m_sharedAxes = false;
    void applySharedAxes();
    size_t m_shown = 0; ///< panes in use
    LayerFilter m_filter;
    int m_selected = -1;
    double m_fontScale = 1.0;
    double m_labelShare = 0.05;
    bool m_powerTicks = false;
    bool m_compact = false;
    std::vector<QString> m_fullSummaries; ///< per pane, the whole summary (shown unless compact)
    std::vector<QString> m_compactSummaries; ///< per pane, the one-line form
    void fillSummaries(bool shrink = false);
    int m_measuredDevice = -1;
    Comparison m_measured;
    std::shared_ptr<const LlmAnalysis> m_llm; ///< the language model shown (setLanguageModel), or null
    LlmPhase m_llmPhase = LlmPhase::Decode;
};

} // namespace rfx
