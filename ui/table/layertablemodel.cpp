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

QString LayerTableModel::shapeText(const Shape& s)
{
    if (s == Shape {})
        return QStringLiteral("\u2013");
    return QString::fromStdString(shapeString(s)).replace(QLatin1Char('x'), QChar(0x00d7)); // every extent of its rank
}

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
        m_rows.updateTotals(report.results[size_t(newDevice)].layers);
        emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
        if (calibrated() != wasCalibrated) // "Time" becomes "Calibrated time", and back
            emit headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
        return;
    }
    beginResetModel();
    m_report = std::move(shared);
    m_device = newDevice;
    m_rows.build(newDevice >= 0 ? m_report->results[size_t(newDevice)].layers : std::vector<LayerResult> {});
    endResetModel();
}

void LayerTableModel::setComparison(const std::optional<Comparison>& comparison)
{
    m_comparison = comparison;
    const DeviceResult* d = deviceResult();
    m_measuredRow.assign(d ? d->layers.size() : 0, -1);
    if (m_comparison)
        for (size_t k = 0; k < m_comparison->layers.size(); ++k)
            if (m_comparison->layers[k].layer < m_measuredRow.size())
                m_measuredRow[m_comparison->layers[k].layer] = int(k);
    if (rowCount() > 0)
        emit dataChanged(index(0, Measured), index(rowCount() - 1, Error));
}

const LayerComparison* LayerTableModel::measured(int layer) const
{
    if (!m_comparison || layer < 0 || size_t(layer) >= m_measuredRow.size() || m_measuredRow[size_t(layer)] < 0)
        return nullptr;
    return &m_comparison->layers[size_t(m_measuredRow[size_t(layer)])];
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
    return parent.isValid() || !d ? 0 : m_rows.count();
}

int LayerTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant LayerTableModel::data(const QModelIndex& index, int role) const
{
    const DeviceResult* d = deviceResult();
    if (!d || !index.isValid() || index.row() >= m_rows.count())
        return {};
    const LayerRows::Line& line = m_rows.line(index.row());
    if (line.layer < 0)
        return blockData(line.block, index.column(), role);
    const int layer = line.layer;
    const LayerResult& l = d->layers[size_t(layer)];
    const bool dominant = l.share >= kDominantShare;

    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case Name:
            // a block's row under its line, indented, without the block's name
            return line.block < 0 ? qs(l.name)
                                  : QString(QStringLiteral("\u2003\u2003")
                                      + qs(l.name.substr(std::min(l.name.size(), l.block.size() + 1))));
        case Op:
            // An operator the tool does not count is marked, never a quiet zero.
            return l.op == rfx::Op::Uncounted ? QStringLiteral("\u26a0 uncounted") : qs(std::string(opName(l.op)));
        case Algorithm:
            if (!runsOnMatrixUnits(l.op))
                return {};
            // A requested algorithm that did not apply is marked, not silently replaced.
            return QString(qs(std::string(algorithmName(l.algorithm)))
                + (l.algorithmNote.empty() || l.algorithmNote.starts_with("auto") ? QString()
                                                                                  : QStringLiteral(" \u26a0")));
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
                return l.level == MemoryLevel::Dram
                    ? QStringLiteral("\u25e2 memory")
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
            const LayerComparison* m = measured(layer);
            if (!m)
                return {};
            if (index.column() == Measured)
                return qs(formatTime(m->measured, true));
            if (index.column() == OfBound)
                return QString(
                    qs(formatPercent(m->efficiency)) + (m->aboveRoof ? QStringLiteral(" \u26a0") : QString()));
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
            return measured(layer) ? measured(layer)->measured : -1.0;
        case OfBound:
            return measured(layer) ? measured(layer)->efficiency : -1.0;
        case Error:
            if (const LayerComparison* m = measured(layer))
                return d->timesCalibrated && m->calibrated >= 0 ? m->calibratedError : m->error;
            return -1e300;
        case Share:
            return l.share;
        }
        return {};
    case ShareRole:
        return l.share;
    case LayerIndexRole:
        return layer;
    case CopyRole:
        return index.column() == Name && line.block >= 0 ? QVariant(qs(l.name)) : QVariant();
    case BlockRole:
        return line.block >= 0 ? QVariant(line.block) : QVariant();
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
                      qs(formatBytes(l.level == MemoryLevel::L1 ? d->l1Capacity
                              : l.level == MemoryLevel::L2      ? d->l2Capacity
                                                                : d->l3Capacity)),
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
            note
                += tr("\u26a0 Calibrated time extrapolated: the row's %1 lie more than twice outside those of the rows "
                      "the %2 fit was fitted on; measure rows of this size to calibrate it<br>")
                       .arg(
                           l.bound == rfx::Bound::Compute ? tr("FLOPs") : tr("bytes"), qs(std::string(l.calibratedBy)));
        return QVariant(note
            + QStringLiteral("<b>%1</b> (%2)<br>FLOPs %3, DRAM bytes %4<br>intensity %5 FLOP/B, %6<br>"
                             "time bound max(F/P, Q/B) = %7, %8 of the network")
                  .arg(qs(l.name).toHtmlEscaped(), op, qs(formatSI(l.flops, "FLOP")), qs(formatBytes(l.bytes)),
                      qs(formatNumber3(l.intensity)), where, qs(formatTime(l.time, true)), qs(formatPercent(l.share)))
            + (line.block >= 0 ? blockRowNote(l, line.block) : QString()));
    }
    default:
        return {};
    }
}

} // namespace rfx
