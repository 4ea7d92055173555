#pragma once

#include <QObject>
#include <QString>

class QWidget;

namespace rfx {

class Workspace;

/// Opens the user's own model files for the window: ONNX models (read on a worker thread, with a
/// progress dialog that can cancel, so that a 500 MB VGG-16 keeps the window responsive) and our JSON
/// layer lists. Used by the Network selector's "Open model file...", File > Open model..., the recent
/// files, drag and drop and the command line's FILE argument (through the configuration). What it
/// reads it hands to the workspace (Workspace::openModel, the model parsed once); what it cannot read
/// it refuses there too (Workspace::refuseModel): the workspace's networkFileRefused is the one
/// channel for a file that cannot be used.
class ModelOpener : public QObject {
    Q_OBJECT

public:
    /// Dialogs open over `window`.
    ModelOpener(Workspace* workspace, QWidget* window);

    /// A file the window opens as a model (".onnx", or ".json" that is not a session, "*.rfx.json").
    static bool isModelPath(const QString& path);

    /// Asks for a file, then open()s it.
    void chooseAndOpen();
    /// Reads the file (ONNX on a worker thread) and hands it to the workspace: opened() follows when
    /// the workspace took it (it may still refuse a file that does not build).
    void open(const QString& path);
    bool busy() const { return m_busy; }

    /// The window-modal message for a file that cannot be used: what, why, and what the window still shows.
    static void showError(QWidget* window, const QString& path, const QString& reason, const QString& stillShown);

signals:
    /// The file was read and handed to the workspace, which now shows it unless it refused it.
    void opened(const QString& absolutePath);

private:
    Workspace* m_workspace;
    QWidget* m_window;
    bool m_busy = false;
};

} // namespace rfx
