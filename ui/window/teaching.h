#pragma once

#include <QFont>
#include <QObject>

class QDockWidget;
class QTextBrowser;

namespace rfx {

class MainWindow;
class TourPanel;

/// The window for a class: the Explain panel (F9: what the selected layer's numbers mean, worked
/// out), the guided tour docked beside the charts (each page marks on the chart what it explains)
/// and presentation mode (everything 1.5x larger for a projector).
class Teaching : public QObject {
    Q_OBJECT
public:
    /// Adds the (hidden) Explain dock to `window`.
    explicit Teaching(MainWindow* window);
    ~Teaching() override;

    QTextBrowser* explainView() const { return m_explain; }
    /// The guided tour's panel (null until Help > Guided tour was opened once).
    TourPanel* tourPanel() const { return m_tour; }

    /// Help > Guided tour: opens the tour beside the charts.
    void showTour();
    void setPresentationMode(bool on);

    /// The window shows a new report, layer or device: the open panels follow.
    void reportChanged();
    void updateExplain();

private:
    int tourDevice() const;
    void updateTourHighlight();

    MainWindow* m_window;
    QTextBrowser* m_explain;
    QDockWidget* m_explainDock;
    TourPanel* m_tour = nullptr; ///< created on first use
    QDockWidget* m_tourDock = nullptr;
    QFont m_baseFont;
    bool m_tableHiddenForPresentation = false;
};

} // namespace rfx
