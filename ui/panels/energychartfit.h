#pragma once

#include <QStringList>

class QChart;
class QLogValueAxis;
class QObject;

namespace rfx {

/// The energy view's words fitted to each chart's room. Its charts are narrow (three side by side
/// under the roofline) and presentation mode makes their type 1.5 times larger: Qt Charts then cuts
/// each text that runs out of room ("mJ per ...", "1...", "RTX 2060 S...", issue 52 item 7). Each
/// text that may be too long carries briefer forms; from the chart's type and its plot area as Qt
/// laid it out (which none of these choices changes: every form takes one line) this picks the longest form that
/// fits, and ticks the batch axis at every power of 4 rather than of 2 where the labels would touch.
/// (The three charts share one legend, EnergyCharts::legendHtml, which wraps.)
namespace EnergyChartFit {

/// Gives `titled` (a chart or an axis) the forms of its title, longest first; the first is shown
/// until fit() picks the longest that fits (the last where none does).
void setTitles(QObject* titled, const QStringList& longestFirst);
/// The full form of a chart's title (an export draws its charts afresh at its own size).
QString fullTitle(const QChart* chart);
/// Marks a base-2 log axis as the batch axis: every power of 2, or of 4 where those crowd.
void setBatchAxis(QObject* axis);
/// A base-10 log axis titled `title` (its forms) over [lo, hi]: from the decade under `lo` (a labelled
/// tick always shows) to a little past `hi`, whole numbers written out ("1000000", not "1e+06").
QLogValueAxis* decadeAxis(const QStringList& title, double lo, double hi);
/// A figure's type (`fontPx` > 0): the title bold at fontPx, every axis's labels and title at 0.9 of it
/// (at least 10 px); else the window's (EnergyCharts::applyFontScale).
void applyPrintFont(QChart* chart, double fontPx);
/// Decides every choice above for the chart's current size and type.
void fit(QChart* chart);

} // namespace EnergyChartFit

} // namespace rfx
