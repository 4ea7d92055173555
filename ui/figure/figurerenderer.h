#pragma once

#include "engine/roofline.h"
#include "figure/figurelayout.h"
#include "figure/figurepage.h"
#include "io/figure.h"

#include <QImage>
#include <QString>

namespace rfx {

struct RenderResult {
    bool ok = false;
    QString error; ///< names the file and the reason
    QSize pixelSize; ///< PNG pixels; SVG/PDF: the layout size in points at 96 per inch
    FigureSize size {}; ///< the page: inches, and pixels at the spec's dpi
    QString captionFile; ///< where the caption went when it did not fit the page (size.captionOutside)
};

/// The page size `spec` gives for `report` (the layout's height follows from its content).
FigureSize figureSize(const Report& report, const FigureSpec& spec);

/// Draws the figure `spec` describes from `report` (whose results are the spec's devices, in order)
/// and writes spec.file atomically, with its provenance: a caption line (unless turned off), and
/// machine-readable metadata (PNG text chunks and dpi, SVG title/desc, PDF title/creator/XMP).
/// With spec.sidecar, also writes spec.file + ".json". The charts are the window's RooflineChart in
/// print style (light theme, fonts sized for the physical width), so the figure shows what the
/// screen shows.
RenderResult renderFigure(const Report& report, const FigureSpec& spec);

/// Writes `page` as spec.file (spec.format, atomically) with its provenance: the caption and the
/// sidecar document `json` as metadata (PNG text chunks and dpi, SVG title/desc, PDF title/creator/XMP),
/// and with spec.sidecar `json` as spec.file + ".json". Any figure's page is written through it.
RenderResult writeFigure(const FigurePage& page, const FigureSpec& spec, const QString& caption, const QString& json);

/// The laid-out figure's sizes, legends and markers, for figure checks (tests).
FigureGeometry figureGeometry(const Report& report, const FigureSpec& spec);

/// QSvgGenerator's output without its empty groups (a third of a small figure's size).
QByteArray compactSvg(const QByteArray& svg);

/// The same figure as an image (for the clipboard and tests); spec.file is not used.
QImage renderFigureImage(const Report& report, const FigureSpec& spec);

} // namespace rfx
