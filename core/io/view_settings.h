#pragma once
// How a piece of work is shown, apart from what is analysed: one struct that the window's workspace
// holds, a session keeps and the window's last work restores (no field-by-field copies).

#include "engine/layerfilter.h"

namespace rfx {

struct ViewSettings {
    bool overlay = false; ///< every device on one chart (View > Overlay devices on one chart)
    bool sharedAxes = false; ///< every chart of the grid on the same ranges and unit
    bool powerTicks = false; ///< tick labels as powers of ten
    double layerLabels = 0.05; ///< name on the charts the layers that take this share of the time or more; 0: none
    LayerFilter filter; ///< the rows the table and the charts show
    friend bool operator==(const ViewSettings&, const ViewSettings&) = default;
};

} // namespace rfx
