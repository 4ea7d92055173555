#pragma once

#include "engine/tuning.h"

#include <QCoreApplication>
#include <QStringList>

#include <map>

class QAbstractAxis;
class QAbstractSeries;
class QChart;
class QColor;
class QChartView;
class QXYSeries;

namespace rfx {

/// The energy view's three charts, drawn from tuning outcomes: energy per image against batch,
/// step time and energy against GPU count, and the Pareto chart of time against energy per image
/// with the recommended configuration marked. Each point's tooltip text lands in `texts`, by series
/// (PointHover shows it).
class EnergyCharts {
    Q_DECLARE_TR_FUNCTIONS(rfx::EnergyView)
public:
    /// What a series' points stand for, written when one is hovered (writing every point's text on
    /// every update cost a tenth of it).
    struct PointSource {
        QString device; ///< its full name
        std::vector<TunePoint> points; ///< in the series' order
        QString suffix; ///< appended to every point's text ("on the Pareto front")
        /// The tooltip of point `index` (empty past the end).
        QString text(int index) const;
    };
    using PointTexts = std::map<const QXYSeries*, PointSource>;

    /// An empty chart in a view, titled (the forms of the title longest first: the longest that fits
    /// is shown), no legend of its own (legendHtml), no animation; its words follow its size
    /// (EnergyChartFit). `createdAtFactor`: how many times the desk's type the window's is now (1.5 in
    /// presentation mode), so that the chart keeps the desk's type as its base.
    static QChartView* makeView(const QStringList& title, double createdAtFactor = 1.0);
    /// Adds `s` to `chart` on the axes x and y (every chart of the energy, sweep and serving views).
    static void attach(QChart* chart, QAbstractSeries* s, QAbstractAxis* x, QAbstractAxis* y);
    /// Removes every series and axis (and the chart's mark that its series may be reused).
    static void clear(QChart* chart);

    /// The chart's type at `scale` times the theme's (presentation mode: 1.5, as the roofline's): its
    /// title, axes and point labels; the legend grows half as much, as the roofline's does. Fills keep it.
    static void setFontScale(QChart* chart, double scale);
    /// The scale stored on the chart (setFontScale), applied to what a fill just made.
    static void applyFontScale(QChart* chart);

    /// The one legend of the three charts, as rich text for a word-wrapping label: each device's
    /// colour and name, then the marks ("does not fit in memory" where some batch does not, the
    /// recommended star, solid time and dashed energy lines).
    static QString legendHtml(const TuneOutcome& byBatch);
    /// One legend entry kept whole (non-breaking spaces inside): a coloured mark, then its text.
    static QString legendEntry(const QString& mark, const QColor& color, const QString& text);

    static void fillEnergy(QChart* chart, const TuneOutcome& byBatch, PointTexts& texts);
    static void fillScaling(QChart* chart, const TuneOutcome& byGpus, int batch, PointTexts& texts);
    static void fillPareto(
        QChart* chart, const TuneOutcome& tune, Objective objective, const QString& objectiveText, PointTexts& texts);
};

} // namespace rfx
