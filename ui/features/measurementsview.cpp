#include "measurementsview.h"

#include "chartarea.h"
#include "format.h"
#include "layerpane.h"
#include "layertablemodel.h"

#include <QFileInfo>
#include <QLabel>

#include <cmath>

namespace rfx {

namespace {
QString qs(const std::string& s) { return QString::fromStdString(s); }
} // namespace

MeasurementsView::MeasurementsView(LayerPane* pane, ChartArea* charts, QObject* parent)
    : QObject(parent)
    , m_pane(pane)
    , m_charts(charts)
    , m_label(new QLabel)
{
    m_label->setVisible(false);
}

bool MeasurementsView::import(const QString& path, QString* error)
{
    MeasurementSet set = loadMeasurements(path.toStdString());
    if (!set.ok()) {
        QStringList lines;
        for (const Diagnostic& d : set.diagnostics)
            if (lines.size() < 8)
                lines << qs(toString(d));
        if (error)
            *error = tr("%1 is not a measurement file the app reads:\n%2\n\nFormats: a plain CSV with layer,time_s[,flops,bytes]; "
                        "ncu --csv (details page); a PyTorch profiler trace (export_chrome_trace).")
                         .arg(path, lines.join(QLatin1Char('\n')));
        return false;
    }
    m_set = std::move(set);
    emit changed();
    return true;
}

void MeasurementsView::clear()
{
    m_set.reset();
    emit changed();
}

void MeasurementsView::show(const Report* report, int device)
{
    const bool shown = m_set && report && device >= 0 && device < int(report->results.size());
    m_pane->setMeasuredColumnsShown(shown);
    if (!shown) {
        m_pane->model()->setComparison(std::nullopt);
        m_charts->clearMeasured();
        m_status.clear();
        m_label->setVisible(false);
        return;
    }
    const DeviceResult& r = report->results[size_t(device)];
    const Comparison c = compareMeasurements(*m_set, r);
    m_pane->model()->setComparison(c);
    m_charts->setMeasured(device, c);
    // The calibration's prediction against what was measured comes first, where the status bar shows it:
    // on a configuration the calibration was not fitted on, this is its held-out error.
    QString calibrated;
    if (c.calibratedTotal >= 0 && c.measuredTotal > 0)
        calibrated = tr(" calibrated %1 against %2 measured (%3, %4);")
                         .arg(qs(formatTime(c.calibratedTotal)), qs(formatTime(c.measuredTotal)),
                             qs(formatSignedPercent(c.calibratedTotal / c.measuredTotal - 1, true)), qs(r.calibration));
    m_status = tr("Measured: %1 (%2):%3 %4 layers mapped %5 onto %6; %7 of the bound reached%8")
                   .arg(QFileInfo(qs(m_set->file)).fileName(), qs(std::string(measurementFormatName(m_set->format))), calibrated)
                   .arg(c.layers.size())
                   .arg(qs(c.mapping), qs(r.device.name), qs(formatPercent(c.measuredTotal > 0 ? c.boundTotal / c.measuredTotal : 0)),
                       c.unmatched.empty() ? QString() : tr("; %n row(s) did not map", "", int(c.unmatched.size())));
    m_label->setText(m_status);
    QStringList tip;
    for (size_t i = 0; i < c.unmatched.size() && i < 30; ++i)
        tip << qs(c.unmatched[i]);
    m_label->setToolTip(tip.isEmpty() ? tr("Every measured row mapped to a layer") : tr("Did not map:\n%1").arg(tip.join(QLatin1Char('\n'))));
    m_label->setVisible(true);
}

} // namespace rfx
