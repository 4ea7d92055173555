#include "window/chartroom.h"

#include "chart/chartarea.h"
#include "chart/rooflinechart.h"

#include <QAction>
#include <QDockWidget>
#include <QEvent>
#include <QMainWindow>
#include <QScrollArea>
#include <QSplitter>
#include <QStyle>
#include <QTimer>

#include <algorithm>
#include <utility>

namespace rfx {

ChartRoom::ChartRoom(QMainWindow* window, QScrollArea* area, ChartArea* charts,
    const std::vector<QDockWidget*>& giveWay, QSplitter* splitter)
    : QObject(window)
    , m_window(window)
    , m_area(area)
    , m_charts(charts)
    , m_splitter(splitter)
{
    for (QDockWidget* d : giveWay) {
        m_giveWay.emplace_back(d);
        connect(d, &QDockWidget::visibilityChanged, this, [this, d](bool visible) {
            if (m_acting)
                return;
            // Shown by the user after it gave way: theirs now (the chart scrolls rather than take it).
            auto it = std::find(m_hidden.begin(), m_hidden.end(), d);
            if (visible && it != m_hidden.end()) {
                m_hidden.erase(it);
                m_kept.emplace_back(d);
            }
            schedule();
        });
    }
    // A drag of the splitter is the user's choice of the table's share: it was undone at once (the
    // charts took their useful minimum back), so in presentation at 1280 x 720 the table kept four rows.
    if (splitter)
        connect(splitter, &QSplitter::splitterMoved, this, [this] {
            if (!m_acting)
                m_splitByUser = true;
        });
    window->installEventFilter(this);
    area->installEventFilter(this);
    charts->installEventFilter(this);
}

void ChartRoom::setTableAction(QAction* action)
{
    m_tableAction = action;
    connect(action, &QAction::toggled, this, [this](bool on) {
        if (m_acting)
            return;
        if (on && m_tableHidden) {
            m_tableHidden = false;
            m_tableKept = true;
        }
        schedule();
    });
}

void ChartRoom::schedule()
{
    if (m_pending)
        return;
    m_pending = true;
    QTimer::singleShot(0, this, [this] {
        m_pending = false;
        check();
    });
}

bool ChartRoom::eventFilter(QObject* watched, QEvent* event)
{
    const QEvent::Type t = event->type();
    if (watched == m_window && (t == QEvent::Resize || t == QEvent::ApplicationFontChange || t == QEvent::FontChange)) {
        m_kept.clear(); // a new size or type: the rule decides again
        m_tableKept = false;
    }
    if (t == QEvent::Resize || t == QEvent::LayoutRequest || t == QEvent::ApplicationFontChange
        || t == QEvent::FontChange)
        schedule();
    return QObject::eventFilter(watched, event);
}

void ChartRoom::giveBack()
{
    m_acting = true;
    for (const auto& d : m_hidden)
        if (d)
            d->show();
    m_hidden.clear();
    m_freed = 0;
    if (m_tableHidden && m_tableAction)
        m_tableAction->setChecked(true);
    m_tableHidden = false;
    m_acting = false;
}

std::vector<QDockWidget*> ChartRoom::hiddenDocks() const
{
    std::vector<QDockWidget*> out;
    for (const auto& d : m_hidden)
        if (d)
            out.push_back(d);
    return out;
}

QString ChartRoom::surroundings() const
{
    QString key = QStringLiteral("%1x%2 %3%4")
                      .arg(m_window->width())
                      .arg(m_window->height())
                      .arg(m_charts->charts().size())
                      .arg(m_charts->overlay() ? 'o' : 'g');
    for (QDockWidget* d : m_window->findChildren<QDockWidget*>())
        if (std::find(m_giveWay.begin(), m_giveWay.end(), d) == m_giveWay.end() && d->isVisible())
            key += QLatin1Char(' ') + d->objectName() + d->windowTitle();
    return key;
}

void ChartRoom::settle()
{
    const QString now = surroundings();
    if (now == m_surroundings)
        return;
    m_surroundings = now;
    m_docksReturned = m_tableReturned = m_docksStay = m_tableStay = false;
}

void ChartRoom::check()
{
    if (!m_window->isVisible())
        return;
    settle();
    // The room: the scroll area's whole size (its viewport without scroll bars).
    const QSize full = m_charts->usefulMinimum(false), compact = m_charts->usefulMinimum(true);
    m_acting = true;
    fitHeight(full, compact);
    m_acting = false;
    const QSize room = m_area->size() - QSize(2 * m_area->frameWidth(), 2 * m_area->frameWidth());
    // The width the charts need here, in the arrangement they would take here (a grid of three in a
    // row where the column's room made one of two: measured against the row, the column never came back).
    const int need = m_charts->usefulWidthIn(room);
    if (m_firstStart && need > 0) {
        const std::function<bool()> instead = std::exchange(m_firstStart, nullptr);
        if (room.width() < need && instead())
            return; // the charts lay out again, and this is checked again then
    }
    m_acting = true;
    if (room.width() < need) {
        // The left column gives way, all of it at once (hiding one of two stacked docks frees no width).
        std::vector<QDockWidget*> column;
        for (const auto& d : m_giveWay)
            if (d && d->isVisible() && !d->isFloating() && m_window->dockWidgetArea(d) == Qt::LeftDockWidgetArea
                && std::find(m_kept.begin(), m_kept.end(), d) == m_kept.end())
                column.push_back(d);
        if (!column.empty()) {
            m_docksStay = m_docksReturned;
            int width = 0;
            QStringList names;
            for (QDockWidget* d : column) {
                width = std::max(width, d->width());
                names << d->windowTitle();
                m_hidden.emplace_back(d);
                d->hide();
            }
            m_freed = width + m_window->style()->pixelMetric(QStyle::PM_DockWidgetSeparatorExtent);
            QStringList where;
            for (const QString& n : names)
                where << tr("View \u25b8 %1").arg(n);
            m_dockMessage = names.size() == 1 ? tr("%1 hidden to give the chart room at this size: %2 brings it back")
                                                    .arg(names.front(), where.front())
                                              : tr("%1 hidden to give the chart room at this size: %2 bring them back")
                                                    .arg(names.join(tr(" and ")), where.join(tr(" and ")));
            emit message(m_dockMessage);
        }
    } else if (!m_hidden.empty() && !m_docksStay
        && room.width() - m_freed >= m_charts->usefulWidthIn(room - QSize(m_freed, 0))) {
        for (const auto& d : m_hidden)
            if (d)
                d->show();
        m_hidden.clear();
        m_freed = 0;
        m_docksReturned = true;
        emit withdrawn(m_dockMessage);
    }
    m_acting = false;
}

void ChartRoom::fitHeight(const QSize& full, const QSize& compact)
{
    const int frame = 2 * m_area->frameWidth();
    QWidget* table = m_splitter && m_splitter->count() == 2 ? m_splitter->widget(1) : nullptr;
    const bool tableShown = table && !table->isHidden();
    const int total
        = m_splitter ? m_splitter->height() - (tableShown ? m_splitter->handleWidth() : 0) : m_area->height();
    const int tableMin = table ? table->minimumSizeHint().height() : 0;
    auto give = [&](int charts) { // the splitter's first part to `charts` pixels, the table the rest
        if (!m_splitByUser && m_splitter->sizes().value(0) < charts)
            m_splitter->setSizes({ charts, total - charts });
    };
    int room = m_area->height() - frame;
    if (tableShown && room < full.height() + frame && total - full.height() - frame >= tableMin) {
        give(full.height() + frame);
        room = full.height();
    } else if (tableShown && room < full.height() && total - compact.height() - frame >= tableMin) {
        give(std::max(room + frame, total - tableMin));
        room = total - tableMin - frame;
    }
    const bool useCompact = (tableShown ? room : total - frame) < full.height();
    m_charts->setCompactSummaries(useCompact);
    if (!m_tableAction)
        return;
    if (tableShown && !m_tableKept && total - tableMin - frame < compact.height()) {
        // Not even one-line summaries leave the table its minimum: it steps aside.
        m_tableAction->setChecked(false);
        m_tableHidden = true;
        m_tableStay = m_tableReturned;
        m_tableMessage = tr("Layer table hidden to give the chart room at this size: View \u25b8 Layer table "
                            "(Ctrl+Shift+T) brings it back");
        emit message(m_tableMessage);
    } else if (!tableShown && m_tableHidden && !m_tableStay
        && total - tableMin - m_splitter->handleWidth() - frame >= compact.height()) {
        m_tableAction->setChecked(true);
        m_tableHidden = false;
        m_tableReturned = true;
        emit withdrawn(m_tableMessage);
    }
}

} // namespace rfx
