#pragma once

#include <QObject>
#include <QString>

class QWidget;

namespace rfx {

/// Opens the user's own model files for the window: ONNX models (read on a worker thread, with a
/// progress dialog that can cancel, so that a 500 MB VGG-16 keeps the window responsive) and our JSON
/// layer lists. Used by the Network selector's "Open model file...", File > Open model..., the recent
/// files, drag and drop and the command line's FILE argument (through the configuration).
class ModelOpener : public QObject {
    Q_OBJECT

public:
    explicit ModelOpener(QWidget* window);

    /// A file the window opens as a model (".onnx", or ".json" that is not a session, "*.rfx.json").
    static bool isModelPath(const QString& path);

    /// Asks for a file, then open()s it.
    void chooseAndOpen();
    /// Reads the file (ONNX on a worker thread); emits opened() or failed().
    void open(const QString& path);
    bool busy() const { return m_busy; }

    /// The window-modal message for a file that cannot be used: what, why, and what the window still shows.
    static void showError(QWidget* window, const QString& path, const QString& reason, const QString& stillShown);

signals:
    /// `imageSize`: the size the model opens at (its own default, or the one its file fixes); 0 for a
    /// JSON layer list.
    void opened(const QString& absolutePath, int imageSize);
    void failed(const QString& absolutePath, const QString& reason);

private:
    QWidget* m_window;
    bool m_busy = false;
};

} // namespace rfx
