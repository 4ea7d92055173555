#pragma once

#include "serving/plan.h"

#include <QCoreApplication>
#include <QString>
#include <QStringList>

#include <map>
#include <vector>

class QChart;
class QXYSeries;

namespace rfx {

/// A serving plan drawn on a Qt chart (issue 74 step 6): per device its Pareto front of tokens/s per
/// user (across, log) against tokens/s per GPU (up, log), the configurations within the targets
/// filled and those missing one hollow, the best ringed with its settings written beside it, and
/// the TPOT target as a dashed line (1 / TPOT tokens/s per user: to its right every point meets it).
class ServingCharts {
    Q_DECLARE_TR_FUNCTIONS(rfx::ServingCharts)
public:
    /// What each drawn point stands for, by series and index: plan.devices[device].points[point].
    struct PointRef {
        size_t device, point;
    };
    using PointTexts = std::map<const QXYSeries*, std::vector<PointRef>>;

    static QStringList titles();
    /// Fills `chart` (emptied first); `devices` are the devices' names, in order. `fontPx` > 0: the
    /// print style's type (a figure), else the chart's own.
    static void fill(QChart* chart, const Plan& plan, const PlanSettings& settings, const QStringList& devices,
        PointTexts& texts, double fontPx = 0);
    /// The best configuration in a few words: "TP 2, 8-bit (fp8), KV 8, N = 135".
    static QString shortLabel(const PlanPoint& p);
    /// A point's text: device, configuration, TPOT, TTFT, tokens/s per user and per GPU, memory, energy.
    static QString pointText(const Plan& plan, size_t device, size_t point, const QString& name);
    /// The legend, as rich text: each device's colour and name, the marks, the target line.
    static QString legendHtml(const Plan& plan, const PlanSettings& settings, const QStringList& devices);
};

} // namespace rfx
