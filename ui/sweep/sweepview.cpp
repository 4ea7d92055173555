#include "sweep/sweepview.h"

#include "panels/energycharts.h"
#include "style/text.h"
#include "sweep/sweepfigure.h"
#include "widgets/pointhover.h"
#include "workspace/llmsweeprunner.h"
#include "workspace/workspace.h"

#include <QChart>
#include <QChartView>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>
#include <QXYSeries>

namespace rfx {

SweepView::SweepView(QWidget* parent)
    : QWidget(parent)
    , m_runner(new LlmSweepRunner(this))
{
    auto* layout = new QVBoxLayout(this);
    m_message = new QLabel;
    m_message->setWordWrap(true);
    m_message->setAlignment(Qt::AlignCenter);
    layout->addWidget(m_message);
    m_charts = new QWidget;
    auto* column = new QVBoxLayout(m_charts);
    column->setContentsMargins(0, 0, 0, 0);
    // The legend and the Export buttons above the charts, each button over its chart: below them the
    // legend was the first thing a short dock cut, the buttons the next (1280 x 720, issue 73 item 8).
    auto* top = new QHBoxLayout;
    m_legend = new QLabel;
    m_legend->setWordWrap(true);
    m_legend->setAlignment(Qt::AlignCenter);
    m_legend->setTextFormat(Qt::RichText);
    auto* row = new QHBoxLayout;
    for (LlmSweepAxis axis : { LlmSweepAxis::Context, LlmSweepAxis::Batch }) {
        const int i = int(axis);
        QChartView* v = EnergyCharts::makeView(SweepCharts::titles(axis));
        m_views[i] = v;
        new PointHover(v, PointHover::allSeries(v), [this, i](const PointHover::Hit& hit) {
            const auto it = m_texts[i].find(hit.series);
            if (it == m_texts[i].end() || hit.index < 0 || size_t(hit.index) >= it->second.size())
                return QString();
            const SweepCharts::PointRef at = it->second[size_t(hit.index)];
            return pointText(LlmSweepAxis(i), int(at.line), int(at.point));
        });
        row->addWidget(v, 1);
        m_export[i] = new QPushButton(
            axis == LlmSweepAxis::Context ? tr("Export context sweep...") : tr("Export batch sweep..."));
        m_export[i]->setToolTip(
            tr("Writes this chart as a PNG, SVG or PDF figure with its caption and, if asked, a sidecar "
               "that roofline-cli reproduce draws again"));
        connect(m_export[i], &QPushButton::clicked, this, [this, axis] { emit exportRequested(axis); });
    }
    top->addWidget(m_export[int(LlmSweepAxis::Context)], 0, Qt::AlignTop);
    top->addWidget(m_legend, 1);
    top->addWidget(m_export[int(LlmSweepAxis::Batch)], 0, Qt::AlignTop);
    column->addLayout(top);
    column->addLayout(row, 1);
    layout->addWidget(m_charts, 1);
    connect(m_runner, &LlmSweepRunner::swept, this, &SweepView::showSweeps);
    showSweeps();
}

void SweepView::follow(Workspace* workspace)
{
    m_runner->setActive(isVisible());
    m_runner->follow(workspace);
}

void SweepView::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    m_runner->setActive(true);
}

void SweepView::hideEvent(QHideEvent* event)
{
    QWidget::hideEvent(event);
    m_runner->setActive(isVisible()); // a minimised window stays visible
}

void SweepView::flush() { m_runner->flush(); }

const LlmSweep& SweepView::sweep(LlmSweepAxis axis) const { return m_runner->sweep(axis); }

QChart* SweepView::chart(LlmSweepAxis axis) const { return m_views[int(axis)]->chart(); }

QString SweepView::message() const { return m_charts->isHidden() ? m_message->text() : QString(); }

QString SweepView::pointText(LlmSweepAxis axis, int line, int point) const
{
    const LlmSweep& s = m_runner->sweep(axis);
    if (line < 0 || size_t(line) >= s.lines.size() || point < 0 || size_t(point) >= s.lines[size_t(line)].points.size())
        return {};
    return SweepCharts::pointText(s, s.lines[size_t(line)], s.lines[size_t(line)].points[size_t(point)],
        line < m_names.size() ? m_names[line] : qs(s.lines[size_t(line)].device));
}

void SweepView::setFontScale(double scale)
{
    m_fontScale = scale;
    for (QChartView* v : m_views)
        EnergyCharts::setFontScale(v->chart(), scale);
}

void SweepView::showSweeps()
{
    auto say = [this](const QString& text) {
        m_message->setText(text);
        m_message->show();
        m_charts->hide();
    };
    switch (m_runner->outcome()) {
    case LlmSweepRunner::Outcome::NoWorkspace:
        return say(QString());
    case LlmSweepRunner::Outcome::NoLanguageModel:
        return say(tr(
            "The sweeps are a language model's: choose one in the Network selector (Llama-3.1 8B, Mistral 7B, ...) "
            "or open its config.json, GGUF or safetensors file. Then this view draws its tokens per second against the "
            "context and against the batch on every checked device."));
    case LlmSweepRunner::Outcome::Refused:
        return say(tr("No sweep: %1").arg(qs(m_runner->error())));
    case LlmSweepRunner::Outcome::Swept:
        break;
    }
    m_names = sweepDeviceNames(m_runner->devices());
    for (LlmSweepAxis axis : { LlmSweepAxis::Context, LlmSweepAxis::Batch })
        SweepCharts::fill(m_views[int(axis)]->chart(), m_runner->sweep(axis), m_names, m_texts[int(axis)]);
    m_legend->setText(SweepCharts::legendHtml(
        m_runner->sweep(LlmSweepAxis::Context), m_names, tr("the settings' context and batch")));
    m_message->hide();
    m_charts->show();
}

} // namespace rfx
