// The decades grown so that no marker is cut by the plot's frame (fitToData's bounds, grown), and
// the plot's later changes followed without cycling.
#include "chart/rooflinechart_p.h"

#include <QChart>
#include <QScopedValueRollback>

#include <algorithm>
#include <cmath>

namespace rfx {

bool RooflineChart::growForPlot()
{
    // Laid out at last (a figure's cell, a narrower window): a marker the new plot would cut grows
    // its axis; once, not from inside the rebuild that grows it.
    if (m_growing || m_report->results.empty())
        return false;
    const QScopedValueRollback<bool> growing(m_growing, true);
    const std::array<int, 4> before = m_grown;
    const QSizeF plot = m_chart->plotArea().size();
    if (!growForMarkers(m_chart->plotArea()))
        return false;
    const auto seen = std::find_if(
        m_growSteps.begin(), m_growSteps.end(), [&](const GrowStep& s) { return s.plot == plot && s.grown == before; });
    if (seen != m_growSteps.end()) {
        // Back at a plot and decades seen: a cycle. The most of each side it had.
        for (auto it = seen; it != m_growSteps.end(); ++it)
            for (size_t i = 0; i < m_grown.size(); ++i)
                m_grown[i] = std::max({ m_grown[i], before[i], it->grown[i] });
    } else if (m_growSteps.size() >= 16) {
        m_grown = before; // a longer walk than any layout makes: stop where it is
    } else {
        m_growSteps.push_back({ plot, before });
    }
    if (m_grown == before)
        return false;
    rebuild();
    return true;
}

bool RooflineChart::growForMarkers(const QRectF& plot)
{
    // A point's marker is never cut by the plot's frame: a square at 900 FLOP/B on an axis ending at
    // 1000 showed half of itself. Where one would cross an edge, that side grows a decade (then all
    // are looked at again: a decade more makes every decade narrower). A decade is added only where
    // it clears the marker: in a plot too small for that it would only squeeze the data. A zoomed
    // view is the user's and is left. Above the ridge's ring, room for its label: a 7-inch grid's A100
    // cell had 20 px over its roof and no ridge label.
    std::array<int, 4> grown {};
    if (!m_zoomed && plot.width() > 0 && plot.height() > 0 && m_xhi > m_xlo && m_yhi > m_ylo) {
        for (int pass = 0; pass < 4; ++pass) {
            bool again = false;
            const double lo[] = { m_xlo / std::pow(10.0, grown[0]), m_ylo / std::pow(10.0, grown[2]) };
            const double hi[] = { m_xhi * std::pow(10.0, grown[1]), m_yhi * std::pow(10.0, grown[3]) };
            for (const Mark& k : m_marks) {
                if (!(k.x > 0) || !(k.y > 0))
                    continue;
                for (int side = 0; side < 4 && !again; ++side) {
                    const int axis = side / 2; // 0: x, 1: y
                    const bool high = side % 2 == 1;
                    const double room = (axis == 1 && high ? std::max(k.radius, k.above) : k.radius) + 1;
                    const double v = axis == 0 ? k.x : k.y;
                    const double length = axis == 0 ? plot.width() : plot.height();
                    const double decades = std::log10(hi[axis] / lo[axis]);
                    const double distance = std::abs(std::log10((high ? hi[axis] : lo[axis]) / v));
                    if (distance * length / decades >= room)
                        continue;
                    if ((distance + 1) * length / (decades + 1) < room)
                        continue; // too small a plot for a decade to help
                    ++grown[size_t(axis * 2 + (high ? 1 : 0))];
                    again = true;
                }
                if (again)
                    break;
            }
            if (!again)
                break;
        }
    }
    if (grown == m_grown)
        return false;
    m_grown = grown;
    return true;
}

} // namespace rfx
