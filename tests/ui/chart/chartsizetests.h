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

inline const QStringList kThree { QStringLiteral("rtx-2060-super"), QStringLiteral("h100-sxm"),
    QStringLiteral("geforce-mx230") };

// What is wrong with the texts of one chart, as sentences (empty: legible).
// `leaders` (point to label): none may cross a text other than the label it ends on, nor another
// leader away from where both start (issue 73 item 8: leaders ran through "ridge 295 FLOP/B").
inline QStringList problems(const std::vector<std::pair<QString, QRectF>>& texts, const QRectF& bounds,
    const std::vector<std::pair<QString, QRectF>>& layerLabels, const std::vector<QLineF>& lines,
    const std::vector<QLineF>& leaders = {})
{
    QStringList out;
    auto box = [](const QRectF& r) {
        return QStringLiteral("(%1,%2 %3x%4)")
            .arg(r.x(), 0, 'f', 0)
            .arg(r.y(), 0, 'f', 0)
            .arg(r.width(), 0, 'f', 0)
            .arg(r.height(), 0, 'f', 0);
    };
    for (size_t i = 0; i < texts.size(); ++i) {
        const auto& [text, r] = texts[i];
        if (text.contains(QChar(0x2026)) || text.contains(QStringLiteral("...")))
            out << QStringLiteral("'%1' is elided").arg(text);
        if (!bounds.adjusted(-0.5, -0.5, 0.5, 0.5).contains(r))
            out << QStringLiteral("'%1' %2 leaves the chart %3").arg(text, box(r), box(bounds));
        for (size_t j = i + 1; j < texts.size(); ++j) {
            const QRectF a = r.adjusted(0.5, 0.5, -0.5, -0.5), b = texts[j].second.adjusted(0.5, 0.5, -0.5, -0.5);
            if (a.intersects(b))
                out << QStringLiteral("'%1' %2 overlaps '%3' %4")
                           .arg(text, box(r), texts[j].first, box(texts[j].second));
        }
    }
    for (const auto& [text, r] : layerLabels)
        for (const QLineF& l : lines)
            if (crosses(l, r.adjusted(0.5, 0.5, -0.5, -0.5)))
                out << QStringLiteral("layer label '%1' %2 is crossed by a roof line").arg(text, box(r));
    // Leaders may meet where they start, among their points' markers (drawn over them): the largest
    // marker's half, 9.5 px, and 2.
    constexpr double kMeet = 12;
    for (size_t i = 0; i < leaders.size(); ++i) {
        const QLineF& l = leaders[i];
        for (const auto& [text, r] : texts) {
            if (r.adjusted(-1, -1, 1, 1).contains(l.p2()))
                continue; // its own label, where it ends
            if (crosses(l, r.adjusted(0.5, 0.5, -0.5, -0.5)))
                out << QStringLiteral("a leader (%1,%2)-(%3,%4) runs through '%5' %6")
                           .arg(l.x1(), 0, 'f', 0)
                           .arg(l.y1(), 0, 'f', 0)
                           .arg(l.x2(), 0, 'f', 0)
                           .arg(l.y2(), 0, 'f', 0)
                           .arg(text, box(r));
        }
        for (size_t j = i + 1; j < leaders.size(); ++j) {
            QPointF at;
            if (QLineF(l.p1(), l.p2()).intersects(leaders[j], &at) == QLineF::BoundedIntersection
                && QLineF(at, l.p1()).length() > kMeet && QLineF(at, leaders[j].p1()).length() > kMeet)
                out << QStringLiteral("leaders (%1,%2)-(%3,%4) and (%5,%6)-(%7,%8) cross")
                           .arg(l.x1(), 0, 'f', 0)
                           .arg(l.y1(), 0, 'f', 0)
                           .arg(l.x2(), 0, 'f', 0)
                           .arg(l.y2(), 0, 'f', 0)
                           .arg(leaders[j].x1(), 0, 'f', 0)
                           .arg(leaders[j].y1(), 0, 'f', 0)
                           .arg(leaders[j].x2(), 0, 'f', 0)
                           .arg(leaders[j].y2(), 0, 'f', 0);
        }
    }
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
