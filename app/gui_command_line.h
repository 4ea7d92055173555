#pragma once

#include "window/guioptions.h"

#include <QStringList>

namespace rfx {

/// roofline-explorer's command line (app/, beside the CLI's): the window takes the GuiOptions it
/// yields and never parses arguments itself.
GuiOptions parseGuiOptions(const QStringList& arguments); ///< without the program name
QString guiHelpText();

} // namespace rfx
