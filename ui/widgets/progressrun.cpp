#include "widgets/progressrun.h"

#include <QEventLoop>
#include <QProgressDialog>
#include <QThread>
#include <QTimer>

#include <atomic>
#include <memory>
#include <mutex>

namespace rfx {

bool runWithProgress(
    QWidget* parent, const QString& title, const QString& label, const std::function<void(const ProgressReport&)>& work)
{
    QProgressDialog dialog(label + QStringLiteral("\u2026"), QObject::tr("Cancel"), 0, 1000, parent);
    dialog.setWindowTitle(title);
    dialog.setWindowModality(Qt::WindowModal);
    dialog.setMinimumDuration(0);
    dialog.setValue(0);
    std::atomic<int> permille { 0 };
    std::atomic<bool> cancel { false };
    std::mutex stageLock;
    std::string stage = "starting";
    std::unique_ptr<QThread> worker(QThread::create([&] {
        work([&](double fraction, const std::string& what) {
            permille = int(fraction * 1000);
            const std::lock_guard<std::mutex> lock(stageLock);
            stage = what;
            return !cancel.load();
        });
    }));
    QEventLoop loop;
    QObject::connect(worker.get(), &QThread::finished, &loop, &QEventLoop::quit);
    QObject::connect(&dialog, &QProgressDialog::canceled, &loop, [&] { cancel = true; });
    QTimer poll;
    poll.setInterval(50);
    QObject::connect(&poll, &QTimer::timeout, &dialog, [&] {
        dialog.setValue(permille.load());
        const std::lock_guard<std::mutex> lock(stageLock);
        dialog.setLabelText(QStringLiteral("%1: %2").arg(label, QString::fromStdString(stage)));
    });
    worker->start();
    poll.start();
    if (!worker->isFinished())
        loop.exec();
    worker->wait();
    poll.stop();
    dialog.reset();
    return !cancel.load();
}

} // namespace rfx
