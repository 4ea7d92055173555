#pragma once

#include "io/session.h"
#include "model/config.h"
#include "workspace/workspace.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <functional>

class QMenu;
class QUndoStack;
class QWidget;

namespace rfx {

class Workspace;

/// Where the user's work is kept, with the dialogs for it: session files (.rfx.json) opened and saved
/// (atomically), the session's name and unsaved mark in the title, saving before quitting, File >
/// Open recent. The undo history, the document's path and its unsaved mark are the Workspace's
/// (workspace_history.cpp); the window says how to take a session and show one.
class SessionController : public QObject {
    Q_OBJECT
public:
    /// How the window takes the session it shows (`capture`) and shows one (`show`: the
    /// workspace's part through the workspace, the views' part itself); dialogs open over `window`,
    /// whose title names the session.
    struct Hooks {
        std::function<Session()> capture;
        std::function<void(const Session&)> show;
    };
    SessionController(Workspace* workspace, Hooks hooks, QWidget* window);

    /// The workspace's undo history (the Edit menu's actions).
    QUndoStack* undoStack() const;
    /// The workspace's unsaved mark and session file.
    bool isDirty() const;
    QString path() const;

    /// Sessions (.rfx.json). open leaves the current work untouched when the file is not a session;
    /// both return false with `error` naming the file, field and reason. Saving is atomic.
    bool save(const QString& path, QString* error);
    bool open(const QString& path, QString* error);
    /// Asks to save unsaved changes to the session file; false when the user cancels.
    bool maybeSave();
    /// File > Open session..., Save session (as...): with dialogs and messages.
    void openInteractive();
    bool saveInteractive(bool saveAs);
    /// Opens a session the user pointed at (recent files, a drop): asks to save first, says why not.
    void openFromUser(const QString& path);

    /// File > Open recent: fills `menu` now and whenever the list changes.
    void setRecentMenu(QMenu* menu);
    void addRecent(const QString& path);

signals:
    /// A model file chosen from Open recent (the window opens it; undo takes it back).
    void recentModelChosen(const QString& path);
    void statusMessage(const QString& message, int timeoutMs);

private:
    void updateTitle();
    void rebuildRecentMenu();

    Workspace* m_workspace;
    Hooks m_hooks;
    QWidget* m_window;
    QMenu* m_recentMenu = nullptr;
};

} // namespace rfx
