// roofline-cli devices: the device library (shipped, --devices-dir and user devices).
#include "cli_commands.h"

#include "devices/device_loader.h"
#include "io/report_writer.h"

namespace rfx {

int runDevices(
    const std::vector<std::string>& args, std::ostream& out, std::ostream& err, const std::filesystem::path& exeDir)
{
    CommonOptions common;
    for (size_t i = 0; i < args.size(); ++i) {
        std::string error;
        const OptionStatus s = applyCommonOption(args, i, common, error);
        if (s == OptionStatus::Error)
            return usageError(err, error);
        if (s == OptionStatus::NotConfigOption)
            return usageError(err, "devices: unknown option '" + args[i] + "'");
    }
    if (common.format != "table" && common.format != "json")
        return usageError(err, "--format: expected table or json for 'devices', got '" + common.format + "'");
    const DeviceLibrary lib = loadLibrary(common, exeDir, err);
    if (lib.devices.empty()) {
        err << "roofline-cli: no device files found in " << shippedDeviceDir(exeDir).string() << "\n";
        return ExitFailure;
    }
    out << (common.format == "json" ? devicesToJson(lib.devices) : devicesToTable(lib.devices));
    return ExitOk;
}

} // namespace rfx
