// The chart's type: its fonts, kept as made (base fonts) and scaled for presentation mode, the legend
// half as much; everything placed by size is placed again.
#include "chart/rooflinechart_p.h"

#include <QChart>
#include <QGraphicsRectItem>
#include <QLegend>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QResizeEvent>
#include <QScatterSeries>

#include <cmath>

namespace rfx {

using namespace chartdetail;

void RooflineChart::setCreatedAtFontFactor(double factor)
{
    if (!(factor > 0) || factor == 1.0)
        return;
    for (QFont* f : { &m_baseFonts.title, &m_baseFonts.legend, &m_baseFonts.axisLabels, &m_baseFonts.axisTitle }) {
        if (f->pointSizeF() > 0)
            f->setPointSizeF(f->pointSizeF() / factor);
        else if (f->pixelSize() > 0)
            f->setPixelSize(std::max(1, int(std::lround(f->pixelSize() / factor))));
    }
    setFontScale(m_fontScale);
}

void RooflineChart::setFontScale(double scale)
{
    if (scale != m_fontScale)
        setVisibleIf(m_readoutBack, false); // the plot moves under the cursor: the next mouse move brings it back
    m_fontScale = scale;
    ++m_fontGeneration;
    dropLineCaches(); // larger labels move the plot and its lines
    auto scaled = [scale](QFont f) {
        if (f.pointSizeF() > 0)
            f.setPointSizeF(f.pointSizeF() * scale);
        else
            f.setPixelSize(int(std::lround(f.pixelSize() * scale)));
        return f;
    };
    m_chart->setTitleFont(scaled(m_baseFonts.title));
    // The legend grows half as much: it is read once, the axes all the time, and at 1.5x it took five
    // rows of a 1280 x 720 projector's chart.
    m_chart->legend()->setFont([&] {
        const double s = 1 + (scale - 1) / 2;
        QFont f = m_baseFonts.legend;
        if (f.pointSizeF() > 0)
            f.setPointSizeF(f.pointSizeF() * s);
        else
            f.setPixelSize(int(std::lround(f.pixelSize() * s)));
        return f;
    }());
    for (QLogValueAxis* a : { m_x, m_y }) {
        a->setLabelsFont(scaled(m_baseFonts.axisLabels));
        a->setTitleFont(scaled(m_baseFonts.axisTitle));
    }
    for (DeviceSeries* s : m_series)
        s->ridge->setPointLabelsFont(scaled(m_baseFonts.axisLabels));
    fitTitle();
    placeRoofLabels();
    layoutLegend(); // and the minimum size, which grows with the type
    if (isVisible()) { // the axis titles' short or long form depends on the type size too
        QResizeEvent same(size(), size());
        resizeEvent(&same);
    }
}

} // namespace rfx
