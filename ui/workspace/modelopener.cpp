#include "workspace/modelopener.h"

#include "style/text.h"

#include "base/diagnostic.h"
#include "onnx/onnx_model.h"
#include "workspace/windowsettings.h"
#include "workspace/workspace.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QPointer>
#include <QProgressDialog>
#include <QThread>
#include <QTimer>

#include <algorithm>
#include <atomic>
#include <memory>

namespace rfx {

ModelOpener::ModelOpener(Workspace* workspace, QWidget* window)
    : QObject(window)
    , m_workspace(workspace)
    , m_window(window)
{
}

bool ModelOpener::isModelPath(const QString& path)
{
    const QString lower = path.toLower();
    return lower.endsWith(QLatin1String(".onnx"))
        || (lower.endsWith(QLatin1String(".json")) && !lower.endsWith(QLatin1String(".rfx.json")))
        || isLanguageModelChoice(path.toStdString());
}

void ModelOpener::chooseAndOpen()
{
    const QString dir = lastDirectory();
    const QString path = QFileDialog::getOpenFileName(m_window, tr("Open model file"), dir,
        tr("Models (*.onnx *.json *.gguf *.safetensors);;ONNX models (*.onnx);;Network layer lists (*.json);;"
           "Language models (*.gguf *.safetensors config.json);;All files (*)"));
    if (!path.isEmpty())
        open(path);
}

void ModelOpener::open(const QString& pathIn)
{
    const QString path = QFileInfo(pathIn).absoluteFilePath();
    if (m_busy)
        return;
    if (!isModelPath(path)) {
        m_workspace->refuseModel(path,
            tr("not a model file: the window opens ONNX models (.onnx), network layer lists (.json) "
               "and language models (.gguf, .safetensors, a config.json or its directory)"));
        return;
    }
    if (isLanguageModelChoice(path.toStdString())) {
        // Headers only (a GGUF's metadata, the safetensors' JSON): read at once, refused by the workspace.
        m_workspace->showLanguageModel(path.toStdString());
        if (m_workspace->state().llm.model == path.toStdString())
            emit opened(path);
        return;
    }
    if (!path.endsWith(QLatin1String(".onnx"), Qt::CaseInsensitive)) {
        m_workspace->openModel(path); // a JSON layer list: small, parsed when the configuration is built
        emit opened(path);
        return;
    }
    // The reading runs on a worker; the dialog (after half a second) shows the bytes read and cancels.
    m_busy = true;
    auto progress = std::make_shared<std::atomic<int>>(0);
    auto cancel = std::make_shared<std::atomic<bool>>(false);
    auto result = std::make_shared<OnnxLoad>();
    auto* dialog
        = new QProgressDialog(tr("Reading %1\u2026").arg(QFileInfo(path).fileName()), tr("Cancel"), 0, 1000, m_window);
    dialog->setObjectName(QStringLiteral("modelProgress"));
    dialog->setWindowTitle(tr("Open model file"));
    dialog->setWindowModality(Qt::WindowModal);
    dialog->setMinimumDuration(500);
    dialog->setAutoClose(false);
    dialog->setAutoReset(false);
    dialog->setValue(0);
    connect(dialog, &QProgressDialog::canceled, this, [cancel] { *cancel = true; });
    const std::string file = path.toStdString();
    QThread* worker = QThread::create([file, progress, cancel, result] {
        *result = cachedOnnxModel(file, [&](std::uint64_t done, std::uint64_t total) {
            *progress = total ? int(1000 * done / total) : 0;
            return !cancel->load();
        });
    });
    auto* poll = new QTimer(dialog);
    poll->setInterval(50);
    connect(poll, &QTimer::timeout, dialog, [dialog, progress] {
        const int v = progress->load();
        dialog->setValue(v >= 1000 ? 999 : v); // checking and shape inference follow the reading
        if (v >= 1000)
            dialog->setLabelText(tr("Checking the model and inferring its shapes\u2026"));
    });
    connect(worker, &QThread::finished, this, [this, worker, dialog, result, cancel, path] {
        worker->deleteLater();
        dialog->deleteLater();
        m_busy = false;
        if (cancel->load())
            return; // cancelled: nothing changes
        if (!result->model) {
            m_workspace->refuseModel(path, qs(withoutSubject(result->error, path.toStdString())));
            return;
        }
        // A free image size opens at the model's own default; a fixed one is shown as the file fixes it.
        m_workspace->openModel(path, result->model, result->model->defaultImageSize());
        emit opened(path);
    });
    poll->start();
    worker->start();
}

void ModelOpener::showError(QWidget* window, const QString& path, const QString& reason, const QString& stillShown)
{
    // In the window's words (issue 73 item 7): a language model is not called a network, the reason
    // starts a sentence, and what opens is said without a command line.
    const bool languageModel = isLanguageModelChoice(path.toStdString());
    auto* box = new QMessageBox(QMessageBox::Warning, tr("Cannot open model file"),
        (languageModel ? tr("%1 cannot be used as a language model.") : tr("%1 cannot be used as a network."))
            .arg(QFileInfo(path).fileName()),
        QMessageBox::Ok, window);
    box->setObjectName(QStringLiteral("networkFileError"));
    // Wide enough for its title in the window manager's bar ("Cannot open model ..." was cut).
    box->setStyleSheet(
        QStringLiteral("QLabel#qt_msgbox_label, QLabel#qt_msgbox_informativelabel { min-width: 26em; }"));
    const QString format = path.endsWith(QLatin1String(".onnx"), Qt::CaseInsensitive)
        ? tr("ONNX models of opsets 7 to 23 open, as exporters write them; the manual's ONNX page lists the operators "
             "counted.")
        : languageModel
        ? tr("Language models open from a GGUF file, a safetensors file beside its config.json, a Hugging Face "
             "config.json or its directory.")
        : tr("A network file is a JSON list of layers; the manual's methodology page (Networks) gives its format.");
    // A sentence starts with a capital; a field's name ("layers[0] (a): ...") keeps its spelling.
    QString said = reason;
    const QString firstWord = said.section(QLatin1Char(' '), 0, 0);
    if (!firstWord.isEmpty()
        && std::all_of(firstWord.begin(), firstWord.end(), [](QChar c) { return c.isLower() && c.isLetter(); }))
        said[0] = said[0].toUpper();
    if (!said.isEmpty() && !said.endsWith(QLatin1Char('.')))
        said += QLatin1Char('.');
    box->setInformativeText(tr("%1\n\nFile: %2\n\nThe window still shows %3. %4")
                                .arg(said, QDir::toNativeSeparators(path), stillShown, format));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open(); // not exec(): no event loop nested inside an analysis
}

} // namespace rfx
