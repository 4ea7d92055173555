#pragma once

#include "model/config.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <optional>

namespace rfx {

/// What the window keeps between runs (QSettings): every key lives in windowsettings.cpp, in one
/// place; the state version changes when the meaning of a key does.
struct StoredWindow {
    QByteArray geometry;
    QByteArray state; ///< QMainWindow::saveState: docks and toolbars
    QByteArray splitter; ///< charts against the layer table
    std::optional<Config> config; ///< nothing when none was stored or it no longer parses or validates
    std::optional<QStringList> devices;
    bool overlay = false;
    bool convolutionsOnly = false;
    int topN = 0;
};
inline constexpr int kWindowStateVersion = 1;

StoredWindow loadStoredWindow();
void saveStoredWindow(const StoredWindow& stored);

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
