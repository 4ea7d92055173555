#pragma once

#include "io/figure.h"

#include <QDialog>

#include <functional>

class QCheckBox;
class QLabel;
class QComboBox;
class QDoubleSpinBox;
class QLineEdit;
class QSpinBox;

namespace rfx {

/// Asks how to export the chart: file and format, physical width (a 3.5-inch column, a 7-inch page,
/// custom inches or exact pixels), resolution, caption, transparency and sidecar.
class ExportDialog : public QDialog {
    Q_OBJECT
public:
    explicit ExportDialog(const QString& suggestedFile, QWidget* parent = nullptr);

    /// The output part of a FigureSpec (format, file, size, options); the caller adds the analysis.
    FigureSpec spec() const;
    void setFile(const QString& file);
    /// How big the figure the dialog describes would be (its height follows from its content): the
    /// dialog shows it, in the pixel fields (greyed) and in words, as the choices change.
    void setMeasure(std::function<FigureSize(const FigureSpec&)> measure);

    /// The size now shown in words, for tests.
    QString sizeText() const;

private:
    void updateEnabled();
    void updateSize();
    std::function<FigureSize(const FigureSpec&)> m_measure;
    QLabel* m_sizeNote;

    QLineEdit* m_file;
    QComboBox* m_size;
    QDoubleSpinBox* m_width;
    QSpinBox* m_widthPx;
    QSpinBox* m_heightPx;
    QComboBox* m_dpi;
    QCheckBox* m_caption;
    QCheckBox* m_transparent;
    QCheckBox* m_sidecar;
};

} // namespace rfx
