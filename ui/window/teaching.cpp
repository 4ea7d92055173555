#include "window/teaching.h"

#include "chart/chartarea.h"
#include "chart/rooflinechart.h"
#include "llm/llm_both.h"
#include "llm/llm_phase.h"
#include "model/networks.h"
#include "open/build_network.h"
#include "panels/controlpanel.h"
#include "panels/explain.h"
#include "panels/explain_llm.h"
#include "panels/tourpanel.h"
#include "workspace/workspace.h"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QEvent>
#include <QMainWindow>
#include <QMessageBox>
#include <QStatusBar>
#include <QStyle>
#include <QTextBrowser>
#include <QTimer>

#include <algorithm>

namespace rfx {

Teaching::Teaching(const Parts& parts)
    : QObject(parts.frame)
    , m_parts(parts)
    , m_frame(parts.frame)
    , m_explain(new QTextBrowser)
    , m_explainDock(new QDockWidget(tr("Explain"), parts.frame))
    , m_baseFont(QApplication::font())
{
    QMainWindow* window = parts.frame;
    window->installEventFilter(this);
    m_explain->setOpenExternalLinks(false);
    m_explainDock->setObjectName(QStringLiteral("explainDock"));
    m_explainDock->setWidget(m_explain);
    window->addDockWidget(Qt::RightDockWidgetArea, m_explainDock);
    m_explainDock->hide();
    m_explainDock->toggleViewAction()->setShortcut(QKeySequence(Qt::Key_F9));
    connect(m_explainDock, &QDockWidget::visibilityChanged, this, [this](bool) { updateExplain(); });
    // The open tour's words follow the overlay (its roof page names the device's line when overlaid).
    connect(parts.charts, &ChartArea::overlayChanged, this, [this] { reportChanged(); });
    // After the charts, which follow the workspace from before: the tour marks what they show.
    connect(parts.workspace, &Workspace::changed, this, [this](const WorkspaceState& s, Workspace::Parts what) {
        if (s.report && !(what & Workspace::Analysis && !s.problem.isEmpty()))
            follow(what);
    });
}

void Teaching::follow(Workspace::Parts what)
{
    if (what & Workspace::Analysis)
        reportChanged(); // the tour's figures follow the sliders
    if (what & (Workspace::Analysis | Workspace::Selection | Workspace::TableDevice))
        updateExplain();
}

Teaching::~Teaching()
{
    // QWidget's destructor hides the docks before QObject's disconnects them: a visibility signal
    // would then call into a half-destroyed window (UBSan caught it).
    disconnect(m_explainDock, nullptr, this, nullptr);
    if (m_tourDock)
        disconnect(m_tourDock, nullptr, this, nullptr);
}

void Teaching::reportChanged()
{
    if (m_tour && m_tourDock->isVisible()) { // the tour's figures follow the sliders
        m_tour->updatePages(pages());
        updateTourHighlight();
    }
}

void Teaching::updateExplain()
{
    const WorkspaceState& s = m_parts.workspace->state();
    if (!m_explainDock->isVisible() || !s.report || s.report->results.empty()) {
        return;
    }
    const int device = std::max(0, s.tableDeviceIndex);
    if (s.selectedLayer < 0) {
        m_explain->setHtml(explainOverview(*s.report, device));
        return;
    }
    if (s.languageModel() && s.llmModel && s.llmAnalysis) { // the phase's rows, built as the analysis built them
        const LlmAnalysis& a = *s.llmAnalysis;
        const PhaseRow row = phaseRow(a, s.llm.phase, s.selectedLayer); // both phases shown: which one's row
        const bool prefill = row.phase == LlmPhase::Prefill;
        const LlmPhaseBuild built
            = buildLlmPhase(*s.llmModel, a.settings, row.phase, prefill ? a.settings.prompt : a.context);
        if (built.network)
            m_explain->setHtml(explainLayer(prefill ? a.prefill : a.decode, device, row.row, *built.network)
                + explainLlmRow(a, s.llmModel->arch, row.phase, device, row.row));
        return;
    }
    const BuildResult built = buildNetwork(s.report->config); // the network the report is of
    if (built.network)
        m_explain->setHtml(explainLayer(*s.report, device, s.selectedLayer, *built.network, s.model.get()));
}

void Teaching::showTour()
{
    if (!m_parts.workspace->report() || m_parts.workspace->report()->results.empty()) {
        QMessageBox::information(m_frame, tr("Guided tour"), tr("Check a device first: the tour uses its roofline."));
        return;
    }
    // A panel docked beside the charts, not a dialog over them: each page marks on the chart what
    // it explains (slope, roof, ridge, the layer taking the most time) and stays with the window.
    if (!m_tour) {
        m_tour = new TourPanel;
        m_tourDock = new QDockWidget(tr("Guided tour"), m_frame);
        m_tourDock->setObjectName(QStringLiteral("tourDock"));
        m_tourDock->setWidget(m_tour);
        m_frame->addDockWidget(Qt::RightDockWidgetArea, m_tourDock);
        connect(m_tour, &TourPanel::pageChanged, this, [this](int) { updateTourHighlight(); });
        connect(m_tour, &TourPanel::closeRequested, m_tourDock, &QDockWidget::close);
        connect(m_tourDock, &QDockWidget::visibilityChanged, this, [this](bool) { updateTourHighlight(); });
    }
    m_tour->setPages(pages());
    m_tourDock->show();
    m_tourDock->raise();
    m_frame->resizeDocks({ m_tourDock }, { tourWidth() }, Qt::Horizontal);
    updateTourHighlight();
}

QStringList Teaching::pages() const
{
    const WorkspaceState& s = m_parts.workspace->state();
    QStringList pages = tourPages(*s.report, tourDevice(), m_parts.charts->overlay(), s.model.get(), s.languageModel());
    if (s.languageModel() && s.llmAnalysis && s.llmModel) // the mode's pages after the roofline's
        pages += llmTourPages(*s.llmAnalysis, s.llmModel->arch, tourDevice());
    return pages;
}

int Teaching::tourWidth() const { return std::max(320, m_frame->width() / 4); }

bool Teaching::eventFilter(QObject* watched, QEvent* event)
{
    // A window made smaller keeps the tour at a quarter of it at most: opened on a 1920-pixel window the
    // tour took 480 pixels, and kept them at 1280, where the charts then had to scroll in presentation.
    if (watched == m_frame && event->type() == QEvent::Resize && m_tourDock && m_tourDock->isVisible()
        && !m_tourDock->isFloating() && m_tourDock->width() > tourWidth() + 8)
        QTimer::singleShot(0, this, [this] {
            if (m_tourDock && m_tourDock->isVisible() && m_tourDock->width() > tourWidth() + 8)
                m_frame->resizeDocks({ m_tourDock }, { tourWidth() }, Qt::Horizontal);
        });
    return QObject::eventFilter(watched, event);
}

int Teaching::tourDevice() const
{
    // The device of the chart the marks go on: the table's in a grid, the overlay's first.
    return m_parts.charts->overlay() ? 0 : std::max(0, m_parts.workspace->state().tableDeviceIndex);
}

void Teaching::updateTourHighlight()
{
    const bool on = m_tour && m_tourDock->isVisible() && m_parts.workspace->report()
        && !m_parts.workspace->report()->results.empty();
    const std::vector<RooflineChart*> charts = m_parts.charts->charts();
    const size_t target = m_parts.charts->overlay() ? 0 : size_t(tourDevice());
    for (size_t i = 0; i < charts.size(); ++i) {
        RooflineChart::Highlight what = RooflineChart::Highlight::None;
        int layer = on ? tourLayer(*m_parts.workspace->report(), tourDevice()) : -1;
        if (on && i == target) {
            // The roofline's four pages, then the language-model mode's: decode on the slope, batching
            // (the largest row), the KV cache (the attention row), prefill against the ridge.
            using H = RooflineChart::Highlight;
            static constexpr H kPages[]
                = { H::Slope, H::Roof, H::Ridge, H::Layer, H::Slope, H::Layer, H::Layer, H::Ridge };
            const int page = std::clamp(m_tour->page(), 0, int(std::size(kPages)) - 1);
            what = kPages[page];
            if (page == 6) {
                const auto& rows = m_parts.workspace->report()->results[size_t(tourDevice())].layers;
                for (size_t r = 0; r < rows.size(); ++r)
                    if (rows[r].name.find("attention") != std::string::npos
                        || rows[r].name.find("attn_context") != std::string::npos)
                        layer = int(r);
            }
        }
        charts[i]->setHighlight(what, layer);
    }
}

QString Teaching::tableHiddenText()
{
    return tr("Layer table hidden for the presentation: View \u25b8 Layer table (Ctrl+Shift+T) shows it");
}

void Teaching::setPresentationMode(bool on)
{
    // Everything 1.5x larger for a projector: widgets, table, and the charts' text.
    QFont f = m_baseFont;
    if (on)
        f.setPointSizeF(m_baseFont.pointSizeF() * 1.5);
    QApplication::setFont(f);
    m_parts.charts->setFontScale(on ? 1.5 : 1.0);
    // On a projector's 720 or 1080 lines the charts need the height: the table steps aside (View >
    // Layer table brings it back) unless the window is tall, and returns with normal type.
    if (QAction* table = m_tableAction) {
        if (on && m_frame->height() <= 1000 && table->isChecked()) {
            table->setChecked(false);
            m_tableHiddenForPresentation = true;
            if (m_frame->isVisible()) // at start-up (--presentation) the View menu says it
                emit statusMessage(tableHiddenText(), 10000);
        } else if (!on && m_tableHiddenForPresentation) {
            table->setChecked(true);
            m_tableHiddenForPresentation = false;
            // The table is back: the message saying it was hidden goes too (it stayed up to 10 s).
            if (m_frame->statusBar()->currentMessage() == tableHiddenText())
                m_frame->statusBar()->clearMessage();
        }
    }
    // The panel as wide as its larger controls need, up to half the window (it scrolls beyond).
    QTimer::singleShot(0, this, [this] {
        if (QDockWidget* dock = m_parts.controlsDock) {
            // The panel, its vertical scroll bar and the dock's frame, so that no horizontal bar appears.
            const int extra = m_frame->style()->pixelMetric(QStyle::PM_ScrollBarExtent)
                + 2 * m_frame->style()->pixelMetric(QStyle::PM_DockWidgetFrameWidth) + 12;
            const int wanted = std::min(m_parts.controls->sizeHint().width() + extra, m_frame->width() / 2);
            dock->setMinimumWidth(std::max(wanted, 200));
            m_frame->resizeDocks({ dock }, { wanted }, Qt::Horizontal);
        }
    });
}

} // namespace rfx
