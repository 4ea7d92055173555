#pragma once

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

} // namespace rfx
