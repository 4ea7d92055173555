#pragma once

#include "figure/figurepage.h"

#include <QString>

#include <functional>
#include <memory>

class QChart;
class QChartView;

namespace rfx {

/// One Qt chart as a figure page (a language model's sweep, a serving plan): the chart in print style
/// at the page's physical width (96 logical pixels per inch, type 11.5-14 px as the roofline figure's),
/// its legend (rich text) and the caption below, drawn through writeFigure.
class ChartPage : public FigurePage {
public:
    /// Fills the chart in print style at `fontPx` (its type's pixel size).
    using Fill = std::function<void(QChart* chart, double fontPx)>;
    /// `view`: an empty chart's view, as the window makes them.
    ChartPage(std::unique_ptr<QChartView> view, const Fill& fill, const QString& legendHtml, const FigureSpec& spec,
        const QString& title, const QString& caption);
    ~ChartPage() override;

    FigureSize size() const override { return m_size; }
    double logicalWidth() const override { return m_width; }
    double logicalHeight() const override { return m_height; }
    QString title() const override { return m_title; }
    void paint(QPainter& p, const QRectF& target) const override;

private:
    std::unique_ptr<QChartView> m_view;
    QString m_title, m_legend, m_caption;
    bool m_transparent = false;
    double m_width = 0, m_height = 0, m_chartHeight = 0, m_legendHeight = 0, m_fontPx = 12;
    FigureSize m_size {};
};

} // namespace rfx
