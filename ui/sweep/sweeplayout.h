#pragma once

#include "figure/figurepage.h"
#include "sweep/sweepcharts.h"

#include <QStringList>

#include <memory>

class QChartView;

namespace rfx {

/// A language model's sweep as a figure page (the window's export and roofline-cli export --sweep):
/// the sweep's chart in print style at the page's physical width (96 logical pixels per inch, type
/// 11.5-14 px as the roofline figure's), its legend and the caption below, drawn through writeFigure.
class SweepLayout : public FigurePage {
public:
    SweepLayout(const LlmSweep& sweep, const QStringList& devices, const FigureSpec& spec, const QString& title, const QString& caption);
    ~SweepLayout() override;

    FigureSize size() const override { return m_size; }
    double logicalWidth() const override { return m_width; }
    double logicalHeight() const override { return m_height; }
    QString title() const override { return m_title; }
    void paint(QPainter& p, const QRectF& target) const override;

private:
    std::unique_ptr<QChartView> m_view;
    SweepCharts::PointTexts m_texts;
    QString m_title, m_legend, m_caption;
    bool m_transparent = false;
    double m_width = 0, m_height = 0, m_chartHeight = 0, m_legendHeight = 0, m_fontPx = 12;
    FigureSize m_size {};
};

} // namespace rfx
