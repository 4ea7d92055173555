#pragma once

#include "measurements.h"

#include <QObject>
#include <QString>

#include <optional>

class QLabel;

namespace rfx {

class ChartArea;
class LayerPane;

/// Measurements taken elsewhere (File > Import measurements, --measurements): the file, and where
/// it shows: the table's measured / of-bound / error columns, the charts' diamonds for the table's
/// device, and a line in the status bar with what did not map.
class MeasurementsView : public QObject {
    Q_OBJECT
public:
    MeasurementsView(LayerPane* pane, ChartArea* charts, QObject* parent);

    /// Loads a plain CSV, ncu --csv or PyTorch trace; false and `error` (file, line, reason) when the
    /// file is not usable, and then whatever was shown before stays.
    bool import(const QString& path, QString* error);
    void clear();
    /// Shows the measurements against `report`'s result for the table's device (or hides them).
    void show(const Report* report, int device);

    const std::optional<MeasurementSet>& measurements() const { return m_set; }
    /// "Measured: FILE (format), N layers mapped ... onto DEVICE; P of the bound reached" or empty.
    QString status() const { return m_status; }
    /// The status bar's permanent label (hidden without measurements).
    QLabel* label() const { return m_label; }

signals:
    /// The set changed (imported or cleared): the window shows it again.
    void changed();

private:
    LayerPane* m_pane;
    ChartArea* m_charts;
    QLabel* m_label;
    std::optional<MeasurementSet> m_set;
    QString m_status;
};

} // namespace rfx
