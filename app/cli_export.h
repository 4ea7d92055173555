#pragma once

namespace rfx {

/// Adds `export` and `reproduce` to roofline-cli (they draw charts, so they need Qt).
void registerExportCommands();

} // namespace rfx
