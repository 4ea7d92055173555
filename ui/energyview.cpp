#include "energyview.h"

#include "format.h"
#include "pointhover.h"
#include "tune_writer.h"
#include "version.h"

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
#include <QSplitter>
#include <QSpinBox>
#include <QSvgGenerator>
#include <QTextBrowser>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace rfx {

namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }

QColor deviceColor(size_t i)
{
    static const QColor colors[] = { QColor(0x1f, 0x77, 0xb4), QColor(0xd6, 0x27, 0x28), QColor(0x2c, 0xa0, 0x2c),
        QColor(0x94, 0x67, 0xbd), QColor(0xff, 0x7f, 0x0e), QColor(0x8c, 0x56, 0x4b) };
    return colors[i % std::size(colors)];
}

QString shortName(const Device& d)
{
    QString n = qs(d.name);
    for (const char* prefix : { "NVIDIA GeForce ", "NVIDIA ", "AMD ", "Intel " })
        if (n.startsWith(QLatin1String(prefix)))
            return n.mid(int(std::strlen(prefix)));
    return n;
}

QChartView* makeView(const QString& title)
{
    auto* chart = new QChart;
    chart->setTitle(title);
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->setMargins(QMargins(2, 2, 2, 2));
    auto* view = new QChartView(chart);
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumSize(300, 240);
    return view;
}

// What a hovered point of any of the three charts stands for, in full.
QString tunePointText(const Device& d, const TunePoint& p)
{
    QString text = EnergyView::tr("<b>%1</b><br>batch %2 per GPU \u00d7 %3 GPU(s) at %4 % clock<br>"
                                  "step %5, %6 J<br>per image %7, %8<br>average power %9 W per GPU")
                       .arg(QString::fromStdString(d.name).toHtmlEscaped())
                       .arg(p.batch)
                       .arg(p.gpus)
                       .arg(p.clockPercent)
                       .arg(QString::fromStdString(formatTime(p.e.stepTime, true)), QString::fromStdString(formatNumber3(p.e.stepEnergy)),
                           QString::fromStdString(formatTime(p.e.timePerImage, true)),
                           QString::fromStdString(formatSI(p.e.energyPerImage, "J")),
                           QString::fromStdString(formatNumber3(p.e.averagePower)));
    if (!p.fits)
        text += EnergyView::tr("<br><b>does not fit</b>: %1 per GPU").arg(QString::fromStdString(formatBytes(p.memory)));
    return text;
}

void clearChart(QChart* chart)
{
    chart->removeAllSeries();
    for (QAbstractAxis* a : chart->axes()) {
        chart->removeAxis(a);
        delete a;
    }
}

void attach(QChart* chart, QAbstractSeries* s, QAbstractAxis* x, QAbstractAxis* y)
{
    chart->addSeries(s);
    s->attachAxis(x);
    s->attachAxis(y);
}

// Log axis over [lo, hi] padded to whole decades' halves, so points are never on the frame.
QLogValueAxis* logAxis(const QString& title, double lo, double hi, int base = 10)
{
    auto* a = new QLogValueAxis;
    a->setBase(base);
    a->setTitleText(title);
    a->setLabelFormat(QStringLiteral("%g"));
    a->setMinorTickCount(base == 10 ? 8 : 0);
    if (lo > 0 && hi > 0)
        a->setRange(lo / (base == 10 ? 1.6 : 1.4), hi * (base == 10 ? 1.6 : 1.4));
    return a;
}

QValueAxis* valueAxis(const QString& title, double lo, double hi)
{
    auto* a = new QValueAxis;
    a->setTitleText(title);
    a->setRange(lo, hi > lo ? hi : lo + 1);
    a->applyNiceNumbers();
    a->setLabelFormat(a->max() >= 100 ? QStringLiteral("%.0f") : QStringLiteral("%.3g"));
    return a;
}

} // namespace

EnergyView::EnergyView(QWidget* parent)
    : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    auto* controls = new QHBoxLayout;
    auto spin = [&](int lo, int hi, int value, const QString& suffix, const QString& tip) {
        auto* s = new QSpinBox;
        s->setRange(lo, hi);
        s->setValue(value);
        s->setSuffix(suffix);
        s->setKeyboardTracking(false);
        s->setToolTip(tip);
        connect(s, &QSpinBox::valueChanged, this, &EnergyView::schedule);
        return s;
    };
    m_batchMin = spin(kBatchRange.min, kBatchRange.max, 1, QString(), tr("Smallest batch per GPU swept (then powers of two)"));
    m_batchMax = spin(kBatchRange.min, kBatchRange.max, 256, QString(), tr("Largest batch per GPU swept"));
    m_gpusMax = spin(1, 64, 8, QString(), tr("GPU counts swept: 1 to this"));
    m_clockMin = spin(kClockRange.min, kClockRange.max, 50, tr(" %"), tr("Lowest core clock swept, in 5 % steps up to 100 %"));
    m_objective = new QComboBox;
    m_objective->addItem(tr("least energy"), int(Objective::Energy));
    m_objective->addItem(tr("least time"), int(Objective::Time));
    m_objective->addItem(tr("least energy \u00d7 delay"), int(Objective::Edp));
    m_objective->setToolTip(tr("Which configuration the view recommends; all three are listed"));
    connect(m_objective, &QComboBox::currentIndexChanged, this, &EnergyView::schedule);
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
    m_energyView = makeView(tr("Energy per image against batch"));
    m_scalingView = makeView(tr("Step time and energy against GPU count"));
    m_paretoView = makeView(tr("Time against energy per image (Pareto front)"));
    for (QChartView* v : { m_energyView, m_scalingView, m_paretoView })
        new PointHover(
            v,
            [v] {
                std::vector<QXYSeries*> out;
                for (QAbstractSeries* s : v->chart()->series())
                    if (auto* xy = qobject_cast<QXYSeries*>(s))
                        out.push_back(xy);
                return out;
            },
            [this](const PointHover::Hit& hit) {
                const auto it = m_pointText.find(hit.series);
                return it != m_pointText.end() && hit.index < it->second.size() ? it->second[hit.index] : QString();
            });
    row->addWidget(m_energyView);
    row->addWidget(m_scalingView);
    row->addWidget(m_paretoView);
    grid->addLayout(row, 1);
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
            m_text->setHtml(QStringLiteral("<p style='color:#b00'>%1</p>").arg(error.toHtmlEscaped()) + recommendationsHtml());
    });

    m_timer.setSingleShot(true);
    m_timer.setInterval(40);
    connect(&m_timer, &QTimer::timeout, this, &EnergyView::update);
}

void EnergyView::setInputs(const Config& config, const std::vector<Device>& devices)
{
    m_config = config;
    m_devices = devices;
    schedule();
}

void EnergyView::schedule()
{
    // Throttled, not debounced: a slider drag sends a step every few milliseconds, and a sweep costs a
    // few more; at most one sweep per 40 ms keeps the drag smooth and the view live while it moves.
    m_pending = true;
    if (!m_timer.isActive())
        m_timer.start();
}

void EnergyView::flush()
{
    if (m_pending)
        update();
}

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
    schedule();
}

Objective EnergyView::objective() const { return Objective(m_objective->currentData().toInt()); }

void EnergyView::setObjective(Objective o) { m_objective->setCurrentIndex(m_objective->findData(int(o))); }

QString EnergyView::errorText() const { return m_error; }

QChart* EnergyView::energyChart() const { return m_energyView->chart(); }
QChart* EnergyView::scalingChart() const { return m_scalingView->chart(); }
QChart* EnergyView::paretoChart() const { return m_paretoView->chart(); }

void EnergyView::update()
{
    m_pending = false;
    m_timer.stop();
    m_error.clear();
    m_pointText.clear(); // the charts' series are made anew below
    m_tune = {};
    m_optimal = 0;
    if (m_devices.empty()) {
        m_error = tr("Check a device to see its energy.");
    } else {
        const TuneRanges r = ranges();
        m_tune = tune(m_config, m_devices, r);
        TuneRanges byBatch = r;
        byBatch.gpusMin = byBatch.gpusMax = m_config.gpus;
        byBatch.clockMin = byBatch.clockMax = m_config.clockPercent;
        TuneRanges byGpus = r;
        byGpus.batchMin = byGpus.batchMax = m_config.batch;
        byGpus.gpusMax = std::max(r.gpusMax, 2);
        byGpus.clockMin = byGpus.clockMax = m_config.clockPercent;
        m_byBatch = tune(m_config, m_devices, byBatch);
        m_byGpus = tune(m_config, m_devices, byGpus);
        m_error = qs(!m_tune.error.empty() ? m_tune.error : !m_byBatch.error.empty() ? m_byBatch.error : m_byGpus.error);
        if (m_error.isEmpty()) {
            if (auto c = optimalClock(m_config, m_devices.front(), m_clockMin->value()))
                m_optimal = c->percent;
            fillEnergyChart(m_energyView->chart(), m_byBatch);
            fillScalingChart(m_scalingView->chart(), m_byGpus);
            fillParetoChart(m_paretoView->chart());
        }
    }
    if (!m_error.isEmpty()) {
        for (QChartView* v : { m_energyView, m_scalingView, m_paretoView })
            clearChart(v->chart());
        m_caption->clear();
        m_text->setHtml(QStringLiteral("<p><b>%1</b></p>").arg(m_error.toHtmlEscaped()));
        return;
    }
    const Interconnect* link = findInterconnect(m_config.interconnect);
    m_caption->setText(tr("%1, %2-bit %3; batch per GPU; %4 clock unless swept; %5 GPU(s) over %6%7. Power: idle + "
                          "compute share \u00d7 utilisation \u00d7 f\u00b7V\u00b2 + DRAM share \u00d7 utilisation "
                          "(README \u201cEnergy, clocks and multi-GPU\u201d); GPU boards only. Batches that do not fit "
                          "in memory: hollow markers, and left out of the Pareto chart. Roofline Explorer %8")
                           .arg(qs(m_config.model), QString::number(m_config.bits),
                               m_config.mode == Mode::Training ? tr("training") : tr("inference"),
                               QStringLiteral("%1 %").arg(m_config.clockPercent), QString::number(m_config.gpus),
                               link ? qs(link->name) : qs(m_config.interconnect),
                               m_config.overlap ? tr(", all-reduce overlapped") : tr(", all-reduce after the backward pass"),
                               QString::fromLatin1(kVersion)));
    m_text->setHtml(recommendationsHtml());
}

void EnergyView::fillEnergyChart(QChart* chart, const TuneOutcome& o) const
{
    clearChart(chart);
    double xlo = INFINITY, xhi = 0, yhi = 0;
    std::vector<QXYSeries*> series;
    bool anyOut = false;
    for (size_t i = 0; i < o.results.size(); ++i) {
        auto* s = new QLineSeries;
        s->setName(shortName(o.results[i].device));
        s->setPen(QPen(deviceColor(i), 2));
        s->setPointsVisible(true);
        // Batches that do not fit in memory: hollow markers, so the trend stays visible with its limit.
        auto* out = new QScatterSeries;
        out->setName(tr("does not fit in memory"));
        out->setMarkerSize(9);
        out->setColor(Qt::transparent);
        out->setBorderColor(deviceColor(i));
        for (const TunePoint& p : o.results[i].points) {
            QXYSeries* to = p.fits ? static_cast<QXYSeries*>(s) : static_cast<QXYSeries*>(out);
            to->append(p.batch, p.e.energyPerImage * 1e3);
            m_pointText[to].append(tunePointText(o.results[i].device, p));
            anyOut = anyOut || !p.fits;
            xlo = std::min(xlo, double(p.batch));
            xhi = std::max(xhi, double(p.batch));
            yhi = std::max(yhi, p.e.energyPerImage * 1e3);
        }
        series.push_back(s);
        series.push_back(out);
    }
    auto* x = logAxis(tr("Batch per GPU"), std::isfinite(xlo) ? xlo : 1, xhi > 0 ? xhi : 2, 2);
    auto* y = valueAxis(tr("mJ per image"), 0, yhi * 1.1);
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    for (size_t k = 0; k < series.size(); ++k) {
        attach(chart, series[k], x, y);
        // One "does not fit" entry is enough.
        if (k % 2 == 1)
            chart->legend()->markers(series[k]).first()->setVisible(anyOut && k == 1);
    }
}

void EnergyView::fillScalingChart(QChart* chart, const TuneOutcome& o) const
{
    clearChart(chart);
    double tmax = 0, emax = 0;
    int gmax = 1;
    std::vector<std::pair<QLineSeries*, QLineSeries*>> series;
    for (size_t i = 0; i < o.results.size(); ++i) {
        auto* time = new QLineSeries;
        auto* energy = new QLineSeries;
        time->setName(shortName(o.results[i].device));
        energy->setName(tr("%1 energy").arg(shortName(o.results[i].device)));
        time->setPen(QPen(deviceColor(i), 2));
        energy->setPen(QPen(deviceColor(i), 2, Qt::DashLine));
        time->setPointsVisible(true);
        energy->setPointsVisible(true);
        for (const TunePoint& p : o.results[i].points) {
            if (!p.fits)
                continue;
            time->append(p.gpus, p.e.stepTime * 1e3);
            energy->append(p.gpus, p.e.stepEnergy);
            m_pointText[time].append(tunePointText(o.results[i].device, p));
            m_pointText[energy].append(tunePointText(o.results[i].device, p));
            tmax = std::max(tmax, p.e.stepTime * 1e3);
            emax = std::max(emax, p.e.stepEnergy);
            gmax = std::max(gmax, p.gpus);
        }
        series.emplace_back(time, energy);
    }
    auto* x = new QValueAxis;
    x->setTitleText(tr("GPUs (batch %1 each)").arg(m_config.batch));
    x->setRange(1, gmax);
    x->setTickCount(std::min(gmax, 8));
    x->setLabelFormat(QStringLiteral("%d"));
    auto* yt = valueAxis(tr("step, ms (solid)"), 0, tmax * 1.1);
    auto* ye = valueAxis(tr("step, J (dashed)"), 0, emax * 1.1);
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(yt, Qt::AlignLeft);
    chart->addAxis(ye, Qt::AlignRight);
    for (auto& [t, e] : series) {
        attach(chart, t, x, yt);
        attach(chart, e, x, ye);
        chart->legend()->markers(e).first()->setVisible(false); // the colour names the device; dashes say energy
    }
}

void EnergyView::fillParetoChart(QChart* chart) const
{
    clearChart(chart);
    double xlo = INFINITY, xhi = 0, ylo = INFINITY, yhi = 0;
    std::vector<QAbstractSeries*> all;
    const Objective objective = this->objective();
    for (size_t i = 0; i < m_tune.results.size(); ++i) {
        const TuneResult& t = m_tune.results[i];
        const QColor color = deviceColor(i);
        auto* cloud = new QScatterSeries;
        cloud->setName(tr("%1: every configuration").arg(shortName(t.device)));
        cloud->setMarkerSize(5);
        QColor light = color;
        light.setAlpha(70);
        cloud->setColor(light);
        cloud->setBorderColor(light);
        for (const TunePoint& p : t.points) {
            if (!p.fits)
                continue;
            const double x = p.e.timePerImage * 1e3, y = p.e.energyPerImage * 1e3;
            cloud->append(x, y);
            m_pointText[cloud].append(tunePointText(t.device, p));
            xlo = std::min(xlo, x), xhi = std::max(xhi, x), ylo = std::min(ylo, y), yhi = std::max(yhi, y);
        }
        auto* front = new QLineSeries;
        front->setName(shortName(t.device));
        front->setPen(QPen(color, 2));
        front->setPointsVisible(true);
        for (std::size_t k : t.front) {
            front->append(t.points[k].e.timePerImage * 1e3, t.points[k].e.energyPerImage * 1e3);
            m_pointText[front].append(tunePointText(t.device, t.points[k]) + tr("<br>on the Pareto front"));
        }
        all.push_back(cloud);
        all.push_back(front);
        if (const auto best = t.best(objective)) {
            auto* mark = new QScatterSeries;
            mark->setName(tr("%1: recommended (%2)").arg(shortName(t.device), m_objective->currentText()));
            mark->setMarkerShape(QScatterSeries::MarkerShapeStar);
            mark->setMarkerSize(16);
            mark->setColor(color);
            mark->setBorderColor(color.darker(150));
            const TunePoint& p = t.points[*best];
            mark->append(p.e.timePerImage * 1e3, p.e.energyPerImage * 1e3);
            m_pointText[mark].append(tunePointText(t.device, p) + tr("<br>recommended for %1").arg(m_objective->currentText()));
            mark->setPointLabelsVisible(true);
            mark->setPointLabelsClipping(false);
            mark->setPointLabelsFormat(QStringLiteral("%1\u00d7%2 @%3%").arg(p.batch).arg(p.gpus).arg(p.clockPercent));
            all.push_back(mark);
        }
    }
    // Log axes when the sweep spans a decade or more (batch 1 against 256); plain ones otherwise, where a
    // log axis would show a single tick label.
    auto axis = [](const QString& title, double lo, double hi) -> QAbstractAxis* {
        if (!(lo > 0) || !std::isfinite(lo))
            lo = 1, hi = 10;
        if (hi / lo >= 8)
            return logAxis(title, lo, hi);
        const double pad = (hi - lo) * 0.08 + hi * 0.01;
        return valueAxis(title, std::max(0.0, lo - pad), hi + pad);
    };
    QAbstractAxis* x = axis(tr("ms per image"), xlo, xhi);
    QAbstractAxis* y = axis(tr("mJ per image"), ylo, yhi);
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    for (QAbstractSeries* s : all) {
        attach(chart, s, x, y);
        // The legend names each device once (its front); the cloud and the star explain themselves.
        if (s->type() == QAbstractSeries::SeriesTypeScatter)
            chart->legend()->markers(s).first()->setVisible(false);
    }
}

QString EnergyView::recommendationsHtml() const
{
    QString html;
    const Objective objective = this->objective();
    for (const TuneResult& t : m_tune.results) {
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
                line += tr(", speed-up %1 (%2 efficiency)").arg(qs(formatNumber3(p.e.speedup)), qs(formatPercent(p.e.efficiency)));
            html += o == objective ? QStringLiteral("<li>\u2605 %1 <i>(recommended)</i></li>").arg(line)
                                   : QStringLiteral("<li>%1</li>").arg(line);
        }
        html += QStringLiteral("</ul><p><b>Why</b> (the recommendation against its neighbours):</p><ul>");
        for (const std::string& why : recommendationReasons(t, *t.best(objective)))
            html += QStringLiteral("<li>%1</li>").arg(qs(why).toHtmlEscaped());
        html += QStringLiteral("</ul>");
    }
    if (m_optimal > 0 && !m_devices.empty())
        html += tr("<p>Energy-optimal clock for the current configuration on %1: <b>%2 %</b> (the voltage floor is "
                   "assumed at the base clock, %3 % of boost). <a href='clock:%2'>Use it</a></p>")
                    .arg(qs(m_devices.front().name).toHtmlEscaped())
                    .arg(m_optimal)
                    .arg(int(std::lround(100 * voltageKnee(m_devices.front()))));
    return html;
}

bool EnergyView::exportCharts(const QString& path, QString* error)
{
    flush();
    const QString suffix = QFileInfo(path).suffix().toLower();
    auto fail = [&](const QString& why) {
        if (error)
            *error = tr("%1: %2").arg(path, why);
        return false;
    };
    if (suffix != QLatin1String("png") && suffix != QLatin1String("svg") && suffix != QLatin1String("pdf"))
        return fail(tr("unknown format; use .png, .svg or .pdf"));
    if (!m_error.isEmpty())
        return fail(m_error);
    // A fixed layout in print style, independent of the window and its palette: the three charts drawn
    // afresh side by side, the caption below.
    QWidget page;
    page.setAttribute(Qt::WA_DontShowOnScreen);
    page.resize(1500, 560);
    page.setPalette(QPalette(Qt::white));
    auto* v = new QVBoxLayout(&page);
    auto* h = new QHBoxLayout;
    QChartView* views[] = { makeView(energyChart()->title()), makeView(scalingChart()->title()), makeView(paretoChart()->title()) };
    for (QChartView* view : views) {
        view->chart()->setTheme(QChart::ChartThemeLight);
        h->addWidget(view);
    }
    fillEnergyChart(views[0]->chart(), m_byBatch);
    fillScalingChart(views[1]->chart(), m_byGpus);
    fillParetoChart(views[2]->chart());
    v->addLayout(h, 1);
    auto* caption = new QLabel(m_caption->text());
    caption->setWordWrap(true);
    v->addWidget(caption);
    page.show();
    page.layout()->activate();
    QCoreApplication::processEvents();
    QSaveFile out(path);
    bool ok = out.open(QIODevice::WriteOnly);
    QString why = out.errorString();
    if (ok) {
        const QString title = tr("Energy and tuning: %1").arg(qs(m_config.model));
        if (suffix == QLatin1String("png")) {
            QImage image(page.size() * 2, QImage::Format_ARGB32);
            image.fill(Qt::white);
            QPainter p(&image);
            p.scale(2, 2);
            page.render(&p);
            p.end();
            image.setText(QStringLiteral("Title"), title);
            image.setText(QStringLiteral("Description"), m_caption->text());
            QImageWriter writer(&out, "png");
            ok = writer.write(image);
            why = writer.errorString();
        } else if (suffix == QLatin1String("svg")) {
            QSvgGenerator svg;
            svg.setOutputDevice(&out);
            svg.setSize(page.size());
            svg.setViewBox(QRect(QPoint(0, 0), page.size()));
            svg.setTitle(title);
            svg.setDescription(m_caption->text());
            QPainter p(&svg);
            page.render(&p);
        } else {
            QPdfWriter pdf(&out);
            pdf.setPageSize(QPageSize(QSizeF(page.width() * 0.75, page.height() * 0.75), QPageSize::Point));
            pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
            pdf.setTitle(title);
            pdf.setCreator(QStringLiteral("Roofline Explorer %1").arg(QString::fromLatin1(kVersion)));
            QPainter p(&pdf);
            const double s = pdf.width() / double(page.width());
            p.scale(s, s);
            page.render(&p);
        }
    }
    if (!ok) {
        out.cancelWriting();
        return fail(why);
    }
    if (!out.commit())
        return fail(out.errorString());
    return true;
}

} // namespace rfx
