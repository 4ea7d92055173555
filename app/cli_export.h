#pragma once

#include "io/figure.h"

#include <filesystem>
#include <ostream>
#include <vector>

namespace rfx {

/// Draws `spec` with the devices of the shipped, `dirs` and user folders and says what was written;
/// an exit code (usage errors for a bad configuration, device or measurement file).
int drawFigure(const FigureSpec& spec, const std::vector<std::filesystem::path>& dirs, std::ostream& out,
    std::ostream& err, const std::filesystem::path& exeDir);

/// roofline-cli reproduce FIGURE.json [--output FILE] (cli_reproduce.cpp).
int runReproduce(
    const std::vector<std::string>& args, std::ostream& out, std::ostream& err, const std::filesystem::path& exeDir);

/// Adds `export` and `reproduce` to roofline-cli (they draw charts, so they need Qt).
void registerExportCommands();

} // namespace rfx
