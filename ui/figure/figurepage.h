#pragma once

#include "io/figure.h"

#include <QRectF>
#include <QString>

class QPainter;

namespace rfx {

/// A figure's page as the writer draws it (figurerenderer.h writeFigure): laid out at its physical
/// size, 96 logical pixels per inch, and painted with one uniform scale into any target (PNG pixels,
/// SVG, PDF points). FigureLayout is a roofline figure's; ChartPage one Qt chart's (a sweep, a serving plan).
class FigurePage {
public:
    virtual ~FigurePage() = default;
    virtual FigureSize size() const = 0;
    virtual double logicalWidth() const = 0;
    virtual double logicalHeight() const = 0;
    virtual QString title() const = 0;
    /// The caption where it does not fit the page (size().captionOutside), as plain text for its own
    /// file (captionFileFor); empty where the page carries it.
    virtual QString captionMovedOut() const { return {}; }
    /// Paints the whole page into `target`, whose aspect ratio is the page's.
    virtual void paint(QPainter& p, const QRectF& target) const = 0;
};

} // namespace rfx
