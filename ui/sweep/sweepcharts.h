#pragma once

#include "llm/llm_sweep.h"

#include <QCoreApplication>
#include <QString>
#include <QStringList>

#include <map>
#include <vector>

class QChart;
class QXYSeries;

namespace rfx {

/// A language model's sweep drawn on a Qt chart (issue 36 item 5): per device a line of tokens per
/// second per sequence against the context (log x) or against the whole batch's tokens per second
/// (batching trades the one for the other), ending where the device's memory runs out (a filled
/// square), the settings' own value ringed, and in the context chart a dashed line at that context.
/// The same filling serves the window's view and the exported figure.
class SweepCharts {
    Q_DECLARE_TR_FUNCTIONS(rfx::SweepCharts)
public:
    /// What each drawn point stands for, by series and index: its line and point in the sweep. Its text
    /// is written when hovered (pointText): writing every point's text on every update cost a step time.
    struct PointRef {
        size_t line, point;
    };
    using PointTexts = std::map<const QXYSeries*, std::vector<PointRef>>;

    /// Fills `chart` (emptied first) with `sweep`; `devices` are the lines' device names, in order.
    /// `fontPx` > 0: the print style's type (an exported figure), else the chart's own.
    static void fill(
        QChart* chart, const LlmSweep& sweep, const QStringList& devices, PointTexts& texts, double fontPx = 0);
    /// The chart's title for the axis ("Tokens/s against the context").
    static QStringList titles(LlmSweepAxis axis);
    /// One legend for the sweep, as rich text: each device's colour and name ("does not fit" where it
    /// holds not one sequence), the ring and the square.
    static QString legendHtml(const LlmSweep& sweep, const QStringList& devices, const QString& ringText = QString());
    /// A point's text: device, context and batch, TPOT, tokens per second, memory of the device's.
    static QString pointText(
        const LlmSweep& sweep, const LlmSweepLine& line, const LlmSweepPoint& point, const QString& device);
};

} // namespace rfx
