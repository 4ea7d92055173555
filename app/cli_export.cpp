// roofline-cli export: the window's charts drawn offscreen in the print style as PNG, SVG or PDF,
// with a sidecar that reproduces them (reproduce: cli_reproduce.cpp).
#include "cli_export.h"

#include "engine/calibration.h"

#include "cli.h"
#include "cli_commands.h"
#include "engine/roofline.h"
#include "figure/figurerenderer.h"
#include "io/figure.h"
#include "io/measurements.h"
#include "llm/llm_analysis.h"
#include "llm/llm_both.h"
#include "llm/llm_files.h"
#include "open/analyses.h"
#include "servingplan/servingfigure.h"
#include "sweep/sweepfigure.h"

#include <QApplication>
#include <QDir>
#include <QFileInfo>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <memory>
#include <ostream>
#include <sstream>

namespace rfx {

namespace {

// Charts are widgets: they need an application object. The CLI draws offscreen, with or without a display.
void quietHandler(QtMsgType type, const QMessageLogContext&, const QString& message)
{
    // Qt's notes about the runtime directory mean nothing to a command-line user; real warnings pass.
    // The offscreen platform's note that it ignores size hints is the same kind of noise.
    if (type == QtDebugMsg || type == QtInfoMsg || message.startsWith(QLatin1String("QStandardPaths:"))
        || message.contains(QLatin1String("propagateSizeHints")))
        return;
    std::fprintf(stderr, "%s\n", qPrintable(message));
}

void ensureApplication()
{
    if (QCoreApplication::instance())
        return;
    qInstallMessageHandler(quietHandler);
    qputenv("QT_QPA_PLATFORM", "offscreen");
    static int argc = 1;
    static char name[] = "roofline-cli";
    static char* argv[] = { name, nullptr };
    static std::unique_ptr<QApplication> app = std::make_unique<QApplication>(argc, argv);
}

// A language model read and analysed as roofline-cli llm does, "as in the file" resolved (16 bits for a
// model without tensor types, recorded in `spec` for its sidecar); nothing after saying why.
struct LlmFigureWork {
    LlmLoad load;
    std::optional<LlmAnalysis> analysis;
};
LlmFigureWork analyzeLlmFigure(FigureSpec& spec, const std::vector<Device>& devices, std::ostream& err)
{
    LlmWork& w = *spec.llm;
    LlmFigureWork out { loadLanguageModel(w.model), std::nullopt };
    if (!out.load.model) {
        err << "roofline-cli: cannot use the language model: " << out.load.error << "\n";
        return out;
    }
    if (w.settings.weightBits == 0 && !llmStoresTypes(*out.load.model))
        w.settings.weightBits = 16;
    LlmOutcome outcome = analyzeLlm(*out.load.model, w.settings, devices);
    if (!outcome.analysis)
        err << "roofline-cli: " << outcome.error << "\n";
    out.analysis = std::move(outcome.analysis);
    return out;
}

// What was written, in the format's units; or why not.
int reportWritten(const RenderResult& r, const FigureSpec& spec, std::ostream& out, std::ostream& err)
{
    if (!r.ok) {
        err << "roofline-cli: cannot write " << r.error.toStdString() << "\n";
        return ExitFailure;
    }
    out << "wrote " << spec.file << " (" << formatName(spec.format) << ", "
        << figureSizeText(r.size, spec.format, spec.dpi) << ")"
        << (spec.sidecar ? ", and " + spec.file + ".json" : std::string()) << "\n";
    if (!r.captionFile.isEmpty())
        out << "its caption is in " << r.captionFile.toStdString()
            << ": in the figure it would have made it taller than " << kMaxFigureHeightIn
            << " in, a page's text (--height-in keeps it in, the charts smaller)\n";
    return ExitOk;
}

// A language model's sweep (spec.sweep): the model read and analysed as for its phase, then swept.
int drawSweep(FigureSpec& spec, const std::vector<Device>& devices, std::ostream& out, std::ostream& err)
{
    const LlmFigureWork work = analyzeLlmFigure(spec, devices, err);
    if (!work.analysis)
        return ExitUsage;
    spec.devices.clear();
    for (const Device& d : devices)
        spec.devices.push_back(d.id);
    ensureApplication();
    return reportWritten(renderSweepFigure(*work.load.model, *work.analysis, devices, spec), spec, out, err);
}

// A language model's serving plan (spec.serving): the model read, then planned on the devices.
int drawServing(FigureSpec& spec, const std::vector<Device>& devices, std::ostream& out, std::ostream& err)
{
    const LlmLoad load = loadLanguageModel(spec.llm->model);
    if (!load.model) {
        err << "roofline-cli: cannot use the language model: " << load.error << "\n";
        return ExitUsage;
    }
    spec.devices.clear();
    for (const Device& d : devices)
        spec.devices.push_back(d.id);
    ensureApplication();
    return reportWritten(renderServingFigure(*load.model, devices, spec), spec, out, err);
}

// A language model's phase as the figure's report; `spec` gets the configuration the phase was
// analysed under (its caption's conventions).
AnalysisOutcome analyzeLlmPhase(FigureSpec& spec, const std::vector<Device>& devices, std::ostream& err)
{
    const LlmFigureWork work = analyzeLlmFigure(spec, devices, err);
    if (!work.analysis)
        return {};
    AnalysisOutcome out;
    out.report = spec.llm->phase == LlmPhase::Both ? bothPhases(*work.analysis)
        : spec.llm->phase == LlmPhase::Prefill     ? work.analysis->prefill
                                                   : work.analysis->decode;
    spec.config = out.report->config;
    return out;
}

} // namespace

int drawFigure(const FigureSpec& spec, const std::vector<std::filesystem::path>& dirs, std::ostream& out,
    std::ostream& err, const std::filesystem::path& exeDir)
{
    const DeviceLibrary lib = loadCliDevices(dirs, exeDir, err);
    std::vector<Device> devices;
    if (!resolveDevices(lib, spec.devices, devices, err))
        return ExitUsage;
    FigureSpec resolved = spec;
    if (spec.sweep)
        return drawSweep(resolved, devices, out, err);
    if (spec.serving)
        return drawServing(resolved, devices, out, err);
    AnalysisOutcome outcome = spec.llm ? analyzeLlmPhase(resolved, devices, err) : analyzeConfig(spec.config, devices);
    if (spec.llm && !outcome.report)
        return ExitUsage; // said
    if (!outcome.report) {
        err << configFailure(spec.config, outcome.error) << "\n";
        return ExitUsage;
    }
    if (!spec.measurements.empty()) {
        // A bad measurement file is the user's input: exit 2 with its file, line and reason.
        const MeasurementSet set = loadMeasurements(spec.measurements);
        if (!set.ok()) {
            for (const Diagnostic& d : set.diagnostics)
                if (d.severity == Severity::Error) {
                    err << "roofline-cli: " << toString(d) << "\n";
                    break;
                }
            return ExitUsage;
        }
        const bool known = spec.measuredDevice.empty()
            || std::any_of(
                devices.begin(), devices.end(), [&](const Device& d) { return d.id == spec.measuredDevice; });
        if (!known) {
            err << "roofline-cli: --measured-device " << spec.measuredDevice << ": not one of the figure's devices\n";
            return ExitUsage;
        }
    }
    if (auto code = applyCalibrationFile(spec.calibration, *outcome.report, err))
        return *code;
    if (!spec.calibration.empty())
        *outcome.report = calibratedView(*outcome.report);
    resolved.devices.clear();
    for (const Device& d : devices)
        resolved.devices.push_back(d.id); // "all" is recorded as the ids it meant
    ensureApplication();
    return reportWritten(renderFigure(*outcome.report, resolved), spec, out, err);
}

namespace {

int runExport(
    const std::vector<std::string>& argsIn, std::ostream& out, std::ostream& err, const std::filesystem::path& exeDir)
{
    std::vector<std::string> args = argsIn;
    std::vector<std::filesystem::path> dirs;
    std::string error;
    FigureSpec spec;
    if (!takeDevicesDirs(args, dirs, error) || !parseExportArgs(args, spec, error))
        return usageError(err, error); // with export's usage, as every command's usage errors

    return drawFigure(spec, dirs, out, err, exeDir);
}

} // namespace

void registerExportCommands()
{
    registerCliCommand({ "export", runExport,
        { "export (--png|--svg|--pdf) FILE [--width-in 7 --dpi 300 | --width-px W --height-px H] [--overlay]",
            "       [configuration options]",
            "export (--png|--svg|--pdf) FILE --language-model M [llm options] [--phase decode|prefill|both] [--sweep "
            "context|batch]",
            "       [--serving [--ttft T] [--tpot T] [--users N]]" },
        "draw the roofline figure as PNG, SVG or PDF, with its provenance (a caption, metadata, and with "
        "--sidecar a .json that reproduces it); the size is said in the format's units",
        "", true, true });
    registerCliCommand({ "reproduce", runReproduce, { "reproduce FIGURE.json [--output FILE]" },
        "draw a figure again from its sidecar .json",
        "  --output FILE              where to write (default: the file the sidecar names, beside it)\n" });
}

} // namespace rfx
