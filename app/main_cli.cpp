// roofline-cli: the headless tool. All logic lives in cli.cpp so that tests can run it in-process.
#include "cli.h"
#ifdef ROOFLINE_HAVE_EXPORT
#include "cli_export.h"
#endif

#include <filesystem>
#include <iostream>
#include <system_error>

int main(int argc, char** argv)
{
#ifdef ROOFLINE_HAVE_EXPORT
    rfx::registerExportCommands();
#endif
    std::vector<std::string> args(argv + 1, argv + argc);
    std::error_code ec;
    std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (ec)
        exe = std::filesystem::absolute(argv[0], ec);
    try {
        return rfx::runCli(args, std::cout, std::cerr, exe.parent_path());
    } catch (const std::exception& e) {
        std::cerr << "roofline-cli: internal error: " << e.what() << "\n";
        return rfx::ExitFailure;
    }
}
