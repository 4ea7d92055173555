#pragma once
// One look for the whole window: the devices' colours (every chart, every view), the bounds'
// colours, the short device name used where room is short, and the light/dark test.

#include <QApplication>
#include <QColor>
#include <QPalette>
#include <QString>

#include "engine/roofline.h"

#include <cstring>
#include <iterator>
#include <string>

namespace rfx {

inline bool darkPalette() { return QApplication::palette().color(QPalette::Window).lightness() < 128; }

/// Distinct, colour-blind-safe hues (Okabe-Ito) for devices: the same device has the same colour in
/// the roofline chart, its legend and the energy charts.
inline QColor deviceColor(size_t i)
{
    static const QColor colors[]
        = { QColor(0x00, 0x72, 0xb2), QColor(0xd5, 0x5e, 0x00), QColor(0x00, 0x9e, 0x73), QColor(0xcc, 0x79, 0xa7),
              QColor(0xe6, 0x9f, 0x00), QColor(0x56, 0xb4, 0xe9), QColor(0x99, 0x99, 0x99), QColor(0xf0, 0xe4, 0x42) };
    return colors[i % std::size(colors)];
}

inline QColor boundColor(Bound b, bool dark)
{
    if (b == Bound::Memory)
        return dark ? QColor(0xff, 0x8a, 0x3d) : QColor(0xd5, 0x5e, 0x00);
    return dark ? QColor(0x5c, 0xa8, 0xff) : QColor(0x00, 0x5a, 0xb5);
}

/// "NVIDIA GeForce RTX 2060 Super" -> "RTX 2060 Super": legends and compact summaries are narrow;
/// titles and tooltips keep the full name.
inline QString shortDeviceName(const std::string& name)
{
    QString n = QString::fromStdString(name);
    for (const char* prefix : { "NVIDIA ", "GeForce ", "AMD ", "Intel ", "Apple " })
        if (n.startsWith(QLatin1String(prefix)))
            n = n.mid(int(std::strlen(prefix)));
    return n;
}

} // namespace rfx
