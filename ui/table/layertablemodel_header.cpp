// The layer table's column headers: their titles, tooltips and first sort order.
#include "table/layertablemodel.h"

#include "style/text.h"

namespace rfx {

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
        case OutputShape: // a language model's rows are tokens of features
            return m_rows.blocks().empty() ? tr("Output N\u00d7C\u00d7H\u00d7W") : tr("Output B\u00d7T\u00d7d");
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
            return tr("Layer name, in execution order (sort by this column to restore the order). A language model's "
                      "identical blocks sit under a line of their own (\u00d7 32: its rows stand for all 32); "
                      "double-click it, or press \u2190 / \u2192, to fold or show them");
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
            if (!m_rows.blocks().empty())
                return tr("Output tensor shape: sequences \u00d7 tokens \u00d7 features (attention: sequences \u00d7 "
                          "heads \u00d7 tokens \u00d7 head dimension)");
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
            return tr(
                "Memory-bound if the intensity is left of the ridge point (peak / bandwidth), else compute-bound; "
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
            return tr("Share of the network's time; bold rows take at least 5 %. A language model's two phases shown "
                      "together: each row's share of its own phase's time");
        }
    }
    return {};
}

} // namespace rfx
