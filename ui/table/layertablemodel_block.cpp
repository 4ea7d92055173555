// The layer table's lines for a language model's identical blocks: "blk0-31 × 32" over its rows, the
// rows' sums, folding.
#include "table/layertablemodel.h"

#include "style/text.h"

#include "base/format.h"
#include "engine/energy.h"

#include <QBrush>

namespace rfx {

namespace {

QString blockTitle(const RowBlock& b)
{
    return qs(b.name) + QStringLiteral(" \u00d7 ") + qs(formatCount(std::llround(b.repeats)));
}

} // namespace

QVariant LayerTableModel::blockData(int block, int column, int role) const
{
    const DeviceResult* d = deviceResult();
    if (!d || block < 0 || size_t(block) >= m_rows.blocks().size())
        return {};
    const RowBlock& b = m_rows.block(block);
    const BlockTotals& t = m_rows.totals(block);
    const bool dominant = t.share >= kDominantShare;
    const bool memory = t.memoryTime >= 0.5 * t.time;
    const double sideShare = t.time > 0 ? (memory ? t.memoryTime : t.time - t.memoryTime) / t.time : 1;
    auto energy = [&] {
        double e = 0;
        for (int i = b.first; i < b.first + b.count; ++i)
            e += rowEnergy(d->layers[size_t(i)], *d, m_report->config.clockPercent);
        return e;
    };
    // measured: the rows' sums where every row of the block has a measurement
    struct Sums {
        double measured = 0, bound = 0, calibrated = 0;
        bool all = true;
    };
    auto sums = [&] {
        Sums m;
        for (int i = b.first; i < b.first + b.count; ++i) {
            const LayerComparison* c = measured(i);
            const LayerResult& l = d->layers[size_t(i)];
            if (!c) {
                m.all = false;
                break;
            }
            m.measured += c->measured;
            m.bound += d->timesCalibrated && l.boundTime >= 0 ? l.boundTime : l.time;
            m.calibrated += d->timesCalibrated && c->calibrated >= 0 ? c->calibrated : l.time;
        }
        m.all = m.all && m.measured > 0;
        return m;
    };

    switch (role) {
    case Qt::DisplayRole:
        switch (column) {
        case Name:
            return QString(
                (m_rows.folded(block) ? QStringLiteral("\u25b8 ") : QStringLiteral("\u25be ")) + blockTitle(b));
        case Op:
            return tr("blocks");
        case OutputShape:
            return shapeText(t.out);
        case Extra:
            return t.extraBytes > 0 ? qs(formatBytes(t.extraBytes)) : QString();
        case Workspace:
            return t.workspace > 0 ? qs(formatBytes(t.workspace)) : QString();
        case Params:
            return t.params ? qs(formatCount(t.params)) : QStringLiteral("\u2013");
        case Flops:
            return qs(formatSI(t.flops, "FLOP"));
        case Bytes:
            return qs(formatBytes(t.bytes));
        case Intensity:
            return qs(formatNumber3(t.intensity));
        case IntensityL2:
            return t.l2Bytes > 0 ? qs(formatNumber3(t.flops / t.l2Bytes)) : QString();
        case IntensityL1:
            return t.l1Bytes > 0 ? qs(formatNumber3(t.flops / t.l1Bytes)) : QString();
        case Bound: {
            // the side that takes most of the blocks' time, with its share where the rows are mixed
            const QString side = memory ? QStringLiteral("\u25e2 memory") : QStringLiteral("\u25ac compute");
            return sideShare < 0.9995 ? QString(side + QLatin1Char(' ') + qs(formatPercent(sideShare))) : side;
        }
        case Time:
            return qs(formatTime(t.time, true));
        case Energy:
            return qs(formatSI(energy(), "J"));
        case Measured:
        case OfBound:
        case Error: {
            const Sums m = sums();
            if (!m.all)
                return {};
            if (column == Measured)
                return qs(formatTime(m.measured, true));
            if (column == OfBound)
                return qs(formatPercent(m.bound / m.measured));
            return qs(formatSignedPercent(
                d->timesCalibrated ? m.calibrated / m.measured - 1 : m.measured / m.bound - 1, true));
        }
        case Share:
            return qs(formatPercent(t.share));
        }
        return {};
    case SortRole:
        switch (column) {
        case Name:
            return m_rows.rowOfBlock(block); // execution order
        case Op:
            return QStringLiteral("blocks");
        case Algorithm:
            return QString();
        case OutputShape:
            return double(t.out.elements());
        case Extra:
            return t.extraBytes;
        case Workspace:
            return t.workspace;
        case Params:
            return double(t.params);
        case Flops:
            return t.flops;
        case Bytes:
            return t.bytes;
        case Intensity:
            return t.intensity;
        case IntensityL2:
            return t.l2Bytes > 0 ? t.flops / t.l2Bytes : 0.0;
        case IntensityL1:
            return t.l1Bytes > 0 ? t.flops / t.l1Bytes : 0.0;
        case Bound:
            return int(memory ? rfx::Bound::Memory : rfx::Bound::Compute);
        case Time:
            return t.time;
        case Energy:
            return energy();
        case Measured:
        case OfBound:
        case Error: {
            const Sums m = sums();
            if (!m.all)
                return column == Error ? -1e300 : -1.0;
            return column == Measured ? m.measured
                : column == OfBound   ? m.bound / m.measured
                                      : (d->timesCalibrated ? m.calibrated / m.measured - 1 : m.measured / m.bound - 1);
        }
        case Share:
            return t.share;
        }
        return {};
    case ShareRole:
        return t.share;
    case LayerIndexRole:
        return -1;
    case DominantRole:
        return dominant;
    case FoldRole:
        return m_rows.folded(block);
    case BlockRole:
        return block;
    case CopyRole:
        return column == Name ? QVariant(blockTitle(b)) : QVariant();
    case Qt::TextAlignmentRole:
        if (column == Name || column == Op || column == Bound || column == Algorithm)
            return int(Qt::AlignLeft | Qt::AlignVCenter);
        return int(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::FontRole:
        return dominant ? QVariant(m_bold) : QVariant();
    case Qt::ForegroundRole:
        if (column == Bound)
            return QBrush(memory ? m_memoryColor : m_computeColor);
        return {};
    case Qt::ToolTipRole: {
        const QString n = qs(formatCount(std::llround(b.repeats)));
        return tr("<b>%1</b>: %2 identical blocks, each running the %3 rows below once. Those rows' figures and "
                  "this line's sums are all %2 blocks'.<br>All %2: FLOPs %4, DRAM bytes %5, intensity %6 FLOP/B, "
                  "time %7, %8 of the network; %9 of it in memory-bound rows.<br>One block: FLOPs %10, DRAM bytes %11, "
                  "time %12.<br>Double-click, or press \u2190 / \u2192, to fold or show its rows.")
            .arg(qs(b.name).toHtmlEscaped(), n, QString::number(b.count), qs(formatSI(t.flops, "FLOP")),
                qs(formatBytes(t.bytes)), qs(formatNumber3(t.intensity)), qs(formatTime(t.time, true)),
                qs(formatPercent(t.share)), qs(formatPercent(t.time > 0 ? t.memoryTime / t.time : 0)))
            .arg(qs(formatSI(t.flops / b.repeats, "FLOP")), qs(formatBytes(t.bytes / b.repeats)),
                qs(formatTime(t.time / b.repeats, true)));
    }
    default:
        return {};
    }
}

QString LayerTableModel::blockRowNote(const LayerResult& row, int block) const
{
    const RowBlock& b = m_rows.block(block);
    const QString n = qs(formatCount(std::llround(b.repeats)));
    return tr("<br>A row of %1, run once in each of its %2 blocks: the figures are all %2 blocks'; one block's: "
              "FLOPs %3, DRAM bytes %4, time %5")
        .arg(qs(b.name).toHtmlEscaped(), n, qs(formatSI(row.flops / b.repeats, "FLOP")),
            qs(formatBytes(row.bytes / b.repeats)), qs(formatTime(row.time / b.repeats, true)));
}

bool LayerTableModel::setData(const QModelIndex& index, const QVariant& value, int role)
{
    if (role != FoldRole || !index.isValid() || index.row() >= m_rows.count())
        return false;
    const int block = m_rows.line(index.row()).block;
    if (m_rows.line(index.row()).layer >= 0 || block < 0 || m_rows.folded(block) == value.toBool())
        return false;
    m_rows.setFolded(block, value.toBool());
    const int row = m_rows.rowOfBlock(block);
    emit dataChanged(this->index(row, Name), this->index(row, Name));
    emit foldChanged();
    return true;
}

void LayerTableModel::unfoldTo(int layer)
{
    const int row = m_rows.rowOfLayer(layer);
    if (row >= 0 && m_rows.hiddenByFold(row))
        setData(index(m_rows.rowOfBlock(m_rows.line(row).block), Name), false, FoldRole);
}

} // namespace rfx
