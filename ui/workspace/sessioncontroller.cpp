#include "workspace/sessioncontroller.h"

#include "workspace/modelopener.h"
#include "workspace/windowsettings.h"
#include "workspace/workspace.h"

#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QSaveFile>
#include <QUndoStack>
#include <QWidget>

#include <memory>

namespace rfx {

SessionController::SessionController(Workspace* workspace, Hooks hooks, QWidget* window)
    : QObject(window)
    , m_workspace(workspace)
    , m_hooks(std::move(hooks))
    , m_window(window)
{
    connect(workspace, &Workspace::documentChanged, this, &SessionController::updateTitle);
}

QUndoStack* SessionController::undoStack() const { return m_workspace->undoStack(); }

bool SessionController::isDirty() const { return m_workspace->isDirty(); }

QString SessionController::path() const { return m_workspace->documentPath(); }

void SessionController::updateTitle()
{
    const QString path = m_workspace->documentPath();
    const QString name = path.isEmpty() ? tr("Untitled") : QFileInfo(path).fileName();
    m_window->setWindowTitle(tr("%1[*] \u2014 Roofline Explorer").arg(name));
    m_window->setWindowModified(m_workspace->isDirty() && !path.isEmpty());
}

bool SessionController::maybeSave()
{
    // Without a session file nothing is lost on quitting: the configuration is restored at the next
    // start. With one, unsaved changes to it are.
    if (path().isEmpty() || !isDirty())
        return true;
    const auto answer = QMessageBox::warning(m_window, tr("Unsaved changes"),
        tr("%1 has unsaved changes. Save them?").arg(QFileInfo(path()).fileName()),
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
    m_workspace->setDocumentPath(path);
    addRecent(path);
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
    m_hooks.show(*session);
    m_workspace->startHistory(); // the session is where undo starts
    m_workspace->setDocumentPath(path);
    addRecent(path);
    return true;
}

void SessionController::openFromUser(const QString& path)
{
    if (!maybeSave())
        return;
    QString error;
    if (!open(path, &error))
        QMessageBox::warning(
            m_window, tr("Cannot open session"), tr("%1\n\nYour current work is unchanged.").arg(error));
}

void SessionController::openInteractive()
{
    if (!maybeSave())
        return;
    const QString path = QFileDialog::getOpenFileName(
        m_window, tr("Open session"), lastDirectory(), tr("Roofline Explorer sessions (*.rfx.json);;JSON (*.json)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!open(path, &error))
        QMessageBox::warning(
            m_window, tr("Cannot open session"), tr("%1\n\nYour current work is unchanged.").arg(error));
}

bool SessionController::saveInteractive(bool saveAs)
{
    QString path = this->path();
    if (saveAs || path.isEmpty()) {
        path = QFileDialog::getSaveFileName(m_window, tr("Save session"),
            QDir(lastDirectory()).filePath(QStringLiteral("roofline.rfx.json")),
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
        m_recentMenu
            ->addAction(QFileInfo(path).fileName(), this,
                [this, path] {
                    if (ModelOpener::isModelPath(path))
                        emit recentModelChosen(path); // a model file: it joins the current work (undo takes it back)
                    else
                        openFromUser(path);
                })
            ->setToolTip(path);
    }
    m_recentMenu->setEnabled(!recent.isEmpty());
}

} // namespace rfx
