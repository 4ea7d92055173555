// The chart area's grid: how many columns the charts take (the standard grid unless another gives
// the plots a quarter more room), decided on the viewport after a resize or a type change, cells even.
#include "chart/chartarea.h"
#include "chart/rooflinechart.h"
#include "chart/summaryview.h"
#include "style/style.h"
#include <QGridLayout>
#include <QLabel>
#include <QScrollArea>
#include <QTimer>
#include <QVBoxLayout>
#include <cmath>

namespace rfx {

namespace {
/// Two charts side by side, three or four in a 2 x 2 grid, more in rows of three.
int standardColumns(size_t charts) { return charts <= 1 ? 1 : (charts <= 4 ? 2 : 3); }
} // namespace

void ChartArea::relayout(size_t devices, int chosen)
{
    const size_t charts = devices == 0 ? 0 : (m_overlay ? 1 : devices);
    while (m_panes.size() < charts)
        m_panes.push_back(makePane());
    for (const Pane& p : m_panes)
        m_grid->removeWidget(p.box);
    m_grid->removeWidget(m_empty);
    const int columns = charts <= 1 ? 1 : (chosen > 0 ? chosen : columnsFor(charts, room()));
    const int rows = charts == 0 ? 1 : int((charts + size_t(columns) - 1) / size_t(columns));
    // Every cell the same: each used column and row stretches alike (the layout gave two devices at
    // 1280 x 720 cells of 530 and 290 px by their size hints).
    for (int c = 0; c < std::max(m_grid->columnCount(), int(std::max<size_t>(charts, 3))); ++c)
        m_grid->setColumnStretch(c, c < columns ? 1 : 0);
    for (int r = 0; r < std::max(m_grid->rowCount(), rows); ++r)
        m_grid->setRowStretch(r, r < rows ? 1 : 0);
    m_columns = columns, m_rows = rows;
    for (size_t i = 0; i < m_panes.size(); ++i) {
        const bool used = i < charts;
        m_panes[i].box->setVisible(used);
        if (used)
            m_grid->addWidget(m_panes[i].box, int(i) / columns, int(i) % columns);
    }
    for (size_t i = 0; i < charts; ++i)
        m_panes[i].chart->setMinorGrid(charts <= 2);
    m_empty->setVisible(charts == 0);
    if (charts == 0)
        m_grid->addWidget(m_empty, 0, 0);
    m_shown = charts;
}

QSize ChartArea::room() const
{
    QWidget* viewport = parentWidget();
    if (viewport && qobject_cast<QScrollArea*>(viewport->parentWidget()))
        return viewport->size();
    return size();
}

int ChartArea::widestPaneMinimum(size_t charts) const
{
    int width = 0;
    for (size_t i = 0; i < charts && i < m_panes.size(); ++i)
        width = std::max(width, m_panes[i].box->minimumSizeHint().width());
    return width;
}

int ChartArea::columnsFor(size_t charts, QSize area, double* score) const
{
    const int standard = standardColumns(charts);
    if (score)
        *score = -1;
    if (charts <= 1 || area.isEmpty() || m_panes.size() < charts)
        return standard;
    // The widest pane's minimum, and the tallest chart's with a line of summary: an arrangement whose
    // cells are smaller does not fit (narrower, the window would squeeze the panels beside the charts;
    // lower, the charts would scroll).
    const int paneMin = widestPaneMinimum(charts);
    int paneMinHeight = 0;
    for (size_t i = 0; i < charts; ++i)
        paneMinHeight = std::max(paneMinHeight, m_panes[i].chart->minimumSizeHint().height());
    // What a cell spends besides the plot, in lines of the type now (presentation's is larger): a
    // summary of up to three lines, the title, the x axis's ticks and title above and below the plot,
    // the y axis's ticks and title beside it. Fixed allowances, not the texts' sizes now, so that the
    // decision does not depend on itself (the summaries shrink to one line when the charts are short).
    const int line = fontMetrics().lineSpacing();
    const int spacing = m_grid->spacing();
    const int banner = m_banner->isVisible() ? m_banner->sizeHint().height() + 4 : 0;
    auto plotSide = [&](int columns) -> double {
        const int rows = int((charts + size_t(columns) - 1) / size_t(columns));
        const int cellW = (area.width() - (columns - 1) * spacing) / columns;
        const int cellH = (area.height() - banner - (rows - 1) * spacing) / rows;
        if (cellW < paneMin || cellH < paneMinHeight + 2 * line)
            return -1;
        // A roofline reads best about 1.6 times as wide as high (five or six decades of intensity
        // against four of performance): the plot's side is its height, or its width / 1.6 if that is less.
        return std::max(0.0, std::min((cellW - 6 * line) / 1.6, double(cellH - 8 * line)));
    };
    const int current = (m_shown == charts && m_columns > 0 && m_columns <= int(charts)) ? m_columns : standard;
    // Nothing fits: the standard grid, and the window makes room for it (ChartRoom).
    int best = standard;
    double bestSide = plotSide(standard);
    if (current != standard && plotSide(current) >= bestSide)
        best = current, bestSide = plotSide(current);
    for (int c = 1; c <= int(charts); ++c) {
        // Only arrangements without a wasted row: three charts in three columns or two, never four.
        if (c > 1 && (charts + size_t(c) - 1) / size_t(c) == (charts + size_t(c) - 2) / size_t(c - 1))
            continue;
        const double side = plotSide(c);
        if (side > bestSide)
            best = c, bestSide = side;
    }
    // A quarter more room, or the current arrangement does not fit at all, before anything moves: a
    // resize by a few pixels never flips the grid back and forth.
    const double currentSide = plotSide(current);
    if (best != current && currentSide >= 0 && bestSide < 1.25 * currentSide) {
        best = current;
        bestSide = currentSide;
    }
    if (bestSide < 0) // nothing fits: back to the standard grid
        best = standard;
    if (score)
        *score = bestSide;
    return best;
}

void ChartArea::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    if (m_regridPending)
        return;
    m_regridPending = true;
    QTimer::singleShot(0, this, &ChartArea::regrid);
}

void ChartArea::regrid()
{
    m_regridPending = false;
    bool cramped = false;
    if (!m_overlay && m_shown > 1) {
        double side = -1;
        int columns = columnsFor(m_shown, room(), &side);
        if (side < 0) {
            // Nothing fits both ways (presentation type and the tour at 1024 x 640): as many columns as
            // the width takes, the charts scrolling down, rather than a grid wider than the room, whose
            // last column scrolled sideways out of sight behind the tour (issue 73 item 4).
            const int paneMin = widestPaneMinimum(m_shown), spacing = m_grid->spacing();
            int fit = 1;
            while (fit < columns && (fit + 1) * paneMin + fit * spacing <= room().width())
                ++fit;
            columns = std::min(columns, fit);
        }
        if (columns != m_columns) {
            relayout(m_report->results.size(), columns);
            evenCells();
        }
        cramped = side < 5 * fontMetrics().lineSpacing();
    }
    if (cramped != m_cramped) {
        m_cramped = cramped;
        emit crampedChanged(cramped);
    }
}

void ChartArea::evenCells()
{
    // Widths only: a pane's minimum height counts its summary wrapped at its narrowest (hundreds of
    // pixels), which as every row's minimum made a 1280 x 720 grid of three scroll; rows share the
    // height by their equal stretch.
    const int width = widestPaneMinimum(m_shown);
    const bool grid = m_shown > 1;
    for (int c = 0; c < std::max(m_grid->columnCount(), 3); ++c)
        m_grid->setColumnMinimumWidth(c, grid && c < m_columns ? width : 0);
}

} // namespace rfx
