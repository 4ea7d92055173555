#pragma once

#include <QObject>
#include <QString>

namespace rfx {

class MainWindow;

/// File > Export chart (a figure for a paper, in the print style), Export table (.csv .json .md
/// .tex) and Copy chart: the window's report and figure, written atomically.
class ExportController : public QObject {
    Q_OBJECT
public:
    explicit ExportController(MainWindow* window);

    /// Writes the layer tables in the format the file's extension names (.csv .json .md .tex).
    bool exportTable(const QString& path, QString* error);
    void exportTableInteractive();
    void exportChartInteractive();
    void copyChart();

signals:
    void statusMessage(const QString& message, int timeoutMs);

private:
    MainWindow* m_window;
};

} // namespace rfx
