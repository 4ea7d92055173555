#pragma once

#include "model/config.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace rfx {

/// The configuration options shared by roofline-cli and the GUI (--image, --bits, --device, ...).
/// Both accept "--name value" and "--name=value".
struct ConfigOptions {
    Config config;
    std::vector<std::string> devices; ///< --device ID, repeatable; "all" selects every device
    /// Set once --image, --height, --width, --in-channels or --classes was given: --model then keeps
    /// them instead of applying the model's published input (224 x 224 x 3, 1000 classes, ...).
    bool inputGiven = false;
    /// Set once --bits was given: an ONNX --model then keeps it instead of "as in the file".
    bool bitsGiven = false;
};

enum class OptionStatus {
    NotConfigOption, ///< args[i] is not one of ours; the caller handles it
    Consumed, ///< applied; i now points at the last argument used
    Error, ///< a configuration option with a bad or missing value; `error` says which and why
};

/// "0.8" or "80%" -> 80 (percent of the boost clock, whole percents); nothing if not a number.
std::optional<int> parseClockPercent(const std::string& text);
/// The whole text as an int ("12" -> 12, "-5" -> -5); nothing for "", "1.5", "12x" or an overflow.
/// The one whole-number reader of the command line and the files' options: every option that takes a
/// count reads it here (from_chars: no sign but "-", no spaces, no exponent).
std::optional<int> parseWholeNumber(std::string_view text);
/// The one decimal reader beside it: the whole text as a finite number ("0.7", "1e-3"); nothing for "",
/// "12x", "inf" or "nan".
std::optional<double> parseDecimal(std::string_view text);

/// "--name=value" -> {"--name", "value"}; anything else -> {arg, nothing}.
struct SplitOption {
    std::string name;
    std::optional<std::string> value;
};
SplitOption splitOption(const std::string& arg);

/// A NAME=VALUE option's value ("enc1.conv1=fft", "h100-sxm=2.99"): the name before the last '=',
/// never empty, and the text after it; nothing without a name and an '='.
struct Assignment {
    std::string name, value;
};
std::optional<Assignment> splitAssignment(const std::string& text);

/// Applies args[i] (and its value) to `options`.
OptionStatus applyConfigOption(
    const std::vector<std::string>& args, std::size_t& i, ConfigOptions& options, std::string& error);

/// The command-line arguments that reproduce `config` through applyConfigOption (every option,
/// defaults included), e.g. {"--height", "572", "--width", "572", ...}. Used to store and restore
/// configurations and to print the command behind a figure.
std::vector<std::string> configToArgs(const Config& config);

/// Parses a whole argument list of configuration options; false and `error` on the first problem.
bool parseConfigArgs(const std::vector<std::string>& args, ConfigOptions& options, std::string& error);

/// A configuration stored as its argument list (sessions and figure sidecars): parsed and validated,
/// or nothing and `error` prefixed with "config_args: ".
std::optional<Config> configFromArgList(const std::vector<std::string>& args, std::string& error);

/// Help text for the configuration options, one per line, indented by two spaces.
std::string configOptionsHelp();

} // namespace rfx
