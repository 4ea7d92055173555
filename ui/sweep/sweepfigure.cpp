#include "sweep/sweepfigure.h"

#include "panels/energycharts.h"
#include "style/style.h"
#include "style/text.h"
#include "sweep/sweepcharts.h"

#include <QChartView>

namespace rfx {

QStringList sweepDeviceNames(const std::vector<Device>& devices)
{
    QStringList names;
    for (const Device& d : devices)
        names << shortDeviceName(d.name);
    return names;
}

std::unique_ptr<ChartPage> sweepPage(const LlmSweep& sweep, const QStringList& devices, const FigureSpec& spec,
    const QString& title, const QString& caption)
{
    auto fill = [&sweep, &devices](QChart* chart, double fontPx) {
        SweepCharts::PointTexts texts; // a figure has no hover
        SweepCharts::fill(chart, sweep, devices, texts, fontPx);
    };
    return std::make_unique<ChartPage>(
        std::unique_ptr<QChartView>(EnergyCharts::makeView(SweepCharts::titles(sweep.axis))), fill,
        SweepCharts::legendHtml(sweep, devices), spec, title, caption);
}

RenderResult renderSweepFigure(
    const LlmModel& model, const LlmAnalysis& analysis, const std::vector<Device>& devices, const FigureSpec& spec)
{
    RenderResult r;
    if (!spec.llm || !spec.sweep) {
        r.error = qs(spec.file) + QStringLiteral(": not a sweep's figure");
        return r;
    }
    const LlmSweep sweep = sweepLlm(model, analysis, devices, *spec.sweep);
    if (!sweep.error.empty()) {
        r.error = qs(spec.file) + QStringLiteral(": ") + qs(sweep.error);
        return r;
    }
    const QString title
        = qs(analysis.model) + QStringLiteral(": ") + SweepCharts::titles(*spec.sweep).front().toLower();
    const auto page = sweepPage(sweep, sweepDeviceNames(devices), spec, title, qs(sweepCaption(spec, analysis.model)));
    return writeFigure(*page, spec, qs(sweepCaption(spec, analysis.model)), qs(figureToJson(spec)));
}

} // namespace rfx
