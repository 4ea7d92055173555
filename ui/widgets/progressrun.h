#pragma once

#include <QString>

#include <functional>
#include <string>

class QWidget;

namespace rfx {

/// What long work reports: the fraction done (0..1) and what it is doing; false once the user cancelled.
using ProgressReport = std::function<bool(double fraction, const std::string& what)>;

/// Runs `work` on a worker thread (it may load every core) behind a window-modal progress dialog
/// with a Cancel button; the dialog shows `label`: the reported stage. Returns false when the user
/// cancelled (the work has stopped by then; it stops at its next report).
bool runWithProgress(QWidget* parent, const QString& title, const QString& label,
    const std::function<void(const ProgressReport&)>& work);

} // namespace rfx
