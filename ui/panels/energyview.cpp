#include "panels/energyview.h"

#include "workspace/energystudyrunner.h"

#include "open/analyses.h"
#include "style/text.h"
#include "widgets/checkedspinbox.h"

#include "panels/energychartfit.h"
#include "panels/energycharts.h"

#include "base/format.h"
#include "base/version.h"
#include "io/tune_writer.h"
#include "widgets/pointhover.h"
#include "workspace/workspace.h"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QImageWriter>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPainter>
#include <QPdfWriter>
#include <QPushButton>
#include <QSaveFile>
#include <QScatterSeries>
#include <QSpinBox>
#include <QSplitter>
#include <QSvgGenerator>
#include <QTextBrowser>
#include <QTimer>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace rfx {

namespace {

} // namespace

EnergyView::EnergyView(QWidget* parent)
    : QWidget(parent)
    , m_runner(new EnergyStudyRunner(this))
{
    auto* layout = new QVBoxLayout(this);
    auto* controls = new QHBoxLayout;
    auto spin = [&](int lo, int hi, int value, const QString& suffix, const QString& tip, const QString& what) {
        auto* s = new CheckedSpinBox(what);
        s->setRange(lo, hi);
        s->setValue(value);
        s->setSuffix(suffix);
        s->setKeyboardTracking(false);
        s->setToolTip(tip);
        connect(s, &QSpinBox::valueChanged, this, [this] { m_runner->setRanges(ranges()); });
        return s;
    };
    m_batchMin = spin(kBatchRange.min, kBatchRange.max, 1, QString(),
        tr("Smallest batch per GPU swept (then powers of two)"), tr("batch"));
    m_batchMax = spin(kBatchRange.min, kBatchRange.max, 256, QString(), tr("Largest batch per GPU swept"), tr("batch"));
    m_gpusMax = spin(1, 64, 8, QString(), tr("GPU counts swept: 1 to this"), tr("number of GPUs"));
    m_clockMin = spin(kClockRange.min, kClockRange.max, 50, tr(" %"),
        tr("Lowest core clock swept, in 5 % steps up to 100 %"), tr("clock (%)"));
    m_objective = new QComboBox;
    m_objective->addItem(tr("least energy"), int(Objective::Energy));
    m_objective->addItem(tr("least time"), int(Objective::Time));
    m_objective->addItem(tr("least energy \u00d7 delay"), int(Objective::Edp));
    m_objective->setToolTip(tr("Which configuration the view recommends; all three are listed"));
    connect(m_objective, &QComboBox::currentIndexChanged, this, &EnergyView::showStudy); // the same study, another pick
    controls->addWidget(new QLabel(tr("Batch")));
    controls->addWidget(m_batchMin);
    controls->addWidget(new QLabel(QStringLiteral("\u2013")));
    controls->addWidget(m_batchMax);
    controls->addSpacing(8);
    controls->addWidget(new QLabel(tr("GPUs 1\u2013")));
    controls->addWidget(m_gpusMax);
    controls->addSpacing(8);
    controls->addWidget(new QLabel(tr("Clock")));
    controls->addWidget(m_clockMin);
    controls->addWidget(new QLabel(tr("\u2013 100 %")));
    controls->addSpacing(8);
    controls->addWidget(new QLabel(tr("Recommend")));
    controls->addWidget(m_objective);
    controls->addStretch();
    auto* exportButton = new QPushButton(tr("Export\u2026"));
    exportButton->setToolTip(tr("Save the three charts and the recommendation as PNG, SVG or PDF"));
    controls->addWidget(exportButton);
    layout->addLayout(controls);

    m_charts = new QWidget;
    auto* grid = new QVBoxLayout(m_charts);
    grid->setContentsMargins(0, 0, 0, 0);
    auto* row = new QHBoxLayout;
    m_energyView = EnergyCharts::makeView({ tr("Energy per image against batch"), tr("Energy per image") });
    m_scalingView
        = EnergyCharts::makeView({ tr("Step time and energy against GPU count"), tr("Time (solid), energy (dashed)") });
    m_paretoView = EnergyCharts::makeView({ tr("Time against energy per image (Pareto front)"), tr("Pareto front") });
    for (QChartView* v : { m_energyView, m_scalingView, m_paretoView })
        new PointHover(v, PointHover::allSeries(v), [this](const PointHover::Hit& hit) {
            const auto it = m_pointText.find(hit.series);
            return it != m_pointText.end() ? it->second.text(hit.index) : QString();
        });
    row->addWidget(m_energyView);
    row->addWidget(m_scalingView);
    row->addWidget(m_paretoView);
    grid->addLayout(row, 1);
    m_legend = new QLabel; // in the window's type: presentation mode enlarges it with the controls
    m_legend->setWordWrap(true);
    m_legend->setAlignment(Qt::AlignHCenter);
    m_legend->setTextFormat(Qt::RichText);
    grid->addWidget(m_legend);
    m_caption = new QLabel;
    m_caption->setWordWrap(true);
    QFont small = m_caption->font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    m_caption->setFont(small);
    grid->addWidget(m_caption);
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(m_charts);

    m_text = new QTextBrowser;
    m_text->setOpenLinks(false);
    connect(m_text, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) {
        if (url.scheme() == QLatin1String("clock"))
            emit clockRequested(url.path().toInt());
    });
    split->addWidget(m_text);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setChildrenCollapsible(false);
    layout->addWidget(split, 1);

    connect(exportButton, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export energy charts"),
            QStringLiteral("energy.png"), tr("PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)"));
        QString error;
        if (!path.isEmpty() && !exportCharts(path, &error))
            m_text->setHtml(
                QStringLiteral("<p style='color:#b00'>%1</p>").arg(error.toHtmlEscaped()) + recommendationsHtml());
    });

    m_runner->setRanges(ranges());
    connect(m_runner, &EnergyStudyRunner::studied, this, &EnergyView::showStudy);
}

void EnergyView::setInputs(const Config& config, const std::vector<Device>& devices)
{
    m_runner->setInputs(config, devices);
}

void EnergyView::flush() { m_runner->flush(); }

const TuneOutcome& EnergyView::outcome() const { return m_runner->study().grid; }

int EnergyView::optimalClockPercent() const { return m_runner->study().optimalClockPercent; }

TuneRanges EnergyView::ranges() const
{
    TuneRanges r;
    r.batchMin = m_batchMin->value();
    r.batchMax = std::max(m_batchMin->value(), m_batchMax->value());
    r.gpusMin = 1;
    r.gpusMax = m_gpusMax->value();
    r.clockMin = m_clockMin->value();
    r.clockMax = 100;
    r.clockStep = 5;
    return r;
}

void EnergyView::setRanges(const TuneRanges& r)
{
    const QSignalBlocker a(m_batchMin), b(m_batchMax), c(m_gpusMax), d(m_clockMin);
    m_batchMin->setValue(r.batchMin);
    m_batchMax->setValue(r.batchMax);
    m_gpusMax->setValue(r.gpusMax);
    m_clockMin->setValue(r.clockMin);
    m_runner->setRanges(ranges());
}

Objective EnergyView::objective() const { return Objective(m_objective->currentData().toInt()); }

void EnergyView::setObjective(Objective o) { m_objective->setCurrentIndex(m_objective->findData(int(o))); }

QString EnergyView::errorText() const { return m_error; }

void EnergyView::setFontScale(double scale)
{
    m_fontScale = scale;
    for (QChartView* v : { m_energyView, m_scalingView, m_paretoView })
        EnergyCharts::setFontScale(v->chart(), scale);
    QTimer::singleShot(0, this, [this] { fitLabelHeights(); }); // once the window's type has changed too
}

void EnergyView::follow(Workspace* workspace)
{
    m_runner->follow(workspace);
    m_runner->setActive(isVisible());
    connect(this, &EnergyView::clockRequested, workspace, [workspace](int percent) {
        Config c = workspace->config();
        c.clockPercent = percent;
        workspace->setConfig(c);
    });
}

void EnergyView::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    m_runner->setActive(true); // what changed while it was hidden
}

void EnergyView::hideEvent(QHideEvent* event)
{
    QWidget::hideEvent(event);
    m_runner->setActive(isVisible()); // a minimised window stays visible
}

void EnergyView::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    fitLabelHeights();
}

void EnergyView::fitLabelHeights()
{
    for (QLabel* label : { m_legend, m_caption }) {
        const int lines = label->text().isEmpty() ? 0 : label->heightForWidth(std::max(label->width(), 50));
        if (label->minimumHeight() != lines)
            label->setMinimumHeight(lines);
    }
}

QChart* EnergyView::energyChart() const { return m_energyView->chart(); }
QChart* EnergyView::scalingChart() const { return m_scalingView->chart(); }
QChart* EnergyView::paretoChart() const { return m_paretoView->chart(); }

void EnergyView::fillCharts(QChart* energy, QChart* scaling, QChart* pareto)
{
    const EnergyStudy& study = m_runner->study();
    EnergyCharts::fillEnergy(energy, study.byBatch, m_pointText);
    EnergyCharts::fillScaling(scaling, study.byGpus, m_runner->config().batch, m_pointText);
    EnergyCharts::fillPareto(pareto, study.grid, objective(), m_objective->currentText(), m_pointText);
}

void EnergyView::showStudy()
{
    const EnergyStudy& study = m_runner->study();
    m_pointText.clear(); // the charts' series are made anew below
    m_error = m_runner->devices().empty() ? tr("Check a device to see its energy.") : qs(study.error);
    if (m_error.isEmpty()) {
        fillCharts(m_energyView->chart(), m_scalingView->chart(), m_paretoView->chart());
    }
    if (!m_error.isEmpty()) {
        for (QChartView* v : { m_energyView, m_scalingView, m_paretoView })
            EnergyCharts::clear(v->chart());
        m_caption->clear();
        m_legend->clear();
        m_text->setHtml(QStringLiteral("<p><b>%1</b></p>").arg(m_error.toHtmlEscaped()));
        return;
    }
    const Config& config = m_runner->config();
    const Interconnect* link = findInterconnect(config.interconnect);
    m_legend->setText(EnergyCharts::legendHtml(study.byBatch));
    m_caption->setText(
        tr("%1, %2-bit %3; batch per GPU; %4 clock unless swept; %5 GPU(s) over %6%7. Power: idle + "
           "compute share \u00d7 utilisation \u00d7 f\u00b7V\u00b2 + DRAM share \u00d7 utilisation "
           "(README \u201cEnergy, clocks and multi-GPU\u201d); GPU boards only. Batches that do not fit "
           "in memory: hollow markers, and left out of the Pareto chart. Roofline Explorer %8")
            .arg(qs(config.model), QString::number(config.bits),
                config.mode == Mode::Training ? tr("training") : tr("inference"),
                QStringLiteral("%1 %").arg(config.clockPercent), QString::number(config.gpus),
                link ? qs(link->name) : qs(config.interconnect),
                config.overlap ? tr(", all-reduce overlapped") : tr(", all-reduce after the backward pass"),
                QString::fromLatin1(kVersion)));
    m_text->setHtml(recommendationsHtml());
    fitLabelHeights();
}

QString EnergyView::recommendationsHtml() const
{
    QString html;
    const Objective objective = this->objective();
    for (const TuneResult& t : m_runner->study().grid.results) {
        html += QStringLiteral("<h3>%1</h3>").arg(qs(t.device.name).toHtmlEscaped());
        const auto fitting = std::count_if(t.points.begin(), t.points.end(), [](const TunePoint& p) { return p.fits; });
        html += tr("<p>%1 of %2 configurations fit in %3 per GPU.</p>")
                    .arg(fitting)
                    .arg(t.points.size())
                    .arg(qs(formatMemory(t.device.memoryBytes)));
        if (!t.bestTime) {
            html += tr("<p>No configuration fits: lower the batch range.</p>");
            continue;
        }
        html += QStringLiteral("<ul>");
        const std::pair<Objective, QString> rows[] = { { Objective::Time, tr("Least time") },
            { Objective::Energy, tr("Least energy") }, { Objective::Edp, tr("Least energy \u00d7 delay") } };
        for (const auto& [o, label] : rows) {
            const TunePoint& p = t.points[*t.best(o)];
            QString line = QStringLiteral("%1: <b>%2</b>: %3 and %4 per image, %5 W per GPU, %6 GFLOP/s per W")
                               .arg(label, qs(tunePointLabel(p)).toHtmlEscaped(), qs(formatTime(p.e.timePerImage)),
                                   qs(formatSI(p.e.energyPerImage, "J")), qs(formatNumber3(p.e.averagePower)),
                                   qs(formatNumber3(p.e.flopsPerJoule / 1e9)));
            if (p.gpus > 1)
                line += tr(", speed-up %1 (%2 efficiency)")
                            .arg(qs(formatNumber3(p.e.speedup)), qs(formatPercent(p.e.efficiency)));
            html += o == objective ? QStringLiteral("<li>\u2605 %1 <i>(recommended)</i></li>").arg(line)
                                   : QStringLiteral("<li>%1</li>").arg(line);
        }
        html += QStringLiteral("</ul><p><b>Why</b> (the recommendation against its neighbours):</p><ul>");
        for (const std::string& why : recommendationReasons(t, *t.best(objective)))
            html += QStringLiteral("<li>%1</li>").arg(qs(why).toHtmlEscaped());
        html += QStringLiteral("</ul>");
    }
    const int optimal = m_runner->study().optimalClockPercent;
    const std::vector<Device>& devices = m_runner->devices();
    if (optimal > 0 && !devices.empty())
        html += tr("<p>Energy-optimal clock for the current configuration on %1: <b>%2 %</b> (the voltage floor is "
                   "assumed at the base clock, %3 % of boost). <a href='clock:%2'>Use it</a></p>")
                    .arg(qs(devices.front().name).toHtmlEscaped())
                    .arg(optimal)
                    .arg(int(std::lround(100 * voltageKnee(devices.front()))));
    return html;
}

} // namespace rfx
