#include "widgets/sliderbox.h"

#include <QHBoxLayout>
#include <QSlider>
#include <QSpinBox>

#include <algorithm>
#include <cmath>

namespace rfx {

int powerPosition(int value) { return int(std::lround(std::log2(std::max(value, 1)))); }

QWidget* sliderBoxRow(QSlider* slider, QSpinBox* box, int min, int max, int sliderMax, bool powersOfTwo,
    const QString& tip, bool* updating, QWidget* context, const std::function<void()>& edited)
{
    auto* row = new QWidget;
    auto* h = new QHBoxLayout(row);
    h->setContentsMargins(0, 0, 0, 0);
    if (powersOfTwo) {
        slider->setRange(powerPosition(min), powerPosition(sliderMax));
        slider->setPageStep(1);
        slider->setTickPosition(QSlider::TicksBelow);
        slider->setTickInterval(1);
    } else {
        slider->setRange(min, sliderMax);
    }
    slider->setTracking(true); // live: every step while dragging
    box->setRange(min, max);
    box->setKeyboardTracking(false);
    slider->setToolTip(tip);
    box->setToolTip(tip);
    h->addWidget(slider, 1);
    h->addWidget(box);
    QObject::connect(slider, &QSlider::valueChanged, context, [box, powersOfTwo, updating, edited](int v) {
        if (*updating)
            return;
        *updating = true;
        box->setValue(powersOfTwo ? 1 << v : v);
        *updating = false;
        edited();
    });
    QObject::connect(box, &QSpinBox::valueChanged, context, [slider, powersOfTwo, updating, edited](int v) {
        if (*updating)
            return;
        *updating = true;
        slider->setValue(std::min(powersOfTwo ? powerPosition(v) : v, slider->maximum()));
        *updating = false;
        edited();
    });
    return row;
}

} // namespace rfx
