#pragma once

#include "testpaths.h"
#include "window/guioptions.h"

#include <QCoreApplication>
#include <QSettings>
#include <QStringList>
#include <QTemporaryDir>
#include <QTest>
#include <QWidget>

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

/// A GUI test's own world: the test devices, and settings kept in `dir`, under `app`'s name, so
/// that nothing a developer saved is read and nothing is left behind.
inline void isolateGuiTest(const QTemporaryDir& dir, const QString& app)
{
    qputenv("ROOFLINE_DEVICES_DIR", ROOFLINE_TEST_DEVICES_DIR);
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, dir.filePath(QStringLiteral("config")));
    QCoreApplication::setOrganizationName(QStringLiteral("roofline-explorer-test"));
    QCoreApplication::setApplicationName(app);
}

/// Shows `w` at a desktop size and waits until it is on screen (offscreen counts): QVERIFY it.
inline bool showAtDesktopSize(QWidget& w, QSize size = QSize(1600, 1000))
{
    w.resize(size);
    w.show();
    return QTest::qWaitForWindowExposed(&w);
}

} // namespace rfx::test
