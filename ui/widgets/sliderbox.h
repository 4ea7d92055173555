#pragma once

#include <QString>

#include <functional>

class QSlider;
class QSpinBox;
class QWidget;

namespace rfx {

/// The slider position of `value` on a powers-of-two slider: log2 rounded (48 sits at 64's, 6).
int powerPosition(int value);

/// A slider beside a spin box for one value, kept in step: the box exact; the slider's positions the
/// values from `min` to `sliderMax`, or with `powersOfTwo` one step per power of two (batch 1 to 16
/// were crammed into a few pixels of a linear 1..256 slider), ticks at each. Each moves the other
/// while `*updating` is set (the owner's flag, which also quiets the owner's own writes), then
/// `edited` runs. Both take `tip`; the row (returned) holds them. Used by the configuration's and the
/// language-model mode's panels.
QWidget* sliderBoxRow(QSlider* slider, QSpinBox* box, int min, int max, int sliderMax, bool powersOfTwo,
    const QString& tip, bool* updating, QWidget* context, const std::function<void()>& edited);

} // namespace rfx
