#pragma once

#include "devices/device_loader.h"
#include "model/config.h"

#include <filesystem>
#include <iosfwd>
#include <string>
#include <vector>

namespace rfx {

/// Exit codes of roofline-cli.
enum ExitCode { ExitOk = 0, ExitFailure = 1, ExitUsage = 2 };

/// Runs roofline-cli with `args` (without the program name). Output goes to `out`, errors and
/// warnings to `err`. `executableDir` locates the installed device folder.
int runCli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
    const std::filesystem::path& executableDir);

using CliCommand = int (*)(const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
    const std::filesystem::path& executableDir);

/// One subcommand, as the usage, the help and `roofline-cli NAME --help` show it. Adding a command
/// is one entry: the built-in ones are listed in cli.cpp; another library adds its own (export and
/// reproduce need Qt, the rest of the tool does not).
struct CliCommandSpec {
    std::string name;
    CliCommand run = nullptr;
    std::vector<std::string> usage; ///< each a line after "roofline-cli "
    std::string summary; ///< one paragraph: what it does (wrapped by the help)
    std::string options; ///< its own options, formatted as the help shows them ("  --x    what\n")
    bool configOptions = false; ///< also takes the configuration options (core/io/options.h)
    bool exportOptions = false; ///< also takes the export options (core/io/figure.h)
};
void registerCliCommand(CliCommandSpec spec);

/// Says what was wrong, then the usage; returns ExitUsage.
int usageError(std::ostream& err, const std::string& message);

/// "roofline-cli: impossible configuration: WHY", or "roofline-cli: cannot use the model file: FILE: WHY"
/// when the error is the network file's (an ONNX or JSON model that cannot be read or analysed).
std::string configFailure(const Config& config, const std::string& error);

/// Takes every "--devices-dir DIR" out of `args`; false and `error` when DIR is missing.
bool takeDevicesDirs(std::vector<std::string>& args, std::vector<std::filesystem::path>& dirs, std::string& error);

/// Loads the shipped, extra and user device folders; prints file problems to `err`.
DeviceLibrary loadCliDevices(
    const std::vector<std::filesystem::path>& extraDirs, const std::filesystem::path& executableDir, std::ostream& err);

/// Looks up `ids` ("all" = every device) in `library`; false after printing the unknown id and the known ones.
bool resolveDevices(
    const DeviceLibrary& library, const std::vector<std::string>& ids, std::vector<Device>& out, std::ostream& err);

} // namespace rfx
