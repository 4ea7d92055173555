#pragma once

#include <QObject>

namespace rfx {

/// Keeps the mouse wheel from changing a setting nobody asked to change. Scrolling a panel, the wheel
/// passes over combo boxes, spin boxes and sliders; Qt gives it to whichever is under the pointer, which
/// then changes its value (a Convolution combo turned from "direct" to "auto" while the user scrolled).
/// Installed once on the application: such a control takes the wheel only while it has the keyboard
/// focus (click or Tab into it first); otherwise the wheel event goes on to its parent, so the panel
/// scrolls. The controls get Qt::StrongFocus, so that the wheel alone never focuses them.
class WheelGuard : public QObject {
    Q_OBJECT
public:
    /// Installs the guard on the running application (once; later calls do nothing).
    static void install();
    /// True for the widgets the guard keeps the wheel from: combo boxes, spin boxes and sliders,
    /// and the line edit inside a spin box.
    static bool guards(const QObject* object);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    using QObject::QObject;
};

} // namespace rfx
