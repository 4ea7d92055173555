#pragma once

#include "base/enum_words.h"
#include "engine/layerfilter.h"
#include "llm/llm_phase.h"
#include "llm/llm_sweep.h"
#include "model/config.h"

#include <optional>
#include <string>
#include <vector>

namespace rfx {

struct Report;

/// A serving plan's figure (core/serving/plan.h): the targets its best configurations meet.
struct ServingFigure {
    double ttft = 1; ///< second; 0: none
    double tpot = 0.05; ///< second; 0: none
    int users = 0; ///< users served at once (0: no load)
    friend bool operator==(const ServingFigure&, const ServingFigure&) = default;
};

/// Everything needed to draw a roofline figure again: the analysis (configuration and devices), the
/// view (overlay, filter) and the output (format, size, resolution, options). Written next to an
/// export as a sidecar JSON file, so that `roofline-cli reproduce FILE.json` redraws the figure.
struct FigureSpec {
    enum class Format { Png, Svg, Pdf };

    Config config;
    std::vector<std::string> devices; ///< device ids, in chart order
    bool overlay = false;
    bool sharedAxes = false; ///< a grid's charts share one x range, one y range and one unit
    bool powerTicks = false; ///< tick labels as powers of ten (10⁻², 10³) instead of plain numbers
    std::string measurements; ///< a measurement file (plain CSV, ncu CSV, PyTorch trace) drawn beside the model
    std::string measuredDevice; ///< the device id it was measured on; empty: the first device
    std::string calibration; ///< a calibration file: its device's times (and points) are the calibrated ones
    LayerFilter filter;
    /// A language model's phase drawn in place of a network (its rows analysed under llmConfig of its
    /// settings, which `config` then holds); nothing for a network's figure.
    std::optional<LlmWork> llm;
    /// With `llm`: its decode step swept against the context or the batch, in place of the roofline.
    std::optional<LlmSweepAxis> sweep;
    /// With `llm`: its serving plan on the devices (each one's front, the best within the targets), in
    /// place of the roofline; the settings' prompt and generated tokens are the traffic.
    std::optional<ServingFigure> serving;

    Format format = Format::Png;
    std::string file; ///< output path
    double widthIn = 7.0; ///< physical width, inches
    double heightIn = 0; ///< physical height, inches; 0 = chosen from the width and the chart count
    double dpi = 300; ///< raster resolution (PNG pixels per inch; recorded in the file)
    int widthPx = 0, heightPx = 0; ///< explicit pixel size (PNG); overrides widthIn/heightIn at `dpi`
    bool transparent = false;
    bool caption = true; ///< a caption line with the configuration and conventions
    bool sidecar = false; ///< also write FILE.json (this spec)

    friend bool operator==(const FigureSpec&, const FigureSpec&) = default;
};

inline constexpr EnumWord<FigureSpec::Format> kFigureFormatWords[]
    = { { FigureSpec::Format::Png, "png" }, { FigureSpec::Format::Svg, "svg" }, { FigureSpec::Format::Pdf, "pdf" } };
std::string_view formatName(FigureSpec::Format f);
std::optional<FigureSpec::Format> formatFromPath(const std::string& path);

/// Physical size after defaults. heightIn 0: each grid row is cellHeightIn(the cell's width),
/// plus `belowChartsIn` for the legend and caption beneath the charts (the renderer measures them;
/// negative: the estimate, 0.25 in with a caption). Pixel size for rasters: explicit
/// widthPx/heightPx, else inches x dpi (rounded).
struct FigureSize {
    double widthIn, heightIn;
    int widthPx, heightPx;
    /// The caption goes to its own text file (captionFileFor): in the figure it would have made the
    /// figure taller than kMaxFigureHeightIn.
    bool captionOutside = false;
};

/// The tallest figure an automatic height makes, inches: the text height of a US Letter page with
/// 1-inch margins (11 - 2). A 3.5-inch column of three charts with its caption was 11.6 in (issue 73
/// item 8): its caption then goes to a text file beside the figure, and its charts shrink, down to
/// half their width. A height the user gives is kept.
inline constexpr double kMaxFigureHeightIn = 9.0;

/// Where a figure's caption goes when it does not fit the figure: "fig.png" -> "fig.caption.txt".
std::string captionFileFor(const std::string& figureFile);
FigureSize resolveSize(const FigureSpec& spec, int charts, double belowChartsIn = -1);

/// What a figure of this size is, in the units its format has: a PNG in pixels and dots per inch
/// ("2100x1544 px, 300 dpi, 7.00 x 5.15 in"), SVG and PDF in inches and printer's points
/// ("7.00 x 5.15 in, 504 x 371 pt"). The CLI's report and the export dialog say the same.
std::string figureSizeText(const FigureSize& size, FigureSpec::Format format, double dpi);

/// A figure cell's height for its width, inches: 0.62 of it (golden-ish) from 5 inches wide; a
/// narrower cell, 0.8 of it: its title, tick labels and axis titles take the same room at any width,
/// and at 0.62 a 3.5-inch cell kept a plot too flat for the ridge and layer labels.
double cellHeightIn(double cellWidthIn);

/// Grid columns for `charts` charts on screen: 1, 2 (up to 4 charts) or 3.
int gridColumns(int charts);
/// Grid columns for a figure `widthIn` inches wide: as on screen, but never a cell under 3.2 in,
/// so that each chart keeps a readable size (a 3.5-inch column stacks its charts; the page grows).
int figureColumns(int charts, double widthIn);

/// What a figure's caption starts with: the report's title (reportTitle), or for a language model's
/// phase its name and phase only ("Llama-3.1 8B (Meta, 2024) decode"): the settings that follow in
/// the caption say its batch and each tensor's precision (the network's title said "1x1 -> 1x128256,
/// precision as in the file, inference" of a built-in model, issue 73 item 9).
std::string figureTitle(const Report& report, const FigureSpec& spec);

/// The caption stamped on figures: configuration, devices, conventions and the tool version.
std::string figureCaption(const FigureSpec& spec, const std::string& reportTitle, bool cacheAware = false);

/// A sweep figure's caption: the model, what is swept, the settings, the devices, what the lines are
/// (roofline bounds of the decode step) and where they end, the tool's version.
std::string sweepCaption(const FigureSpec& spec, const std::string& modelTitle);

/// A serving plan figure's caption: the model and traffic, the targets, the devices, what the lines,
/// marks and rings are (roofline bounds of continuous batching's steady state), the tool's version.
std::string servingCaption(const FigureSpec& spec, const std::string& modelTitle);

/// The sidecar document (JSON text) and its reader. fromJson reports problems as "field: reason".
std::string figureToJson(const FigureSpec& spec, bool cacheAware = false);
std::optional<FigureSpec> figureFromJson(const std::string& json, std::string& error);

/// The command line that reproduces the figure (roofline-cli export ...).
std::vector<std::string> figureToArgs(const FigureSpec& spec);

/// The ranges a figure must keep (size, dpi, pixels, top N, devices, the configuration), shared by
/// the command line and the sidecar reader: a message naming what is out of range, or nothing.
std::optional<std::string> checkFigureSpec(const FigureSpec& spec);

/// Parses `roofline-cli export` arguments: (--png|--svg|--pdf) FILE, --width-in, --height-in, --dpi,
/// --width-px, --height-px, --overlay, --transparent, --no-caption, --sidecar, --only-convolutions,
/// --top N, --shared-axes, --tick-style plain|power, --measurements FILE, --measured-device ID, and every configuration
/// option; or a language model's phase: --language-model NAME|FILE [--phase decode|prefill] and roofline-cli llm's
/// options (then no network option but --device), with --sweep context|batch for the sweep's figure,
/// or --serving [--ttft T] [--tpot T] [--users N] for the serving plan's.
/// False and `error` on the first problem.
bool parseExportArgs(const std::vector<std::string>& args, FigureSpec& spec, std::string& error);

/// Help for the export options, one per line.
std::string exportOptionsHelp();

} // namespace rfx
