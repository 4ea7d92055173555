#include "table/layertablemodel.h"

#include "style/text.h"

#include "base/format.h"
#include "engine/energy.h"

#include <QBrush>
#include <QColor>
#include <QFont>
#include <QGuiApplication>
#include <QPalette>

namespace rfx {

namespace {

QString shapeText(const Shape& s)
{
    if (s == Shape {})
        return QStringLiteral("\u2013");
    return QString::fromStdString(shapeString(s)).replace(QLatin1Char('x'), QChar(0x00d7)); // every extent of its rank
}
} // namespace

LayerTableModel::LayerTableModel(QObject* parent)
    : QAbstractTableModel(parent)
{
    m_bold.setBold(true);
}

void LayerTableModel::setReport(const Report& report, int device)
{
    setReport(std::make_shared<const Report>(report), device);
}

void LayerTableModel::setReport(std::shared_ptr<const Report> shared, int device)
{
    const Report& report = *shared;
    const int newDevice = (device >= 0 && device < int(report.results.size())) ? device : -1;
    // A slider step keeps the same rows (same layer names): update the cells in place, which keeps
    // the view's selection and scroll position and costs far less than a reset.
    bool sameRows = m_device >= 0 && newDevice >= 0
        && m_report->results[size_t(m_device)].layers.size() == report.results[size_t(newDevice)].layers.size();
    if (sameRows) {
        const auto& a = m_report->results[size_t(m_device)].layers;
        const auto& b = report.results[size_t(newDevice)].layers;
        for (size_t i = 0; i < a.size() && sameRows; ++i)
            sameRows = a[i].name == b[i].name;
    }
    const bool dark = QGuiApplication::palette().color(QPalette::Base).lightness() < 128;
    m_memoryColor = dark ? QColor(0xff, 0x9e, 0x5e) : QColor(0xb3, 0x40, 0x00);
    m_computeColor = dark ? QColor(0x7a, 0xb8, 0xff) : QColor(0x0b, 0x4f, 0x9c);
    if (sameRows) {
        const bool wasCalibrated = calibrated();
        m_report = shared;
        m_device = newDevice;
        emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
        if (calibrated() != wasCalibrated) // "Time" becomes "Calibrated time", and back
            emit headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
        return;
    }
    beginResetModel();
    m_report = std::move(shared);
    m_device = newDevice;
    endResetModel();
}

void LayerTableModel::setComparison(const std::optional<Comparison>& comparison)
{
    m_comparison = comparison;
    m_measuredRow.assign(size_t(rowCount()), -1);
    if (m_comparison)
        for (size_t k = 0; k < m_comparison->layers.size(); ++k)
            if (m_comparison->layers[k].layer < m_measuredRow.size())
                m_measuredRow[m_comparison->layers[k].layer] = int(k);
    if (rowCount() > 0)
        emit dataChanged(index(0, Measured), index(rowCount() - 1, Error));
}

const LayerComparison* LayerTableModel::measured(int row) const
{
    if (!m_comparison || row < 0 || size_t(row) >= m_measuredRow.size() || m_measuredRow[size_t(row)] < 0)
        return nullptr;
    return &m_comparison->layers[size_t(m_measuredRow[size_t(row)])];
}

bool LayerTableModel::calibrated() const
{
    const DeviceResult* d = deviceResult();
    return d && d->timesCalibrated;
}

const DeviceResult* LayerTableModel::deviceResult() const
{
    return m_device < 0 ? nullptr : &m_report->results[size_t(m_device)];
}

int LayerTableModel::rowCount(const QModelIndex& parent) const
{
    const DeviceResult* d = deviceResult();
    return parent.isValid() || !d ? 0 : int(d->layers.size());
}

int LayerTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant LayerTableModel::data(const QModelIndex& index, int role) const
{
    const DeviceResult* d = deviceResult();
    if (!d || !index.isValid() || index.row() >= int(d->layers.size()))
        return {};
    const LayerResult& l = d->layers[size_t(index.row())];
    const bool dominant = l.share >= kDominantShare;

    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case Name:
            return qs(l.name);
        case Op:
            // An operator the tool does not count is marked, never a quiet zero.
            return l.op == rfx::Op::Uncounted ? QStringLiteral("\u26a0 uncounted") : qs(std::string(opName(l.op)));
        case Algorithm:
            if (!runsOnMatrixUnits(l.op))
                return {};
            // A requested algorithm that did not apply is marked, not silently replaced.
            return QString(qs(std::string(algorithmName(l.algorithm)))
                + (l.algorithmNote.empty() || l.algorithmNote.starts_with("auto") ? QString() : QStringLiteral(" \u26a0")));
        case OutputShape:
            return shapeText(l.out);
        case Extra:
            return l.extraBytes > 0 ? qs(formatBytes(l.extraBytes)) : QString();
        case Workspace:
            return l.workspace > 0 ? qs(formatBytes(l.workspace)) : QString();
        case Params:
            return l.params ? qs(formatCount(l.params)) : QStringLiteral("\u2013");
        case Flops:
            return qs(formatSI(l.flops, "FLOP"));
        case Bytes:
            return qs(formatBytes(l.bytes));
        case Intensity:
            return qs(formatNumber3(l.intensity));
        case IntensityL2:
            return l.l2Bytes > 0 ? qs(formatNumber3(l.flops / l.l2Bytes)) : QString();
        case IntensityL1:
            return l.l1Bytes > 0 ? qs(formatNumber3(l.flops / l.l1Bytes)) : QString();
        case Bound:
            // Text and a glyph, so the bound reads without colour: a down-slope for memory, a roof for compute.
            // An inner level names itself ("L2"), so a hierarchical row says which ceiling binds.
            if (l.bound == rfx::Bound::Memory)
                return l.level == MemoryLevel::Dram ? QStringLiteral("\u25e2 memory")
                                                    : QStringLiteral("\u25e2 %1").arg(qs(std::string(memoryLevelName(l.level))));
            return QStringLiteral("\u25ac compute");
        case Time:
            // A calibrated time outside the sizes its fit saw is marked (issue 51), the tooltip says why.
            return QString(qs(formatTime(l.time, true))
                + (d->timesCalibrated && l.calibrationExtrapolated ? QStringLiteral(" \u26a0") : QString()));
        case Energy:
            return qs(formatSI(rowEnergy(l, *d, m_report->config.clockPercent), "J"));
        case Measured:
        case OfBound:
        case Error: {
            const LayerComparison* m = measured(index.row());
            if (!m)
                return {};
            if (index.column() == Measured)
                return qs(formatTime(m->measured, true));
            if (index.column() == OfBound)
                return QString(qs(formatPercent(m->efficiency)) + (m->aboveRoof ? QStringLiteral(" \u26a0") : QString()));
            // With calibrated times shown, the error is the calibrated prediction's against the measured time.
            const double e = d->timesCalibrated && m->calibrated >= 0 ? m->calibratedError : m->error;
            return qs(formatSignedPercent(e, true));
        }
        case Share:
            return qs(formatPercent(l.share));
        }
        return {};
    case SortRole:
        switch (index.column()) {
        case Name:
            return index.row(); // execution order
        case Op:
            return qs(std::string(opName(l.op)));
        case Algorithm:
            return runsOnMatrixUnits(l.op) ? qs(std::string(algorithmName(l.algorithm))) : QString();
        case OutputShape:
            return double(l.out.elements());
        case Extra:
            return l.extraBytes;
        case Workspace:
            return l.workspace;
        case Params:
            return double(l.params);
        case Flops:
            return l.flops;
        case Bytes:
            return l.bytes;
        case Intensity:
            return l.intensity;
        case IntensityL2:
            return l.l2Bytes > 0 ? l.flops / l.l2Bytes : 0.0;
        case IntensityL1:
            return l.l1Bytes > 0 ? l.flops / l.l1Bytes : 0.0;
        case Bound:
            return int(l.bound);
        case Time:
            return l.time;
        case Energy:
            return rowEnergy(l, *d, m_report->config.clockPercent);
        case Measured:
            return measured(index.row()) ? measured(index.row())->measured : -1.0;
        case OfBound:
            return measured(index.row()) ? measured(index.row())->efficiency : -1.0;
        case Error:
            if (const LayerComparison* m = measured(index.row()))
                return d->timesCalibrated && m->calibrated >= 0 ? m->calibratedError : m->error;
            return -1e300;
        case Share:
            return l.share;
        }
        return {};
    case ShareRole:
        return l.share;
    case LayerIndexRole:
        return index.row();
    case DominantRole:
        return dominant;
    case Qt::TextAlignmentRole:
        if (index.column() == Name || index.column() == Op || index.column() == Bound || index.column() == Algorithm)
            return int(Qt::AlignLeft | Qt::AlignVCenter);
        return int(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::FontRole:
        return dominant ? QVariant(m_bold) : QVariant();
    case Qt::ForegroundRole:
        if (index.column() == Bound)
            return QBrush(l.bound == rfx::Bound::Memory ? m_memoryColor : m_computeColor);
        return {};
    case Qt::ToolTipRole: {
        if (index.column() == Algorithm && runsOnMatrixUnits(l.op))
            return l.algorithmNote.empty() ? tr("Computed %1").arg(qs(std::string(algorithmName(l.algorithm))))
                                           : qs(l.algorithmNote);
        const QString where = l.bound == rfx::Bound::Memory && l.level != MemoryLevel::Dram && d->cacheAware
            ? QStringLiteral("limited by %1 bandwidth: its working set (%2) fits the %1 (%3), read at %4")
                  .arg(qs(std::string(memoryLevelName(l.level))), qs(formatBytes(l.workingSet)),
                      qs(formatBytes(l.level == MemoryLevel::L1 ? d->l1Capacity : l.level == MemoryLevel::L2 ? d->l2Capacity : d->l3Capacity)),
                      qs(formatSI(cacheSupply(*d, l.workingSet).bandwidth, "B/s"))) // with the smaller level's share
            : l.bound == rfx::Bound::Memory && l.level != MemoryLevel::Dram
            ? QStringLiteral("limited by %1 bandwidth: %2 at %1, intensity %3 FLOP/B there")
                  .arg(qs(std::string(memoryLevelName(l.level))), qs(formatBytes(levelTraffic(l))),
                      qs(formatNumber3(l.flops / levelTraffic(l))))
            : l.bound == rfx::Bound::Memory
            ? QStringLiteral("left of the ridge (%1 < %2 FLOP/B): limited by DRAM bandwidth")
                  .arg(qs(formatNumber3(l.intensity)), qs(formatNumber3(l.peak / d->bandwidth)))
            : QStringLiteral("right of the ridge (%1 \u2265 %2 FLOP/B): limited by the compute ceiling")
                  .arg(qs(formatNumber3(l.intensity)), qs(formatNumber3(l.peak / d->bandwidth)));
        // Imported rows name their ONNX node; uncounted ones say why first.
        QString op = qs(std::string(opName(l.op)));
        QString note;
        if (l.origin >= 0 && size_t(l.origin) < m_report->origins.size()) {
            const RowOrigin& o = m_report->origins[size_t(l.origin)];
            op += QStringLiteral(", ONNX %1").arg(qs(o.onnxOp).toHtmlEscaped());
            if (!o.uncounted.empty())
                note = QStringLiteral("\u26a0 FLOPs not counted: %1<br>").arg(qs(o.uncounted).toHtmlEscaped());
        }
        if (d->timesCalibrated && l.calibrationExtrapolated)
            note += tr("\u26a0 Calibrated time extrapolated: the row's %1 lie more than twice outside those of the rows "
                       "the %2 fit was fitted on; measure rows of this size to calibrate it<br>")
                        .arg(l.bound == rfx::Bound::Compute ? tr("FLOPs") : tr("bytes"), qs(std::string(l.calibratedBy)));
        return QVariant(note + QStringLiteral("<b>%1</b> (%2)<br>FLOPs %3, DRAM bytes %4<br>intensity %5 FLOP/B, %6<br>"
                              "time bound max(F/P, Q/B) = %7, %8 of the network")
            .arg(qs(l.name).toHtmlEscaped(), op, qs(formatSI(l.flops, "FLOP")),
                qs(formatBytes(l.bytes)), qs(formatNumber3(l.intensity)), where, qs(formatTime(l.time, true)),
                qs(formatPercent(l.share))));
    }
    default:
        return {};
    }
}

QVariant LayerTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::InitialSortOrderRole) {
        // The first click on a cost column puts the heaviest rows on top, as a file manager sorts by
        // size; names, operations and shapes start from the top of the alphabet (or the network).
        switch (section) {
        case Name:
        case Op:
        case Algorithm:
        case OutputShape:
        case Bound:
            return int(Qt::AscendingOrder);
        default:
            return int(Qt::DescendingOrder);
        }
    }
    if (role == Qt::DisplayRole) {
        switch (section) {
        case Name:
            return tr("Layer");
        case Op:
            return tr("Op");
        case Algorithm:
            return tr("Algorithm");
        case Extra:
            return tr("Extra traffic");
        case Workspace:
            return tr("Workspace");
        case OutputShape:
            return tr("Output N\u00d7C\u00d7H\u00d7W");
        case Params:
            return tr("Params");
        case Flops:
            return tr("FLOPs");
        case Bytes:
            return tr("Bytes");
        case Intensity:
            return tr("FLOP/B");
        case IntensityL2:
            return tr("FLOP/B L2");
        case IntensityL1:
            return tr("FLOP/B L1");
        case Bound:
            return tr("Bound");
        case Time:
            return calibrated() ? tr("Calibrated time") : tr("Time");
        case Energy:
            return tr("Energy");
        case Measured:
            return tr("Measured");
        case OfBound:
            return tr("Of bound");
        case Error:
            return calibrated() ? tr("Cal. error") : tr("Error");
        case Share:
            return tr("Share of time");
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case Name:
            return tr("Layer name, in execution order (sort by this column to restore the order)");
        case Op:
            return tr("Operation: conv, conv_transpose, linear, maxpool, avgpool, add, concat, bias, batchnorm, relu, "
                      "optimizer");
        case Algorithm:
            return tr("How the convolution is computed; \u26a0 marks a requested algorithm that does not apply "
                      "(hover for why). Right-click a row to choose its own algorithm.");
        case Extra:
            return tr("DRAM traffic the algorithm adds: the lowered matrix (im2col) or transformed tensors (FFT, "
                      "Winograd), written and read");
        case Workspace:
            return tr("Temporary memory the algorithm needs; the largest counts in the memory footprint");
        case OutputShape:
            return tr("Output tensor shape: batch \u00d7 channels \u00d7 height \u00d7 width");
        case Params:
            return tr("Learnable parameters of this row");
        case Flops:
            return tr("Floating-point operations; a fused multiply-add counts 2. Training: forward + backward");
        case Bytes:
            return tr("DRAM traffic under the active traffic model (compulsory: inputs and weights read once, outputs "
                      "written once), decimal units");
        case Intensity:
            return tr("Arithmetic intensity = FLOPs / DRAM bytes");
        case IntensityL2:
            return tr("Intensity at L2 = FLOPs / bytes the SMs fetch from L2 (tiled traffic model; what the "
                      "shared-memory tiles cannot keep)");
        case IntensityL1:
            return tr("Intensity at L1 = FLOPs / bytes read from L1/shared memory into registers (tiled traffic "
                      "model; register tile 8 x 8, or 64 x 64 per warp with tensor cores)");
        case Bound:
            return tr("Memory-bound if the intensity is left of the ridge point (peak / bandwidth), else compute-bound; "
                      "L2 or L1 when that level's traffic sets the time (tiled traffic model)");
        case Time:
            if (calibrated())
                return tr("Calibrated time: overhead + bound / efficiency, fitted per operator class and bound side on "
                          "this machine's measured kernels (%1); the roofline bound is in each point's tooltip")
                    .arg(qs(deviceResult()->calibration));
            return tr("Roofline time bound max(FLOPs / peak, bytes / bandwidth)");
        case Measured:
            return tr("Measured time from the imported file (File \u25b8 Import measurements), summed over the rows "
                      "mapped to this layer");
        case OfBound:
            return tr("Efficiency: the roofline bound divided by the measured time, the share of the bound reached. "
                      "\u26a0: faster than the roof allows (units, or an FMA counted as one FLOP)");
        case Error:
            return calibrated() ? tr("Calibrated prediction's error: calibrated time / measured time \u2212 1")
                                : tr("Model error: measured time / bound \u2212 1");
        case Energy:
            return tr("Energy of the row on one GPU: idle power x time + compute share of the dynamic power x busy "
                      "time x V\u00b2 + DRAM share x transfer time (README \u201cEnergy, clocks and multi-GPU\u201d)");
        case Share:
            return tr("Share of the network's time; bold rows take at least 5 %");
        }
    }
    return {};
}

} // namespace rfx
