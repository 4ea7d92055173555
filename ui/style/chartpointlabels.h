#pragma once

#include <QColor>
#include <QFont>
#include <QObject>
#include <QPointF>
#include <QRectF>
#include <QString>

#include <utility>
#include <vector>

class QAbstractSeries;
class QChart;
class QGraphicsLineItem;
class QGraphicsSimpleTextItem;

namespace rfx {

/// Names chosen points of a QChart, placed as the roofline chart places its layer names
/// (placeLabels): inside the plot area (never over an axis or the frame), clear of every point the
/// chart draws and of each other. Qt Charts' own point labels sit centred above their point
/// whatever is there ("256x8 @80%" ran over the y axis's "3000"; "32x8 @85%" under the next
/// device's points). Placed again whenever the plot area changes. A label with no free spot beside
/// its point goes further out with a hairline to it; one with none at all is left out (leftOut()).
class ChartPointLabels : public QObject {
    Q_OBJECT
public:
    struct Label {
        QAbstractSeries* series = nullptr; ///< the series whose axes map `value`
        QPointF value; ///< the point, in the series' values
        QString text;
        QColor color;
    };

    /// The labels of `chart` (made on first use, a child of the chart, so it lives as long).
    static ChartPointLabels* of(QChart* chart);

    void setLabels(std::vector<Label> labels);
    void setFont(const QFont& font);
    /// Places the labels for the chart's current plot area and points.
    void place();

    /// The labels drawn, with their boxes in the chart's coordinates; for tests.
    std::vector<std::pair<QString, QRectF>> shown() const;
    /// How many labels found no place.
    int leftOut() const { return m_leftOut; }

private:
    explicit ChartPointLabels(QChart* chart);
    QChart* m_chart;
    std::vector<Label> m_labels;
    std::vector<QGraphicsSimpleTextItem*> m_items;
    std::vector<QGraphicsLineItem*> m_leaders;
    QFont m_font;
    int m_leftOut = 0;
};

} // namespace rfx
