#pragma once
// The language-model mode's tests (tst_llmmode, tst_llmphases): a workspace on two shipped devices,
// and the panes that follow it as the window's do.
#include "chart/chartarea.h"
#include "panels/controlpanel.h"
#include "workspace/workspace.h"

#include "devices/device_loader.h"
#include "testpaths.h"

#include <QStringList>

namespace rfx::test {

inline const QStringList kDevices { QStringLiteral("h100-sxm"), QStringLiteral("geforce-mx230") };

inline void startWorkspace(Workspace& ws)
{
    ws.setLibrary(loadDeviceLibrary({ std::filesystem::path(ROOFLINE_TEST_DEVICES_DIR) }));
    ws.setWork(Config {}, kDevices);
    ws.startHistory();
}

/// The workspace with the control panel and the charts following it, shown as in the window.
struct Panes {
    Workspace ws;
    ControlPanel panel;
    ChartArea charts;
    Panes()
    {
        panel.follow(&ws);
        charts.follow(&ws);
        startWorkspace(ws);
        panel.resize(420, 900);
        panel.show();
        charts.resize(1000, 700);
        charts.show();
    }
};

} // namespace rfx::test
