#pragma once

#include "engine/roofline.h"

#include <functional>

class QMenu;
class QWidget;

namespace rfx {

/// The layer table's context menu for a convolution (or matrix) row: its own algorithm, or the
/// global one; choosing one calls `apply` with the changed configuration. Nothing for other rows.
/// The caller owns the menu.
QMenu* layerAlgorithmMenu(const Report* report, const Config& config, int layer,
    const std::function<void(const Config&)>& apply, QWidget* parent);

} // namespace rfx
