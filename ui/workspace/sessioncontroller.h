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

/// What the user's work is and where it is kept: the undo history of configuration, device and
/// view-setting changes, the session file (.rfx.json) with its unsaved-changes mark in the title, saving before
/// quitting, and File > Open recent. Every change of the workspace's configuration or devices is a step
/// of undo; undo hands the state back to the workspace. A session is the workspace's work plus the
/// views' (overlay, filter, the table's device): the window says how to take and show it.
class SessionController : public QObject {
    Q_OBJECT
public:
    /// What undo and redo step through: the configuration, the devices and the view settings.
    struct State {
        Config config;
        QStringList devices;
        ViewSettings view;
        bool operator==(const State&) const = default;
    };

    /// How the window takes the session it shows (`capture`) and shows one (`show`: the
    /// workspace's part through the workspace, the views' part itself); dialogs open over `window`,
    /// whose title names the session.
    struct Hooks {
        std::function<Session()> capture;
        std::function<void(const Session&)> show;
    };
    SessionController(Workspace* workspace, Hooks hooks, QWidget* window);

    QUndoStack* undoStack() const { return m_undo; }
    /// The state the history starts from (nothing unsaved, no undo).
    void start(const State& state);
    /// Shows `state` (undo and redo): the window takes it without recording a step.
    void apply(const State& state);
    const State& state() const { return m_state; }

    void markDirty();
    bool isDirty() const { return m_dirty; }
    QString path() const { return m_path; }

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
    /// The workspace now shows `now`: one step of undo, merged with the last one when it is the same
    /// control's change within 0.7 s (`source`: that control, or null for devices, presets, sessions).
    void record(const State& now, const QObject* source);
    void updateTitle();
    void rebuildRecentMenu();

    Workspace* m_workspace;
    Hooks m_hooks;
    QWidget* m_window;
    QUndoStack* m_undo;
    State m_state; ///< what the undo stack last recorded
    bool m_applying = false;
    QString m_path;
    bool m_dirty = false;
    QMenu* m_recentMenu = nullptr;
};

} // namespace rfx
