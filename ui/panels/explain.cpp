// Explain's text for one row: its FLOP, byte, intensity and time arithmetic with its own figures,
// and what would move it (the tour and the overview are explain_tour.cpp's).
#include "panels/explain.h"

#include "base/format.h"
#include "engine/cost.h"
#include "model/networks.h"
#include "onnx/onnx_model.h"
#include "panels/explain_text.h"
#include "style/unbroken.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace rfx {

using namespace explaintext;

bool explaintext::batchAdjustable(const Config& c, const OnnxModel* model)
{
    return !isOnnxFile(c.model) || !model || model->batchBound();
}

namespace {

const Layer* findLayer(const Network& net, const std::string& name)
{
    auto it = std::find_if(net.layers.begin(), net.layers.end(), [&](const Layer& l) { return l.name == name; });
    return it == net.layers.end() ? nullptr : &*it;
}

// One row on one device, and what its paragraphs share.
struct RowView {
    const DeviceResult& d;
    const LayerResult& r;
    const Config& c;
    const Layer* l; ///< the network's layer (null for the optimizer's row)
    bool training;
    double e; ///< bytes an element
    CacheSupply supply; ///< where its bytes come from, cache-aware
    double rowBandwidth;
    double ridge;
};

// The optimizer's row: what a step costs a parameter.
QString optimizerLines(const RowView& v)
{
    const OptimizerCostPerParam o = optimizerCostPerParam(v.c.optimizer);
    return QStringLiteral("<p>The optimizer step updates every parameter once per batch: %1 FLOP and %2 elements "
                          "of traffic per parameter, for %3 parameters.</p>")
        .arg(o.flops)
        .arg(o.elements)
        .arg(count(double(v.d.totals.params)));
}

// FLOPs and bytes, each as its formula with the row's own extents; then what the row counts instead
// where the algorithm or the traffic model is not direct convolution's compulsory traffic.
QString costLines(const RowView& v)
{
    const Layer* l = v.l;
    const LayerResult& r = v.r;
    const Config& c = v.c;
    const bool training = v.training;
    const double e = v.e;
    QString html;
    const double in = double(std::accumulate(l->inShapes.begin(), l->inShapes.end(), std::int64_t { 0 },
        [](std::int64_t s, const Shape& x) { return s + x.elements(); }));
    const double params = double(layerParams(*l));
    const double out = double(l->out.elements());
    const double runs = l->repeats > 0 ? l->repeats : 1;
    html += QStringLiteral("<p><b>FLOPs</b> = %1 = %2%3</p>")
                .arg(flopFormula(*l),
                    timesRuns(*l, qsRich(formatSI(forwardFlops(*l) / runs, "FLOP")),
                        qsRich(formatSI(forwardFlops(*l), "FLOP"))),
                    training ? QStringLiteral(" forward; with the backward pass (%1) the row counts %2")
                                   .arg(l->op == Op::Conv || l->op == Op::ConvTranspose
                                           ? QStringLiteral("data and weight gradients, each as many FLOPs")
                                           : QStringLiteral("the same FLOPs again"),
                                       qsRich(formatSI(r.flops, "FLOP")))
                             : QString());
    const QString backward = training
        ? QStringLiteral(" forward; %1 with the backward pass").arg(qsRich(formatBytes(r.bytes)))
        : QString();
    if (const QString each = bytesArithmetic(*l, e, c.bitsAsInFile);
        !each.isEmpty()) // its tensors' own widths, or its runs
        html += QStringLiteral("<p><b>Bytes</b> = %1%2</p>").arg(each, backward);
    else
        html += QStringLiteral(
            "<p><b>Bytes</b> = (inputs %1 + weights %2 + outputs %3 elements) %4 %5 B = <b>%6</b>%7</p>")
                    .arg(count(in), count(params), count(out), dot())
                    .arg(e)
                    .arg(qsRich(formatBytes((in + params + out) * e)), backward);
    // The formulas above are direct convolution under compulsory traffic; say what the row really counts.
    const bool otherAlgorithm
        = runsOnMatrixUnits(l->op) && (r.algorithm != ConvAlgorithm::Direct || !r.algorithmNote.empty());
    const bool otherTraffic
        = runsOnMatrixUnits(l->op) && (c.traffic == TrafficModel::Naive || c.traffic == TrafficModel::Tiled);
    if (otherAlgorithm) {
        const QString how = r.algorithmNote.empty() || r.algorithmNote.starts_with("auto")
            ? QStringLiteral("Computed <b>%1</b>%2")
                  .arg(qsRich(std::string(algorithmName(r.algorithm))),
                      r.algorithmNote.empty() ? QString() : QStringLiteral(" (the fastest predicted on this device)"))
            : QStringLiteral("<b>%1</b>").arg(qsRich(r.algorithmNote));
        html += QStringLiteral("<p>%1: the row counts <b>%2</b> and <b>%3</b> instead (extra traffic %4, "
                               "workspace %5).</p>")
                    .arg(how, qsRich(formatSI(r.flops, "FLOP")), qsRich(formatBytes(r.bytes)),
                        qsRich(formatBytes(r.extraBytes)), qsRich(formatBytes(r.workspace)));
    }
    if (otherTraffic)
        html += QStringLiteral("<p>Traffic model: <b>%1</b>: %2 of DRAM traffic for this row.</p>")
                    .arg(qsRich(trafficDescription(c)), qsRich(formatBytes(r.bytes)));
    return html;
}

// The intensity against the ridge of the roof the row runs under.
QString intensityLine(const RowView& v)
{
    const DeviceResult& d = v.d;
    const LayerResult& r = v.r;
    const double rowBandwidth = v.rowBandwidth, ridge = v.ridge;
    QString html;
    const bool innerLevel = r.bound == Bound::Memory && r.level != MemoryLevel::Dram;
    // Which roof bounds this row: convolutions and matrix products run on the matrix roof (tensor
    // cores where chosen), everything else on the vector roof; the chart draws the latter dashed
    // when the two differ. At 8 bits the vector ridge (9.56) and the matrix ridge (306) were both
    // called "the ridge".
    const bool matrix = runsOnMatrixUnits(r.op);
    const CeilingChoice& roof = matrix ? d.ceiling : d.vectorCeiling;
    const char* rate = rateUnit(roof.key);
    const QString roofName
        = QStringLiteral("the <b>%1 roof</b> (%2%3)")
              .arg(matrix ? QStringLiteral("matrix") : QStringLiteral("vector"), qsRich(precisionLabel(roof.key)),
                  !matrix && std::abs(d.vectorCeiling.flops - d.ceiling.flops) > 1e-9 * d.ceiling.flops
                      ? QStringLiteral(", the chart's dashed roof")
                      : QString());
    html += QStringLiteral("<p><b>Intensity</b> I = FLOPs / bytes = %1 FLOP/B. This row runs under %7; its ridge is "
                           "I* = P / B = %2 / %3 = %4 FLOP/B, so I %5 I*: <b>%6</b>.</p>")
                .arg(qsRich(formatNumber3(r.intensity)), qsRich(formatSI(r.peak, rate)),
                    qsRich(formatSI(rowBandwidth, "B/s")), qsRich(formatNumber3(ridge)),
                    r.intensity < ridge ? QStringLiteral("&lt;") : QStringLiteral("\u2265"),
                    innerLevel && d.cacheAware ? QStringLiteral("memory-bound, on the %1 slope (below)")
                                                     .arg(qsRich(std::string(memoryLevelName(r.level))))
                        : innerLevel ? QStringLiteral("DRAM alone would not bound it, but the %1 ceiling does (below)")
                                           .arg(qsRich(std::string(memoryLevelName(r.level))))
                                     : qsRich(std::string(boundName(r.bound))) + QStringLiteral("-bound"),
                    roofName);
    return html;
}

// Cache-aware roofline: the level whose capacity holds the working set supplies the bandwidth, the
// next smaller one its capacity's share of the bytes.
QString cacheAwareTime(const RowView& v)
{
    const DeviceResult& d = v.d;
    const LayerResult& r = v.r;
    const CacheSupply& supply = v.supply;
    QString html;
    const double bw = supply.bandwidth;
    const double capacity = r.level == MemoryLevel::L1 ? d.l1Capacity
        : r.level == MemoryLevel::L2                   ? d.l2Capacity
        : r.level == MemoryLevel::L3                   ? d.l3Capacity
                                                       : 0;
    html += r.level == MemoryLevel::Dram || r.bound == Bound::Compute
        ? QStringLiteral("<p><b>Cache-aware</b>: its working set (inputs, weights, outputs) is %1%2, so its bytes "
                         "come at %3.</p>")
              .arg(qsRich(formatBytes(r.workingSet)),
                  r.level == MemoryLevel::Dram ? QStringLiteral(", more than any cache holds") : QStringLiteral(""),
                  r.level == MemoryLevel::Dram ? QStringLiteral("DRAM's %1").arg(qsRich(formatSI(d.bandwidth, "B/s")))
                                               : QStringLiteral("the %1's %2")
                                                     .arg(qsRich(std::string(memoryLevelName(r.level))),
                                                         qsRich(formatSI(levelBandwidth(d, r.level), "B/s"))))
        : QStringLiteral("<p><b>Cache-aware</b>: its working set (inputs, weights, outputs) is %1, which the %2 "
                         "holds (%3, all cores together): its bytes come at the %2's %4, not DRAM's %5.</p>")
              .arg(qsRich(formatBytes(r.workingSet)), qsRich(std::string(memoryLevelName(r.level))),
                  qsRich(formatBytes(capacity)), qsRich(formatSI(levelBandwidth(d, r.level), "B/s")),
                  qsRich(formatSI(d.bandwidth, "B/s")));
    if (supply.innerShare > 0)
        html
            += QStringLiteral("<p>The %1 holds %2 of it at best, so that share comes at the %1's %3: "
                              "B = 1 / (%2 / %3 + %4 / %5) = %6.</p>")
                   .arg(qsRich(std::string(memoryLevelName(supply.inner))), qsRich(formatPercent(supply.innerShare)),
                       qsRich(formatSI(levelBandwidth(d, supply.inner), "B/s")),
                       qsRich(formatPercent(1 - supply.innerShare)),
                       qsRich(formatSI(r.level == MemoryLevel::Dram ? d.bandwidth : levelBandwidth(d, r.level), "B/s")),
                       qsRich(formatSI(bw, "B/s")));
    html
        += QStringLiteral("<p><b>Time</b> = max(F / P, Q / B%6) = max(%1, %2) = <b>%3</b>, %4 of the network's %5.</p>")
               .arg(qsRich(formatTime(r.flops / r.peak, true)), qsRich(formatTime(bw > 0 ? r.bytes / bw : 0, true)),
                   qsRich(formatTime(r.time, true)), qsRich(formatPercent(r.share)),
                   qsRich(formatTime(d.totals.time, true)),
                   supply.innerShare > 0
                       ? QString() // the B just worked out
                       : QStringLiteral("<sub>%1</sub>").arg(qsRich(std::string(memoryLevelName(r.level)))));
    return html;
}

// Hierarchical roofline: one traffic, one intensity and one time term per modelled level.
QString levelsTime(const RowView& v)
{
    const DeviceResult& d = v.d;
    const LayerResult& r = v.r;
    QString html;
    QStringList terms { qsRich(formatTime(r.flops / r.peak, true)), qsRich(formatTime(r.bytes / d.bandwidth, true)) };
    QStringList formula { QStringLiteral("F / P"), QStringLiteral("Q<sub>DRAM</sub> / B<sub>DRAM</sub>") };
    QString levels = QStringLiteral("<p><b>Levels</b> (tiled model): DRAM %1 (I = %2)")
                         .arg(qsRich(formatBytes(r.bytes)), qsRich(formatNumber3(r.intensity)));
    for (int level = 0; level < 2; ++level) {
        const double q = level == 0 ? r.l2Bytes : r.l1Bytes;
        const double bw = level == 0 ? d.l2Bandwidth : d.l1Bandwidth;
        if (q <= 0 || bw <= 0)
            continue;
        const QString name = level == 0 ? QStringLiteral("L2") : QStringLiteral("L1");
        levels
            += QStringLiteral(", %1 %2 (I = %3, ceiling %4)")
                   .arg(name, qsRich(formatBytes(q)), qsRich(formatNumber3(r.flops / q)), qsRich(formatSI(bw, "B/s")));
        terms << qsRich(formatTime(q / bw, true));
        formula << QStringLiteral("Q<sub>%1</sub> / B<sub>%1</sub>").arg(name);
    }
    html += levels
        + QStringLiteral(". Each level nearer the cores carries what the tiling of the level inside it "
                         "cannot keep: shared memory sets the L2 traffic, the register tile the L1 traffic.</p>");
    html += QStringLiteral("<p><b>Time</b> = max(%1) = max(%2) = <b>%3</b> (%4-bound), %5 of the network's %6.</p>")
                .arg(formula.join(QStringLiteral(", ")), terms.join(QStringLiteral(", ")),
                    qsRich(formatTime(r.time, true)), qsRich(boundLabel(r)), qsRich(formatPercent(r.share)),
                    qsRich(formatTime(d.totals.time, true)));
    return html;
}

// The time: cache-aware, per level of a hierarchical (tiled) model, or against DRAM alone.
QString timeLines(const RowView& v)
{
    if (v.d.cacheAware)
        return cacheAwareTime(v);
    if (v.d.l2Bandwidth > 0 || v.d.l1Bandwidth > 0)
        return levelsTime(v);
    const DeviceResult& d = v.d;
    const LayerResult& r = v.r;
    QString html;
    html += QStringLiteral("<p><b>Time</b> = max(F / P, Q / B) = max(%1, %2) = <b>%3</b>, %4 of the network's %5.</p>")
                .arg(qsRich(formatTime(r.flops / r.peak, true)), qsRich(formatTime(r.bytes / d.bandwidth, true)),
                    qsRich(formatTime(r.time, true)), qsRich(formatPercent(r.share)),
                    qsRich(formatTime(d.totals.time, true)));
    return html;
}

// A convolution: the batch, its filters or a higher roof, whichever this network and device allow.
QStringList convolutionMoves(const RowView& v, const OnnxModel* model)
{
    const DeviceResult& d = v.d;
    const LayerResult& r = v.r;
    const Config& c = v.c;
    const Layer* l = v.l;
    const double e = v.e;
    const bool training = v.training;
    QStringList moves;
    const double weightBytes = double(layerParams(*l)) * e;
    const double activationBytes = r.bytes / (training ? 3 : 1) - weightBytes;
    if (weightBytes > 0.2 * activationBytes && batchAdjustable(c, model))
        moves << QStringLiteral("<b>A larger batch</b> moves it right: its %1 of weights are read once per batch "
                                "while its FLOPs grow with every image.")
                     .arg(qsRich(formatBytes(weightBytes)));
    // Only what can be changed for this network: the filters shape the U-Net alone, and tensor
    // cores are suggested only to a device that has them and a configuration without them.
    if (r.bound == Bound::Memory && c.model == "unet")
        moves << QStringLiteral("<b>More filters</b> raise its intensity: each input byte feeds more output channels.");
    else if (r.bound == Bound::Memory)
        moves << QStringLiteral("Its channel counts, fixed by this network, set its intensity: a wider layer would "
                                "raise it.");
    else {
        const bool hasTensor = std::any_of(
            d.device.peak.begin(), d.device.peak.end(), [](const auto& p) { return p.first.starts_with("tensor_"); });
        QStringList higher;
        if (hasTensor && !c.tensorCores)
            higher << QStringLiteral("<b>tensor cores</b> (Run \u25b8 Tensor cores)");
        if (c.bits > 8)
            higher << QStringLiteral("<b>fewer bits</b> where the lower precision runs faster");
        higher << QStringLiteral("a faster device");
        moves << QStringLiteral("It is compute-bound: only a higher roof helps: %1.")
                     .arg(higher.join(QStringLiteral(", ")));
    }
    return moves;
}

QStringList moves(const RowView& v, int layer, const OnnxModel* model)
{
    const DeviceResult& d = v.d;
    const LayerResult& r = v.r;
    const Config& c = v.c;
    const Layer* l = v.l;
    QStringList moves;
    if (l && (l->op == Op::Conv || l->op == Op::ConvTranspose))
        moves << convolutionMoves(v, model);
    if (l && (isElementwise(l->op) || l->op == Op::MaxPool || l->op == Op::Concat))
        moves << QStringLiteral("Its intensity is fixed by the operation (%1 FLOP/B): batch and filters cannot move it "
                                "right. Its time only shrinks with the traffic.")
                     .arg(qsRich(formatNumber3(r.intensity)));
    if (l && isElementwise(l->op)) {
        // The row it would fuse into: the nearest computing row before it (a convolution, a Gemm, ...).
        QString host = QStringLiteral("the layer before it");
        for (int k = layer - 1; k >= 0; --k) {
            const LayerResult& p = d.layers[size_t(k)];
            if (!isElementwise(p.op) && p.flops > 0) {
                host = QStringLiteral("<b>%1</b> (%2)").arg(qsRich(p.name), qsRich(std::string(opName(p.op))));
                break;
            }
        }
        moves << QStringLiteral("<b>Fusion</b> (Run \u25b8 Fuse) removes this row: its FLOPs join %1 and its "
                                "%2 of DRAM traffic disappear.")
                     .arg(host, qsRich(formatBytes(r.bytes)));
    }
    if (c.bits > 8)
        moves << QStringLiteral(
            "<b>Fewer bits</b> (%1 \u2192 %2) halve its bytes: every point moves right by 2\u00d7, and "
            "the roof rises where the device runs %2-bit faster.")
                     .arg(c.bits)
                     .arg(c.bits / 2);
    return moves;
}

} // namespace

QString explainLayer(const Report& report, int device, int layer, const Network& net, const OnnxModel* model)
{
    if (device < 0 || device >= int(report.results.size()))
        return {};
    const DeviceResult& d = report.results[size_t(device)];
    if (layer < 0 || layer >= int(d.layers.size()))
        return explainOverview(report, device);
    const LayerResult& r = d.layers[size_t(layer)];
    const Config& c = report.config;
    // Cache-aware: the row's ridge is against the bandwidth its bytes come at (the level its working
    // set fits, with the share the next smaller level holds; DRAM when none).
    const CacheSupply supply = d.cacheAware ? cacheSupply(d, r.workingSet) : CacheSupply {};
    const double rowBandwidth = d.cacheAware ? supply.bandwidth : d.bandwidth;
    const RowView v { d, r, c, findLayer(net, r.name), c.mode == Mode::Training, elementBytes(c.bits), supply,
        rowBandwidth, r.peak / rowBandwidth };
    QString html = QStringLiteral("<h3><span style=\"white-space:nowrap\">%1</span> <small>(%2) on %3</small></h3>")
                       .arg(qsRich(r.name), qsRich(std::string(opName(r.op))), qsRich(d.device.name));
    if (r.op == Op::Optimizer)
        html += optimizerLines(v);
    else if (v.l)
        html += costLines(v);
    html += intensityLine(v) + timeLines(v);
    if (const QStringList m = moves(v, layer, model); !m.isEmpty())
        html += QStringLiteral("<h4>What would move it</h4><ul><li>%1</li></ul>")
                    .arg(m.join(QStringLiteral("</li><li>")));
    return html;
}

} // namespace rfx
