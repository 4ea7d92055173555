// The guided tour of the roofline model and the overview shown when no row is chosen: how to read
// the chart, with the device's own figures.
#include "panels/explain.h"

#include "base/format.h"
#include "engine/cost.h"
#include "panels/explain_text.h"
#include "style/unbroken.h"

#include <algorithm>
#include <cmath>

namespace rfx {

using namespace explaintext;

namespace {

// What the window lets the user move, named only where its control is on: filters shape the U-Net
// alone, the batch where the file leaves it open, bits unless they are the file's own.
QString tryControls(const Config& c, const OnnxModel* model)
{
    QStringList sliders;
    if (batchAdjustable(c, model))
        sliders << QStringLiteral("batch");
    if (!c.bitsAsInFile)
        sliders << QStringLiteral("bits");
    if (c.model == "unet")
        sliders << QStringLiteral("filters");
    if (sliders.isEmpty())
        return QStringLiteral(
            "<p>Change the device, or tensor cores and fusion in the Run menu, and watch the points move.</p>");
    const QString list = sliders.size() == 1
        ? sliders.front()
        : sliders.mid(0, sliders.size() - 1).join(QStringLiteral(", ")) + QStringLiteral(" or ") + sliders.back();
    return QStringLiteral("<p>Move the %1 slider%2 and watch the points move.</p>")
        .arg(list, sliders.size() > 1 ? QStringLiteral("s") : QString());
}

// Tour page 2: the dashed line is spoken of only when the chart draws it (a vector roof below the
// convolutions' roof, with tensor cores on a device that has them).
QString roofRaisers(const Report& report, const DeviceResult& d)
{
    const bool dashed
        = d.vectorCeiling.flops > 0 && std::abs(d.vectorCeiling.flops - d.ceiling.flops) > 1e-9 * d.ceiling.flops;
    QString text = QStringLiteral("Fewer bits or tensor cores can raise it.");
    if (dashed)
        text += QStringLiteral(" The dashed line is the roof of elementwise layers: tensor cores raise only the "
                               "convolutions' roof.");
    else if (!report.config.tensorCores && std::any_of(d.device.peak.begin(), d.device.peak.end(), [](const auto& p) {
                 return p.first.starts_with("tensor_");
             }))
        text += QStringLiteral(
            " With tensor cores on (Run \u25b8 Tensor cores) the convolutions get a higher roof, and a "
            "dashed line keeps the elementwise layers' own.");
    return text;
}

QString ringedLayer(const Report& report, const DeviceResult& d, int ringed);

} // namespace

QString explainOverview(const Report& report, int device)
{
    if (device < 0 || device >= int(report.results.size()))
        return QStringLiteral("<p>Check a device to see its roofline.</p>");
    const DeviceResult& d = report.results[size_t(device)];
    return QStringLiteral(
        "<h3>Reading the roofline of %1</h3>"
        "<p>Each point is a layer, placed at its <b>arithmetic intensity</b> (FLOPs per byte moved, "
        "horizontal) and the <b>performance</b> it can attain (vertical).</p>"
        "<p>Left of the <b>ridge</b> at %2 FLOP/B a layer waits for memory (%3); right of it, for the "
        "arithmetic units (%4).</p><p>Now: %5.</p>"
        "<p><i>Click a point or a table row to see why that layer sits where it does.</i></p>")
        .arg(qsRich(d.device.name), qsRich(formatNumber3(d.ridge)), qsRich(formatSI(d.bandwidth, "B/s")),
            qsRich(formatSI(d.ceiling.flops, rateUnit(d.ceiling.key))), qsRich(d.verdict));
}

QStringList tourPages(const Report& report, int device, bool overlay, const OnnxModel* model, bool languageModel)
{
    const bool phases = report.parts.size() > 1; // a language model's prefill and decode on one chart
    if (device < 0 || device >= int(report.results.size()))
        return {};
    const DeviceResult& d = report.results[size_t(device)];
    const QString B = qsRich(formatSI(d.bandwidth, "B/s")),
                  P = qsRich(formatSI(d.ceiling.flops, rateUnit(d.ceiling.key)));
    // Cache-aware: the thin slopes above the DRAM one are the caches', and the teacher is asked about them first.
    QStringList caches;
    for (const MemoryLevel level : { MemoryLevel::L1, MemoryLevel::L2, MemoryLevel::L3 })
        if (d.cacheAware && levelBandwidth(d, level) > 0)
            caches << QStringLiteral("%1 %2").arg(
                qsRich(std::string(memoryLevelName(level))), qsRich(formatSI(levelBandwidth(d, level), "B/s")));
    const QString cacheSlopes = caches.isEmpty()
        ? QString()
        : QStringLiteral(
            "<p>The thinner slopes above it are the caches' (%1): a layer whose inputs, weights and outputs "
            "fit a cache moves its bytes at that cache's speed, so it is held to that slope instead.</p>")
              .arg(caches.join(QStringLiteral(", ")));
    return {
        QStringLiteral(
            "<h2>1. The memory slope</h2><p>A layer that does I floating-point operations per byte it moves "
            "can compute at most I \u00d7 B, where B is the memory bandwidth: %1 on the %2.</p><p>On log-log "
            "axes that limit is the rising line on the left: double the intensity, double the attainable "
            "performance.</p>%3")
            .arg(B, qsRich(d.device.name), cacheSlopes),
        QStringLiteral("<h2>2. The compute roof</h2><p>No layer computes faster than the device's peak, P = %1 at %2 "
                       "bits. %4</p><p>%3</p>")
            .arg(P)
            .arg(report.config.bits)
            .arg(roofRaisers(report, d),
                // Overlaid, the device's roof is one of several flat lines (the tour said "the flat line at
                // the top" while the device it named was the middle one).
                overlay && report.results.size() > 1
                    ? QStringLiteral("That is the flat part of the %1's roof, in its colour; each device has its own, "
                                     "the fastest highest.")
                          .arg(qsRich(d.device.name))
                    : QStringLiteral("That is the flat line at the top.")),
        QStringLiteral(
            "<h2>3. The ridge point</h2><p>The two limits meet at I* = P / B = %1 / %2 = <b>%3 FLOP/B</b>.</p>"
            "<p>Left of the ridge a layer is <b>memory-bound</b>: a faster processor would not help, less "
            "traffic would. Right of it, it is <b>compute-bound</b>.</p>")
            .arg(P, B, qsRich(formatNumber3(d.ridge))),
        QStringLiteral(
            "<h2>4. Your layers</h2><p>Circles are memory-bound layers, squares compute-bound ones; the bigger "
            "the point, the more of the time it takes.</p><p>For this %6 on the %1%2: %3.</p>%5%4")
            .arg(qsRich(d.device.name),
                phases ? QStringLiteral(", one prefill and one decode step together") : QString(), qsRich(d.verdict),
                tryControls(report.config, model), ringedLayer(report, d, tourLayer(report, device)),
                languageModel ? QStringLiteral("model") : QStringLiteral("network")),
    };
}

namespace {

QString ringedLayer(const Report& report, const DeviceResult& d, int ringed)
{
    if (ringed < 0)
        return {};
    const LayerResult& l = d.layers[size_t(ringed)];
    const QString bound = qsRich(std::string(boundName(l.bound)));
    // Both phases on one chart (issue 73 item 2): each row's share is of its own phase's time, and
    // the verdict above is of the two together; say both, so that no two shares on the page disagree.
    if (report.parts.size() > 1 && d.totals.time > 0) {
        const bool decode = l.name.rfind("decode.", 0) == 0;
        return QStringLiteral(
            "<p>The ringed point is <b>%1</b>, %2 of %3 time and %4 of the two together, %5-bound.</p>")
            .arg(qsRich(l.name), qsRich(formatPercent(l.share)),
                decode ? QStringLiteral("a decode step's") : QStringLiteral("the prefill's"),
                qsRich(formatPercent(l.time / d.totals.time)), bound);
    }
    return QStringLiteral("<p>The ringed point is <b>%1</b>, %2 of the time, %3-bound.</p>")
        .arg(qsRich(l.name), qsRich(formatPercent(l.share)), bound);
}

} // namespace

int tourLayer(const Report& report, int device)
{
    if (device < 0 || device >= int(report.results.size()))
        return -1;
    const auto& layers = report.results[size_t(device)].layers;
    int best = -1;
    for (size_t i = 0; i < layers.size(); ++i)
        if (layers[i].flops > 0
            && (best < 0 || layers[i].time > layers[size_t(best)].time)) // the shares may be of two phases
            best = int(i);
    return best;
}

} // namespace rfx
