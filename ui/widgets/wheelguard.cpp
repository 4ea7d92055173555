#include "widgets/wheelguard.h"

#include <QAbstractScrollArea>
#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QEvent>
#include <QWheelEvent>
#include <QWidget>

namespace rfx {

namespace {
/// The control a wheel event over `object` would change: the object itself, or the spin box or
/// combo box that owns it (their line edits receive the event first).
QWidget* guardedControl(const QObject* object)
{
    auto* w = qobject_cast<QWidget*>(const_cast<QObject*>(object));
    for (int depth = 0; w && depth < 2; ++depth, w = w->parentWidget())
        if (qobject_cast<QComboBox*>(w) || qobject_cast<QAbstractSpinBox*>(w) || qobject_cast<QAbstractSlider*>(w))
            return w;
    return nullptr;
}
} // namespace

void WheelGuard::install()
{
    QCoreApplication* app = QCoreApplication::instance();
    if (!app || app->findChild<WheelGuard*>(QString(), Qt::FindDirectChildrenOnly))
        return;
    app->installEventFilter(new WheelGuard(app));
}

bool WheelGuard::guards(const QObject* object) { return guardedControl(object) != nullptr; }

bool WheelGuard::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() == QEvent::Polish) {
        // Scroll bars are sliders too, but they exist to take the wheel: they are left alone.
        if (QWidget* control = guardedControl(watched);
            control == watched && control->focusPolicy() == Qt::WheelFocus && !control->inherits("QScrollBar"))
            control->setFocusPolicy(Qt::StrongFocus);
        return false;
    }
    if (event->type() != QEvent::Wheel)
        return false;
    QWidget* control = guardedControl(watched);
    if (!control || control->hasFocus() || control->inherits("QScrollBar"))
        return false;
    // Not focused: not for this control. The enclosing scroll area scrolls instead: the event is
    // handed to its viewport here (Qt propagates an ignored wheel event to the parents only when it
    // came from the window system), and taken, so that nothing else sees it twice.
    for (QWidget* p = control->parentWidget(); p; p = p->parentWidget())
        if (auto* area = qobject_cast<QAbstractScrollArea*>(p)) {
            QWidget* viewport = area->viewport();
            const auto* wheel = static_cast<QWheelEvent*>(event);
            const QPointF pos = viewport->mapFromGlobal(wheel->globalPosition());
            QWheelEvent forwarded(pos, wheel->globalPosition(), wheel->pixelDelta(), wheel->angleDelta(),
                wheel->buttons(), wheel->modifiers(), wheel->phase(), wheel->inverted(), wheel->source());
            QCoreApplication::sendEvent(viewport, &forwarded);
            event->accept();
            return true;
        }
    event->ignore(); // no panel to scroll: the parents may use it
    return true;
}

} // namespace rfx
