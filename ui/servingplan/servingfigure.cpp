#include "servingplan/servingfigure.h"

#include "panels/energycharts.h"
#include "servingplan/servingcharts.h"
#include "style/style.h"
#include "style/text.h"

#include <QChartView>

#include <optional>

namespace rfx {

PlanSettings servingFigureSettings(const FigureSpec& spec)
{
    PlanSettings s;
    if (spec.llm) {
        s.llm = spec.llm->settings;
        s.llm.batch = 1;
        s.llm.context = 0;
    }
    if (spec.serving) {
        s.ttft = spec.serving->ttft;
        s.tpot = spec.serving->tpot;
        s.users = spec.serving->users;
    }
    return s;
}

std::unique_ptr<ChartPage> servingPage(const Plan& plan, const PlanSettings& settings, const QStringList& devices,
    const FigureSpec& spec, const QString& title, const QString& caption)
{
    auto fill = [&plan, &settings, &devices](QChart* chart, double fontPx) {
        ServingCharts::PointTexts texts; // a figure has no hover
        ServingCharts::fill(chart, plan, settings, devices, texts, fontPx);
    };
    return std::make_unique<ChartPage>(std::unique_ptr<QChartView>(EnergyCharts::makeView(ServingCharts::titles())),
        fill, ServingCharts::legendHtml(plan, settings, devices), spec, title, caption);
}

RenderResult renderServingFigure(
    const LlmModel& model, const std::vector<Device>& devices, const FigureSpec& spec, const Plan* planned)
{
    RenderResult r;
    if (!spec.llm || !spec.serving) {
        r.error = qs(spec.file) + QStringLiteral(": not a serving plan's figure");
        return r;
    }
    const PlanSettings settings = servingFigureSettings(spec);
    std::optional<Plan> own;
    if (!planned)
        own = planServing(model, settings, devices);
    const Plan& plan = planned ? *planned : *own;
    if (!plan.error.empty()) {
        r.error = qs(spec.file) + QStringLiteral(": ") + qs(plan.error);
        return r;
    }
    QStringList names;
    for (const Device& d : devices)
        names << shortDeviceName(d.name);
    const QString caption = qs(servingCaption(spec, plan.model));
    const auto page = servingPage(plan, settings, names, spec,
        qs(plan.model) + QStringLiteral(": serving bounds per GPU against per user"), caption);
    return writeFigure(*page, spec, caption, qs(figureToJson(spec)));
}

} // namespace rfx
