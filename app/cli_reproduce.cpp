// roofline-cli reproduce: a figure drawn again from its sidecar .json (a relative figure path is
// relative to the sidecar, so a figure folder can be moved whole).
#include "cli_export.h"

#include "cli.h"
#include "io/figure.h"

#include <QDir>
#include <QFileInfo>

#include <fstream>
#include <sstream>

namespace rfx {

int runReproduce(
    const std::vector<std::string>& argsIn, std::ostream& out, std::ostream& err, const std::filesystem::path& exeDir)
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
        spec->file = QFileInfo(QString::fromStdString(sidecar))
                         .dir()
                         .filePath(QString::fromStdString(spec->file))
                         .toStdString();
    }
    spec->sidecar = false;
    return drawFigure(*spec, dirs, out, err, exeDir);
}

} // namespace rfx
