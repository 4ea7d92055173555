#pragma once

#include <QObject>
#include <QString>

class QLabel;

namespace rfx {

class Workspace;
struct WorkspaceState;

/// Measurements taken elsewhere (File > Import measurements, --measurements): reads the file into
/// the workspace, whose comparison the table (measured / of-bound / error columns) and the charts
/// (diamonds on the table's device) show, and keeps the status bar's line with what did not map.
class MeasurementsView : public QObject {
    Q_OBJECT
public:
    MeasurementsView(Workspace* workspace, QObject* parent);

    /// Loads a plain CSV, ncu --csv or PyTorch trace; false and `error` (file, line, reason) when the
    /// file is not usable, and then whatever was shown before stays.
    bool import(const QString& path, QString* error);
    void clear();

    /// "Measured: FILE (format), N layers mapped ... onto DEVICE; P of the bound reached" or empty.
    QString status() const { return m_status; }
    /// The status bar's permanent label (hidden without measurements).
    QLabel* label() const { return m_label; }

private:
    void show(const WorkspaceState& state);

    Workspace* m_workspace;
    QLabel* m_label;
    QString m_status;
};

} // namespace rfx
