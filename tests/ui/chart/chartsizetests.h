#pragma once
// What the tst_chartsizes* tests share: three devices, what is wrong with one chart's texts, and a
// wait for the layout to settle.
#include "style/chartfit.h"

#include <QCoreApplication>
#include <QLineF>
#include <QRectF>
#include <QStringList>
#include <QTest>

#include <utility>
#include <vector>

namespace rfx::chartsizetest {

inline const QStringList kThree { QStringLiteral("rtx-2060-super"), QStringLiteral("h100-sxm"), QStringLiteral("geforce-mx230") };

// What is wrong with the texts of one chart, as sentences (empty: legible).
inline QStringList problems(const std::vector<std::pair<QString, QRectF>>& texts, const QRectF& bounds,
    const std::vector<std::pair<QString, QRectF>>& layerLabels, const std::vector<QLineF>& lines)
{
    QStringList out;
    auto box = [](const QRectF& r) { return QStringLiteral("(%1,%2 %3x%4)").arg(r.x(), 0, 'f', 0).arg(r.y(), 0, 'f', 0).arg(r.width(), 0, 'f', 0).arg(r.height(), 0, 'f', 0); };
    for (size_t i = 0; i < texts.size(); ++i) {
        const auto& [text, r] = texts[i];
        if (text.contains(QChar(0x2026)) || text.contains(QStringLiteral("...")))
            out << QStringLiteral("'%1' is elided").arg(text);
        if (!bounds.adjusted(-0.5, -0.5, 0.5, 0.5).contains(r))
            out << QStringLiteral("'%1' %2 leaves the chart %3").arg(text, box(r), box(bounds));
        for (size_t j = i + 1; j < texts.size(); ++j) {
            const QRectF a = r.adjusted(0.5, 0.5, -0.5, -0.5), b = texts[j].second.adjusted(0.5, 0.5, -0.5, -0.5);
            if (a.intersects(b))
                out << QStringLiteral("'%1' %2 overlaps '%3' %4").arg(text, box(r), texts[j].first, box(texts[j].second));
        }
    }
    for (const auto& [text, r] : layerLabels)
        for (const QLineF& l : lines)
            if (crosses(l, r.adjusted(0.5, 0.5, -0.5, -0.5)))
                out << QStringLiteral("layer label '%1' %2 is crossed by a roof line").arg(text, box(r));
    return out;
}

inline void settle()
{
    for (int i = 0; i < 8; ++i) {
        QCoreApplication::processEvents();
        QTest::qWait(5);
    }
}

} // namespace rfx::chartsizetest
