#include "servingplan/servingview.h"

#include "panels/energycharts.h"
#include "servingplan/servingplanner.h"
#include "servingplan/servingtable.h"
#include "widgets/pointhover.h"

#include <QChart>
#include <QChartView>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QScrollBar>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QXYSeries>

#include <algorithm>

namespace rfx {

namespace {

QDoubleSpinBox* millisecondsField(double value, double most, const QString& tip)
{
    auto* f = new QDoubleSpinBox;
    f->setRange(0, most);
    f->setDecimals(1);
    f->setSuffix(QStringLiteral(" ms"));
    f->setSpecialValueText(QCoreApplication::translate("rfx::ServingView", "none"));
    f->setValue(value);
    f->setKeyboardTracking(false);
    f->setToolTip(tip);
    return f;
}

} // namespace

ServingView::ServingView(QWidget* parent)
    : QWidget(parent)
    , m_planner(new ServingPlanner(this))
{
    auto* layout = new QVBoxLayout(this);
    auto* targets = new QHBoxLayout;
    m_ttft = millisecondsField(1000, 600000, tr("The first token within this time under load (TTFT; 0: no target)"));
    m_tpot = millisecondsField(50, 60000, tr("Each next token within this time under load (TPOT; 0: no target)"));
    m_users = new QSpinBox;
    m_users->setRange(0, 10000000);
    m_users->setSpecialValueText(tr("no load"));
    m_users->setKeyboardTracking(false);
    m_users->setToolTip(tr("Users served at once: the table says the GPUs they need (replicas x TP)"));
    targets->addWidget(new QLabel(tr("First token within")));
    targets->addWidget(m_ttft);
    targets->addWidget(new QLabel(tr("each token within")));
    targets->addWidget(m_tpot);
    targets->addWidget(new QLabel(tr("for")));
    targets->addWidget(m_users);
    targets->addWidget(new QLabel(tr("users at once")));
    targets->addStretch(1);
    auto* exportButton = new QPushButton(tr("Export figure..."));
    exportButton->setToolTip(tr("Writes the plan's chart as a PNG, SVG or PDF figure with its caption and, if asked, a "
                                "sidecar that roofline-cli reproduce draws again"));
    connect(exportButton, &QPushButton::clicked, this, [this] { emit exportRequested(this->targets()); });
    targets->addWidget(exportButton);
    layout->addLayout(targets);
    m_message = new QLabel;
    m_message->setWordWrap(true);
    m_message->setAlignment(Qt::AlignCenter);
    layout->addWidget(m_message);
    m_body = new QWidget;
    auto* column = new QVBoxLayout(m_body);
    column->setContentsMargins(0, 0, 0, 0);
    m_legend = new QLabel;
    m_legend->setWordWrap(true);
    m_legend->setAlignment(Qt::AlignCenter);
    m_legend->setTextFormat(Qt::RichText);
    column->addWidget(m_legend);
    m_view = EnergyCharts::makeView(ServingCharts::titles());
    m_view->setMinimumHeight(180);
    new PointHover(m_view, PointHover::allSeries(m_view),
        [this](const PointHover::Hit& hit) { return pointText(hit.series, hit.index); });
    column->addWidget(m_view, 3);
    m_view->setToolTip(tr("The steady state of continuous batching on each checked device: tensor parallelism 1 to 8 "
                          "over its own link, weights at 16, 8 and 4 bits, the cache at 16 and 8, and the users a "
                          "replica serves, searched; the prompt and generated tokens are the language-model "
                          "controls'. Every figure is a roofline bound: real engines run below it."));
    m_table = new QTableWidget;
    m_table->verticalHeader()->hide();
    m_table->setSelectionMode(QAbstractItemView::NoSelection);
    m_table->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    column->addWidget(m_table, 0);
    layout->addWidget(m_body, 1);
    for (QDoubleSpinBox* f : { m_ttft, m_tpot })
        connect(f, &QDoubleSpinBox::valueChanged, this, &ServingView::targetsEdited);
    connect(m_users, &QSpinBox::valueChanged, this, &ServingView::targetsEdited);
    connect(m_planner, &ServingPlanner::planChanged, this, &ServingView::redraw);
    redraw();
}

void ServingView::follow(Workspace* workspace) { m_planner->follow(workspace); }

void ServingView::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    m_planner->setActive(true);
}

void ServingView::hideEvent(QHideEvent* event)
{
    QWidget::hideEvent(event);
    m_planner->setActive(false);
}

QChart* ServingView::chart() const { return m_view->chart(); }

QString ServingView::message() const { return m_body->isHidden() ? m_message->text() : QString(); }

void ServingView::setTargets(double ttftMs, double tpotMs, int users)
{
    const QSignalBlocker a(m_ttft), b(m_tpot), c(m_users);
    m_ttft->setValue(ttftMs);
    m_tpot->setValue(tpotMs);
    m_users->setValue(users);
    targetsEdited();
}

ServingFigure ServingView::targets() const
{
    return { m_ttft->value() / 1000, m_tpot->value() / 1000, m_users->value() };
}

void ServingView::targetsEdited()
{
    m_planner->setTargets({ m_ttft->value() / 1000, m_tpot->value() / 1000, m_users->value() });
}

QString ServingView::pointText(const QXYSeries* series, int index) const
{
    const auto it = m_texts.find(series);
    const auto& plan = m_planner->plan();
    if (!plan || it == m_texts.end() || index < 0 || size_t(index) >= it->second.size())
        return {};
    const ServingCharts::PointRef at = it->second[size_t(index)];
    const QStringList names = m_planner->deviceNames();
    return ServingCharts::pointText(
        *plan, at.device, at.point, int(at.device) < names.size() ? names[int(at.device)] : QString());
}

void ServingView::setFontScale(double scale)
{
    EnergyCharts::setFontScale(m_view->chart(), scale);
    // Its axes' labels grow with the type: a plot left at the desk's least height showed only "..."
    // ticks at 1280 x 720 in presentation mode (the dock scrolls to the rest).
    m_view->setMinimumHeight(int(180 * scale));
}

void ServingView::redraw()
{
    const auto& plan = m_planner->plan();
    if (!plan || !plan->error.empty()) {
        const QString text = m_planner->message();
        m_message->setText(text.isEmpty() ? tr("Planning\u2026") : text);
        m_message->show();
        m_body->hide();
        m_texts.clear();
        return;
    }
    const QStringList names = m_planner->deviceNames();
    ServingCharts::fill(m_view->chart(), *plan, m_planner->settings(), names, m_texts);
    m_legend->setText(ServingCharts::legendHtml(*plan, m_planner->settings(), names));
    fillServingTable(m_table, *plan, names);
    // As tall as its rows (up to six; more scroll): the chart takes the rest of the dock.
    int rows = m_table->horizontalHeader()->height() + 2 * m_table->frameWidth();
    for (int r = 0; r < std::min(m_table->rowCount(), 6); ++r)
        rows += m_table->rowHeight(r);
    if (m_table->horizontalScrollBar()->isVisible())
        rows += m_table->horizontalScrollBar()->height();
    m_table->setFixedHeight(rows);
    m_message->hide();
    m_body->show();
}

} // namespace rfx
