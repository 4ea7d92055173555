#pragma once

#include "io/options.h"

#include <QSize>
#include <QString>
#include <QStringList>

namespace rfx {

/// roofline-explorer's command line: the CLI's configuration options plus window options.
struct GuiOptions {
    ConfigOptions config;
    bool configGiven = false; ///< a configuration or --device option was given (overrides the saved one)
    QString screenshot; ///< --screenshot FILE.png: render the window and exit
    QSize size; ///< --size WxH (default for screenshots 1600x1000)
    bool overlay = false;
    bool presentation = false; ///< --presentation: start in presentation mode (type 1.5x)
    QString measurements; ///< --measurements FILE: import measured timings at start
    QString calibration; ///< --calibration CAL.json: open a calibration at start, calibrated times shown
    int preset = -1; ///< --preset classic|study-2022|energy-study: 0, 1, 2 (Presets menu); -1 none
    bool noRestore = false; ///< --no-restore: ignore the saved configuration and layout
    QStringList deviceDirs;
    bool help = false;
    bool version = false;
    QString error; ///< non-empty when the command line is wrong
};

} // namespace rfx
