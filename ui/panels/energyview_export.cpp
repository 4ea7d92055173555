// The energy view's charts exported as one figure (PNG, SVG or PDF) with its caption.
#include "base/format.h"
#include "base/version.h"
#include "io/tune_writer.h"
#include "panels/energychartfit.h"
#include "panels/energycharts.h"
#include "panels/energyview.h"

#include "style/text.h"
#include "widgets/checkedspinbox.h"
#include "widgets/pointhover.h"
#include "workspace/energystudyrunner.h"
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
    QChartView* views[] = { EnergyCharts::makeView({ EnergyChartFit::fullTitle(energyChart()) }, m_fontScale),
        EnergyCharts::makeView({ EnergyChartFit::fullTitle(scalingChart()) }, m_fontScale),
        EnergyCharts::makeView({ EnergyChartFit::fullTitle(paretoChart()) }, m_fontScale) };
    for (QChartView* view : views) {
        view->chart()->setTheme(QChart::ChartThemeLight);
        h->addWidget(view);
    }
    fillCharts(views[0]->chart(), views[1]->chart(), views[2]->chart());
    v->addLayout(h, 1);
    auto* legend = new QLabel(m_legend->text());
    legend->setAlignment(Qt::AlignHCenter);
    v->addWidget(legend);
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
        const QString title = tr("Energy and tuning: %1").arg(qs(m_runner->config().model));
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
