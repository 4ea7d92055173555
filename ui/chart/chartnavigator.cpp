#include "chart/chartnavigator.h"

#include <QChart>
#include <QChartView>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QRubberBand>
#include <QWheelEvent>

#include <cmath>

namespace rfx {

namespace {
constexpr int kDragThreshold = 6; // pixels before a press becomes a rubber band
constexpr double kWheelStep = 1.25; // zoom per wheel notch
} // namespace

ChartNavigator::ChartNavigator(QChartView* view, GetFn current, SetFn setView, ResetFn reset)
    : QObject(view)
    , m_view(view)
    , m_current(std::move(current))
    , m_set(std::move(setView))
    , m_reset(std::move(reset))
    , m_band(new QRubberBand(QRubberBand::Rectangle, view->viewport()))
{
    if (view->focusPolicy() == Qt::NoFocus)
        view->setFocusPolicy(Qt::ClickFocus);
    view->installEventFilter(this);
    view->viewport()->installEventFilter(this);
}

QPointF ChartNavigator::toValue(QPointF viewportPos) const
{
    const Range r = m_current();
    const QRectF plot = m_view->mapFromScene(m_view->chart()->mapToScene(m_view->chart()->plotArea())).boundingRect();
    const double fx = (viewportPos.x() - plot.left()) / std::max(1.0, plot.width());
    const double fy = (plot.bottom() - viewportPos.y()) / std::max(1.0, plot.height());
    const double lx = std::log10(r.xlo) + fx * std::log10(r.xhi / r.xlo);
    const double ly = std::log10(r.ylo) + fy * std::log10(r.yhi / r.ylo);
    return { std::pow(10.0, lx), std::pow(10.0, ly) };
}

ChartNavigator::Range ChartNavigator::zoomedAbout(QPointF at, double factor) const
{
    const Range r = m_current();
    const QPointF v = toValue(at);
    // In log space the point under the cursor stays where it is.
    auto zoom = [factor](double lo, double hi, double c) {
        const double l = std::log10(c);
        return std::pair { std::pow(10.0, l - (l - std::log10(lo)) / factor),
            std::pow(10.0, l + (std::log10(hi) - l) / factor) };
    };
    const auto [xlo, xhi] = zoom(r.xlo, r.xhi, v.x());
    const auto [ylo, yhi] = zoom(r.ylo, r.yhi, v.y());
    return { xlo, xhi, ylo, yhi };
}

ChartNavigator::Range ChartNavigator::rangeOf(QRectF rect) const
{
    const QPointF a = toValue(rect.bottomLeft()), b = toValue(rect.topRight());
    return { std::min(a.x(), b.x()), std::max(a.x(), b.x()), std::min(a.y(), b.y()), std::max(a.y(), b.y()) };
}

void ChartNavigator::pan(double dxFraction, double dyFraction)
{
    const Range r = m_current();
    const double kx = std::pow(r.xhi / r.xlo, dxFraction), ky = std::pow(r.yhi / r.ylo, dyFraction);
    m_set({ r.xlo * kx, r.xhi * kx, r.ylo * ky, r.yhi * ky });
}

bool ChartNavigator::eventFilter(QObject* watched, QEvent* event)
{
    switch (event->type()) {
    case QEvent::Wheel: {
        if (watched != m_view->viewport())
            break;
        auto* e = static_cast<QWheelEvent*>(event);
        const double notches = e->angleDelta().y() / 120.0;
        if (notches == 0)
            break;
        m_set(zoomedAbout(e->position(), std::pow(kWheelStep, notches)));
        m_view->setFocus(Qt::MouseFocusReason); // so that Home, arrows, + and - reach this chart next
        e->accept();
        return true;
    }
    case QEvent::MouseButtonPress: {
        auto* e = static_cast<QMouseEvent*>(event);
        if (watched != m_view->viewport())
            break;
        if (e->button() == Qt::MiddleButton) {
            m_panning = true;
            m_panFrom = e->position().toPoint();
            return true;
        }
        if (e->button() == Qt::LeftButton) {
            m_pressAt = e->position().toPoint();
            m_banding = false;
        }
        break; // a press may be a click on a point: the chart sees it
    }
    case QEvent::MouseMove: {
        auto* e = static_cast<QMouseEvent*>(event);
        if (watched != m_view->viewport())
            break;
        if (m_panning) {
            const QRectF plot = m_view->chart()->plotArea();
            const QPoint d = e->position().toPoint() - m_panFrom;
            m_panFrom = e->position().toPoint();
            pan(-d.x() / std::max(1.0, plot.width()), d.y() / std::max(1.0, plot.height()));
            return true;
        }
        if (e->buttons() & Qt::LeftButton) {
            const QPoint p = e->position().toPoint();
            if (!m_banding && (p - m_pressAt).manhattanLength() > kDragThreshold)
                m_banding = true;
            if (m_banding) {
                m_band->setGeometry(QRect(m_pressAt, p).normalized());
                m_band->show();
                return true;
            }
        }
        break;
    }
    case QEvent::MouseButtonRelease: {
        auto* e = static_cast<QMouseEvent*>(event);
        if (watched != m_view->viewport())
            break;
        if (e->button() == Qt::MiddleButton && m_panning) {
            m_panning = false;
            return true;
        }
        if (e->button() == Qt::LeftButton && m_banding) {
            m_banding = false;
            m_band->hide();
            const QRect r = QRect(m_pressAt, e->position().toPoint()).normalized();
            if (r.width() > 4 && r.height() > 4)
                m_set(rangeOf(r));
        }
        break;
    }
    case QEvent::KeyPress: {
        if (watched != m_view)
            break;
        auto* e = static_cast<QKeyEvent*>(event);
        const QPointF centre = m_view->viewport()->rect().center();
        switch (e->key()) {
        case Qt::Key_Left:
            pan(-0.1, 0);
            return true;
        case Qt::Key_Right:
            pan(0.1, 0);
            return true;
        case Qt::Key_Up:
            pan(0, 0.1);
            return true;
        case Qt::Key_Down:
            pan(0, -0.1);
            return true;
        case Qt::Key_Plus:
        case Qt::Key_Equal:
            m_set(zoomedAbout(centre, kWheelStep));
            return true;
        case Qt::Key_Minus:
            m_set(zoomedAbout(centre, 1 / kWheelStep));
            return true;
        case Qt::Key_Home:
            m_reset();
            return true;
        default:
            break;
        }
        break;
    }
    default:
        break;
    }
    return QObject::eventFilter(watched, event);
}

} // namespace rfx
