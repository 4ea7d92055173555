#pragma once

#include <QObject>
#include <QPoint>
#include <QString>

#include <functional>
#include <vector>

class QChartView;
class QXYSeries;

namespace rfx {

/// Tooltips for the points of a chart. Qt Charts' own QScatterSeries::hovered never fires when
/// several scatter series share a plot (each series' item covers the whole plot and only the topmost
/// one gets hover events), so this filter on the view's viewport finds the nearest visible point
/// itself: on every mouse move, the point whose marker is under the cursor (within its radius plus
/// a few pixels), over every series the chart names (scatter series, and line series that draw their
/// points), and shows the text the chart writes for it.
class PointHover : public QObject {
    Q_OBJECT
public:
    struct Hit {
        QXYSeries* series = nullptr;
        int index = -1; ///< into series->points()
        explicit operator bool() const { return series != nullptr; }
    };
    using SeriesFn = std::function<std::vector<QXYSeries*>()>;
    using TextFn = std::function<QString(const Hit&)>;

    /// `series` lists the scatter series to search (visible ones only are searched); `text` writes
    /// the tooltip for a hit (empty: no tooltip).
    PointHover(QChartView* view, SeriesFn series, TextFn text);
    /// Every XY series `view`'s chart holds now (the usual SeriesFn).
    static SeriesFn allSeries(QChartView* view);

    /// The point under `viewportPos`, if any; the nearest when markers overlap.
    Hit pointAt(QPoint viewportPos) const;
    /// The text last shown (empty when none is shown); for tests.
    QString shownText() const { return m_shown; }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QChartView* m_view;
    SeriesFn m_series;
    TextFn m_text;
    QString m_shown;
};

} // namespace rfx
