#pragma once
// The chart oracle: a live chart, after whatever sequence of changes, must look exactly like a chart
// built fresh from the same report, devices, filter, selection, measurements, font scale and axis
// range, at the same size. Whatever a cache, a stale layout or a missed invalidation left on screen
// shows up as differing pixels. On a mismatch both images and their difference are saved.

#include "chart/rooflinechart.h"

#include <QCoreApplication>
#include <QDir>
#include <QImage>
#include <QRegularExpression>
#include <QTest>

#include <algorithm>
#include <cstdlib>
#include <tuple>

namespace rfx::test {

/// Both charts are drawn by the same code at the same size, so the oracle asks for equality, pixel
/// for pixel, to a stated antialiasing tolerance: a channel may differ by at most this many levels
/// of 255. Grid lines are cached as pixmaps on screen (RooflineChart::cacheGridLines), and a
/// cached line composited over its neighbours rounds a blended pixel one level off where the same
/// line drawn directly does not (seen: 34 against 35). Everything the oracle exists for differs by
/// far more: a lost tick label, title or legend text, a stale tick line (34 against 255).
constexpr int kOracleChannelTolerance = 8;

inline int differingPixels(const QImage& a, const QImage& b, QImage* diff)
{
    if (a.size() != b.size())
        return a.width() * a.height();
    const QImage x = a.convertToFormat(QImage::Format_ARGB32), y = b.convertToFormat(QImage::Format_ARGB32);
    if (diff) {
        *diff = QImage(a.size(), QImage::Format_ARGB32);
        diff->fill(Qt::white);
    }
    int n = 0;
    for (int r = 0; r < x.height(); ++r) {
        const auto* p = reinterpret_cast<const QRgb*>(x.constScanLine(r));
        const auto* q = reinterpret_cast<const QRgb*>(y.constScanLine(r));
        for (int c = 0; c < x.width(); ++c) {
            if (p[c] == q[c])
                continue;
            const int d = std::max({ std::abs(qRed(p[c]) - qRed(q[c])), std::abs(qGreen(p[c]) - qGreen(q[c])),
                std::abs(qBlue(p[c]) - qBlue(q[c])), std::abs(qAlpha(p[c]) - qAlpha(q[c])) });
            if (d <= kOracleChannelTolerance)
                continue;
            ++n;
            if (diff)
                diff->setPixel(c, r, qRgb(255, 0, 0));
        }
    }
    return n;
}

/// Empty when `live` draws what a fresh chart of the same state draws; else a message naming the
/// saved images (in $ROOFLINE_ORACLE_DIR, default the system temp folder).
inline QString chartDiffersFromFresh(RooflineChart* live, const QString& tag)
{
    // The live window at rest first: a step's layout can take many hops (the room gives way, the grid
    // lays out, a chart sets its minimum after its resize, ...), more under load.
    auto state = [live] { return std::make_tuple(live->size(), live->xRange(), live->yRange(), live->rebuilds()); };
    QCoreApplication::processEvents();
    for (int i = 0, still = 0; i < 100 && still < 2; ++i) {
        const auto before = state();
        QCoreApplication::processEvents();
        still = state() == before ? still + 1 : 0;
    }
    RooflineChart fresh;
    fresh.setFixedSize(live->size()); // exactly the live size, whatever the window system prefers
    if (live->fontScale() != 1.0)
        fresh.setFontScale(live->fontScale());
    fresh.setMinorGrid(live->minorGrid());
    fresh.setLayerLabels(live->layerLabelShare());
    fresh.setPowerTicks(live->powerTicks());
    fresh.setFilter(live->filter());
    fresh.setYUnit(live->forcedYUnit());
    fresh.setReport(live->report(), live->devices());
    if (live->measuredDevice() >= 0)
        fresh.setMeasured(live->measuredDevice(), live->measured());
    fresh.setAxisRange(live->xRange(), live->yRange());
    if (live->zoomed())
        fresh.setView(live->viewRange());
    fresh.setSelectedLayer(live->selectedLayer());
    fresh.show();
    if (!QTest::qWaitForWindowExposed(&fresh))
        return QStringLiteral("%1: the fresh chart was never exposed").arg(tag);
    // The live window may still be laying itself out (a step that changed the grid): follow its size,
    // and its range (a live plot two pixels taller gave back a decade it had grown for a marker, after
    // the fresh chart had taken the range from it: 10..1e6 fresh, 10..1e5 live).
    for (int i = 0; i < 5
         && (fresh.size() != live->size() || fresh.xRange() != live->xRange() || fresh.yRange() != live->yRange());
         ++i) {
        fresh.setFixedSize(live->size());
        fresh.setAxisRange(live->xRange(), live->yRange());
        QCoreApplication::processEvents();
    }
    QCoreApplication::processEvents();
    const QImage a = live->grab().toImage();
    const QImage b = fresh.grab().toImage();
    QImage diff;
    const int n = differingPixels(a, b, &diff);
    if (n == 0)
        return {};
    const QString dir = qEnvironmentVariableIsSet("ROOFLINE_ORACLE_DIR") ? qEnvironmentVariable("ROOFLINE_ORACLE_DIR")
                                                                         : QDir::tempPath();
    QString safe = tag;
    safe.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9_-]")), QStringLiteral("_"));
    const QString base = QDir(dir).filePath(QStringLiteral("oracle-%1").arg(safe));
    a.save(base + QStringLiteral("-live.png"));
    b.save(base + QStringLiteral("-fresh.png"));
    diff.save(base + QStringLiteral("-diff.png"));
    return QStringLiteral(
        "%1: the live chart differs from a fresh one in %2 of %3 pixels; see %4-{live,fresh,diff}.png")
        .arg(tag)
        .arg(n)
        .arg(a.width() * a.height())
        .arg(base);
}

} // namespace rfx::test
