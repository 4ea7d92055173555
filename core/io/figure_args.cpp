// roofline-cli export's options: parsed into a FigureSpec, with the same checks the sidecar reader
// makes (checkFigureSpec), and their help text.
#include "io/figure.h"

#include "io/llm_options.h"
#include "io/options.h"

#include <charconv>
#include <cmath>

namespace rfx {

bool parseExportArgs(const std::vector<std::string>& args, FigureSpec& s, std::string& error)
{
    ConfigOptions options;
    bool formatGiven = false;
    bool serving = false, servingGiven = false; // --serving, and its targets (checked together after the loop)
    ServingFigure servingTargets;
    // A language model's figure: its options (--batch is then the sequences') before the network's.
    LlmOptions llm;
    for (const std::string& a : args)
        if (splitOption(a).name == "--language-model")
            s.llm = LlmWork {};
    for (size_t i = 0; i < args.size(); ++i) {
        if (s.llm) {
            const OptionStatus st = applyLlmOption(args, i, llm, error);
            if (st == OptionStatus::Error)
                return false;
            if (st == OptionStatus::Consumed)
                continue;
        }
        const std::string given = splitOption(args[i]).name;
        const OptionStatus st = applyConfigOption(args, i, options, error);
        if (st == OptionStatus::Error)
            return false;
        if (st == OptionStatus::Consumed) {
            if (s.llm && given != "--device") {
                error = given
                    + ": a network's option; a language model's figure takes roofline-cli llm's options "
                      "(--prompt, --generate, --context, --batch, --weights-bits, --kv-bits, --act-bits, ...)";
                return false;
            }
            continue;
        }
        const SplitOption split = splitOption(args[i]);
        const std::string arg = split.name; // lambdas capture it: no structured binding (clang 14)
        const bool hasInline = split.value.has_value();
        std::string value = split.value.value_or("");
        auto takeValue = [&]() -> bool {
            if (hasInline)
                return true;
            if (i + 1 >= args.size()) {
                error = arg + ": missing value";
                return false;
            }
            value = args[++i];
            return true;
        };
        auto takeNumber = [&](double& out) -> bool {
            if (!takeValue())
                return false;
            if (auto v = parseDecimal(value)) {
                out = *v;
                return true;
            }
            error = arg + ": expected a number, got '" + value + "'";
            return false;
        };
        auto takeInt = [&](int& out) -> bool {
            double v = 0;
            if (!takeNumber(v))
                return false;
            if (v != std::floor(v) || std::fabs(v) > 1e6) {
                error = arg + ": expected a whole number, got '" + value + "'";
                return false;
            }
            out = int(v);
            return true;
        };
        if (arg == "--png" || arg == "--svg" || arg == "--pdf") {
            if (formatGiven) {
                error = "give one of --png, --svg or --pdf";
                return false;
            }
            formatGiven = true;
            s.format = arg == "--png" ? FigureSpec::Format::Png
                                      : (arg == "--svg" ? FigureSpec::Format::Svg : FigureSpec::Format::Pdf);
            if (!takeValue())
                return false;
            s.file = value;
        } else if (arg == "--width-in") {
            if (!takeNumber(s.widthIn))
                return false;
        } else if (arg == "--height-in") {
            if (!takeNumber(s.heightIn))
                return false;
        } else if (arg == "--dpi") {
            if (!takeNumber(s.dpi))
                return false;
        } else if (arg == "--width-px") {
            if (!takeInt(s.widthPx))
                return false;
        } else if (arg == "--height-px") {
            if (!takeInt(s.heightPx))
                return false;
        } else if (arg == "--tick-style") {
            if (!takeValue())
                return false;
            if (value != "plain" && value != "power") {
                error = "--tick-style: expected plain or power, got '" + value + "'";
                return false;
            }
            s.powerTicks = value == "power";
        } else if (arg == "--measurements") {
            if (!takeValue())
                return false;
            s.measurements = value;
        } else if (arg == "--calibration") {
            if (!takeValue())
                return false;
            s.calibration = value;
        } else if (arg == "--measured-device") {
            if (!takeValue())
                return false;
            s.measuredDevice = value;
        } else if (arg == "--language-model") {
            if (!takeValue())
                return false;
            s.llm->model = value;
        } else if (arg == "--phase") {
            if (!takeValue())
                return false;
            const auto phase = parseLlmPhase(value);
            if (!s.llm || !phase) {
                error = s.llm ? "--phase: expected decode, prefill or both, got '" + value + "'"
                              : "--phase: only with --language-model";
                return false;
            }
            s.llm->phase = *phase;
        } else if (arg == "--sweep") {
            if (!takeValue())
                return false;
            s.sweep = parseEnum(kLlmSweepAxisWords, value);
            if (!s.llm || !s.sweep) {
                error = s.llm ? "--sweep: expected context or batch, got '" + value + "'"
                              : "--sweep: only with --language-model";
                return false;
            }
        } else if (arg == "--ttft" || arg == "--tpot") {
            if (!takeValue())
                return false;
            const std::optional<double> t
                = value == "none" || value == "0" ? std::optional<double>(0) : parseDuration(value);
            if (!t || *t > (arg == "--ttft" ? 3600 : 60)) {
                error = arg + " " + value + ": give a time above 0 (1s, 200ms, 0.05) or none";
                return false;
            }
            (arg == "--ttft" ? servingTargets.ttft : servingTargets.tpot) = *t;
            servingGiven = true;
        } else if (arg == "--users") {
            if (!takeInt(servingTargets.users))
                return false;
            if (servingTargets.users < 0) {
                error = "--users: give the users served at once, 0 (no load) or more";
                return false;
            }
            servingGiven = true;
        } else if (arg == "--top") {
            if (!takeInt(s.filter.topN))
                return false;
        } else if (arg == "--overlay" || arg == "--transparent" || arg == "--no-caption" || arg == "--sidecar"
            || arg == "--only-convolutions" || arg == "--shared-axes" || arg == "--serving") {
            if (hasInline) {
                error = arg + " takes no value";
                return false;
            }
            if (arg == "--overlay")
                s.overlay = true;
            else if (arg == "--shared-axes")
                s.sharedAxes = true;
            else if (arg == "--transparent")
                s.transparent = true;
            else if (arg == "--no-caption")
                s.caption = false;
            else if (arg == "--sidecar")
                s.sidecar = true;
            else if (arg == "--serving")
                serving = true;
            else
                s.filter.convolutionsOnly = true;
        } else {
            error = "export: unknown option '" + args[i] + "'";
            return false;
        }
    }
    if (!formatGiven) {
        error = "export: give the output as --png FILE, --svg FILE or --pdf FILE";
        return false;
    }
    if ((serving || servingGiven) && (!s.llm || !serving || s.sweep)) {
        error = !serving ? "--ttft, --tpot and --users: the serving plan's targets: add --serving"
            : !s.llm     ? "--serving: only with --language-model (the model served)"
                         : "--serving and --sweep: give one figure";
        return false;
    }
    if (serving)
        s.serving = servingTargets;
    s.config = options.config;
    s.devices = !options.devices.empty() ? options.devices
        : s.llm                          ? std::vector<std::string> { "h100-sxm" } // roofline-cli llm's default
                                         : std::vector<std::string> { "rtx-2060-super" };
    if (s.llm) {
        if (s.llm->model.empty()) {
            error
                = "--language-model: missing value (a built-in language model, config.json, a directory, a .gguf file)";
            return false;
        }
        if (!s.measurements.empty() || !s.calibration.empty()) {
            error = std::string(s.measurements.empty() ? "--calibration" : "--measurements")
                + ": measured and calibrated rows are a network's; a language model's figure draws its bounds";
            return false;
        }
        s.llm->settings = llm.settings;
        if (!llm.weightsGiven)
            s.llm->settings.weightBits = 0; // as the file stores them; 16 for a model without tensor types
        if (auto e = validateLlmSettings(s.llm->settings)) {
            error = *e;
            return false;
        }
    }
    if (auto err = checkFigureSpec(s)) {
        error = *err;
        return false;
    }
    return true;
}

std::string exportOptionsHelp()
{
    return "  --png FILE | --svg FILE | --pdf FILE   output format and file\n"
           "  --width-in W [--height-in H]  physical size in inches (default 7 wide; height follows)\n"
           "  --dpi D                    raster resolution, recorded in the PNG (default 300)\n"
           "  --width-px W --height-px H exact pixel size instead of inches\n"
           "  --overlay                  all devices on one chart (default: one chart per device)\n"
           "  --shared-axes              one chart per device, all with the same axes and unit\n"
           "  --tick-style plain|power   tick labels as plain numbers (default) or powers of ten\n"
           "  --measurements FILE        measured layer times drawn beside the model (CSV, ncu CSV, trace)\n"
           "  --measured-device ID       the device they were measured on (default: the first)\n"
           "  --calibration CAL.json     that device's times calibrated (roofline-cli calibrate): its points at\n"
           "                             the calibrated rate, the caption stamped\n"
           "  --only-convolutions, --top N   the layer filters of the window\n"
           "  --transparent              no background\n"
           "  --no-caption               no caption line under the figure\n"
           "  --sidecar                  also write FILE.json to reproduce the figure\n"
           "  --language-model NAME|FILE a language model's phase in place of a network (roofline-cli llm's\n"
           "                             models and options: --prompt, --generate, --batch, --kv-bits, ...)\n"
           "  --phase decode|prefill|both the phase whose rows are drawn; both: the prefill's as open marks\n"
           "                             (default: decode)\n"
           "  --sweep context|batch      with --language-model: tokens/s against the context or the batch per\n"
           "                             device (roofline-cli llm --sweep) in place of the roofline\n"
           "  --serving [--ttft T] [--tpot T] [--users N]\n"
           "                             with --language-model: its serving plan on the devices (roofline-cli\n"
           "                             plan's fronts, the best within the targets ringed; default 1s, 50ms)\n";
}

} // namespace rfx
