#pragma once

#include "io/session.h"
#include "model/config.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <optional>

namespace rfx {

/// What the window keeps between runs of its own frame (QSettings): geometry, docks, the splitter.
/// Every key lives in windowsettings.cpp, in one place; the state version changes when the meaning of
/// a key does. The work itself is kept as a session (loadLastWork).
struct StoredWindow {
    QByteArray geometry;
    QByteArray state; ///< QMainWindow::saveState: docks and toolbars
    QByteArray splitter; ///< charts against the layer table
};
inline constexpr int kWindowStateVersion = 1;

StoredWindow loadStoredWindow();
void saveStoredWindow(const StoredWindow& stored);

/// The work shown when the window last closed, kept between runs as a session document (the text of
/// a .rfx.json): nothing when none was kept, or it no longer reads or validates. What earlier versions
/// kept under their own keys (the configuration's arguments, the devices, the overlay and the filter)
/// is read when no session was kept yet.
std::optional<Session> loadLastWork();
void saveLastWork(const Session& work);

/// Sessions and model files opened lately, the latest first (at most kMaxRecentFiles).
inline constexpr int kMaxRecentFiles = 8;
QStringList recentFiles();
/// Puts `path` (made absolute) first and remembers its folder as the last directory.
void addRecentFile(const QString& path);

/// The folder file dialogs start in: where the user last opened, saved or exported.
QString lastDirectory(const QString& otherwise = QString());
void setLastDirectory(const QString& dir);

/// The folder export dialogs start in: where the user last exported a chart or a table (figures go
/// beside figures, not beside the model opened last), else Pictures, else Documents, else home.
QString lastExportDirectory();
void setLastExportDirectory(const QString& dir);

} // namespace rfx
