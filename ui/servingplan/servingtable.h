#pragma once

#include "serving/plan.h"

#include <QStringList>

class QTableWidget;

namespace rfx {

/// The serving view's table: a row a device, its best configuration within the targets (or why none
/// is) with its TPOT, TTFT, tokens/s per user and per GPU, memory per GPU, the GPUs for the load and
/// its energy a token.
void fillServingTable(QTableWidget* table, const Plan& plan, const QStringList& devices);

} // namespace rfx
