#pragma once
// Internal to Explain (explain.cpp, explain_tour.cpp, explain_formulas.cpp): figures as rich text, and a row's FLOP
// formula worked with its own extents.

#include "base/format.h"
#include "model/network.h"
#include "style/text.h"

#include <QString>

#include <cmath>
#include <string>

namespace rfx {
class OnnxModel;
struct Config;
}

namespace rfx::explaintext {

/// The batch control is on: off where an ONNX file fixes the batch (ControlPanel::updateEnabled).
bool batchAdjustable(const Config& c, const OnnxModel* model);

inline QString count(double v) { return qsRich(formatCount(std::int64_t(std::llround(v)))); }
inline QString dot() { return QStringLiteral("\u00b7"); }

/// The row's FLOP count as a formula of its own extents, with the numbers put in (rich text), as
/// core/engine/cost.cpp counts it; "not counted" for an unknown operator, empty for the optimizer row.
QString flopFormula(const Layer& l);

/// A row that runs `repeats` times (a language model's block row stands for its blocks, an imported
/// loop's body for its trips): the formulas are one run's, and the total says so, "33.6 MFLOP a block
/// × 32 blocks = <b>1.07 GFLOP</b>" (issue 73: one block's operands beside the blocks' total).
/// `perRun` and `total` are figures already formatted; a row that runs once gives "<b>total</b>".
QString timesRuns(const Layer& l, const QString& perRun, const QString& total);

/// The Bytes line's arithmetic as layerCost counts it, one run's tensors at their own widths: "inputs
/// 4,096·2 B + weights 16,777,216·2 B + outputs 4,096·2 B = 33.6 MB a block × 32 blocks = <b>1.07
/// GB</b>"; empty where every tensor is at `elementBytes` and the row runs once (Explain's plain
/// element count then says it).
QString bytesArithmetic(const Layer& l, double elementBytes, bool asInFile);

} // namespace rfx::explaintext
