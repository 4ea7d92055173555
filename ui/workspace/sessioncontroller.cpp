#include "workspace/sessioncontroller.h"

#include "workspace/modelopener.h"
#include "workspace/windowsettings.h"
#include "workspace/workspace.h"

#include <QAbstractSlider>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QSaveFile>
#include <QUndoCommand>
#include <QUndoStack>
#include <QWidget>

#include <memory>

namespace rfx {

namespace {

using State = SessionController::State;

// One undoable change of the configuration, the device set or the view settings.
class StateCommand : public QUndoCommand {
public:
    /// `source`: the control whose change this is; successive changes of one control within 0.7 s
    /// (a spin box held down, arrow keys) are one step of undo, and so are all the changes of one drag
    /// of a slider however slow (a drag that paused made several steps). Changes of different controls,
    /// or from no control (devices, presets, sessions), never merge: merging them lost the step between
    /// (undo went from an invalid image size straight past the algorithm chosen before it).
    StateCommand(SessionController* sessions, State before, State after, const QObject* source)
        : m_sessions(sessions)
        , m_before(std::move(before))
        , m_after(std::move(after))
        , m_source(source)
    {
        setText(QObject::tr("change"));
        m_time.start();
        // a slider's drag: its changes merge until the slider is let go, however long it is held
        if (const auto* slider = qobject_cast<const QAbstractSlider*>(source); slider && slider->isSliderDown()) {
            m_dragging = std::make_shared<bool>(true);
            m_release = QObject::connect(slider, &QAbstractSlider::sliderReleased, [flag = m_dragging] { *flag = false; });
        }
    }
    ~StateCommand() override { QObject::disconnect(m_release); }
    int id() const override { return 1; }
    bool mergeWith(const QUndoCommand* other) override
    {
        const auto* o = static_cast<const StateCommand*>(other);
        if (!m_source || o->m_source != m_source)
            return false;
        const bool sameDrag = m_dragging && *m_dragging; // pressed when this step began, not let go since
        if (m_time.elapsed() > 700 && !sameDrag)
            return false;
        m_after = o->m_after;
        m_time.restart();
        return true;
    }
    void undo() override { m_sessions->apply(m_before); }
    void redo() override
    {
        if (m_first) { // the change is already on screen when the command is pushed
            m_first = false;
            return;
        }
        m_sessions->apply(m_after);
    }

private:
    SessionController* m_sessions;
    State m_before, m_after;
    const QObject* m_source;
    QElapsedTimer m_time;
    std::shared_ptr<bool> m_dragging; ///< set while the drag this step began in goes on
    QMetaObject::Connection m_release;
    bool m_first = true;
};

} // namespace

SessionController::SessionController(Workspace* workspace, Hooks hooks, QWidget* window)
    : QObject(window)
    , m_workspace(workspace)
    , m_hooks(std::move(hooks))
    , m_window(window)
    , m_undo(new QUndoStack(this))
{
    connect(workspace, &Workspace::changed, this, [this](const WorkspaceState& s, Workspace::Parts parts) {
        if (parts & (Workspace::Analysis | Workspace::View)) // a view setting is a step of its own, never merged
            record({ s.config, s.deviceIds, s.view }, parts & Workspace::Analysis ? m_workspace->lastSource() : nullptr);
    });
}

void SessionController::record(const State& now, const QObject* source)
{
    if (m_applying || now == m_state)
        return;
    // A change from the panel names its control; any other (devices, presets, sessions) names none.
    m_undo->push(new StateCommand(this, m_state, now, now.devices == m_state.devices ? source : nullptr));
    m_state = now;
    markDirty();
}

void SessionController::start(const State& state)
{
    m_undo->clear();
    m_state = state;
    m_dirty = false;
    updateTitle();
}

void SessionController::apply(const State& state)
{
    m_applying = true;
    m_workspace->setView(state.view);
    m_workspace->setWork(state.config, state.devices);
    m_state = state;
    m_applying = false;
    markDirty();
}

void SessionController::markDirty()
{
    m_dirty = true;
    updateTitle();
}

void SessionController::updateTitle()
{
    const QString name = m_path.isEmpty() ? tr("Untitled") : QFileInfo(m_path).fileName();
    m_window->setWindowTitle(tr("%1[*] \u2014 Roofline Explorer").arg(name));
    m_window->setWindowModified(m_dirty && !m_path.isEmpty());
}

bool SessionController::maybeSave()
{
    // Without a session file nothing is lost on quitting: the configuration is restored at the next
    // start. With one, unsaved changes to it are.
    if (m_path.isEmpty() || !m_dirty)
        return true;
    const auto answer = QMessageBox::warning(m_window, tr("Unsaved changes"),
        tr("%1 has unsaved changes. Save them?").arg(QFileInfo(m_path).fileName()),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Cancel)
        return false;
    if (answer == QMessageBox::Save)
        return saveInteractive(false);
    return true;
}

bool SessionController::save(const QString& path, QString* error)
{
    QSaveFile file(path); // atomic: the old session stays intact until the new one is complete
    if (!file.open(QIODevice::WriteOnly) || file.write(QByteArray::fromStdString(sessionToJson(m_hooks.capture()))) < 0
        || !file.commit()) {
        if (error)
            *error = QStringLiteral("%1: %2").arg(path, file.errorString());
        return false;
    }
    m_path = path;
    m_dirty = false;
    m_undo->setClean();
    addRecent(path);
    updateTitle();
    return true;
}

bool SessionController::open(const QString& path, QString* error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        if (error)
            *error = QStringLiteral("%1: %2").arg(path, file.errorString());
        return false;
    }
    if (file.size() > qint64(kMaxSessionBytes)) {
        if (error)
            *error = QStringLiteral("%1: larger than 1 MiB; not a session").arg(path);
        return false;
    }
    std::string why;
    const auto session = sessionFromJson(file.readAll().toStdString(), why);
    if (!session) {
        if (error)
            *error = QStringLiteral("%1: %2").arg(path, QString::fromStdString(why));
        return false; // nothing was changed
    }
    m_applying = true;
    m_hooks.show(*session);
    m_state = { m_workspace->config(), m_workspace->deviceIds(), m_workspace->view() };
    m_applying = false;
    m_undo->clear();
    m_path = path;
    m_dirty = false;
    addRecent(path);
    updateTitle();
    return true;
}

void SessionController::openFromUser(const QString& path)
{
    if (!maybeSave())
        return;
    QString error;
    if (!open(path, &error))
        QMessageBox::warning(m_window, tr("Cannot open session"), tr("%1\n\nYour current work is unchanged.").arg(error));
}

void SessionController::openInteractive()
{
    if (!maybeSave())
        return;
    const QString path = QFileDialog::getOpenFileName(m_window, tr("Open session"), lastDirectory(),
        tr("Roofline Explorer sessions (*.rfx.json);;JSON (*.json)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!open(path, &error))
        QMessageBox::warning(m_window, tr("Cannot open session"), tr("%1\n\nYour current work is unchanged.").arg(error));
}

bool SessionController::saveInteractive(bool saveAs)
{
    QString path = m_path;
    if (saveAs || path.isEmpty()) {
        path = QFileDialog::getSaveFileName(m_window, tr("Save session"), QDir(lastDirectory()).filePath(QStringLiteral("roofline.rfx.json")),
            tr("Roofline Explorer sessions (*.rfx.json)"));
        if (path.isEmpty())
            return false;
        if (!path.endsWith(QLatin1String(".json")))
            path += QStringLiteral(".rfx.json");
    }
    QString error;
    if (!save(path, &error)) {
        QMessageBox::warning(m_window, tr("Cannot save session"), error);
        return false;
    }
    emit statusMessage(tr("Saved %1").arg(path), 5000);
    return true;
}

void SessionController::setRecentMenu(QMenu* menu)
{
    m_recentMenu = menu;
    rebuildRecentMenu();
}

void SessionController::addRecent(const QString& path)
{
    addRecentFile(path);
    rebuildRecentMenu();
}

void SessionController::rebuildRecentMenu()
{
    if (!m_recentMenu)
        return;
    m_recentMenu->clear();
    const QStringList recent = recentFiles();
    for (const QString& path : recent) {
        m_recentMenu->addAction(QFileInfo(path).fileName(), this, [this, path] {
            if (ModelOpener::isModelPath(path))
                emit recentModelChosen(path); // a model file: it joins the current work (undo takes it back)
            else
                openFromUser(path);
        })->setToolTip(path);
    }
    m_recentMenu->setEnabled(!recent.isEmpty());
}

} // namespace rfx
