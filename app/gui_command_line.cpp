#include "gui_command_line.h"

#include "base/version.h"

#include <QFileInfo>
#include <QRegularExpression>

namespace rfx {

GuiOptions parseGuiOptions(const QStringList& arguments)
{
    GuiOptions o;
    std::vector<std::string> args;
    for (const QString& a : arguments)
        args.push_back(a.toStdString());
    for (size_t i = 0; i < args.size(); ++i) {
        std::string error;
        const OptionStatus s = applyConfigOption(args, i, o.config, error);
        if (s == OptionStatus::Error) {
            o.error = QString::fromStdString(error);
            return o;
        }
        if (s == OptionStatus::Consumed) {
            o.configGiven = true;
            continue;
        }
        QString arg = QString::fromStdString(args[i]);
        QString value;
        bool hasValue = false;
        if (arg.startsWith(QLatin1String("--")) && arg.contains(QLatin1Char('='))) {
            value = arg.section(QLatin1Char('='), 1);
            arg = arg.section(QLatin1Char('='), 0, 0);
            hasValue = true;
        }
        auto needValue = [&]() -> bool {
            if (hasValue)
                return true;
            if (i + 1 >= args.size()) {
                o.error = arg + QStringLiteral(": missing value");
                return false;
            }
            value = QString::fromStdString(args[++i]);
            return true;
        };
        if (arg == QLatin1String("--help") || arg == QLatin1String("-h")) {
            o.help = true;
        } else if (arg == QLatin1String("--version")) {
            o.version = true;
        } else if (arg == QLatin1String("--overlay")) {
            o.overlay = true;
        } else if (arg == QLatin1String("--presentation")) {
            o.presentation = true;
        } else if (arg == QLatin1String("--preset")) {
            if (!needValue())
                return o;
            const QStringList names { QStringLiteral("classic"), QStringLiteral("study-2022"),
                QStringLiteral("energy-study") };
            o.preset = int(names.indexOf(value));
            if (o.preset < 0) {
                o.error = QStringLiteral("--preset: expected classic, study-2022 or energy-study, got '%1'").arg(value);
                return o;
            }
        } else if (arg == QLatin1String("--measurements")) {
            if (!needValue())
                return o;
            o.measurements = value;
        } else if (arg == QLatin1String("--calibration")) {
            if (!needValue())
                return o;
            o.calibration = value;
        } else if (arg == QLatin1String("--no-restore")) {
            o.noRestore = true;
        } else if (arg == QLatin1String("--screenshot")) {
            if (!needValue())
                return o;
            o.screenshot = value;
        } else if (arg == QLatin1String("--devices-dir")) {
            if (!needValue())
                return o;
            o.deviceDirs.append(value);
        } else if (arg == QLatin1String("--size")) {
            if (!needValue())
                return o;
            static const QRegularExpression re(QStringLiteral("^(\\d{2,5})x(\\d{2,5})$"));
            const auto m = re.match(value);
            if (!m.hasMatch() || m.captured(1).toInt() < 320 || m.captured(2).toInt() < 240
                || m.captured(1).toInt() > 10000 || m.captured(2).toInt() > 10000) {
                o.error = QStringLiteral("--size: expected WIDTHxHEIGHT between 320x240 and 10000x10000, got '%1'")
                              .arg(value);
                return o;
            }
            o.size = QSize(m.captured(1).toInt(), m.captured(2).toInt());
        } else if (!arg.startsWith(QLatin1Char('-'))
            && (arg.endsWith(QLatin1String(".onnx")) || arg.endsWith(QLatin1String(".gguf"))
                || arg.endsWith(QLatin1String(".safetensors"))
                || (arg.endsWith(QLatin1String(".json")) && !arg.endsWith(QLatin1String(".rfx.json"))))) {
            // roofline-explorer model.onnx (or a language model's .gguf, .safetensors, config.json): as
            // --model, with the file's absolute path.
            std::vector<std::string> model { "--model", QFileInfo(arg).absoluteFilePath().toStdString() };
            size_t k = 0;
            std::string why;
            if (applyConfigOption(model, k, o.config, why) == OptionStatus::Error) {
                o.error = QString::fromStdString(why);
                return o;
            }
            o.configGiven = true;
        } else {
            o.error = arg.startsWith(QLatin1Char('-'))
                ? QStringLiteral("unknown option '%1'").arg(arg)
                : QStringLiteral(
                    "'%1': the window opens model files (.onnx, .json, .gguf, .safetensors) given on the command line")
                      .arg(arg);
            return o;
        }
    }
    return o;
}

QString guiHelpText()
{
    return QStringLiteral("roofline-explorer %1: where a convolutional network's time goes on GPUs and CPUs.\n\n"
                          "usage: roofline-explorer [FILE.onnx|FILE.json] [configuration options] [window options]\n\n"
                          "FILE: your own model, an ONNX file or a JSON layer list (as --model FILE).\n\n"
                          "Configuration options (as roofline-cli analyze):\n%2\n"
                          "Window options:\n"
                          "  --overlay                  all devices on one chart\n"
                          "  --presentation             presentation mode: type 1.5x larger (View menu)\n"
                          "  --preset NAME              start on a preset (Presets menu): classic, study-2022, or\n"
                          "                             energy-study (opens the energy and tuning view)\n"
                          "  --measurements FILE        import measured timings (plain CSV, ncu --csv, PyTorch trace)\n"
                          "  --calibration CAL.json     open a calibration and show calibrated times (View menu)\n"
                          "  --screenshot FILE.png      render the window for the given options to FILE.png and exit\n"
                          "  --size WxH                 window size (screenshots default to 1600x1000)\n"
                          "  --devices-dir DIR          also load device files from DIR\n"
                          "  --no-restore               ignore the configuration and layout saved last time\n"
                          "  --help, --version\n")
        .arg(QString::fromLatin1(kVersion), QString::fromStdString(configOptionsHelp()));
}

} // namespace rfx
