#pragma once

#include <QObject>
#include <QPoint>
#include <QRectF>

#include <functional>

class QChartView;
class QRubberBand;

namespace rfx {

/// Zoom and pan for a chart with two log axes, the way Nsight Compute's and Intel Advisor's roofline
/// charts behave: the wheel zooms about the cursor, a left-button drag draws a rubber band and
/// zooms to it (a click without a drag stays a click, so points can still be picked), a middle-button
/// drag or the arrow keys pan, + and - zoom about the centre, Home resets. Ranges are decades of
/// the axes' values; the chart applies them (setView) and knows its own reset.
class ChartNavigator : public QObject {
    Q_OBJECT
public:
    struct Range {
        double xlo, xhi, ylo, yhi; ///< axis values, all > 0
    };
    using GetFn = std::function<Range()>;
    using SetFn = std::function<void(const Range&)>;
    using ResetFn = std::function<void()>;

    ChartNavigator(QChartView* view, GetFn current, SetFn setView, ResetFn reset);

    /// The range after zooming by `factor` (> 1 zooms in) about the viewport point `at`.
    Range zoomedAbout(QPointF at, double factor) const;
    /// The range shown by the viewport rectangle `rect` (a rubber band).
    Range rangeOf(QRectF rect) const;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QPointF toValue(QPointF viewportPos) const; ///< log-space interpolation inside the plot
    void pan(double dxFraction, double dyFraction);

    QChartView* m_view;
    GetFn m_current;
    SetFn m_set;
    ResetFn m_reset;
    QRubberBand* m_band = nullptr;
    QPoint m_pressAt;
    bool m_banding = false;
    bool m_panning = false;
    QPoint m_panFrom;
};

} // namespace rfx
