#pragma once

#include "workspace/workspace.h"

#include <QFont>
#include <QObject>

class QAction;
class QDockWidget;
class QMainWindow;
class QTextBrowser;

namespace rfx {

class ChartArea;
class TourPanel;

/// The window for a class: the Explain panel (F9: what the selected layer's numbers mean, worked
/// out), the guided tour docked beside the charts (each page marks on the chart what it explains)
/// and presentation mode (everything 1.5x larger for a projector).
class Teaching : public QObject {
    Q_OBJECT
public:
    /// What it works on: the frame it docks its panels in, the workspace it explains, the charts it
    /// marks and scales, the controls whose dock presentation mode widens.
    struct Parts {
        QMainWindow* frame;
        Workspace* workspace;
        ChartArea* charts;
        QWidget* controls;
        QDockWidget* controlsDock;
    };
    /// Adds the (hidden) Explain dock to the frame and follows the workspace (construct it after the
    /// charts follow the workspace: its tour marks what they show).
    explicit Teaching(const Parts& parts);
    ~Teaching() override;

    QTextBrowser* explainView() const { return m_explain; }
    /// The guided tour's panel (null until Help > Guided tour was opened once).
    TourPanel* tourPanel() const { return m_tour; }

    /// Help > Guided tour: opens the tour beside the charts.
    void showTour();
    void setPresentationMode(bool on);

    /// View > Layer table: presentation mode hides the table on a short window, and shows it again.
    void setTableAction(QAction* action) { m_tableAction = action; }

signals:
    void statusMessage(const QString& message, int timeoutMs);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    /// A new value of the workspace that analysed: the open panels follow (after the charts).
    void follow(Workspace::Parts parts);
    /// The tour's width: a quarter of the window, at least 320 pixels.
    int tourWidth() const;
    /// The tour's pages: the roofline's four, then the language-model mode's when a language model is shown.
    QStringList pages() const;
    void reportChanged();
    void updateExplain();
    int tourDevice() const;
    void updateTourHighlight();

    Parts m_parts;
    static QString tableHiddenText(); ///< what the status bar says while presentation hides the table
    QMainWindow* m_frame;
    QAction* m_tableAction = nullptr;
    QTextBrowser* m_explain;
    QDockWidget* m_explainDock;
    TourPanel* m_tour = nullptr; ///< created on first use
    QDockWidget* m_tourDock = nullptr;
    QFont m_baseFont;
    bool m_tableHiddenForPresentation = false;
};

} // namespace rfx
