#pragma once

#include "figure/chartpage.h"
#include "figure/figurerenderer.h"
#include "serving/plan.h"

#include <memory>

namespace rfx {

/// The plan's settings a serving figure asks for: spec.llm's prompt and generated tokens, spec.serving's
/// targets and load.
PlanSettings servingFigureSettings(const FigureSpec& spec);

/// The plan as a figure page: its chart in print style (ServingCharts), its legend and `caption`.
std::unique_ptr<ChartPage> servingPage(const Plan& plan, const PlanSettings& settings, const QStringList& devices,
    const FigureSpec& spec, const QString& title, const QString& caption);

/// Plans `model` on `devices` (whose ids are spec.devices) as spec.serving asks and writes spec.file as
/// renderFigure does: caption (servingCaption), metadata, sidecar. `planned`: that plan, made already
/// (the export dialog's, for its sizes), so it is not made twice.
RenderResult renderServingFigure(
    const LlmModel& model, const std::vector<Device>& devices, const FigureSpec& spec, const Plan* planned = nullptr);

} // namespace rfx
