#include "chart/chartarea.h"

#include "chart/llmsummary.h"
#include "chart/rooflinechart.h"
#include "chart/summaryview.h"
#include "measure/llm_measure.h"
#include "style/style.h"

#include <QGridLayout>
#include <QLabel>
#include <QScrollArea>
#include <QTimer>
#include <QVBoxLayout>

#include <cmath>

namespace rfx {

ChartArea::ChartArea(QWidget* parent)
    : QWidget(parent)
    , m_banner(new QLabel)
    , m_grid(new QGridLayout)
    , m_empty(new QLabel(tr("Check one or more devices in the Devices panel to see their rooflines.")))
{
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(0, 0, 0, 0);
    v->setSpacing(4);
    v->addWidget(m_banner);
    v->addLayout(m_grid, 1);
    m_banner->setObjectName(QStringLiteral("staleBanner"));
    m_banner->setWordWrap(true);
    m_banner->setTextFormat(Qt::RichText);
    m_banner->setMargin(6);
    m_banner->setAutoFillBackground(true);
    m_banner->setAccessibleName(tr("The charts are not current"));
    m_banner->setVisible(false);
    m_grid->setContentsMargins(0, 0, 0, 0);
    m_grid->setSpacing(6);
    m_empty->setAlignment(Qt::AlignCenter);
    m_grid->addWidget(m_empty, 0, 0);
}

ChartArea::Pane ChartArea::makePane()
{
    Pane p;
    p.box = new QWidget(this);
    auto* v = new QVBoxLayout(p.box);
    v->setContentsMargins(0, 0, 0, 0);
    v->setSpacing(2);
    p.chart = new RooflineChart(p.box);
    p.summary = new SummaryText(p.box);
    v->addWidget(p.chart, 1);
    v->addWidget(p.summary);
    connect(p.chart, &RooflineChart::layerClicked, this, &ChartArea::layerClicked);
    if (m_fontScale != 1.0) {
        // Made now, it took the application's type, which presentation mode has made m_fontScale times
        // larger: a grid's second chart came in 1.5 x 1.5 times the first one's type, and kept a larger
        // type after presentation mode ended.
        p.chart->setCreatedAtFontFactor(m_fontScale);
        p.chart->setFontScale(m_fontScale);
    }
    p.chart->setLayerLabels(m_labelShare);
    p.chart->setPowerTicks(m_powerTicks);
    return p;
}

void ChartArea::setReport(const Report& report, const Comparison* measured, int measuredDevice)
{
    setReport(std::make_shared<const Report>(report), measured, measuredDevice);
}

void ChartArea::setReport(const std::shared_ptr<const Report>& shared, const Comparison* measured, int measuredDevice)
{
    const Report& report = *shared;
    if (measured && measuredDevice >= 0 && measuredDevice < int(report.results.size())) {
        m_measuredDevice = measuredDevice;
        if (measured != &m_measured)
            m_measured = *measured;
    } else {
        m_measuredDevice = -1;
        m_measured = {};
    }
    const Comparison* shown = m_measuredDevice >= 0 ? &m_measured : nullptr;
    const size_t devices = report.results.size();
    const size_t wanted = devices == 0 ? 0 : (m_overlay ? 1 : devices);
    if (wanted != m_shown || devices != m_report->results.size())
        relayout(devices);
    m_report = shared;
    if (m_overlay && devices > 0) {
        std::vector<int> all(devices);
        for (size_t i = 0; i < devices; ++i)
            all[i] = int(i);
        m_panes[0].chart->setReport(shared, all, shown, m_measuredDevice);
    } else {
        for (size_t i = 0; i < devices; ++i)
            m_panes[i].chart->setReport(
                shared, { int(i) }, int(i) == m_measuredDevice ? shown : nullptr, m_measuredDevice);
        applySharedAxes();
    }
    fillSummaries();
    evenCells();
}

void ChartArea::setLanguageModel(std::shared_ptr<const LlmAnalysis> analysis, LlmPhase shown)
{
    m_llm = std::move(analysis);
    m_llmPhase = shown;
}

void ChartArea::fillSummaries(bool shrink)
{
    // Both forms are kept: usefulMinimum() measures either, whichever is shown.
    const Report& report = *m_report;
    const size_t devices = report.results.size();
    m_fullSummaries.clear();
    m_compactSummaries.clear();
    // A language model's figures where one is shown (its analysis has the report's devices).
    const bool llm = m_llm && m_llm->figures.size() == devices;
    // The measured device's phases, by name (a measure --llm file's rows): beside the calibrated figures.
    std::vector<LlmMeasuredGroup> measured;
    if (llm && m_measuredDevice >= 0 && size_t(m_measuredDevice) < devices && !m_measured.layers.empty()) {
        const auto& rows = report.results[size_t(m_measuredDevice)].layers;
        const size_t prefillRows = m_llmPhase == LlmPhase::Both
            ? size_t(report.parts.size() > 1 ? report.parts[1].first : 0)
            : m_llmPhase == LlmPhase::Prefill ? rows.size()
                                              : 0;
        measured = measuredByPhase(m_measured, rows, prefillRows);
    }
    auto fullForm = [&](size_t i) {
        return llm ? llmSummaryHtml(*m_llm, i, m_llmPhase, int(i) == m_measuredDevice ? &measured : nullptr)
                   : summaryHtml(report.results[i], report.config);
    };
    auto headline = [&](size_t i) {
        return llm ? llmSummaryHeadline(*m_llm, i) : summaryHeadline(report.results[i], report.config);
    };
    auto line = [&](size_t i, bool compact) {
        const std::string& n = report.results[i].device.name;
        const QString name = (compact ? shortDeviceName(n) : QString::fromStdString(n)).toHtmlEscaped();
        return QStringLiteral("%1<b>%2</b>: %3")
            .arg(i ? QStringLiteral("<br>") : QString(), name, compact ? headline(i) : fullForm(i));
    };
    if (m_overlay && devices > 0) {
        QString full, compact;
        for (size_t i = 0; i < devices; ++i) {
            full += line(i, false);
            compact += line(i, true);
        }
        m_fullSummaries = { full };
        m_compactSummaries = { compact };
    } else {
        for (size_t i = 0; i < devices && i < m_panes.size(); ++i) {
            m_fullSummaries.push_back(fullForm(i));
            m_compactSummaries.push_back(headline(i));
        }
    }
    for (size_t i = 0; i < m_fullSummaries.size(); ++i) {
        m_panes[i].summary->setHtml(m_compact ? m_compactSummaries[i] : m_fullSummaries[i], shrink);
        m_panes[i].summary->setToolTip(m_compact ? m_fullSummaries[i] : QString());
    }
}

void ChartArea::setCompactSummaries(bool compact)
{
    if (compact == m_compact)
        return;
    m_compact = compact;
    if (!m_report->results.empty())
        fillSummaries(true);
}

QSize ChartArea::usefulMinimum(bool compact) const
{
    if (m_shown == 0)
        return QSize(0, 0);
    const int columns = std::max(1, m_columns);
    const int rows = int((m_shown + size_t(columns) - 1) / size_t(columns));
    QSize chart(0, 0);
    for (size_t i = 0; i < m_shown; ++i)
        chart = chart.expandedTo(m_panes[i].chart->minimumSizeHint());
    // The summaries' height in the form asked for, at their width now.
    int summary = 0;
    const std::vector<QString>& forms = compact ? m_compactSummaries : m_fullSummaries;
    for (size_t i = 0; i < m_shown; ++i)
        summary = std::max(
            summary, i < forms.size() ? m_panes[i].summary->heightFor(forms[i]) : m_panes[i].summary->height());
    const int spacing = m_grid->spacing();
    const int banner = m_banner->isVisible() ? m_banner->sizeHint().height() + 4 : 0;
    return QSize(columns * chart.width() + (columns - 1) * spacing,
        rows * (chart.height() + summary + 2) + (rows - 1) * spacing + banner);
}

int ChartArea::usefulWidthIn(QSize area) const
{
    if (m_shown == 0)
        return 0;
    int chart = 0;
    for (size_t i = 0; i < m_shown; ++i)
        chart = std::max(chart, m_panes[i].chart->minimumSizeHint().width());
    const int columns = m_shown <= 1 ? 1 : columnsFor(m_shown, area);
    return columns * chart + (columns - 1) * m_grid->spacing();
}

void ChartArea::setSharedAxes(bool shared)
{
    if (shared == m_sharedAxes)
        return;
    m_sharedAxes = shared;
    if (!shared)
        for (const Pane& p : m_panes)
            p.chart->unshareAxes();
    applySharedAxes();
}

void ChartArea::applySharedAxes()
{
    if (m_sharedAxes && !m_overlay)
        RooflineChart::shareAxes(charts());
}

void ChartArea::setOverlay(bool overlay)
{
    if (overlay == m_overlay)
        return;
    m_overlay = overlay;
    relayout(m_report->results.size());
    setReport(m_report, m_measuredDevice >= 0 ? &m_measured : nullptr, m_measuredDevice);
    emit overlayChanged(overlay);
}

void ChartArea::setFilter(const LayerFilter& filter)
{
    m_filter = filter;
    for (const Pane& p : m_panes)
        p.chart->setFilter(filter);
}

void ChartArea::setSelectedLayer(int layer)
{
    m_selected = layer;
    for (const Pane& p : m_panes)
        p.chart->setSelectedLayer(layer);
}

void ChartArea::setProblem(const QString& message, const QString& shown)
{
    m_empty->setWordWrap(true);
    if (message.isEmpty() || m_shown == 0)
        m_empty->setText(message.isEmpty()
                ? tr("Check one or more devices in the Devices panel to see their rooflines.")
                : tr("This configuration does not work:\n%1").arg(message));
    const bool stale = !message.isEmpty() && m_shown > 0;
    if (stale) {
        // A warning strip in the palette's tooltip colours (light and dark themes alike).
        QPalette pal = m_banner->palette();
        pal.setColor(QPalette::Window, pal.color(QPalette::ToolTipBase));
        pal.setColor(QPalette::WindowText, pal.color(QPalette::ToolTipText));
        m_banner->setPalette(pal);
        m_banner->setText(
            QStringLiteral("<b>%1</b> %2<br>%3")
                .arg(tr("\u26a0 Not updated:"), message.toHtmlEscaped(),
                    shown.isEmpty() ? tr("The charts and summaries show the last configuration that worked.")
                                    : tr("The charts and summaries show the last configuration that worked (%1).")
                                          .arg(shown.toHtmlEscaped())));
    }
    m_banner->setVisible(stale);
}

QString ChartArea::emptyText() const { return m_empty->text(); }

void ChartArea::setFontScale(double scale)
{
    m_fontScale = scale;
    for (const Pane& p : m_panes)
        p.chart->setFontScale(scale);
    evenCells();
    // The type changed the charts' minimum: the arrangement is decided again once the layout settles
    // (not on every report: a slider step changes neither the room nor the minimum).
    if (!m_regridPending) {
        m_regridPending = true;
        QTimer::singleShot(0, this, &ChartArea::regrid);
    }
}

void ChartArea::setLayerLabels(double share)
{
    m_labelShare = share;
    for (const Pane& p : m_panes)
        p.chart->setLayerLabels(share);
}

void ChartArea::setPowerTicks(bool on)
{
    m_powerTicks = on;
    for (const Pane& p : m_panes)
        p.chart->setPowerTicks(on);
}

void ChartArea::fitAxes()
{
    for (const Pane& p : m_panes)
        p.chart->fitAxes();
    applySharedAxes();
}

std::vector<SummaryText*> ChartArea::summaries() const
{
    std::vector<SummaryText*> out;
    for (size_t i = 0; i < m_shown; ++i)
        out.push_back(m_panes[i].summary);
    return out;
}

std::vector<RooflineChart*> ChartArea::charts() const
{
    std::vector<RooflineChart*> out;
    for (size_t i = 0; i < m_shown; ++i)
        out.push_back(m_panes[i].chart);
    return out;
}

} // namespace rfx
