#pragma once

#include "guioptions.h"

#include <QStringList>

namespace rfx::test {

/// Window options for a test: nothing restored from a previous run, these devices checked.
inline GuiOptions freshWindow(const QStringList& devices = { QStringLiteral("rtx-2060-super") })
{
    GuiOptions o;
    o.noRestore = true;
    o.configGiven = true;
    for (const QString& d : devices)
        o.config.devices.push_back(d.toStdString());
    return o;
}

} // namespace rfx::test
