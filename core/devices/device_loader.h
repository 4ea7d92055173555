#pragma once

#include "base/diagnostic.h"
#include "devices/device.h"

#include <filesystem>
#include <optional>
#include <string_view>
#include <vector>

namespace rfx {

/// A parsed device, or nothing and the reasons why. Never throws.
struct DeviceLoad {
    std::optional<Device> device;
    std::vector<Diagnostic> diagnostics; ///< errors (device refused) and warnings (device kept)
};

/// Validates every field of a device JSON document. `file` names it in diagnostics.
DeviceLoad parseDevice(std::string_view json, const std::string& file);

/// Reads and parses one device file.
DeviceLoad loadDeviceFile(const std::filesystem::path& path);

/// All devices of several folders. A later folder overrides an earlier one by id (the user's folder
/// comes last); a bad file yields diagnostics and the others still load. Devices are sorted by kind
/// (GPUs first) and name.
struct DeviceLibrary {
    std::vector<Device> devices;
    std::vector<Diagnostic> diagnostics;
    const Device* find(std::string_view id) const;
    /// The devices `ids` name, in order, each once; "all" names every device of the library. The
    /// ids it does not know are listed apart (the CLI refuses them, the window says it ignored them).
    struct Choice {
        std::vector<Device> devices;
        std::vector<std::string> unknown;
    };
    Choice choose(const std::vector<std::string>& ids) const;
};
DeviceLibrary loadDeviceLibrary(const std::vector<std::filesystem::path>& folders);

/// The shipped device folder: $ROOFLINE_DEVICES_DIR if set, else the installed share folder next to
/// the executable (`<prefix>/share/roofline-explorer/devices`), else the source tree's devices/.
std::filesystem::path shippedDeviceDir(const std::filesystem::path& executableDir);

/// The user's device folder: $XDG_DATA_HOME/roofline-explorer/devices (default ~/.local/share/...);
/// on Windows %APPDATA%\roofline-explorer\devices; on macOS ~/Library/Application Support/...
std::filesystem::path userDeviceDir();

/// Where devices are looked for, in order (a later folder overrides an earlier one by id): the
/// shipped folder, then the user's folder, then `extraDirs` (--devices-dir): a folder named for
/// one run wins over the user's own files (a measured set's this-machine.json over the one
/// `measure` wrote), and those over the shipped ones. The CLI and the window both load from this list.
std::vector<std::filesystem::path> deviceSearchPath(
    const std::filesystem::path& executableDir, const std::vector<std::filesystem::path>& extraDirs = {});

} // namespace rfx
