#pragma once

#include <QObject>
#include <QPointer>

#include <functional>
#include <vector>

class QAction;
class QDockWidget;
class QSplitter;
class QMainWindow;
class QScrollArea;

namespace rfx {

class ChartArea;

/// Keeps the charts legible in the window. The charts have a minimum useful size, at which every
/// text is whole (ChartArea::usefulMinimum); when the room the window leaves them is smaller:
///  - in height, the splitter gives the charts their height down to the table's minimum, then the
///    summaries shrink to one line per device, then the layer table steps aside;
///  - in width, the left column's docks (Configuration, Devices) give way.
/// What gives way is hidden with a status message that says how to bring it back, and returns by
/// itself when the room does (a larger window, presentation mode off, the tour closed). A panel the
/// user shows again is theirs: it is not hidden again until the window's size or type changes.
class ChartRoom : public QObject {
    Q_OBJECT
public:
    /// `area` holds `charts` and is the first of `splitter`'s two parts; the table is the second.
    ChartRoom(QMainWindow* window, QScrollArea* area, ChartArea* charts, const std::vector<QDockWidget*>& giveWay,
        QSplitter* splitter);
    /// The View menu's table action, through which the table steps aside and returns.
    void setTableAction(QAction* action);
    /// A first start's choice before the column gives way: `instead` puts every device on one chart
    /// and says so, returning true if it did. Asked once, at the first check that has charts, and
    /// only if they do not fit beside the column (issue 73 item 4: a first start at 1024 x 640 with
    /// three devices hid Configuration and Devices, and a newcomer saw no control).
    void setFirstStart(std::function<bool()> instead) { m_firstStart = std::move(instead); }
    /// Checks the room once the layout has settled (coalesced).
    void schedule();
    /// Shows again what gave way, so that the window's saved layout is the user's own, not this
    /// size's (called as the window closes: a next start at a larger size had them hidden for good).
    void giveBack();
    /// The docks now hidden to give the charts room (for tests).
    std::vector<QDockWidget*> hiddenDocks() const;

signals:
    void message(const QString& text);
    /// What `text` said no longer holds (the panel or the table is back): the window clears it if it
    /// still shows it ("Layer table hidden..." stayed its ten seconds with the table in view).
    void withdrawn(const QString& text);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void check();
    void fitHeight(const QSize& full, const QSize& compact);
    /// What the room's own giving way does not change: the window's size, the charts shown, the
    /// docks outside the column. A return undone within one such state is not taken again in it.
    QString surroundings() const;
    void settle();
    QMainWindow* m_window;
    QScrollArea* m_area;
    ChartArea* m_charts;
    QSplitter* m_splitter;
    QPointer<QAction> m_tableAction;
    bool m_tableHidden = false; ///< the table stepped aside for the charts
    bool m_tableKept = false; ///< shown again by the user
    bool m_splitByUser
        = false; ///< the user moved the splitter: theirs now (the charts scroll rather than take it back)
    std::vector<QPointer<QDockWidget>> m_giveWay;
    std::vector<QPointer<QDockWidget>> m_hidden;
    std::vector<QPointer<QDockWidget>> m_kept; ///< shown again by the user: left alone
    int m_freed = 0; ///< the width the hidden column took, pixels
    QString m_dockMessage, m_tableMessage; ///< what was said when they gave way
    std::function<bool()> m_firstStart;
    /// A return that undid itself stays out: the column's return re-arranged the grid so that the
    /// table no longer fitted, the table's return so that the column no longer did, and five charts
    /// at 1400 x 900 flipped between the four states forever (none of them met every rule). Each part
    /// returns at most once in the same surroundings; given way again there, it stays away until
    /// they change.
    QString m_surroundings;
    bool m_docksReturned = false, m_tableReturned = false;
    bool m_docksStay = false, m_tableStay = false;
    bool m_pending = false;
    bool m_acting = false;
};

} // namespace rfx
