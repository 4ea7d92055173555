#pragma once

#include "figure/chartpage.h"
#include "figure/figurerenderer.h"
#include "llm/llm_sweep.h"

#include <memory>

namespace rfx {

/// Draws the sweep spec.sweep names of `analysis` (of `model` on `devices`, whose ids are spec.devices)
/// as a figure and writes spec.file as renderFigure does: caption (sweepCaption), metadata, sidecar.
RenderResult renderSweepFigure(
    const LlmModel& model, const LlmAnalysis& analysis, const std::vector<Device>& devices, const FigureSpec& spec);

/// The sweep as a figure page: its chart in print style, its legend and `caption`.
std::unique_ptr<ChartPage> sweepPage(const LlmSweep& sweep, const QStringList& devices, const FigureSpec& spec,
    const QString& title, const QString& caption);

/// The short names the sweep's lines carry ("H100 SXM5 80 GB").
QStringList sweepDeviceNames(const std::vector<Device>& devices);

} // namespace rfx
