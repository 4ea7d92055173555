#include "cli_export.h"

#include "cli.h"
#include "figure.h"
#include "figurerenderer.h"
#include "measurements.h"
#include "roofline.h"

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
    if (type == QtDebugMsg || type == QtInfoMsg || message.startsWith(QLatin1String("QStandardPaths:")))
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

int draw(const FigureSpec& spec, const std::vector<std::filesystem::path>& dirs, std::ostream& out, std::ostream& err,
    const std::filesystem::path& exeDir)
{
    const DeviceLibrary lib = loadCliDevices(dirs, exeDir, err);
    std::vector<Device> devices;
    if (!resolveDevices(lib, spec.devices, devices, err))
        return ExitUsage;
    AnalysisOutcome outcome = analyzeConfig(spec.config, devices);
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
            || std::any_of(devices.begin(), devices.end(), [&](const Device& d) { return d.id == spec.measuredDevice; });
        if (!known) {
            err << "roofline-cli: --measured-device " << spec.measuredDevice << ": not one of the figure's devices\n";
            return ExitUsage;
        }
    }
    FigureSpec resolved = spec;
    resolved.devices.clear();
    for (const Device& d : devices)
        resolved.devices.push_back(d.id); // "all" is recorded as the ids it meant
    ensureApplication();
    const RenderResult r = renderFigure(*outcome.report, resolved);
    if (!r.ok) {
        err << "roofline-cli: cannot write " << r.error.toStdString() << "\n";
        return ExitFailure;
    }
    out << "wrote " << spec.file << " (" << formatName(spec.format) << ", " << r.pixelSize.width() << "x"
        << r.pixelSize.height() << (spec.format == FigureSpec::Format::Png ? " px" : " px at 96 per inch");
    if (spec.format == FigureSpec::Format::Png)
        out << ", " << spec.dpi << " dpi";
    out << ")" << (spec.sidecar ? ", and " + spec.file + ".json" : std::string()) << "\n";
    return ExitOk;
}

int runExport(const std::vector<std::string>& argsIn, std::ostream& out, std::ostream& err, const std::filesystem::path& exeDir)
{
    std::vector<std::string> args = argsIn;
    std::vector<std::filesystem::path> dirs;
    std::string error;
    FigureSpec spec;
    if (!takeDevicesDirs(args, dirs, error) || !parseExportArgs(args, spec, error)) {
        err << "roofline-cli: " << error << "\nTry 'roofline-cli --help'.\n";
        return ExitUsage;
    }
    return draw(spec, dirs, out, err, exeDir);
}

int runReproduce(const std::vector<std::string>& argsIn, std::ostream& out, std::ostream& err,
    const std::filesystem::path& exeDir)
{
    std::vector<std::string> args = argsIn;
    std::vector<std::filesystem::path> dirs;
    std::string error;
    if (!takeDevicesDirs(args, dirs, error)) {
        err << "roofline-cli: " << error << "\n";
        return ExitUsage;
    }
    std::string sidecar, output;
    for (size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--output" && i + 1 < args.size())
            output = args[++i];
        else if (args[i].starts_with("--")) {
            err << "roofline-cli: reproduce: unknown option '" << args[i] << "'\n";
            return ExitUsage;
        } else if (sidecar.empty())
            sidecar = args[i];
        else {
            err << "roofline-cli: reproduce takes one sidecar file\n";
            return ExitUsage;
        }
    }
    if (sidecar.empty()) {
        err << "roofline-cli: usage: roofline-cli reproduce FIGURE.json [--output FILE]\n";
        return ExitUsage;
    }
    std::ifstream in(sidecar, std::ios::binary);
    if (!in) {
        err << "roofline-cli: " << sidecar << ": cannot open for reading\n";
        return ExitFailure;
    }
    std::stringstream text;
    text << in.rdbuf();
    auto spec = figureFromJson(text.str(), error);
    if (!spec) {
        err << "roofline-cli: " << sidecar << ": " << error << "\n";
        return ExitUsage;
    }
    if (!output.empty()) {
        spec->file = output;
        if (auto f = formatFromPath(output))
            spec->format = *f;
    } else if (QFileInfo(QString::fromStdString(spec->file)).isRelative()) {
        // A relative figure path is relative to the sidecar, so a figure folder can be moved whole.
        spec->file = QFileInfo(QString::fromStdString(sidecar)).dir().filePath(QString::fromStdString(spec->file)).toStdString();
    }
    spec->sidecar = false;
    return draw(*spec, dirs, out, err, exeDir);
}

} // namespace

void registerExportCommands()
{
    registerCliCommand("export", runExport,
        "export (--png|--svg|--pdf) FILE [--width-in 7 --dpi 300 | --width-px W --height-px H] [--overlay] "
        "[configuration options]",
        "draw the roofline figure as PNG, SVG or PDF, with its provenance");
    registerCliCommand("reproduce", runReproduce, "reproduce FIGURE.json [--output FILE]",
        "draw a figure again from its sidecar .json");
}

} // namespace rfx
